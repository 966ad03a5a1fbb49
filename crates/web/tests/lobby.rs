//! The lobby against the real server on loopback: seeks seen live, a pairing that seats both
//! players, seeks leaving with their socket, the bounds, and a load figure (500 seeks and
//! accepts from 50 clients; run with `--nocapture` to see the latencies).

mod rooms_support;

use futures_util::{SinkExt, StreamExt};
use qi_web::rooms::{lobby::LobbyLimits, Rooms, RoomsConfig};
use rooms_support::{create, http, start, Client, WAIT};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

struct Lobby {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    seeks: Value,
}

impl Lobby {
    async fn connect(addr: &str) -> Lobby {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/lobby/ws")).await.unwrap();
        let mut lobby = Lobby { ws, seeks: Value::Null };
        lobby.next("seeks").await;
        lobby
    }

    async fn send(&mut self, v: Value) {
        self.ws.send(Message::Text(v.to_string().into())).await.unwrap();
    }

    /// The next message of type `kind` (seek lists on the way are kept).
    async fn next(&mut self, kind: &str) -> Value {
        loop {
            let msg = tokio::time::timeout(WAIT, self.ws.next()).await.expect("a message in time").unwrap().unwrap();
            let Message::Text(text) = msg else { continue };
            let v: Value = serde_json::from_str(&text).unwrap();
            if v["type"] == "seeks" {
                self.seeks = v["seeks"].clone();
            }
            if v["type"] == kind {
                return v;
            }
        }
    }

    async fn seeks_where(&mut self, f: impl Fn(&Vec<Value>) -> bool) -> Vec<Value> {
        while !self.seeks.as_array().is_some_and(&f) {
            self.next("seeks").await;
        }
        self.seeks.as_array().unwrap().clone()
    }
}

async fn server(config: RoomsConfig) -> String {
    start(Rooms::in_memory(config).unwrap()).await
}

#[tokio::test]
async fn a_seek_is_seen_accepted_and_seats_both_players() {
    let addr = server(RoomsConfig::default()).await;
    let mut maker = Lobby::connect(&addr).await;
    let mut taker = Lobby::connect(&addr).await;
    let mut third = Lobby::connect(&addr).await;
    maker.send(json!({"type": "seek", "clock": {"initial_s": 180, "increment_s": 2}, "colour": "red", "name": "<b>Ann</b>"})).await;
    let id = maker.next("seeking").await["id"].clone();
    let seen = taker.seeks_where(|s| s.len() == 1).await;
    assert_eq!(
        seen[0],
        json!({"id": id, "clock": {"initial_s": 180, "increment_s": 2}, "colour": "red", "name": "<b>Ann</b>"})
    );
    third.seeks_where(|s| s.len() == 1).await;
    maker.send(json!({"type": "accept", "id": id})).await;
    assert_eq!(maker.next("error").await["error"], "that seek is your own");
    taker.send(json!({"type": "accept", "id": id})).await;
    let for_maker = maker.next("paired").await;
    let for_taker = taker.next("paired").await;
    assert_eq!(for_maker["colour"], "red");
    assert_eq!(for_taker["colour"], "black");
    assert_eq!(for_maker["room"], for_taker["room"]);
    third.seeks_where(Vec::is_empty).await;
    // The links seat them.
    let room = for_maker["room"].as_str().unwrap();
    let token = |v: &Value| v["link"].as_str().unwrap().rsplit_once("seat=").unwrap().1.to_string();
    let red = Client::connect(&addr, room, Some(&token(&for_maker))).await.unwrap();
    let black = Client::connect(&addr, room, Some(&token(&for_taker))).await.unwrap();
    assert_eq!(red.state["you"], "red");
    assert_eq!(black.state["you"], "black");
    assert_eq!(red.state["clock"]["initial_s"], 180);
}

