//! Rooms against the real server on loopback, with a real WebSocket client: a full game, the
//! refusals, the idempotent resend, offers, rematch, the clock, and the limits.

mod rooms_support;

use futures_util::SinkExt;
use qi_web::rooms::{Rooms, RoomsConfig};
use rooms_support::{create, http, start, Client, MATE_IN_TWO};
use serde_json::{json, Value};
use std::time::Duration;

async fn server(config: RoomsConfig) -> String {
    start(Rooms::in_memory(config).unwrap()).await
}

fn moves(state: &Value) -> Vec<&str> {
    state["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect()
}

#[tokio::test]
async fn a_full_game_reaches_both_seats_and_the_watcher() {
    let addr = server(RoomsConfig::default()).await;
    let room = create(&addr, &json!({"fen": MATE_IN_TWO})).await.unwrap();
    let id = room["room"].as_str().unwrap();
    assert!(room["seats"]["red"].as_str().unwrap().len() >= 22, "128-bit tokens: {room}");
    assert_eq!(room["links"]["watch"], format!("http://{addr}/xq?room={id}"));
    assert!(room["links"]["red"].as_str().unwrap().ends_with(room["seats"]["red"].as_str().unwrap()));

    let mut red = Client::seat(&addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&addr, &room, "black").await.unwrap();
    let mut watcher = Client::connect(&addr, id, None).await.unwrap();
    assert_eq!(red.state["you"], "red");
    assert_eq!(black.state["you"], "black");
    assert_eq!(watcher.state["you"], Value::Null);
    assert_eq!(watcher.state["start_fen"], MATE_IN_TWO);
    red.state_where(|s| s["players"]["black"]["connected"] == true).await.unwrap();

    for (ply, mv) in ["d6d7", "a3a2", "i0i9"].into_iter().enumerate() {
        let client = if ply % 2 == 0 { &mut red } else { &mut black };
        client.send_move(ply, mv).await.unwrap();
        client.moves(ply + 1).await.unwrap();
    }
    for client in [&mut red, &mut black, &mut watcher] {
        let end = client.settled(|s| s["moves"].as_array().unwrap().len() == 3).await.unwrap();
        assert_eq!(moves(&end), ["d6d7", "a3a2", "i0i9"]);
        assert_eq!(end["status"], json!({"outcome": "red wins", "reason": "checkmate"}));
        assert!(end["link"].as_str().unwrap().starts_with("/xq?g="), "the compact share link: {end}");
    }
    black.send_move(3, "d9e9").await.unwrap();
    assert_eq!(black.error().await.unwrap(), "the game is over");

    let (status, shown) = http(&addr, "GET", &format!("/api/rooms/{id}"), None).await.unwrap();
    assert_eq!(status, 200);
    assert!(shown.get("you").is_none(), "{shown}");
    assert_eq!(moves(&shown), ["d6d7", "a3a2", "i0i9"]);
    assert_eq!(shown["status"]["reason"], "checkmate");
}

#[tokio::test]
async fn refusals_change_nothing() {
    let addr = server(RoomsConfig::default()).await;
    let room = create(&addr, &json!({})).await.unwrap();
    let id = room["room"].as_str().unwrap();
    let mut red = Client::seat(&addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&addr, &room, "black").await.unwrap();
    let mut watcher = Client::connect(&addr, id, None).await.unwrap();

    black.send_move(0, "h9g7").await.unwrap();
    assert_eq!(black.error().await.unwrap(), "it is not your move");
    watcher.send_move(0, "h2e2").await.unwrap();
    assert!(watcher.error().await.unwrap().starts_with("spectators cannot play"));
    watcher.send(json!({"type": "resign"})).await.unwrap();
    assert!(watcher.error().await.unwrap().starts_with("spectators cannot play"));
    red.send_move(0, "e0e2").await.unwrap();
    assert_eq!(red.error().await.unwrap(), "illegal move e0e2");
    red.send_move(1, "h2e2").await.unwrap();
    assert!(red.error().await.unwrap().contains("0 moves have been played"));
    red.send_move(0, "h2e2").await.unwrap();
    red.moves(1).await.unwrap();
    black.send_move(0, "h9g7").await.unwrap();
    assert!(black.error().await.unwrap().contains("1 moves have been played"));
    red.send(json!({"type": "draw", "action": "accept"})).await.unwrap();
    assert_eq!(red.error().await.unwrap(), "your opponent has offered nothing to answer");
    red.send(json!({"type": "rematch"})).await.unwrap();
    assert_eq!(red.error().await.unwrap(), "the game is not over");

    // Garbage gets an error and the socket stays usable.
    for garbage in ["not json", "{}", r#"{"type":"move","ply":"x"}"#, r#"{"type":"move","ply":1,"move":"zz"}"#, "[1,2]"]
    {
        red.ws.send(tokio_tungstenite::tungstenite::Message::text(garbage)).await.unwrap();
        assert!(red.error().await.unwrap().starts_with("bad"), "{garbage}");
    }
    red.send(json!({"type": "ping"})).await.unwrap();
    assert_eq!(red.next().await.unwrap().unwrap(), json!({"type": "pong"}));

    let (status, shown) = http(&addr, "GET", &format!("/api/rooms/{id}"), None).await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(moves(&shown), ["h2e2"]);

    // A token only seats its own colour, in its own room.
    let other = create(&addr, &json!({})).await.unwrap();
    let url = format!(
        "ws://{addr}/api/rooms/{}/ws?seat={}",
        other["room"].as_str().unwrap(),
        room["seats"]["red"].as_str().unwrap()
    );
    assert!(tokio_tungstenite::connect_async(url).await.is_err(), "a token of another room is refused");
    let url = format!("ws://{addr}/api/rooms/{id}/ws?seat=nonsense");
    assert!(tokio_tungstenite::connect_async(url).await.is_err());
    let (status, body) = http(&addr, "GET", "/api/rooms/AAAAAAAAAAAAAAAA", None).await.unwrap();
    assert_eq!((status, body["error"].as_str()), (404, Some("no such room")));
    let (status, _) = http(&addr, "GET", "/api/rooms/..%2Fetc", None).await.unwrap();
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_resent_move_is_acknowledged_again_and_applied_once() {
    let addr = server(RoomsConfig::default()).await;
    let room = create(&addr, &json!({})).await.unwrap();
    let mut red = Client::seat(&addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&addr, &room, "black").await.unwrap();
    red.send_move(0, "h2e2").await.unwrap();
    let first = red.moves(1).await.unwrap();
    // The acknowledgement was "lost": the client sends the same move again, twice.
    red.send_move(0, "h2e2").await.unwrap();
    red.send_move(0, "h2e2").await.unwrap();
    let again = red.moves(1).await.unwrap();
    assert_eq!(again["v"], first["v"], "nothing changed");
    black.moves(1).await.unwrap();
    black.send_move(1, "h9g7").await.unwrap();
    black.moves(2).await.unwrap();
    // Black resends too, after red has already answered.
    red.send_move(2, "b2c2").await.unwrap();
    red.moves(3).await.unwrap();
    black.send_move(1, "h9g7").await.unwrap();
    assert_eq!(moves(&black.moves(3).await.unwrap()), ["h2e2", "h9g7", "b2c2"]);
    // A different move with an old ply is refused.
    black.send_move(1, "b9c7").await.unwrap();
    assert!(black.error().await.unwrap().contains("3 moves have been played"));
}

#[tokio::test]
async fn draw_takeback_resign_and_rematch() {
    let addr = server(RoomsConfig::default()).await;
    let room = create(&addr, &json!({"clock": {"initial_s": 300, "increment_s": 2}})).await.unwrap();
    let mut red = Client::seat(&addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&addr, &room, "black").await.unwrap();
    red.send_move(0, "h2e2").await.unwrap();
    black.moves(1).await.unwrap();
    black.send_move(1, "h9g7").await.unwrap();
    red.moves(2).await.unwrap();

    // Takeback: red asks, black declines, red asks again, black accepts: both plies go.
    red.send(json!({"type": "takeback", "action": "request"})).await.unwrap();
    black.state_where(|s| s["offers"]["takeback"] == "red").await.unwrap();
    black.send(json!({"type": "takeback", "action": "decline"})).await.unwrap();
    red.state_where(|s| s["offers"]["takeback"].is_null() && s["moves"].as_array().unwrap().len() == 2).await.unwrap();
    red.send(json!({"type": "takeback", "action": "request"})).await.unwrap();
    black.state_where(|s| s["offers"]["takeback"] == "red").await.unwrap();
    black.send(json!({"type": "takeback", "action": "accept"})).await.unwrap();
    let back = red.moves(0).await.unwrap();
    assert_eq!(back["turn"], "red");
    assert!(back["offers"]["takeback"].is_null());

    // Draw: black offers, red declines; red offers, black accepts.
    red.send_move(0, "b2e2").await.unwrap();
    black.moves(1).await.unwrap();
    black.send(json!({"type": "draw", "action": "offer"})).await.unwrap();
    red.state_where(|s| s["offers"]["draw"] == "black").await.unwrap();
    red.send(json!({"type": "draw", "action": "decline"})).await.unwrap();
    black.state_where(|s| s["offers"]["draw"].is_null()).await.unwrap();
    red.send(json!({"type": "draw", "action": "offer"})).await.unwrap();
    black.state_where(|s| s["offers"]["draw"] == "red").await.unwrap();
    black.send(json!({"type": "draw", "action": "accept"})).await.unwrap();
    let drawn = red.state_where(|s| s["status"]["outcome"] != "ongoing").await.unwrap();
    assert_eq!(drawn["status"], json!({"outcome": "draw", "reason": "agreement"}));
    assert!(drawn["clock"]["running"].is_null(), "the clock stops at the end: {drawn}");

    // Rematch with colours swapped: the same tokens, the other colours.
    red.send(json!({"type": "rematch"})).await.unwrap();
    black.state_where(|s| s["offers"]["rematch"] == "red").await.unwrap();
    black.send(json!({"type": "rematch"})).await.unwrap();
    let next = red.state_where(|s| s["next"].is_string()).await.unwrap();
    let next_id = next["next"].as_str().unwrap();
    let mut was_red = Client::connect(&addr, next_id, room["seats"]["red"].as_str()).await.unwrap();
    let mut was_black = Client::connect(&addr, next_id, room["seats"]["black"].as_str()).await.unwrap();
    assert_eq!(was_red.state["you"], "black");
    assert_eq!(was_black.state["you"], "red");
    assert_eq!(was_black.state["clock"]["initial_s"], 300);
    assert_eq!(moves(&was_black.state), Vec::<&str>::new());

    // Resign in the new game.
    was_black.send_move(0, "h2e2").await.unwrap();
    was_red.moves(1).await.unwrap();
    was_red.send(json!({"type": "resign"})).await.unwrap();
    let end = was_black.state_where(|s| s["status"]["outcome"] != "ongoing").await.unwrap();
    assert_eq!(end["status"], json!({"outcome": "red wins", "reason": "resignation"}));
}

#[tokio::test]
async fn the_flag_falls_on_the_server_clock() {
    let addr = server(RoomsConfig::default()).await;
    let room = create(&addr, &json!({"clock": {"initial_s": 1, "increment_s": 0}})).await.unwrap();
    let mut red = Client::seat(&addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&addr, &room, "black").await.unwrap();
    red.send_move(0, "h2e2").await.unwrap();
    black.moves(1).await.unwrap();
    black.send_move(1, "h9g7").await.unwrap();
    let running = red.moves(2).await.unwrap();
    assert_eq!(running["clock"]["running"], "red");
    assert!(running["clock"]["red_ms"].as_u64().unwrap() <= 1000);
    assert_eq!(running["clock"]["black_ms"], 1000, "the first moves are not charged");
    // Nobody sends anything: the server's timer ends the game.
    let end = black.state_where(|s| s["status"]["outcome"] != "ongoing").await.unwrap();
    assert_eq!(end["status"], json!({"outcome": "black wins", "reason": "flag"}));
    assert_eq!(end["clock"]["red_ms"], 0);
    red.send_move(2, "h0g2").await.unwrap();
    assert_eq!(red.error().await.unwrap(), "the game is over");
}

#[tokio::test]
async fn no_clock_runs_before_both_first_moves_and_an_unstarted_game_is_aborted() {
    let mut config = RoomsConfig::default();
    config.limits.first_move = Duration::from_millis(1500);
    let addr = server(config).await;
    let room = create(&addr, &json!({"clock": {"initial_s": 60, "increment_s": 5}})).await.unwrap();
    let mut red = Client::seat(&addr, &room, "red").await.unwrap();
    assert_eq!(red.state["clock"]["running"], Value::Null);
    assert!(red.state["abort_in_ms"].as_u64().unwrap() > 60_000, "alone, the wait is long: {}", red.state);
    let mut black = Client::seat(&addr, &room, "black").await.unwrap();
    let both = red.state_where(|s| s["players"]["black"]["connected"] == true).await.unwrap();
    assert!(both["abort_in_ms"].as_u64().unwrap() <= 1500, "{both}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    red.send_move(0, "h2e2").await.unwrap();
    let one = black.moves(1).await.unwrap();
    assert_eq!(one["clock"]["running"], Value::Null, "one first move: no clock yet: {one}");
    assert_eq!(one["clock"]["red_ms"], 60_000);
    assert_eq!(one["clock"]["black_ms"], 60_000);
    // Black never answers: the game is aborted, with no result and nobody's time charged.
    let end = red.state_where(|s| s["status"]["outcome"] != "ongoing").await.unwrap();
    assert_eq!(end["status"], json!({"outcome": "aborted", "reason": "aborted"}));
    assert_eq!(end["clock"]["red_ms"], 60_000);
    assert_eq!(end["clock"]["black_ms"], 60_000);
    assert_eq!(end["abort_in_ms"], Value::Null);
    black.send_move(1, "h9g7").await.unwrap();
    assert_eq!(black.error().await.unwrap(), "the game is over");

    // A player may abort too, but not once both have moved.
    let room = create(&addr, &json!({})).await.unwrap();
    let mut red = Client::seat(&addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&addr, &room, "black").await.unwrap();
    red.send_move(0, "h2e2").await.unwrap();
    black.moves(1).await.unwrap();
    black.send_move(1, "h9g7").await.unwrap();
    red.moves(2).await.unwrap();
    red.send(json!({"type": "abort"})).await.unwrap();
    assert_eq!(red.error().await.unwrap(), "both sides have moved: the game can no longer be aborted");
}

#[tokio::test]
async fn presence_is_shown_per_colour() {
    let addr = server(RoomsConfig::default()).await;
    let room = create(&addr, &json!({})).await.unwrap();
    let mut red = Client::seat(&addr, &room, "red").await.unwrap();
    assert_eq!(red.state["players"]["black"]["connected"], false);
    let black = Client::seat(&addr, &room, "black").await.unwrap();
    red.state_where(|s| s["players"]["black"]["connected"] == true).await.unwrap();
    drop(black);
    red.state_where(|s| s["players"]["black"]["connected"] == false).await.unwrap();
}

#[tokio::test]
async fn limits_hold_and_a_flooder_disturbs_nobody_else() {
    let mut config = RoomsConfig { creations_per_minute: 3, ..Default::default() };
    config.limits.max_clients_per_room = 4;
    let addr = server(config).await;
    let room = create(&addr, &json!({})).await.unwrap();
    let quiet = create(&addr, &json!({})).await.unwrap();
    let mut red = Client::seat(&addr, &quiet, "red").await.unwrap();
    let mut black = Client::seat(&addr, &quiet, "black").await.unwrap();

    // Bad bodies are 4xx with a message; creations per minute per address are capped.
    let (status, body) = http(&addr, "POST", "/api/rooms", Some(&json!({"fen": "bad"}))).await.unwrap();
    assert_eq!(status, 400, "{body}");
    let (status, _) = http(&addr, "POST", "/api/rooms", Some(&json!({"clock": {"initial_s": 0}}))).await.unwrap();
    assert_eq!(status, 400);
    let (status, _) = http(&addr, "POST", "/api/rooms", Some(&json!({"moves": ["h2e2", "h2e2"]}))).await.unwrap();
    assert_eq!(status, 400);
    let (status, _) = http(&addr, "POST", "/api/rooms", Some(&json!({"color": "red"}))).await.unwrap();
    assert_eq!(status, 422);
    create(&addr, &json!({})).await.unwrap();
    let (status, body) = http(&addr, "POST", "/api/rooms", Some(&json!({}))).await.unwrap();
    assert_eq!(status, 429, "{body}");

    // Clients per room.
    let id = room["room"].as_str().unwrap();
    let mut watchers = Vec::new();
    for _ in 0..4 {
        watchers.push(Client::connect(&addr, id, None).await.unwrap());
    }
    assert!(tokio_tungstenite::connect_async(format!("ws://{addr}/api/rooms/{id}/ws")).await.is_err());

    // An oversized frame closes that socket; so does a flood.
    let mut big = watchers.pop().unwrap();
    big.ws.send(tokio_tungstenite::tungstenite::Message::text("x".repeat(10_000))).await.ok();
    assert_ne!(big.closed().await.unwrap(), Some(1000));
    let mut flooder = watchers.pop().unwrap();
    for _ in 0..100 {
        if flooder.ws.send(tokio_tungstenite::tungstenite::Message::text("{\"type\":\"ping\"}")).await.is_err() {
            break;
        }
    }
    let mut code = None;
    while let Some(frame) =
        tokio::time::timeout(Duration::from_secs(5), futures_util::StreamExt::next(&mut flooder.ws)).await.unwrap()
    {
        if let Ok(tokio_tungstenite::tungstenite::Message::Close(Some(f))) = frame {
            code = Some(u16::from(f.code));
            break;
        }
    }
    assert_eq!(code, Some(1008), "a flood closes the socket with 1008");

    // Meanwhile the other room plays on.
    red.send_move(0, "h2e2").await.unwrap();
    black.moves(1).await.unwrap();
}

/// The next `chat` frame (states on the way are skipped); an error frame fails.
async fn chat_line(client: &mut Client) -> Value {
    loop {
        let frame = client.next().await.unwrap().expect("the socket stays open");
        match frame["type"].as_str() {
            Some("chat") => return frame,
            Some("error") => panic!("unexpected error {frame}"),
            _ => continue,
        }
    }
}

/// The next `error` frame: its text and its `about`.
async fn error_about(client: &mut Client) -> (String, Value) {
    loop {
        let frame = client.next().await.unwrap().expect("the socket stays open");
        if frame["type"] == "error" {
            return (frame["error"].as_str().unwrap().to_string(), frame["about"].clone());
        }
    }
}

#[tokio::test]
async fn chat_reaches_both_seats_and_the_spectators_within_its_limits() {
    let addr = server(RoomsConfig::default()).await;
    let room = create(&addr, &json!({})).await.unwrap();
    let id = room["room"].as_str().unwrap();
    let mut red = Client::seat(&addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&addr, &room, "black").await.unwrap();
    let mut watcher = Client::connect(&addr, id, None).await.unwrap();
    let version = red.state["v"].clone();

    red.send(json!({"type": "chat", "text": "  <b>good luck</b>\n"})).await.unwrap();
    for client in [&mut red, &mut black, &mut watcher] {
        let line = chat_line(client).await;
        assert_eq!(line["from"], "red");
        assert_eq!(line["text"], "<b>good luck</b>", "plain text, trimmed, as sent: {line}");
        assert!(line["at"].as_i64().unwrap() > 1_700_000_000_000, "wall-clock ms: {line}");
        assert_eq!(line.as_object().unwrap().len(), 4, "type, from, text, at: {line}");
    }

    // Spectators read only; lines are at most 200 characters and not empty.
    watcher.send(json!({"type": "chat", "text": "hello"})).await.unwrap();
    let (text, about) = error_about(&mut watcher).await;
    assert!(text.starts_with("spectators can read the chat"), "{text}");
    assert_eq!(about, "chat");
    black.send(json!({"type": "chat", "text": "x".repeat(201)})).await.unwrap();
    assert_eq!(error_about(&mut black).await.0, "a chat line has at most 200 characters");
    black.send(json!({"type": "chat", "text": " \t "})).await.unwrap();
    assert_eq!(error_about(&mut black).await.0, "an empty chat line");
    black.send(json!({"type": "chat", "text": "é".repeat(200)})).await.unwrap();
    assert_eq!(chat_line(&mut red).await["text"].as_str().unwrap().chars().count(), 200);

    // Per seat, 5 lines at once, then one a second; the other seat is not held back.
    for i in 1..5 {
        red.send(json!({"type": "chat", "text": format!("line {i}")})).await.unwrap();
    }
    red.send(json!({"type": "chat", "text": "one too many"})).await.unwrap();
    let (text, about) = error_about(&mut red).await;
    assert_eq!((text.as_str(), about), ("too many chat lines; wait a moment", json!("chat")));
    black.send(json!({"type": "chat", "text": "gg"})).await.unwrap();
    let mut seen = Vec::new();
    while seen.last().map(String::as_str) != Some("gg") {
        seen.push(chat_line(&mut watcher).await["text"].as_str().unwrap().to_string());
    }
    assert_eq!(seen[1..], ["line 1", "line 2", "line 3", "line 4", "gg"], "{seen:?}");

    // A chat line is no change of the game (the version stays), and the game goes on.
    assert_eq!(watcher.state["v"], version);
    red.send_move(0, "h2e2").await.unwrap();
    black.moves(1).await.unwrap();

    // A socket that joins (or comes back) gets the recent lines right after its first state.
    let mut late = Client::open(&addr, id, room["seats"]["black"].as_str()).await.unwrap();
    let first = late.next().await.unwrap().unwrap();
    assert_eq!(first["type"], "state");
    let mut history = Vec::new();
    for _ in 0..7 {
        history.push(chat_line(&mut late).await["text"].as_str().unwrap().to_string());
    }
    assert_eq!(history[0], "<b>good luck</b>");
    assert_eq!(history[6], "gg");
}

#[tokio::test]
async fn names_are_saved_shown_and_written_in_the_pgn() {
    let addr = server(RoomsConfig::default()).await;
    let room = create(&addr, &json!({})).await.unwrap();
    let id = room["room"].as_str().unwrap();
    let mut red = Client::seat(&addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&addr, &room, "black").await.unwrap();
    let mut watcher = Client::connect(&addr, id, None).await.unwrap();
    assert_eq!(red.state["names"], json!({"red": null, "black": null}));

    red.send(json!({"type": "name", "name": "  Ann \"the <b>rook</b>\"\u{7}  "})).await.unwrap();
    black.send(json!({"type": "name", "name": "b".repeat(40)})).await.unwrap();
    let named =
        watcher.state_where(|s| s["names"]["red"].is_string() && s["names"]["black"].is_string()).await.unwrap();
    assert_eq!(named["names"]["red"], "Ann \"the <b>rook</b>\"", "trimmed, control characters dropped, else as given");
    assert_eq!(named["names"]["black"].as_str().unwrap(), "b".repeat(24), "at most 24 characters");
    watcher.send(json!({"type": "name", "name": "Eve"})).await.unwrap();
    assert!(watcher.error().await.unwrap().starts_with("spectators cannot play"));

    red.send(json!({"type": "resign"})).await.unwrap();
    black.state_where(|s| s["status"]["outcome"] != "ongoing").await.unwrap();
    let (status, pgn) = http(&addr, "GET", &format!("/api/rooms/{id}/pgn"), None).await.unwrap();
    assert_eq!(status, 200);
    let pgn = pgn.as_str().unwrap();
    assert!(pgn.contains(r#"[Red "Ann \"the <b>rook</b>\""]"#), "escaped in the tag: {pgn}");
    assert!(pgn.contains(&format!("[Black \"{}\"]", "b".repeat(24))), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");

    // An empty name removes it; the PGN then says "?".
    black.send(json!({"type": "name", "name": "   "})).await.unwrap();
    red.state_where(|s| s["names"]["black"].is_null()).await.unwrap();
    let (_, pgn) = http(&addr, "GET", &format!("/api/rooms/{id}/pgn"), None).await.unwrap();
    assert!(pgn.as_str().unwrap().contains("[Black \"?\"]"), "{pgn}");
}
