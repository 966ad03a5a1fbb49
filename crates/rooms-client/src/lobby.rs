//! A client of the lobby's WebSocket (`/api/lobby/ws`), for tests and load runs.

use crate::{Socket, WAIT};
use anyhow::{Context, Result};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// One lobby socket, keeping the last list of seeks it was sent.
#[derive(Debug)]
pub struct LobbyClient {
    /// The socket, for sending raw frames.
    pub ws: Socket,
    /// The last `seeks` list received.
    pub seeks: Vec<Value>,
    /// The last `games` list received (the games being played).
    pub games: Vec<Value>,
    /// How long each wait for a frame may take.
    pub wait: Duration,
}

impl LobbyClient {
    /// Connects to the lobby of the server at `addr` and waits for the first list of seeks.
    ///
    /// # Errors
    ///
    /// When the handshake fails or no list comes within [`WAIT`].
    pub async fn connect(addr: &str) -> Result<LobbyClient> {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/lobby/ws"))
            .await
            .context("the lobby connects")?;
        let mut lobby = LobbyClient { ws, seeks: Vec::new(), games: Vec::new(), wait: WAIT };
        lobby.next("seeks").await?;
        lobby.next("games").await?;
        Ok(lobby)
    }

    /// Sends one JSON message.
    ///
    /// # Errors
    ///
    /// When the socket is closed.
    pub async fn send(&mut self, message: Value) -> Result<()> {
        self.ws.send(Message::text(message.to_string())).await.context("sending on the lobby's socket")
    }

    /// The next message of type `kind` (lists of seeks on the way are kept).
    ///
    /// # Errors
    ///
    /// No such message within [`LobbyClient::wait`] of the previous frame, or the socket closed.
    pub async fn next(&mut self, kind: &str) -> Result<Value> {
        self.next_of(&[kind]).await
    }

    /// The next message of one of the types `kinds` (lists of seeks on the way are kept).
    ///
    /// # Errors
    ///
    /// As [`LobbyClient::next`].
    pub async fn next_of(&mut self, kinds: &[&str]) -> Result<Value> {
        let kind = kinds.join(" or ");
        loop {
            let frame = tokio::time::timeout(self.wait, self.ws.next())
                .await
                .with_context(|| format!("no {kind} message for {} s", self.wait.as_secs()))?;
            let text = match frame {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => anyhow::bail!("the lobby's socket closed"),
                Some(Ok(_)) => continue,
            };
            let value: Value = serde_json::from_str(text.as_str()).context("a JSON frame")?;
            if value["type"] == "seeks" {
                self.seeks = value["seeks"].as_array().cloned().unwrap_or_default();
            }
            if value["type"] == "games" {
                self.games = value["games"].as_array().cloned().unwrap_or_default();
            }
            if kinds.iter().any(|k| value["type"] == *k) {
                return Ok(value);
            }
        }
    }

    /// Waits for a list of seeks that satisfies `pred` (the last one, if it does).
    ///
    /// # Errors
    ///
    /// As [`LobbyClient::next`].
    pub async fn seeks_where(&mut self, pred: impl Fn(&[Value]) -> bool) -> Result<Vec<Value>> {
        while !pred(&self.seeks) {
            self.next("seeks").await?;
        }
        Ok(self.seeks.clone())
    }

    /// Waits for a list of the games being played that satisfies `pred` (the last one, if it
    /// does).
    ///
    /// # Errors
    ///
    /// As [`LobbyClient::next`].
    pub async fn games_where(&mut self, pred: impl Fn(&[Value]) -> bool) -> Result<Vec<Value>> {
        while !pred(&self.games) {
            self.next("games").await?;
        }
        Ok(self.games.clone())
    }
}
