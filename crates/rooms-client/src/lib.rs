#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod load;
mod lobby;
mod server;
pub mod services;

pub use lobby::LobbyClient;
pub use server::ServerProcess;

use anyhow::{bail, Context, Result};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a [`Client`] waits for a frame, and [`http`] for an answer, by default.
pub const WAIT: Duration = Duration::from_secs(10);

/// The WebSocket a [`Client`] holds.
pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One HTTP/1.1 request to `addr` (`127.0.0.1:port`) with a JSON body; returns the status and
/// the body as JSON (or as a JSON string when it is not JSON).
///
/// # Errors
///
/// When the connection fails or the answer does not come within [`WAIT`].
pub async fn http(addr: &str, method: &str, path: &str, body: Option<&Value>) -> Result<(u16, Value)> {
    let mut stream = TcpStream::connect(addr).await.with_context(|| format!("connecting to {addr}"))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut raw = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut raw))
        .await
        .with_context(|| format!("{method} {path}: no answer in {} s", WAIT.as_secs()))??;
    let text = String::from_utf8_lossy(&raw);
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    Ok((status, serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.to_string()))))
}

/// [`http`] that must answer 200: the body.
///
/// # Errors
///
/// As [`http`], or another status (the message gives it with the body).
pub async fn http_ok(addr: &str, method: &str, path: &str, body: Option<&Value>) -> Result<Value> {
    let (status, value) = http(addr, method, path, body).await?;
    if status != 200 {
        bail!("{method} {path}: status {status}: {value}");
    }
    Ok(value)
}

/// `POST /api/rooms` with `body` (colour, clock, start position); the room's answer: its id
/// (`room`), the seat tokens (`seats.red`, `seats.black`) and its first state.
///
/// # Errors
///
/// As [`http_ok`].
pub async fn create(addr: &str, body: &Value) -> Result<Value> {
    http_ok(addr, "POST", "/api/rooms", Some(body)).await
}

/// One WebSocket client of a room: a seat or a spectator.
#[derive(Debug)]
pub struct Client {
    /// The socket, for sending raw frames.
    pub ws: Socket,
    /// The last state received (`Null` before the first).
    pub state: Value,
    /// How long each wait for a frame may take.
    pub wait: Duration,
}

impl Client {
    /// Opens the socket of a seat (`Some(token)`) or a spectator, without waiting for anything.
    ///
    /// # Errors
    ///
    /// When the WebSocket handshake fails (a wrong token, a closed room, no server).
    pub async fn open(addr: &str, room: &str, seat: Option<&str>) -> Result<Client> {
        let url = match seat {
            Some(t) => format!("ws://{addr}/api/rooms/{room}/ws?seat={t}"),
            None => format!("ws://{addr}/api/rooms/{room}/ws"),
        };
        let (ws, _) = tokio_tungstenite::connect_async(url).await.context("the WebSocket connects")?;
        Ok(Client { ws, state: Value::Null, wait: WAIT })
    }

    /// Opens the socket (as [`Client::open`]) and waits for the first state.
    ///
    /// # Errors
    ///
    /// As [`Client::open`] and [`Client::state_where`].
    pub async fn connect(addr: &str, room: &str, seat: Option<&str>) -> Result<Client> {
        let mut client = Client::open(addr, room, seat).await?;
        client.state_where(|_| true).await?;
        Ok(client)
    }

    /// Connects a seat (`red` or `black`) of a room made by [`create`].
    ///
    /// # Errors
    ///
    /// As [`Client::connect`], or when `room` is not such an answer.
    pub async fn seat(addr: &str, room: &Value, color: &str) -> Result<Client> {
        let id = room["room"].as_str().context("a room id")?;
        Client::connect(addr, id, room["seats"][color].as_str()).await
    }

    /// Sends one JSON message.
    ///
    /// # Errors
    ///
    /// When the socket is closed.
    pub async fn send(&mut self, message: Value) -> Result<()> {
        self.ws.send(Message::text(message.to_string())).await.context("sending on the WebSocket")
    }

    /// Sends move `mv` (ICCS) as ply `ply`.
    ///
    /// # Errors
    ///
    /// As [`Client::send`].
    pub async fn send_move(&mut self, ply: usize, mv: &str) -> Result<()> {
        self.send(json!({"type": "move", "ply": ply, "move": mv})).await
    }

    /// The next JSON frame (WebSocket pings are skipped), kept as [`Client::state`] when it
    /// is one; `None` when the socket closes.
    ///
    /// # Errors
    ///
    /// No frame within [`Client::wait`], or a text frame that is not JSON.
    pub async fn next(&mut self) -> Result<Option<Value>> {
        loop {
            let frame = tokio::time::timeout(self.wait, self.ws.next())
                .await
                .with_context(|| format!("no frame for {} s", self.wait.as_secs()))?;
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let value: Value = serde_json::from_str(text.as_str()).context("a JSON frame")?;
                    if value["type"] == "state" {
                        self.state = value.clone();
                    }
                    return Ok(Some(value));
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return Ok(None),
                Some(Ok(_)) => continue,
            }
        }
    }

    /// The next frame that is there: an error when the socket closes instead.
    async fn next_open(&mut self) -> Result<Value> {
        self.next().await?.context("the socket closed")
    }

    /// Waits for a state that satisfies `pred`.
    ///
    /// # Errors
    ///
    /// An error message from the server on the way, the socket closing, or a wait too long.
    pub async fn state_where(&mut self, pred: impl Fn(&Value) -> bool) -> Result<Value> {
        loop {
            let frame = self.next_open().await?;
            if frame["type"] == "error" {
                bail!("unexpected error {frame}");
            }
            if frame["type"] == "state" && pred(&frame) {
                return Ok(frame);
            }
        }
    }

    /// The last state if it satisfies `pred`, else the next one that does.
    ///
    /// # Errors
    ///
    /// As [`Client::state_where`].
    pub async fn settled(&mut self, pred: impl Fn(&Value) -> bool) -> Result<Value> {
        if pred(&self.state) {
            return Ok(self.state.clone());
        }
        self.state_where(pred).await
    }

    /// Waits for a state with `n` moves.
    ///
    /// # Errors
    ///
    /// As [`Client::state_where`].
    pub async fn moves(&mut self, n: usize) -> Result<Value> {
        self.state_where(|s| s["moves"].as_array().is_some_and(|m| m.len() == n)).await
    }

    /// Waits for the next error message (states on the way are skipped) and returns its text.
    ///
    /// # Errors
    ///
    /// The socket closing or a wait too long.
    pub async fn error(&mut self) -> Result<String> {
        loop {
            let frame = self.next_open().await?;
            if frame["type"] == "error" {
                return Ok(frame["error"].as_str().unwrap_or_default().to_string());
            }
        }
    }

    /// Waits until the server closes the socket; returns the close code (`None` when the
    /// connection just broke).
    ///
    /// # Errors
    ///
    /// When it stays open longer than [`Client::wait`].
    pub async fn closed(&mut self) -> Result<Option<u16>> {
        loop {
            let frame = tokio::time::timeout(self.wait, self.ws.next()).await.context("closed in time")?;
            match frame {
                Some(Ok(Message::Close(frame))) => return Ok(frame.map(|f| f.code.into())),
                None | Some(Err(_)) => return Ok(None),
                Some(Ok(_)) => continue,
            }
        }
    }
}
