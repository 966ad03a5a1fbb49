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
    assert_eq!(sample(&scrape, "qi_cpu_pool_slots", &[("pool", "games")]).map(value), Some(8.0));
    assert_eq!(sample(&scrape, "qi_cpu_pool_busy", &[("pool", "solver")]).map(value), Some(0.0));
    assert!(sample(&scrape, "qi_connections_open", &[]).is_some_and(|s| value(s) >= 1.0), "this scrape's own");
    // The per-address connection cap's refusals are counted (here: none yet).
    assert!(sample(&scrape, "qi_refusals_total", &[("limit", "connections_per_address")]).is_none());
}
