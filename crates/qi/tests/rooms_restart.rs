//! Nothing lost: start the `qi` binary, play, kill it with SIGKILL mid-game, start it again on
//! the same data folder, and finish the game. Every acknowledged move, the clock and the
//! standing offer come back, and the time the server was down is not charged.

use qi_rooms_client::{create, http, Client, ServerProcess};
use serde_json::json;
use std::time::Duration;

fn start(data: &std::path::Path) -> ServerProcess {
    ServerProcess::serve_data(env!("CARGO_BIN_EXE_qi").as_ref(), data).expect("qi starts and prints its address")
}

#[tokio::test]
async fn a_game_survives_sigkill_and_finishes_after_the_restart() {
    let data = tempfile::tempdir().unwrap();
    let mut server = start(data.path());
    let room = create(&server.addr, &json!({"clock": {"initial_s": 600, "increment_s": 0}})).await.unwrap();
    let id = room["room"].as_str().unwrap().to_string();
    let mut red = Client::seat(&server.addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&server.addr, &room, "black").await.unwrap();
    let plies = ["h2e2", "h9g7", "h0g2", "i9h9"];
    for (ply, mv) in plies.iter().enumerate() {
        let client = if ply % 2 == 0 { &mut red } else { &mut black };
        client.send_move(ply, mv).await.unwrap();
        client.moves(ply + 1).await.unwrap();
    }
    red.send(json!({"type": "draw", "action": "offer"})).await.unwrap();
    let before = red.state_where(|s| s["offers"]["draw"] == "red").await.unwrap();
    let red_ms_before = before["clock"]["red_ms"].as_u64().unwrap();

    // SIGKILL: no chance to flush or say goodbye.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    assert_eq!(red.closed().await.unwrap(), None, "the socket just breaks");
    tokio::time::sleep(Duration::from_secs(3)).await;

    let server = start(data.path());
    let mut red = Client::seat(&server.addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&server.addr, &room, "black").await.unwrap();
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
    black.send(json!({"type": "draw", "action": "decline"})).await.unwrap();
    red.state_where(|s| s["offers"]["draw"].is_null()).await.unwrap();
    red.send_move(4, "b0c2").await.unwrap();
    black.moves(5).await.unwrap();
    black.send(json!({"type": "resign"})).await.unwrap();
    let end = red.state_where(|s| s["status"]["outcome"] != "ongoing").await.unwrap();
    assert_eq!(end["status"], json!({"outcome": "red wins", "reason": "resignation"}));
    let (status, shown) = http(&server.addr, "GET", &format!("/api/rooms/{id}"), None).await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(shown["moves"].as_array().unwrap().len(), 5);
}

#[tokio::test]
async fn after_a_restart_the_player_to_move_is_not_charged_for_coming_back_late() {
    let data = tempfile::tempdir().unwrap();
    let mut server = start(data.path());
    let room = create(&server.addr, &json!({"clock": {"initial_s": 600, "increment_s": 0}})).await.unwrap();
    let mut red = Client::seat(&server.addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&server.addr, &room, "black").await.unwrap();
    for (ply, mv) in ["h2e2", "h9g7", "h0g2", "i9h9"].iter().enumerate() {
        let client = if ply % 2 == 0 { &mut red } else { &mut black };
        client.send_move(ply, mv).await.unwrap();
        client.moves(ply + 1).await.unwrap();
    }
    let before = red.state_where(|s| s["moves"].as_array().is_some_and(|m| m.len() == 4)).await.unwrap();
    let red_ms_before = before["clock"]["red_ms"].as_u64().unwrap();
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    drop((red, black));

    // Black's client is back at once, red's (to move) 3 s later, as a client's backoff may.
    let server = start(data.path());
    let black = Client::seat(&server.addr, &room, "black").await.unwrap();
    assert_eq!(black.state["clock"]["running"], json!(null), "red's clock is held while red is away");
    tokio::time::sleep(Duration::from_secs(3)).await;
    let red = Client::seat(&server.addr, &room, "red").await.unwrap();
    assert_eq!(red.state["clock"]["running"], "red", "red's clock runs from red's return");
    let red_ms_after = red.state["clock"]["red_ms"].as_u64().unwrap();
    // What may be charged: the time between the last state and the kill, and the last second
    // the dead server could not mark as alive; not the 3 s red's connection took to come back.
    assert!(
        red_ms_after + 1500 >= red_ms_before,
        "red was charged for reconnecting: {red_ms_before} ms before, {red_ms_after} ms after"
    );
}
