//! What an operator watches on the real `qi serve`: `/healthz`, `/readyz`, and `/metrics`
//! behind its token, read by a Prometheus text-format parser.

use qi_rooms_client::{create, ServerProcess};
use serde_json::json;
use std::io::{Read, Write};
use std::net::TcpStream;

/// One HTTP/1.1 request on a fresh connection: the status and the body.
fn get(addr: &str, path: &str, token: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let auth = token.map(|t| format!("authorization: Bearer {t}\r\n")).unwrap_or_default();
    write!(stream, "GET {path} HTTP/1.1\r\nhost: {addr}\r\n{auth}connection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = answer.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

fn sample<'a>(
    scrape: &'a prometheus_parse::Scrape,
    name: &str,
    labels: &[(&str, &str)],
) -> Option<&'a prometheus_parse::Sample> {
    scrape.samples.iter().find(|s| s.metric == name && labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
}

fn value(sample: &prometheus_parse::Sample) -> f64 {
    match sample.value {
        prometheus_parse::Value::Counter(x)
        | prometheus_parse::Value::Gauge(x)
        | prometheus_parse::Value::Untyped(x) => x,
        _ => f64::NAN,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_readiness_and_metrics_parsed_as_prometheus_reads_them() {
    let data = tempfile::tempdir().unwrap();
    let args = ["serve", "--data", data.path().to_str().unwrap(), "--metrics-token", "t0ken", "--log-level", "warn"];
    let server = ServerProcess::start(env!("CARGO_BIN_EXE_qi").as_ref(), args).unwrap();
    let addr = server.addr.clone();

    assert_eq!(get(&addr, "/healthz", None), (200, json!({"ok": true}).to_string()));
    let (status, ready) = get(&addr, "/readyz", None);
    assert_eq!(
        (status, serde_json::from_str::<serde_json::Value>(&ready).unwrap()["ready"].clone()),
        (200, json!(true))
    );
    let room = create(&addr, &json!({})).await.unwrap();
    let id = room["room"].as_str().unwrap();
    assert_eq!(get(&addr, &format!("/api/rooms/{id}"), None).0, 200);
    // Two moves committed, and a seek posted in the lobby.
    let mut red = qi_rooms_client::Client::seat(&addr, &room, "red").await.unwrap();
    let mut black = qi_rooms_client::Client::seat(&addr, &room, "black").await.unwrap();
    red.send_move(0, "h2e2").await.unwrap();
    red.moves(1).await.unwrap();
    black.send_move(1, "h9g7").await.unwrap();
    black.moves(2).await.unwrap();
    let mut lobby = qi_rooms_client::LobbyClient::connect(&addr).await.unwrap();
    lobby.send(json!({"type": "seek", "clock": null})).await.unwrap();
    lobby.seeks_where(|seeks| seeks.len() == 1).await.unwrap();
    assert_eq!(get(&addr, "/no/such/page/anywhere", None).0, 404);

    assert_eq!(get(&addr, "/metrics", None).0, 401, "no token, no metrics");
    assert_eq!(get(&addr, "/metrics", Some("wrong")).0, 401);
    let (status, text) = get(&addr, "/metrics", Some("t0ken"));
    assert_eq!(status, 200);
    let scrape = prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).expect("Prometheus text");
    assert!(scrape.samples.iter().all(|s| s.metric.starts_with("qi_")), "every name is qi_…");

    // By route pattern, never by the room's own path.
    // (prometheus-parse cuts a label value at a brace, so this one line is read as text.)
    assert!(text.contains("qi_http_requests_total{route=\"/api/rooms/{room}\",status=\"200\"} 1\n"), "{text}");
    assert!(!text.contains(id), "a room's id is no label");
    let made = scrape
        .samples
        .iter()
        .find(|s| s.metric == "qi_http_requests_total" && s.labels.get("route") == Some("/api/rooms"));
    assert!(made.is_some_and(|s| value(s) == 1.0), "{text}");
    assert_eq!(
        sample(&scrape, "qi_http_requests_total", &[("route", "unmatched"), ("status", "404")]).map(value),
        Some(1.0)
    );
    assert!(sample(&scrape, "qi_http_requests_total", &[("route", "/metrics"), ("status", "401")]).is_some());
    let latency = scrape
        .samples
        .iter()
        .find(|s| s.metric == "qi_http_request_duration_seconds" && s.labels.get("route") == Some("/healthz"));
    assert!(matches!(latency.map(|s| &s.value), Some(prometheus_parse::Value::Histogram(_))), "{text}");

    assert_eq!(sample(&scrape, "qi_rooms_in_memory", &[]).map(value), Some(1.0));
    assert_eq!(sample(&scrape, "qi_moves_committed_total", &[]).map(value), Some(2.0), "{text}");
    assert!(sample(&scrape, "qi_room_saves_total", &[("result", "saved")]).is_some_and(|s| value(s) >= 3.0));
    let commits = scrape.samples.iter().find(|s| s.metric == "qi_room_commit_duration_seconds");
    assert!(matches!(commits.map(|s| &s.value), Some(prometheus_parse::Value::Histogram(_))), "{text}");
    assert_eq!(sample(&scrape, "qi_lobby_seeks_total", &[]).map(value), Some(1.0));
    assert_eq!(sample(&scrape, "qi_lobby_seeks_open", &[]).map(value), Some(1.0));
    assert_eq!(sample(&scrape, "qi_cpu_pool_slots", &[("pool", "games")]).map(value), Some(8.0));
    assert_eq!(sample(&scrape, "qi_cpu_pool_busy", &[("pool", "solver")]).map(value), Some(0.0));
    assert!(sample(&scrape, "qi_connections_open", &[]).is_some_and(|s| value(s) >= 1.0), "this scrape's own");
    // The per-address connection cap's refusals are counted (here: none yet).
    assert!(sample(&scrape, "qi_refusals_total", &[("limit", "connections_per_address")]).is_none());
}

/// The operator's controls: a message on every page, the chat off (refused on the socket, the
/// page marked so the room page leaves its chat out), the room cap; scripts and the API as built.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_on_every_page_the_chat_off_and_the_room_cap() {
    let data = tempfile::tempdir().unwrap();
    let args = [
        "serve",
        "--data",
        data.path().to_str().unwrap(),
        "--message",
        "Maintenance at 18:00 <UTC> & back soon",
        "--chat",
        "off",
        "--max-rooms",
        "1",
        "--log-level",
        "warn",
    ];
    let server = ServerProcess::start(env!("CARGO_BIN_EXE_qi").as_ref(), args).unwrap();
    let addr = server.addr.clone();
    for page in ["/", "/xq", "/puzzles", "/huarong", "/no/such/page"] {
        let (_, html) = get(&addr, page, None);
        assert!(
            html.contains(">Maintenance at 18:00 &lt;UTC&gt; &amp; back soon</div>"),
            "{page} shows the message, escaped"
        );
        assert!(html.contains("data-chat=\"off\""), "{page} is marked chat-off");
    }
    let (status, script) = get(&addr, "/sw.js", None);
    assert_eq!(status, 200);
    assert!(!script.contains("Maintenance"), "scripts are served as built");

    let room = create(&addr, &json!({})).await.unwrap();
    let (_, room_page) = get(&addr, &format!("/xq?room={}", room["room"].as_str().unwrap()), None);
    assert!(room_page.contains("data-chat=\"off\"") && room_page.contains("Maintenance at 18:00"));
    let mut red = qi_rooms_client::Client::seat(&addr, &room, "red").await.unwrap();
    red.send(json!({"type": "chat", "text": "hello"})).await.unwrap();
    assert_eq!(red.error().await.unwrap(), "the chat is turned off on this server");

    // One room in memory at most: the second is refused while the first is held.
    let (status, _) = qi_rooms_client::http(&addr, "POST", "/api/rooms", Some(&json!({}))).await.unwrap();
    assert_eq!(status, 503, "the room cap holds");
}

#[test]
fn a_message_longer_than_500_characters_stops_the_server_at_start() {
    let data = tempfile::tempdir().unwrap();
    let long = "x".repeat(501);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_qi"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data", data.path().to_str().unwrap(), "--message", &long])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 500"), "{}", String::from_utf8_lossy(&out.stderr));
}