#[tokio::test]
async fn public_games_are_listed_live_with_their_spectators_and_private_ones_are_not() {
    let addr = server(RoomsConfig::default()).await;
    let mut lobby = qi_rooms_client::LobbyClient::connect(&addr).await.unwrap();
    assert!(lobby.games.is_empty());
    // A friend room is private until a player lists it.
    let friend = create(&addr, &json!({"clock": {"initial_s": 60, "increment_s": 0}})).await.unwrap();
    let mut red = Client::seat(&addr, &friend, "red").await.unwrap();
    let mut black = Client::seat(&addr, &friend, "black").await.unwrap();
    assert_eq!(red.state["public"], false);
    red.send(json!({"type": "name", "name": "Ann"})).await.unwrap();
    red.send(json!({"type": "public", "public": true})).await.unwrap();
    red.state_where(|s| s["public"] == true).await.unwrap();
    let room = friend["room"].as_str().unwrap();
    let watchers =
        [Client::connect(&addr, room, None).await.unwrap(), Client::connect(&addr, room, None).await.unwrap()];
    // The clock runs once both sides have moved.
    red.send_move(0, "h2e2").await.unwrap();
    black.moves(1).await.unwrap();
    black.send_move(1, "h9g7").await.unwrap();
    let games = lobby.games_where(|g| g.len() == 1 && g[0]["spectators"] == 2 && g[0]["plies"] == 2).await.unwrap();
    assert_eq!(games[0]["room"], room);
    assert_eq!(games[0]["names"], json!({"red": "Ann", "black": null}));
    assert_eq!(games[0]["clock"]["running"], "red");
    assert!(games[0]["clock"]["red_ms"].as_u64().unwrap() <= 60_000);
    // A spectator leaves: the count follows.
    drop(watchers);
    lobby.games_where(|g| g.len() == 1 && g[0]["spectators"] == 0).await.unwrap();
    // Made private again: off the list; the watch link still works for whoever has it.
    red.send(json!({"type": "public", "public": false})).await.unwrap();
    lobby.games_where(<[Value]>::is_empty).await.unwrap();
    assert!(Client::connect(&addr, room, None).await.is_ok());
}

#[tokio::test]
async fn seeks_leave_with_their_socket_and_are_bounded() {
    let config =
        RoomsConfig { lobby: LobbyLimits { seeks_per_address: 2, ..LobbyLimits::default() }, ..Default::default() };
    let addr = server(config).await;
    let mut watcher = Lobby::connect(&addr).await;
    let mut maker = Lobby::connect(&addr).await;
    for _ in 0..2 {
        maker.send(json!({"type": "seek", "clock": null})).await;
        maker.next("seeking").await;
    }
    maker.send(json!({"type": "seek", "clock": null})).await;
    assert_eq!(maker.next("error").await["error"], "you have as many open seeks as you may");
    maker.send(json!({"type": "seek", "clock": [600, 5]})).await;
    assert!(maker.next("error").await["error"].as_str().unwrap().starts_with("bad message"));
    watcher.seeks_where(|s| s.len() == 2).await;
    drop(maker);
    watcher.seeks_where(Vec::is_empty).await;
    // Quick pairing: the second asker of a clock is paired with the first.
    let mut a = Lobby::connect(&addr).await;
    let mut b = Lobby::connect(&addr).await;
    let clock = json!({"initial_s": 60, "increment_s": 0});
    a.send(json!({"type": "quick", "clock": clock})).await;
    a.next("seeking").await;
    b.send(json!({"type": "quick", "clock": clock})).await;
    assert_eq!(a.next("paired").await["room"], b.next("paired").await["room"]);
    // POST /api/rooms refuses an array clock too.
    let (status, body) = http(&addr, "POST", "/api/rooms", Some(&json!({"clock": [600, 5]}))).await.unwrap();
    assert_eq!(status, 422, "{body}");
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_500_seeks_and_accepts_from_50_clients() {
    let lobby =
        LobbyLimits { seeks_per_address: 1000, messages_per_second: 1000.0, burst: 1000.0, ..LobbyLimits::default() };
    let config = RoomsConfig { lobby, ..Default::default() };
    let addr = server(config).await;
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..25 {
        let addr = addr.clone();
        tasks.push(tokio::spawn(async move {
            let mut maker = Lobby::connect(&addr).await;
            let mut taker = Lobby::connect(&addr).await;
            let (mut seek_lat, mut pair_lat) = (Vec::new(), Vec::new());
            for _ in 0..20 {
                let t0 = Instant::now();
                maker.send(json!({"type": "seek", "clock": {"initial_s": 300, "increment_s": 3}})).await;
                let id = maker.next("seeking").await["id"].clone();
                seek_lat.push(t0.elapsed());
                let t1 = Instant::now();
                taker.send(json!({"type": "accept", "id": id})).await;
                let room = taker.next("paired").await["room"].clone();
                pair_lat.push(t1.elapsed());
                assert_eq!(maker.next("paired").await["room"], room);
            }
            (seek_lat, pair_lat)
        }));
    }
    let (mut seeks, mut pairs) = (Vec::new(), Vec::new());
    for t in tasks {
        let (s, p) = t.await.unwrap();
        seeks.extend(s);
        pairs.extend(p);
    }
    let total = started.elapsed();
    seeks.sort();
    pairs.sort();
    assert_eq!(pairs.len(), 500);
    println!(
        "lobby load: 500 seeks + 500 accepts from 50 clients in {total:.2?}; seek ack p50 {:.2?} p99 {:.2?}; accept -> paired p50 {:.2?} p99 {:.2?}",
        percentile(&seeks, 0.5),
        percentile(&seeks, 0.99),
        percentile(&pairs, 0.5),
        percentile(&pairs, 0.99)
    );
}
