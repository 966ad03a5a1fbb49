//! A finished room's page previews its game (players, result, moves); a room still being
//! played shows none. Against the real server with rooms, on loopback.

mod rooms_support;

use qi_web::rooms::{Rooms, RoomsConfig};
use rooms_support::{create, start, Client, MATE_IN_TWO};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The page at `path`, as text.
async fn page(addr: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept-Language: en\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).await.unwrap();
    assert!(raw.starts_with("HTTP/1.1 200"), "{}", &raw[..raw.len().min(200)]);
    raw
}

fn meta(page: &str, name: &str) -> Option<String> {
    let needle = format!("=\"{name}\" content=\"");
    let at = page.find(&needle)? + needle.len();
    Some(page[at..at + page[at..].find('"')?].replace("&amp;", "&"))
}

#[tokio::test]
async fn a_finished_room_shows_its_players_result_and_last_move() {
    let addr = start(Rooms::in_memory(RoomsConfig::default()).unwrap()).await;
    let room = create(&addr, &json!({"fen": MATE_IN_TWO})).await.unwrap();
    let id = room["room"].as_str().unwrap().to_string();
    let mut red = Client::seat(&addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&addr, &room, "black").await.unwrap();
    red.send(json!({"type": "name", "name": "Lin"})).await.unwrap();
    red.state_where(|s| s["players"]["black"]["connected"] == true).await.unwrap();
    // Still being played: the plain room page.
    assert!(meta(&page(&addr, &format!("/xq?room={id}")).await, "og:title").is_none());
    for (ply, mv) in ["d6d7", "a3a2", "i0i9"].into_iter().enumerate() {
        let client = if ply % 2 == 0 { &mut red } else { &mut black };
        client.send_move(ply, mv).await.unwrap();
        let other = if ply % 2 == 0 { &mut black } else { &mut red };
        other.moves(ply + 1).await.unwrap();
    }
    red.state_where(|s| s["status"]["outcome"] == "red wins").await.unwrap();
    let html = page(&addr, &format!("/xq?room={id}")).await;
    let title = meta(&html, "og:title").expect("a finished room has a preview");
    assert_eq!(title, "Lin vs Black · Xiangqi");
    assert_eq!(
        meta(&html, "og:description").as_deref(),
        Some("3 moves, the last 车一进九. Red won (checkmate). Replay, analyse or play on at Qi.")
    );
    let image = meta(&html, "og:image").unwrap();
    assert!(image.starts_with(&format!("http://{addr}/preview/xq.png?")), "{image}");
    assert_eq!(meta(&html, "twitter:card").as_deref(), Some("summary_large_image"));
    // It is still the room's page.
    assert!(html.contains("/assets/room."), "the room page");
    // An unknown room: the plain page.
    assert!(meta(&page(&addr, "/xq?room=nosuchroom").await, "og:title").is_none());
}
