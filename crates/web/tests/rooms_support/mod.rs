//! Shared by the room tests: a tiny HTTP client, a WebSocket client that waits for the state it
//! expects, and a server on a free loopback port.
#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub const WAIT: Duration = Duration::from_secs(10);

/// A position three plies from mate: d6d7 a3a2 i0i9 mates.
pub const MATE_IN_TWO: &str = "3k5/9/9/3P5/9/9/p8/9/9/4K3R w - - 0 1";

/// Starts the app with `rooms` on a free loopback port; returns `127.0.0.1:port`.
pub async fn start(rooms: qi_web::rooms::Rooms) -> String {
    let listener = qi_web::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(qi_web::serve(listener, rooms, qi_web::ServerLimits::default(), std::future::pending::<()>()));
    addr
}

/// One HTTP/1.1 request; returns the status and the body as JSON (or a JSON string).
pub async fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut raw)).await.unwrap().unwrap();
    let text = String::from_utf8_lossy(&raw);
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.to_string())))
}

/// `POST /api/rooms` that must succeed.
pub async fn create(addr: &str, body: Value) -> Value {
    let (status, room) = http(addr, "POST", "/api/rooms", Some(&body)).await;
    assert_eq!(status, 200, "{room}");
    room
}

pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The last state received.
    pub state: Value,
}

impl Client {
    /// Connects a seat (`Some(token)`) or a spectator and waits for the first state.
    pub async fn connect(addr: &str, room: &str, seat: Option<&str>) -> Client {
        let url = match seat {
            Some(t) => format!("ws://{addr}/api/rooms/{room}/ws?seat={t}"),
            None => format!("ws://{addr}/api/rooms/{room}/ws"),
        };
        let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("WebSocket connects");
        let mut client = Client { ws, state: Value::Null };
        client.state_where(|_| true).await;
        client
    }

    /// Connects a seat of a room made by [`create`].
    pub async fn seat(addr: &str, room: &Value, color: &str) -> Client {
        Client::connect(addr, room["room"].as_str().unwrap(), room["seats"][color].as_str()).await
    }

    pub async fn send(&mut self, message: Value) {
        self.ws.send(Message::text(message.to_string())).await.unwrap();
    }

    pub async fn send_move(&mut self, ply: usize, mv: &str) {
        self.send(json!({"type": "move", "ply": ply, "move": mv})).await;
    }

    /// The next JSON frame (WebSocket pings are skipped); `None` when the socket closes.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let frame = tokio::time::timeout(WAIT, self.ws.next()).await.expect("a frame in time");
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let value: Value = serde_json::from_str(text.as_str()).unwrap();
                    if value["type"] == "state" {
                        self.state = value.clone();
                    }
                    return Some(value);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Waits for a state that satisfies `pred` (errors on the way fail the test).
    pub async fn state_where(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let frame = self.next().await.expect("the socket stays open");
            assert_ne!(frame["type"], "error", "unexpected error {frame}");
            if frame["type"] == "state" && pred(&frame) {
                return frame;
            }
        }
    }

    /// The last state if it satisfies `pred`, else the next one that does.
    pub async fn settled(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if pred(&self.state) {
            return self.state.clone();
        }
        self.state_where(pred).await
    }

    /// Waits for a state with `n` moves.
    pub async fn moves(&mut self, n: usize) -> Value {
        self.state_where(|s| s["moves"].as_array().unwrap().len() == n).await
    }

    /// Waits for the next error message (states on the way are skipped) and returns its text.
    pub async fn error(&mut self) -> String {
        loop {
            let frame = self.next().await.expect("the socket stays open");
            if frame["type"] == "error" {
                return frame["error"].as_str().unwrap().to_string();
            }
        }
    }

    /// Waits until the server closes the socket; returns the close code.
    pub async fn closed(&mut self) -> Option<u16> {
        loop {
            match tokio::time::timeout(WAIT, self.ws.next()).await.expect("closed in time") {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code.into()),
                None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }
}
