//! Rooms across several `qi serve` instances, with real servers on loopback: a private Redis
//! and PostgreSQL each (Debian's packages; `./scripts/test` installs them), three `qi`
//! processes, SIGKILL and SIGSTOP of a room's owner, a Redis restart mid-game, and the lobby's
//! seeks and games being played shared by every instance.

use qi_rooms_client::services::{PostgresServer, RedisServer};
use qi_rooms_client::{create, http, Client, LobbyClient, ServerProcess};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

struct Cluster {
    redis: RedisServer,
    postgres: PostgresServer,
}

impl Cluster {
    fn start() -> Cluster {
        Cluster {
            redis: RedisServer::start().expect("redis-server starts"),
            postgres: PostgresServer::start().expect("postgres starts"),
        }
    }

    fn instance(&self) -> ServerProcess {
        let (redis, database) = (self.redis.url(), self.postgres.url());
        let args = ["serve", "--redis", redis.as_str(), "--database", database.as_str(), "--durability", "process"];
        ServerProcess::start(env!("CARGO_BIN_EXE_qi").as_ref(), args).expect("qi starts and prints its address")
    }
}

fn pid(server: &ServerProcess) -> libc::pid_t {
    server.child.id() as libc::pid_t
}

/// Sends move `mv` as ply `ply` from `client` until a state with it arrives (a request made
/// while a room changes owner may be refused or time out; the page resends the same way).
async fn play(client: &mut Client, ply: usize, mv: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        client.send_move(ply, mv).await.expect("the socket is open");
        client.wait = Duration::from_secs(3);
        loop {
            match client.next().await {
                Ok(Some(frame))
                    if frame["type"] == "state" && frame["moves"].as_array().is_some_and(|m| m.len() > ply) =>
                {
                    assert_eq!(frame["moves"][ply], mv, "{frame}");
                    return frame;
                }
                Ok(Some(frame)) if frame["type"] == "error" => {
                    eprintln!("move {ply} {mv}: {frame}");
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    break;
                }
                Ok(Some(_)) => continue,
                Ok(None) => panic!("the socket closed"),
                Err(e) => {
                    eprintln!("move {ply} {mv}: {e}");
                    break;
                }
            }
        }
        assert!(Instant::now() < deadline, "move {ply} {mv} never acknowledged");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_instances_play_one_game_and_survive_the_owner_s_sigkill() {
    let cluster = Cluster::start();
    let (mut a, b, c) = (cluster.instance(), cluster.instance(), cluster.instance());
    // Made on A, so A owns it first.
    let room = create(&a.addr, &json!({"clock": {"initial_s": 600, "increment_s": 0}})).await.unwrap();
    let id = room["room"].as_str().unwrap().to_string();
    let mut red = Client::seat(&a.addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&b.addr, &room, "black").await.unwrap();
    let mut watcher = Client::connect(&c.addr, &id, None).await.unwrap();
    let plies = ["h2e2", "h9g7", "h0g2", "i9h9"];
    for (ply, mv) in plies.iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut red } else { &mut black };
        play(mover, ply, mv).await;
        let other = if ply % 2 == 0 { &mut black } else { &mut red };
        other.settled(|s| s["moves"].as_array().is_some_and(|m| m.len() == ply + 1)).await.unwrap();
        watcher.settled(|s| s["moves"].as_array().is_some_and(|m| m.len() == ply + 1)).await.unwrap();
    }
    let seen =
        watcher.settled(|s| s["players"]["red"]["connected"] == true && s["players"]["black"]["connected"] == true);
    seen.await.expect("the spectator on C sees both players, seated on A and B");
    let before = red.state.clone();
    assert_eq!(before["clock"]["running"], "red");
    let red_ms_before = before["clock"]["red_ms"].as_u64().unwrap();
    let killed_at = Instant::now();

    // SIGKILL the owner: Red's socket breaks; the page reconnects, here to C.
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let mut red = Client::seat(&c.addr, &room, "red").await.expect("any instance takes Red's socket");
    let after = red.state.clone();
    assert_eq!(after["moves"], json!(plies), "every acknowledged move is there");
    let state = play(&mut red, 4, "b0c2").await;
    let taken_over_in = killed_at.elapsed();
    // After Red's move Black's clock runs, and the state shows what Red has left. Red's
    // clock ran until the owner could last have shown it (1.25 s past its last sign of life,
    // which was at most a second before the kill: never past the kill by much) and again from
    // the takeover to the move, not while the room had no owner (the lease, 3 s).
    assert_eq!(state["clock"]["running"], "black");
    let charged = red_ms_before - state["clock"]["red_ms"].as_u64().unwrap();
    eprintln!("takeover: Red's move acknowledged {taken_over_in:?} after the kill, {charged} ms charged");
    assert!(
        charged < 3_000 && charged < taken_over_in.as_millis() as u64,
        "Red was charged {charged} ms for a takeover of {taken_over_in:?} (lease 3 s)"
    );
    black.settled(|s| s["moves"].as_array().is_some_and(|m| m.len() == 5)).await.unwrap();
    watcher.settled(|s| s["moves"].as_array().is_some_and(|m| m.len() == 5)).await.unwrap();

    // And the game ends as any other.
    black.send(json!({"type": "resign"})).await.unwrap();
    let end = watcher.settled(|s| s["status"]["outcome"] != "ongoing").await.unwrap();
    assert_eq!(end["status"], json!({"outcome": "red wins", "reason": "resignation"}));
    for server in [&b, &c] {
        let (status, shown) = http(&server.addr, "GET", &format!("/api/rooms/{id}"), None).await.unwrap();
        assert_eq!(status, 200);
        assert_eq!(shown["moves"].as_array().unwrap().len(), 5, "{shown}");
        assert_eq!(shown["status"]["outcome"], "red wins");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owner_paused_past_its_lease_cannot_overwrite_the_new_owner() {
    let cluster = Cluster::start();
    let (a, b) = (cluster.instance(), cluster.instance());
    let room = create(&a.addr, &json!({})).await.unwrap();
    let id = room["room"].as_str().unwrap().to_string();
    let mut red = Client::seat(&b.addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&b.addr, &room, "black").await.unwrap();
    // A second socket of Black's, on the owner A.
    let mut black_on_a = Client::seat(&a.addr, &room, "black").await.unwrap();
    play(&mut red, 0, "h2e2").await;
    play(&mut black, 1, "h9g7").await;
    black_on_a.settled(|s| s["moves"].as_array().is_some_and(|m| m.len() == 2)).await.unwrap();

    unsafe { libc::kill(pid(&a), libc::SIGSTOP) };
    // A holds the room's state at two moves; B takes the room over once A's lease lapses.
    play(&mut red, 2, "h0g2").await;
    play(&mut black, 3, "i9h9").await;
    // While A is paused, its socket sends a resignation made on the old state: when A wakes,
    // its write (following the version it last saved, under its old fence) must be refused,
    // and the resignation served by B on the new state.
    black_on_a.send(json!({"type": "resign"})).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    unsafe { libc::kill(pid(&a), libc::SIGCONT) };

    let end = red.state_where(|s| s["status"]["outcome"] != "ongoing").await.unwrap();
    assert_eq!(end["status"], json!({"outcome": "red wins", "reason": "resignation"}));
    assert_eq!(end["moves"], json!(["h2e2", "h9g7", "h0g2", "i9h9"]), "B's moves are not overwritten");
    for server in [&a, &b] {
        let (_, shown) = http(&server.addr, "GET", &format!("/api/rooms/{id}"), None).await.unwrap();
        assert_eq!(shown["moves"], end["moves"], "{shown}");
        assert_eq!(shown["status"], end["status"]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_restart_mid_game_loses_no_committed_move() {
    let mut cluster = Cluster::start();
    let (a, b) = (cluster.instance(), cluster.instance());
    let room = create(&a.addr, &json!({"clock": {"initial_s": 300, "increment_s": 2}})).await.unwrap();
    let mut red = Client::seat(&a.addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&b.addr, &room, "black").await.unwrap();
    let plies = ["h2e2", "h9g7", "h0g2", "i9h9", "b0c2", "b9c7", "i0h0", "a9b9"];
    for (ply, mv) in plies[..4].iter().enumerate() {
        play(if ply % 2 == 0 { &mut red } else { &mut black }, ply, mv).await;
    }
    // A spectator on B keeps every state from here on: whoever hosts the room after the
    // restart, no clock it shows is above the one before, but for the increment of a move.
    let mut watcher = Client::connect(&b.addr, room["room"].as_str().unwrap(), None).await.unwrap();
    // Everything Redis held (leases, subscriptions) is gone; PostgreSQL holds the moves.
    cluster.redis.restart(Duration::from_millis(500)).unwrap();
    for (ply, mv) in plies.iter().enumerate().skip(4) {
        let mover = if ply % 2 == 0 { &mut red } else { &mut black };
        play(mover, ply, mv).await;
    }
    let other = red.settled(|s| s["moves"].as_array().is_some_and(|m| m.len() == plies.len())).await.unwrap();
    assert_eq!(other["moves"], json!(plies));
    let (_, shown) =
        http(&b.addr, "GET", &format!("/api/rooms/{}", room["room"].as_str().unwrap()), None).await.unwrap();
    assert_eq!(shown["moves"], json!(plies));

    let mut states = vec![watcher.state.clone()];
    while states.last().unwrap()["moves"].as_array().unwrap().len() < plies.len() {
        match watcher.next().await.expect("the spectator's states come") {
            Some(frame) if frame["type"] == "state" => states.push(frame),
            Some(_) => {}
            None => panic!("the spectator's socket closed"),
        }
    }
    clocks_never_go_up(&states, 2_000);
}

/// Each side's clock in consecutive `states` never goes up, but for the mover's `increment`
/// when a move was played in between.
fn clocks_never_go_up(states: &[Value], increment: u64) {
    for pair in states.windows(2) {
        let plies = |s: &Value| s["moves"].as_array().unwrap().len();
        let (before, after) = (plies(&pair[0]), plies(&pair[1]));
        for (side, key) in [(0, "red_ms"), (1, "black_ms")] {
            let (was, is) = (pair[0]["clock"][key].as_u64().unwrap(), pair[1]["clock"][key].as_u64().unwrap());
            // The mover of the plies between: Red plays the even plies.
            let moved = (before..after).any(|ply| ply % 2 == side);
            let allowed = if moved { was + increment } else { was };
            assert!(is <= allowed, "{key} went from {was} to {is} ms ({before} → {after} plies)");
        }
    }
    eprintln!("{} states, no clock above the one before", states.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_s_seeks_are_shared_by_every_instance() {
    let mut cluster = Cluster::start();
    let (mut a, b) = (cluster.instance(), cluster.instance());
    let mut maker = LobbyClient::connect(&a.addr).await.unwrap();
    let mut taker = LobbyClient::connect(&b.addr).await.unwrap();
    let mut rival = LobbyClient::connect(&a.addr).await.unwrap();

    // A seek made on A is seen on B, and B's player who accepts it plays A's.
    maker
        .send(json!({"type": "seek", "clock": {"initial_s": 300, "increment_s": 3}, "colour": "black", "name": "Ann"}))
        .await
        .unwrap();
    let id = maker.next("seeking").await.unwrap()["id"].clone();
    let seen = taker.seeks_where(|s| s.len() == 1).await.unwrap();
    assert_eq!(
        seen[0],
        json!({"id": id, "clock": {"initial_s": 300, "increment_s": 3}, "colour": "black", "name": "Ann"})
    );
    // Two accept at once, on two instances: one gets the game, the other is told it is gone.
    taker.send(json!({"type": "accept", "id": id})).await.unwrap();
    rival.send(json!({"type": "accept", "id": id})).await.unwrap();
    let for_maker = maker.next("paired").await.unwrap();
    let (one, other) = tokio::join!(taker.next_of(&["paired", "error"]), rival.next_of(&["paired", "error"]));
    let (one, other) = (one.unwrap(), other.unwrap());
    let (for_taker, refused) = if one["type"] == "paired" { (one, other) } else { (other, one) };
    assert_eq!(for_taker["type"], "paired", "one of the two is paired");
    assert_eq!(refused["error"], "that seek is gone");
    assert_eq!(for_maker["room"], for_taker["room"]);
    assert_eq!((&for_maker["colour"], &for_taker["colour"]), (&json!("black"), &json!("red")));
    let room = for_maker["room"].as_str().unwrap();
    let token = |link: &Value| link.as_str().unwrap().split("seat=").nth(1).unwrap().to_string();
    // Red's seat, on whichever instance Red accepted from.
    let mut red = Client::connect(&b.addr, room, Some(&token(&for_taker["link"]))).await.unwrap();
    let black = Client::connect(&a.addr, room, Some(&token(&for_maker["link"]))).await.unwrap();
    assert_eq!(red.state["clock"]["initial_s"], 300, "{}", red.state);
    play(&mut red, 0, "h2e2").await;
    drop(black);
    taker.seeks_where(<[Value]>::is_empty).await.unwrap();

    // The address bound counts every instance's seeks (all of these come from 127.0.0.1).
    for n in 0..3 {
        let lobby = if n == 1 { &mut rival } else { &mut maker };
        lobby.send(json!({"type": "seek", "clock": null, "name": format!("s{n}")})).await.unwrap();
        lobby.next("seeking").await.unwrap();
    }
    taker.send(json!({"type": "seek", "clock": null})).await.unwrap();
    assert_eq!(taker.next("error").await.unwrap()["error"], "you have as many open seeks as you may");
    // A seek leaves with its socket, wherever it is watched.
    let names =
        |seeks: &[Value]| seeks.iter().map(|s| s["name"].as_str().unwrap_or("").to_string()).collect::<Vec<_>>();
    taker.seeks_where(|s| names(s) == ["s0", "s1", "s2"]).await.unwrap();
    drop(rival);
    taker.seeks_where(|s| names(s) == ["s0", "s2"]).await.unwrap();
    // A seek accepted on another instance is gone from its maker's instance too: the restart
    // below must not post it again.
    maker.send(json!({"type": "seek", "clock": null, "name": "s3"})).await.unwrap();
    maker.next("seeking").await.unwrap();
    let s3 = taker.seeks_where(|s| names(s).contains(&"s3".to_string())).await.unwrap();
    let s3 = s3.iter().find(|s| s["name"] == "s3").unwrap()["id"].clone();
    taker.send(json!({"type": "accept", "id": s3})).await.unwrap();
    taker.next("paired").await.unwrap();
    maker.next("paired").await.unwrap();
    taker.seeks_where(|s| names(s) == ["s0", "s2"]).await.unwrap();

    // A Redis restart loses the broker's seeks; their instances post them again, and they
    // can be accepted.
    cluster.redis.restart(Duration::from_millis(300)).unwrap();
    taker.wait = Duration::from_secs(15);
    let s0 = taker.seeks.iter().find(|s| s["name"] == "s0").unwrap()["id"].clone();
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        // Taken from the broker, so it is there again (or this is refused until it is).
        taker.send(json!({"type": "accept", "id": s0})).await.unwrap();
        let answer = taker.next_of(&["paired", "error"]).await.unwrap();
        if answer["type"] == "paired" {
            break;
        }
        assert!(Instant::now() < deadline, "the seek never came back: {answer}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    maker.next("paired").await.unwrap();
    taker.seeks_where(|s| names(s) == ["s2"]).await.unwrap();
    let fresh = LobbyClient::connect(&b.addr).await.unwrap();
    assert_eq!(names(&fresh.seeks), ["s2"], "a new socket on B sees A's seek");

    // The seeks of an instance killed with SIGKILL go within seconds.
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let killed_at = Instant::now();
    taker.seeks_where(<[Value]>::is_empty).await.unwrap();
    eprintln!("lobby: a killed instance's seeks gone after {:?}", killed_at.elapsed());
    drop(maker);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_public_game_on_one_instance_is_listed_on_another_until_it_ends() {
    let cluster = Cluster::start();
    let (mut a, b) = (cluster.instance(), cluster.instance());
    let mut on_b = LobbyClient::connect(&b.addr).await.unwrap();
    assert!(on_b.games.is_empty());
    // A lobby game on A (public), its players named; a friend room on A (private).
    let mut maker = LobbyClient::connect(&a.addr).await.unwrap();
    let mut taker = LobbyClient::connect(&a.addr).await.unwrap();
    maker.send(json!({"type": "seek", "clock": {"initial_s": 300, "increment_s": 3}, "colour": "red"})).await.unwrap();
    let id = maker.next("seeking").await.unwrap()["id"].clone();
    taker.send(json!({"type": "accept", "id": id})).await.unwrap();
    let (for_red, for_black) = (maker.next("paired").await.unwrap(), taker.next("paired").await.unwrap());
    let room = for_red["room"].as_str().unwrap().to_string();
    let token = |link: &Value| link.as_str().unwrap().split("seat=").nth(1).unwrap().to_string();
    let mut red = Client::connect(&a.addr, &room, Some(&token(&for_red["link"]))).await.unwrap();
    let mut black = Client::connect(&a.addr, &room, Some(&token(&for_black["link"]))).await.unwrap();
    red.send(json!({"type": "name", "name": "Ann"})).await.unwrap();
    black.send(json!({"type": "name", "name": "Bo"})).await.unwrap();
    let friend = create(&a.addr, &json!({})).await.unwrap();
    let _friend_red = Client::seat(&a.addr, &friend, "red").await.unwrap();
    // A spectator on B.
    let _watcher = Client::connect(&b.addr, &room, None).await.unwrap();
    play(&mut red, 0, "h2e2").await;
    play(&mut black, 1, "h9g7").await;
    let games = on_b
        .games_where(|g| {
            g.len() == 1 && g[0]["spectators"] == 1 && g[0]["plies"] == 2 && g[0]["names"]["black"] == "Bo"
        })
        .await
        .unwrap();
    assert_eq!(games[0]["room"], room.as_str());
    assert_eq!(games[0]["names"]["red"], "Ann");
    assert_eq!(games[0]["clock"]["initial_s"], 300);
    assert_eq!(games[0]["clock"]["running"], "red");
    assert_eq!(games[0]["link"], format!("/xq?room={room}"));
    // A new socket on B is sent the list at once.
    assert_eq!(LobbyClient::connect(&b.addr).await.unwrap().games.len(), 1);
    // The game ends: off the list on B.
    black.send(json!({"type": "resign"})).await.unwrap();
    on_b.games_where(<[Value]>::is_empty).await.unwrap();

    // A public game whose owner is killed drops out within seconds.
    let second = create(&a.addr, &json!({})).await.unwrap();
    let mut second_red = Client::seat(&a.addr, &second, "red").await.unwrap();
    second_red.send(json!({"type": "public", "public": true})).await.unwrap();
    on_b.games_where(|g| g.len() == 1).await.unwrap();
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let killed_at = Instant::now();
    on_b.wait = Duration::from_secs(15);
    on_b.games_where(<[Value]>::is_empty).await.unwrap();
    eprintln!("lobby: a killed instance's games gone after {:?}", killed_at.elapsed());
}

#[test]
fn redis_without_a_shared_database_is_refused() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_qi"))
        .args(["serve", "--addr", "127.0.0.1:0", "--redis", "redis://127.0.0.1:1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("--redis needs --database"), "{text}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_qi"))
        .args(["serve", "--addr", "127.0.0.1:0", "--database", "mysql://x@y/z"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("PostgreSQL URL"));
}

/// Plays `plies` from `from` on, each by the side to move, and checks both players see them.
async fn play_from(red: &mut Client, black: &mut Client, plies: &[&str], from: usize) {
    for (ply, mv) in plies.iter().enumerate().skip(from) {
        play(if ply % 2 == 0 { &mut *red } else { &mut *black }, ply, mv).await;
    }
    for client in [red, black] {
        client.settled(|s| s["moves"].as_array().is_some_and(|m| m.len() == plies.len())).await.unwrap();
    }
}

/// PostgreSQL restarted mid-game under `servers` (one instance alone, or two with Redis):
/// the next move is acknowledged within 10 s of the restart, nothing acknowledged is lost, the
/// clock of the side to move ran no longer than the wall clock and the other's did not move,
/// and rooms can be made again.
async fn a_postgres_restart_mid_game(postgres: &mut PostgresServer, servers: [&ServerProcess; 2]) {
    let [a, b] = servers;
    let room = create(&a.addr, &json!({"clock": {"initial_s": 300, "increment_s": 0}})).await.unwrap();
    let id = room["room"].as_str().unwrap().to_string();
    let mut red = Client::seat(&a.addr, &room, "red").await.unwrap();
    let mut black = Client::seat(&b.addr, &room, "black").await.unwrap();
    let plies = ["h2e2", "h9g7", "h0g2", "i9h9", "b0c2", "b9c7", "i0h0", "a9b9"];
    play_from(&mut red, &mut black, &plies[..3], 0).await;
    // Red's clock starts after Black's next move: it cannot have run for longer than this.
    let turn_from = Instant::now();
    play_from(&mut red, &mut black, &plies[..4], 3).await;
    let before = red.state["clock"].clone();
    assert_eq!(before["running"], "red");
    let restarted_at = Instant::now();

    postgres.restart(Duration::from_millis(300)).unwrap();
    let state = play(&mut red, 4, plies[4]).await;
    let (resumed_in, turn) = (restarted_at.elapsed(), turn_from.elapsed());
    let charged = before["red_ms"].as_u64().unwrap() - state["clock"]["red_ms"].as_u64().unwrap();
    eprintln!("PostgreSQL restart: the next move acknowledged {resumed_in:?} after it, {charged} ms charged to Red");
    assert!(resumed_in < Duration::from_secs(10), "play resumed only after {resumed_in:?}");
    // Red's clock ran while the move could not be saved, as when Red thinks: no more, no less.
    assert!(charged <= turn.as_millis() as u64, "Red charged {charged} ms in a turn of {turn:?}");
    assert!(charged + 500 >= resumed_in.as_millis() as u64, "Red refunded: {charged} ms in {resumed_in:?}");
    // Black's clock starts with Red's move: the state shows at most the moments since.
    let black_ran = before["black_ms"].as_u64().unwrap() - state["clock"]["black_ms"].as_u64().unwrap();
    assert!(black_ran < 1_000, "Black charged {black_ran} ms for Red's turn: {state}");

    play_from(&mut red, &mut black, &plies, 5).await;
    for server in servers {
        let (status, shown) = http(&server.addr, "GET", &format!("/api/rooms/{id}"), None).await.unwrap();
        assert_eq!(status, 200);
        assert_eq!(shown["moves"], json!(plies), "{shown}");
    }
    let made = create(&b.addr, &json!({})).await.expect("a room can be made again");
    assert!(made["room"].is_string(), "{made}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_restart_mid_game_under_one_instance_resumes_within_seconds() {
    let mut postgres = PostgresServer::start().expect("postgres starts");
    let database = postgres.url();
    let args = ["serve", "--database", database.as_str(), "--durability", "process"];
    let server = ServerProcess::start(env!("CARGO_BIN_EXE_qi").as_ref(), args).expect("qi starts");
    a_postgres_restart_mid_game(&mut postgres, [&server, &server]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_restart_mid_game_in_a_cluster_resumes_within_seconds() {
    let mut cluster = Cluster::start();
    let (a, b) = (cluster.instance(), cluster.instance());
    a_postgres_restart_mid_game(&mut cluster.postgres, [&a, &b]).await;
}

/// A lobby socket that floods an instance of a cluster gets the answers to the messages taken
/// before its 1008 (they come back over the bus after the flood is seen), then the close.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lobby_flood_in_a_cluster_is_answered_up_to_the_burst_then_closed() {
    let cluster = Cluster::start();
    let (a, _b) = (cluster.instance(), cluster.instance());
    let mut flood = LobbyClient::connect(&a.addr).await.unwrap();
    for i in 0..40 {
        // Each is answered with an error (no such seek) by the lobby task.
        flood.send(json!({"type": "accept", "id": format!("no-such-seek-{i}")})).await.unwrap();
    }
    let mut answered = 0;
    while flood.next("error").await.is_ok() {
        answered += 1;
    }
    eprintln!("{answered} answered before the close");
    assert!(answered >= 19, "{answered} of the 20 messages within the burst answered before the close");
    assert!(answered <= 21, "{answered} answered: the flood was not stopped");
}
