//! The fault probe's findings (issue 23, item 11), against the real server on loopback: one
//! request-head limit however the bytes arrive; a shutdown that does not wait for a client still
//! sending its head; idle room sockets closed with 1012 before the process ends; and the room
//! messages of one address limited all its sockets together, reconnects included.

mod rooms_support;

use qi_web::rooms::{Rooms, RoomsConfig};
use qi_web::{ServerLimits, MAX_HEAD_BYTES};
use rooms_support::{create, start, Client};
use serde_json::json;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A GET whose head is `size` bytes long in all (one long header makes up the difference).
fn head_of(size: usize) -> Vec<u8> {
    let start = "GET /api/rooms/AAAAAAAAAAAAAAAA HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-Pad: ";
    let end = "\r\n\r\n";
    let pad = size - start.len() - end.len();
    format!("{start}{}{end}", "p".repeat(pad)).into_bytes()
}

/// The status the server answers `request` with, written at once or in 1 KiB pieces.
async fn status_of(addr: &str, request: &[u8], chunked: bool) -> u16 {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    if chunked {
        for piece in request.chunks(1024) {
            if stream.write_all(piece).await.is_err() {
                break;
            }
            stream.flush().await.unwrap();
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    } else {
        let _ = stream.write_all(request).await;
    }
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    let text = String::from_utf8_lossy(&answer);
    text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

#[tokio::test]
async fn one_head_limit_whether_the_head_comes_at_once_or_in_pieces() {
    let addr = start(Rooms::in_memory(RoomsConfig::default()).unwrap()).await;
    for (size, expected) in
        [(MAX_HEAD_BYTES - 512, 404), (MAX_HEAD_BYTES, 404), (MAX_HEAD_BYTES + 1, 431), (49_062, 431)]
    {
        let request = head_of(size);
        for chunked in [false, true] {
            assert_eq!(status_of(&addr, &request, chunked).await, expected, "a {size}-byte head, in pieces: {chunked}");
        }
    }
}

/// A server on a runtime (and thread) of its own, as `qi serve` runs: when `serve` returns,
/// the runtime is shut down at once, as the process would exit. Returns its address, the
/// trigger of its shutdown and the thread (ending when `serve` has returned).
fn server_on_its_own(
    config: RoomsConfig,
    grace: Duration,
) -> (String, tokio::sync::oneshot::Sender<()>, std::thread::JoinHandle<()>) {
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        runtime.block_on(async move {
            let rooms = Rooms::in_memory(config).unwrap();
            let listener = qi_web::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
            addr_tx.send(listener.local_addr().unwrap().to_string()).unwrap();
            let limits = ServerLimits { grace, ..ServerLimits::default() };
            qi_web::serve(listener, rooms, limits, async move {
                let _ = stopped.await;
            })
            .await
            .unwrap();
        });
        runtime.shutdown_background();
    });
    (addr_rx.recv().unwrap(), stop, thread)
}

#[tokio::test]
async fn a_shutdown_waits_only_for_requests_in_flight_and_closes_room_sockets_with_1012() {
    let (addr, stop, thread) = server_on_its_own(RoomsConfig::default(), Duration::from_secs(5));
    let room = create(&addr, &json!({})).await.unwrap();
    let id = room["room"].as_str().unwrap().to_string();
    let mut sockets = Vec::new();
    for i in 0..30 {
        let seat = match i {
            0 => room["seats"]["red"].as_str(),
            1 => room["seats"]["black"].as_str(),
            _ => None,
        };
        sockets.push(Client::connect(&addr, &id, seat).await.unwrap());
    }
    // A client that never finishes its request head.
    let mut slow = TcpStream::connect(&addr).await.unwrap();
    slow.write_all(b"GET /api/rooms/AAAAAAAAAAAAAAAA HTTP/1.1\r\nHost: t\r\n").await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;

    let asked = Instant::now();
    stop.send(()).unwrap();
    tokio::task::spawn_blocking(move || thread.join().unwrap()).await.unwrap();
    let took = asked.elapsed();
    assert!(took < Duration::from_secs(3), "the half-sent head does not hold the 5 s grace: {took:?}");
    // The process is gone (its runtime shut down): every idle socket got its close frame first.
    for (i, socket) in sockets.iter_mut().enumerate() {
        socket.wait = Duration::from_secs(3);
        assert_eq!(socket.closed().await.unwrap(), Some(1012), "socket {i}");
    }
    let mut rest = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(1), slow.read_to_end(&mut rest)).await;
}

#[tokio::test]
async fn reconnecting_after_each_close_does_not_beat_the_address_limit() {
    // Loopback is limited like any address (qi bench rooms turns the limit off with
    // --room-messages-per-address 0).
    let config = RoomsConfig::default();
    let (rate, burst) = (config.socket.messages_per_address, config.socket.messages_per_address * 4.0);
    let addr = start(Rooms::in_memory(config).unwrap()).await;
    let room = create(&addr, &json!({})).await.unwrap();
    let id = room["room"].as_str().unwrap().to_string();
    let started = Instant::now();
    let mut answered = 0u32;
    let mut closed_1008 = 0u32;
    // Each socket sends well under its own burst (20), then closes and a new one comes.
    while started.elapsed() < Duration::from_secs(2) {
        let mut client = Client::connect(&addr, &id, None).await.unwrap();
        for _ in 0..10 {
            client.send(json!({"type": "ping"})).await.unwrap();
        }
        for _ in 0..10 {
            match client.next().await {
                Ok(Some(frame)) if frame["type"] == "pong" => answered += 1,
                Ok(Some(_)) => {}
                _ => {
                    closed_1008 += 1;
                    break;
                }
            }
        }
    }
    let allowed = burst + rate * started.elapsed().as_secs_f64();
    assert!(f64::from(answered) <= allowed + 1.0, "{answered} answered, at most {allowed} allowed");
    assert!(closed_1008 > 0, "the address ran out of allowance");
}
