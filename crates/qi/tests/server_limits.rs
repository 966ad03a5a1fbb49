//! The real `qi serve` on loopback, as a hostile client would try it: idle, kept-alive and
//! slowloris connections are cut in the stated time, each by its own timer, a client that never
//! reads its answers loses its connection, new clients are served while thousands of idle
//! sockets are held, the connection caps (in all and per address) answer 503 instead of
//! hanging, and SIGTERM finishes the request in flight and exits within the grace period
//! although a client stalls.
//!
//! Each test starts its own server with short timeouts (the defaults are 5 to 30 s) and takes
//! a few seconds.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

struct Server {
    child: Child,
    addr: SocketAddr,
    // Each server has its own rooms folder (the default one is locked by whoever holds it).
    _data: tempfile::TempDir,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let data = tempfile::tempdir().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_qi"))
            .args(["serve", "--addr", "127.0.0.1:0", "--data"])
            .arg(data.path())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("qi serve starts");
        // The address is on the line that says where it serves (the rooms' folder comes first).
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        while !line.contains("http://") {
            line.clear();
            assert!(out.read_line(&mut line).unwrap() > 0, "qi serve ended before saying its address");
        }
        let addr = line.split("http://").nth(1).and_then(|s| s.split('/').next()).expect("the address line");
        Server { child, addr: addr.parse().unwrap(), _data: data }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
        stream
    }

    /// Sends SIGTERM and waits (at most `limit`) for the process to end; returns how long it took.
    fn terminate(&mut self, limit: Duration) -> Duration {
        let started = Instant::now();
        // SAFETY: kill only sends a signal to our own child process.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        while started.elapsed() < limit {
            if self.child.try_wait().unwrap().is_some() {
                return started.elapsed();
            }
            thread::sleep(Duration::from_millis(20));
        }
        panic!("qi serve still running {limit:?} after SIGTERM");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads until the server closes the connection; returns what it sent and when it closed.
fn read_to_close(mut stream: TcpStream, since: Instant) -> (String, Duration) {
    let mut text = Vec::new();
    let _ = stream.read_to_end(&mut text);
    (String::from_utf8_lossy(&text).into_owned(), since.elapsed())
}

fn get(server: &Server, path: &str) -> (String, Duration) {
    let started = Instant::now();
    let mut stream = server.connect();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").unwrap();
    read_to_close(stream, started)
}

/// Sends a GET on a kept-alive connection and reads its answer (head and `Content-Length`
/// body), leaving the connection open; returns the status line.
fn exchange(stream: &mut TcpStream, path: &str) -> String {
    write!(stream, "GET {path} HTTP/1.1\r\nHost: test\r\n\r\n").unwrap();
    let mut reader = BufReader::new(&*stream);
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap();
            }
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).unwrap();
    assert!(reader.buffer().is_empty(), "nothing after the answer");
    status.trim().to_string()
}

/// Opens `n` connections, then one more, which must get a 503 saying `message`; returns the
/// connections held and how long the refusal took.
fn refused_beyond(server: &Server, n: usize, message: &str) -> (Vec<TcpStream>, Duration) {
    let held: Vec<TcpStream> = (0..n).map(|_| server.connect()).collect();
    // Let the server accept them all before the next one comes.
    thread::sleep(Duration::from_millis(300));
    let (text, took) = get(server, "/xq");
    assert!(text.starts_with("HTTP/1.1 503"), "{text}");
    assert!(text.contains(message), "{text}");
    (held, took)
}

fn assert_between(what: &str, took: Duration, low: f64, high: f64) {
    let s = took.as_secs_f64();
    assert!((low..=high).contains(&s), "{what}: closed after {s:.2} s, expected {low} to {high} s");
}

#[test]
fn idle_slowloris_kept_alive_and_slow_body_connections_are_cut_in_time() {
    let server = Server::start(&["--header-timeout", "2", "--idle-timeout", "2", "--body-timeout", "2"]);
    let started = Instant::now();
    let idle = server.connect();
    let mut slow = server.connect();
    let slowloris = thread::spawn(move || {
        // A header byte every 300 ms: the header never completes in 2 s.
        for &byte in b"GET /xq HTTP/1.1\r\nHost: test\r\nX-Padding: aaaaaaaaaaaaaaaa\r\n" {
            if slow.write_all(&[byte]).is_err() {
                break;
            }
            thread::sleep(Duration::from_millis(300));
        }
        read_to_close(slow, started)
    });
    let mut kept = server.connect();
    write!(kept, "GET /api/huarong/classics HTTP/1.1\r\nHost: test\r\n\r\n").unwrap();
    let kept_started = Instant::now();
    let mut short_body = server.connect();
    write!(short_body, "POST /api/xq/game HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n").unwrap();
    write!(short_body, "Content-Length: 100\r\n\r\n{{\"moves\"").unwrap();
    let body_started = Instant::now();

    let (text, took) = read_to_close(idle, started);
    assert!(text.is_empty(), "an idle connection gets no answer: {text}");
    assert_between("idle", took, 1.8, 3.5);
    let (_, took) = slowloris.join().unwrap();
    assert_between("slowloris", took, 1.8, 3.5);
    let (text, took) = read_to_close(kept, kept_started);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert_between("kept alive, then idle", took, 1.8, 3.5);
    let (text, took) = read_to_close(short_body, body_started);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("did not arrive within 2 s"), "{text}");
    assert_between("short body", took, 1.8, 3.5);
}

