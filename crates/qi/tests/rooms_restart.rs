//! Nothing lost: start the `qi` binary, play, kill it with SIGKILL mid-game, start it again on
//! the same data folder, and finish the game. Every acknowledged move, the clock and the
//! standing offer come back, and the time the server was down is not charged.

#[path = "../../web/tests/rooms_support/mod.rs"]
mod rooms_support;

use rooms_support::{create, http, Client};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Server {
    child: Child,
    addr: String,
}

fn start(data: &std::path::Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qi"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(data)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("qi starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("qi prints its address").unwrap();
        if let Some(rest) = line.split("http://").nth(1) {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    // Keep reading stdout so the server never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    Server { child, addr }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn a_game_survives_sigkill_and_finishes_after_the_restart() {
    let data = tempfile::tempdir().unwrap();
    let mut server = start(data.path());
    let room = create(&server.addr, json!({"clock": {"initial_s": 600, "increment_s": 0}})).await;
    let id = room["room"].as_str().unwrap().to_string();
    let mut red = Client::seat(&server.addr, &room, "red").await;
    let mut black = Client::seat(&server.addr, &room, "black").await;
    let plies = ["h2e2", "h9g7", "h0g2", "i9h9"];
    for (ply, mv) in plies.iter().enumerate() {
        let client = if ply % 2 == 0 { &mut red } else { &mut black };
        client.send_move(ply, mv).await;
        client.moves(ply + 1).await;
    }
    red.send(json!({"type": "draw", "action": "offer"})).await;
    let before = red.state_where(|s| s["offers"]["draw"] == "red").await;
    let red_ms_before = before["clock"]["red_ms"].as_u64().unwrap();

    // SIGKILL: no chance to flush or say goodbye.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    assert_eq!(red.closed().await, None, "the socket just breaks");
    tokio::time::sleep(Duration::from_secs(3)).await;

    let server = start(data.path());
    let mut red = Client::seat(&server.addr, &room, "red").await;
    let mut black = Client::seat(&server.addr, &room, "black").await;
    let after = red.state.clone();
    assert_eq!(after["moves"], json!(plies), "every acknowledged move is there");
    assert_eq!(after["offers"]["draw"], "red", "the offer is there");
    assert_eq!(after["clock"]["running"], "red");
    let red_ms_after = after["clock"]["red_ms"].as_u64().unwrap();
    assert!(
        red_ms_after + 1500 >= red_ms_before,
        "the 3 s down are not charged: {red_ms_before} ms before, {red_ms_after} ms after"
    );
    assert_eq!(after["clock"]["black_ms"], before["clock"]["black_ms"]);

    // Finish the game on the restarted server.
    black.send(json!({"type": "draw", "action": "decline"})).await;
    red.state_where(|s| s["offers"]["draw"].is_null()).await;
    red.send_move(4, "b0c2").await;
    black.moves(5).await;
    black.send(json!({"type": "resign"})).await;
    let end = red.state_where(|s| s["status"]["outcome"] != "ongoing").await;
    assert_eq!(end["status"], json!({"outcome": "red wins", "reason": "resignation"}));
    let (status, shown) = http(&server.addr, "GET", &format!("/api/rooms/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(shown["moves"].as_array().unwrap().len(), 5);
}
