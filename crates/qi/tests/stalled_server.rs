//! A server that stalls (its process stopped with SIGSTOP, as a paused VM or a starved machine
//! would) does not charge the player to move for the time it was away: the move sent during
//! the stall is taken when it runs again, and the clock counts only the player's own time.

use qi_rooms_client::{create, Client, ServerProcess};
use serde_json::json;
use std::process::Command;
use std::time::{Duration, Instant};

fn signal(pid: u32, name: &str) {
    let status = Command::new("kill").arg(format!("-{name}")).arg(pid.to_string()).status().unwrap();
    assert!(status.success(), "kill -{name}");
}

#[tokio::test]
async fn a_move_sent_while_the_server_was_stopped_is_not_charged_the_stall() {
    let data = tempfile::tempdir().unwrap();
    let mut server = ServerProcess::serve_data(env!("CARGO_BIN_EXE_qi").as_ref(), data.path()).unwrap();
    let room = create(&server.addr, &json!({"clock": {"initial_s": 600, "increment_s": 0}})).await.unwrap();
    let mut red = Client::seat(&server.addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&server.addr, &room, "black").await.unwrap();
    red.send_move(0, "h2e2").await.unwrap();
    red.moves(1).await.unwrap();
    black.send_move(1, "h9g7").await.unwrap();
    // Red's clock runs from Black's first move on.
    let before = red.state_where(|s| s["moves"].as_array().is_some_and(|m| m.len() == 2)).await.unwrap();
    assert_eq!(before["clock"]["running"], "red");
    let red_ms_before = before["clock"]["red_ms"].as_u64().unwrap();
    let started = Instant::now();

    let pid = server.child.id();
    signal(pid, "STOP");
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Red moves while the server is stopped: the frame waits in the kernel.
    red.send_move(2, "h0g2").await.unwrap();
    tokio::time::sleep(Duration::from_secs(4)).await;
    signal(pid, "CONT");
    let after = red.moves(3).await.unwrap();
    let wall_ms = started.elapsed().as_millis() as u64;
    let charged = red_ms_before - after["clock"]["red_ms"].as_u64().unwrap();
    eprintln!("red charged {charged} ms of a {wall_ms} ms wait");
    assert!(wall_ms >= 4_300, "the stall lasted {wall_ms} ms");
    assert!(
        charged < 1_500,
        "red was charged {charged} ms of a {wall_ms} ms wait, most of it the server's stall (before: {red_ms_before} ms)"
    );
    assert_eq!(after["clock"]["running"], "black");
    server.child.kill().unwrap();
}