#[test]
fn the_keep_alive_idle_timeout_is_its_own_timer() {
    // Idle longer than the header timeout: a kept-alive connection outlives the header timeout.
    let patient = Server::start(&["--header-timeout", "1", "--idle-timeout", "3"]);
    let kept_longer = thread::spawn({
        let mut stream = patient.connect();
        move || {
            assert_eq!(exchange(&mut stream, "/api/huarong/classics"), "HTTP/1.1 200 OK");
            thread::sleep(Duration::from_secs(2));
            assert_eq!(exchange(&mut stream, "/api/huarong/classics"), "HTTP/1.1 200 OK", "still open after 2 s");
            read_to_close(stream, Instant::now())
        }
    });
    // Idle shorter than the header timeout: a fresh connection still gets the header timeout,
    // a kept-alive one the idle timeout, and a next head once begun the header timeout again.
    let brisk = Server::start(&["--header-timeout", "3", "--idle-timeout", "1"]);
    let started = Instant::now();
    let fresh = brisk.connect();
    let mut kept = brisk.connect();
    let mut begun = brisk.connect();
    assert_eq!(exchange(&mut kept, "/api/huarong/classics"), "HTTP/1.1 200 OK");
    let kept_idle = thread::spawn(move || read_to_close(kept, Instant::now()));
    assert_eq!(exchange(&mut begun, "/api/huarong/classics"), "HTTP/1.1 200 OK");
    thread::sleep(Duration::from_millis(500));
    begun.write_all(b"GET /xq HTTP/1.1\r\nHost: te").unwrap();
    let head_started = Instant::now();

    let (text, took) = kept_idle.join().unwrap();
    assert!(text.is_empty(), "{text}");
    assert_between("kept alive with an idle timeout of 1 s", took, 0.8, 2.0);
    let (text, took) = read_to_close(begun, head_started);
    assert!(text.is_empty(), "{text}");
    assert_between("a next head begun, with a header timeout of 3 s", took, 2.7, 4.5);
    let (text, took) = read_to_close(fresh, started);
    assert!(text.is_empty(), "{text}");
    assert_between("fresh, with a header timeout of 3 s", took, 2.7, 4.5);
    let (text, took) = kept_longer.join().unwrap();
    assert!(text.is_empty(), "{text}");
    assert_between("kept alive with an idle timeout of 3 s", took, 2.7, 4.5);
}

#[test]
fn a_client_that_never_reads_its_answers_is_cut_after_the_write_timeout() {
    // One connection in all, so the server's cap shows when the reader-less one is gone.
    let server = Server::start(&["--write-timeout", "2", "--max-connections", "1"]);
    let mut greedy = server.connect();
    // 1,000 pipelined requests for the 40 KB script: 40 MB, far more than the socket buffers.
    let requests = "GET /assets/xq.js HTTP/1.1\r\nHost: test\r\n\r\n".repeat(1000);
    greedy.write_all(requests.as_bytes()).unwrap();
    let stalled = Instant::now();
    let served = loop {
        let (text, took) = get(&server, "/api/huarong/classics");
        if text.starts_with("HTTP/1.1 200") {
            break stalled.elapsed();
        }
        assert!(text.starts_with("HTTP/1.1 503"), "{text}");
        assert!(stalled.elapsed() < Duration::from_secs(10), "the connection that reads nothing is never cut");
        thread::sleep(Duration::from_millis(250).saturating_sub(took));
    };
    assert_between("the slot of the connection that reads nothing", served, 1.8, 4.5);
    // It was cut, not served to the end: far fewer than 1,000 answers reached it.
    greedy.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
    let mut text = Vec::new();
    let _ = greedy.read_to_end(&mut text);
    let answers = text.windows(12).filter(|w| w == b"HTTP/1.1 200").count();
    assert!(answers < 500, "{answers} answers reached a client that did not read");
}

