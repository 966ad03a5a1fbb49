//! `qi backup` during a game: the copy is taken while the players go on, holds every move
//! acknowledged before it, and `qi serve --data COPY` starts from it.

use qi_rooms_client::{create, http, Client, ServerProcess};
use serde_json::json;
use std::path::Path;
use std::process::Command;

fn start(data: &Path) -> ServerProcess {
    ServerProcess::serve_data(env!("CARGO_BIN_EXE_qi").as_ref(), data).expect("qi starts and prints its address")
}

fn backup(data: &Path, out: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_qi"))
        .args(["backup", "--json", "--data"])
        .arg(data)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

#[tokio::test]
async fn a_backup_taken_mid_game_holds_every_acknowledged_move_and_serves() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let server = start(&data);
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

    // The copy, while both players are seated and the server runs.
    let copy = dir.path().join("copy");
    let out = backup(&data, &copy);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["rooms"], 1);
    assert_eq!(summary["ongoing"], 1);
    assert!(summary["bytes"].as_u64().unwrap() > 0);

    // Play goes on on the original.
    red.send_move(4, "b0c2").await.unwrap();
    black.moves(5).await.unwrap();

    // A second server on the copy, beside the first: the game as it was at the copy.
    let restored = start(&copy);
    let (status, shown) = http(&restored.addr, "GET", &format!("/api/rooms/{id}"), None).await.unwrap();
    assert_eq!(status, 200, "{shown}");
    assert_eq!(shown["moves"], json!(plies));
    let mut black2 = Client::seat(&restored.addr, &room, "black").await.unwrap();
    assert_eq!(black2.state["moves"], json!(plies));
    // Red, to move, has no connection to this server yet: its clock waits for it (at most 10 s).
    assert_eq!(black2.state["clock"]["running"], json!(null));
    let mut red2 = Client::seat(&restored.addr, &room, "red").await.unwrap();
    assert_eq!(red2.state["clock"]["running"], "red");
    red2.send_move(4, "b0c2").await.unwrap();
    black2.moves(5).await.unwrap();
}

#[test]
fn a_backup_refuses_a_missing_database_and_a_folder_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let out = backup(&dir.path().join("nothing"), &dir.path().join("copy"));
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no room database"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let full = dir.path().join("full");
    std::fs::create_dir_all(&full).unwrap();
    std::fs::write(full.join("rooms.sqlite3"), b"").unwrap();
    let out = backup(&full, &full);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not empty"), "{}", String::from_utf8_lossy(&out.stderr));
}
