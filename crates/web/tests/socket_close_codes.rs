//! A room socket and the lobby socket answer a frame the WebSocket layer refuses with the
//! close code RFC 6455 gives it, as a close frame before the connection ends: 1009 for a
//! message too big (one frame or fragments), 1007 for text that is not UTF-8, 1002 for an
//! unmasked frame. The frames are written by hand on a raw TCP connection, as a hostile
//! client would.

mod rooms_support;

use qi_web::rooms::{Rooms, RoomsConfig};
use rooms_support::{create, start};
use serde_json::json;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const TEXT: u8 = 0x1;
const CONTINUATION: u8 = 0x0;

/// A frame as a client writes it: masked unless `masked` is false.
fn frame(fin: bool, opcode: u8, payload: &[u8], masked: bool) -> Vec<u8> {
    let mut out = vec![if fin { 0x80 } else { 0 } | opcode];
    let mask_bit = if masked { 0x80 } else { 0 };
    match payload.len() {
        n if n < 126 => out.push(mask_bit | n as u8),
        n if n <= 0xFFFF => {
            out.push(mask_bit | 126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(mask_bit | 127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    if masked {
        let key = [0x12, 0x34, 0x56, 0x78];
        out.extend_from_slice(&key);
        out.extend(payload.iter().enumerate().map(|(i, b)| b ^ key[i % 4]));
    } else {
        out.extend_from_slice(payload);
    }
    out
}

/// Opens a WebSocket on `path` by hand; the connection after the 101 answer.
async fn open(addr: &str, path: &str) -> TcpStream {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    while !answer.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8];
        tcp.read_exact(&mut byte).await.unwrap();
        answer.push(byte[0]);
    }
    assert!(answer.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&answer));
    tcp
}

/// Reads the server's frames until its close frame; its code, or `None` when the connection
/// ended (or was reset) without one.
async fn close_code(tcp: &mut TcpStream) -> Option<u16> {
    let read = async {
        loop {
            let mut head = [0u8; 2];
            tcp.read_exact(&mut head).await.ok()?;
            let len = match head[1] & 0x7F {
                126 => {
                    let mut n = [0u8; 2];
                    tcp.read_exact(&mut n).await.ok()?;
                    u16::from_be_bytes(n) as usize
                }
                127 => {
                    let mut n = [0u8; 8];
                    tcp.read_exact(&mut n).await.ok()?;
                    u64::from_be_bytes(n) as usize
                }
                n => n as usize,
            };
            let mut payload = vec![0u8; len];
            tcp.read_exact(&mut payload).await.ok()?;
            if head[0] & 0x0F == 0x8 {
                return Some(u16::from_be_bytes([payload[0], payload[1]]));
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), read).await.expect("the server neither closed nor ended")
}

/// Each hostile input with the close code it must get.
fn cases() -> Vec<(&'static str, Vec<u8>, u16)> {
    let ping = br#"{"type":"ping"}"#;
    let mut fragmented = frame(false, TEXT, &[b' '; 2048], true);
    fragmented.extend(frame(false, CONTINUATION, &[b' '; 2048], true));
    fragmented.extend(frame(true, CONTINUATION, &[b' '; 2048], true));
    vec![
        ("a 6 KiB text frame", frame(true, TEXT, &[b' '; 6 * 1024], true), 1009),
        ("a 6 KiB message in three fragments", fragmented, 1009),
        ("text that is not UTF-8", frame(true, TEXT, b"\"\xff\xfe\"", true), 1007),
        ("an unmasked frame", frame(true, TEXT, ping, false), 1002),
    ]
}

#[tokio::test]
async fn a_room_socket_closes_a_bad_frame_with_its_code() {
    let addr = start(Rooms::in_memory(RoomsConfig::default()).unwrap()).await;
    let room = create(&addr, &json!({})).await.unwrap();
    let id = room["room"].as_str().unwrap();
    for (what, bytes, code) in cases() {
        let mut tcp = open(&addr, &format!("/api/rooms/{id}/ws")).await;
        tcp.write_all(&bytes).await.unwrap();
        assert_eq!(close_code(&mut tcp).await, Some(code), "{what}");
    }
}

#[tokio::test]
async fn the_lobby_socket_closes_a_bad_frame_with_its_code() {
    let addr = start(Rooms::in_memory(RoomsConfig::default()).unwrap()).await;
    for (what, bytes, code) in cases() {
        let mut tcp = open(&addr, "/api/lobby/ws").await;
        tcp.write_all(&bytes).await.unwrap();
        assert_eq!(close_code(&mut tcp).await, Some(code), "{what}");
    }
}