#[test]
fn one_address_cannot_take_every_connection_slot() {
    let server = Server::start(&["--max-connections-per-address", "5"]);
    // The sixth from 127.0.0.1 is turned away at once, without waiting for a slot.
    let (mut held, took) = refused_beyond(&server, 5, "too many open connections from your address");
    assert!(took < Duration::from_millis(700), "refused after {took:?}");
    // Another address is served meanwhile (all of 127.0.0.0/8 is loopback).
    let mut other = connect_from("127.0.0.2", server.addr);
    write!(other, "GET /xq HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").unwrap();
    let (text, _) = read_to_close(other, Instant::now());
    assert!(text.starts_with("HTTP/1.1 200"), "{}", &text[..text.len().min(200)]);
    // A place freed is a place for the same address again.
    held.pop();
    thread::sleep(Duration::from_millis(200));
    let (text, _) = get(&server, "/xq");
    assert!(text.starts_with("HTTP/1.1 200"), "{}", &text[..text.len().min(200)]);
}

/// A connection to `to` from the loopback address `from`.
fn connect_from(from: &str, to: SocketAddr) -> TcpStream {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_io().build().unwrap();
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(from.parse().unwrap(), 0)).unwrap();
        socket.connect(to).await.unwrap()
    });
    let stream = stream.into_std().unwrap();
    stream.set_nonblocking(false).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    stream
}

#[test]
fn new_clients_are_served_while_two_thousand_idle_sockets_are_held() {
    // (One address holds them all here: lift its own cap.)
    let server = Server::start(&["--max-connections-per-address", "4096"]);
    let idle: Vec<TcpStream> = (0..2000).map(|_| server.connect()).collect();
    for _ in 0..20 {
        let (text, took) = get(&server, "/api/huarong/classics");
        assert!(text.starts_with("HTTP/1.1 200"), "{text}");
        assert!(took < Duration::from_secs(2), "a request took {took:?} beside 2,000 idle sockets");
    }
    drop(idle);
}

#[test]
fn past_the_connection_cap_a_client_waits_briefly_then_gets_503() {
    let server = Server::start(&["--max-connections", "20"]);
    let (mut held, took) = refused_beyond(&server, 20, "the server has too many open connections");
    assert_between("refused", took, 0.9, 2.5);

    // A slot freed while a client waits: it is served.
    let waiting = thread::spawn({
        let addr = server.addr;
        move || {
            let started = Instant::now();
            let mut stream = TcpStream::connect(addr).unwrap();
            write!(stream, "GET /xq HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").unwrap();
            read_to_close(stream, started)
        }
    });
    thread::sleep(Duration::from_millis(300));
    held.pop();
    let (text, took) = waiting.join().unwrap();
    assert!(text.starts_with("HTTP/1.1 200"), "{}", &text[..text.len().min(200)]);
    assert!(took < Duration::from_secs(1), "{took:?}");
}

#[test]
fn sigterm_finishes_the_request_in_flight_and_exits_within_the_grace_period() {
    let mut server = Server::start(&["--grace", "2"]);
    // A client that stalls in the middle of its header (the header timeout is 10 s).
    let mut stalled = server.connect();
    stalled.write_all(b"GET /xq HTTP/1.1\r\nHost: te").unwrap();
    // A request in flight: the engine thinks for 1.2 s.
    let mut busy = server.connect();
    let body = r#"{"moves":["h2e2"],"movetime_ms":1200}"#;
    write!(busy, "POST /api/xq/engine HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n").unwrap();
    write!(busy, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    let in_flight = thread::spawn(move || read_to_close(busy, Instant::now()));
    thread::sleep(Duration::from_millis(300));

    let took = server.terminate(Duration::from_secs(6));
    let (text, _) = in_flight.join().unwrap();
    assert!(text.starts_with("HTTP/1.1 200"), "the request in flight is answered: {text}");
    assert!(text.contains("bestmove"), "{text}");
    assert!(took < Duration::from_millis(2800), "exited {took:?} after SIGTERM, the grace period is 2 s");
    assert!(TcpStream::connect(server.addr).is_err(), "nothing listens after the exit");
}

#[test]
fn a_request_with_both_content_length_and_transfer_encoding_gets_400_and_a_close() {
    let server = Server::start(&[]);
    let heads =
        ["Content-Length: 2\r\nTransfer-Encoding: chunked\r\n", "Transfer-Encoding: chunked\r\nContent-Length: 2\r\n"];
    for head in heads {
        let started = Instant::now();
        let mut stream = server.connect();
        // A first, clean request on the same connection is answered as usual.
        write!(stream, "POST /api/xq/game HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n").unwrap();
        write!(stream, "Content-Length: 2\r\n\r\n{{}}").unwrap();
        write!(stream, "POST /api/xq/game HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n{head}\r\n")
            .unwrap();
        write!(stream, "2\r\n{{}}\r\n0\r\n\r\n").unwrap();
        let (text, took) = read_to_close(stream, started);
        let answers: Vec<&str> = text.match_indices("HTTP/1.1 ").map(|(i, _)| &text[i..i + 12]).collect();
        assert_eq!(answers, ["HTTP/1.1 200", "HTTP/1.1 400"], "{head:?}: {text}");
        assert!(text.contains("both Content-Length and Transfer-Encoding"), "{text}");
        assert!(took < Duration::from_secs(2), "closed after {took:?}");
    }
}
