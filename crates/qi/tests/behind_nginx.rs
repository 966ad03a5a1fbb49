//! `qi serve --trust-proxy` behind a real nginx (Debian's package; `./scripts/test` installs
//! it), started here on loopback in a temporary folder with the README's recipe: pages, the API
//! and a room's WebSockets go through it, the room-creation limit counts each client behind the
//! proxy apart, and a forwarding header from anyone but the proxy is ignored.
//!
//! Loopback has many addresses: nginx reaches qi from 127.0.0.2 (the only trusted one), and
//! the test's clients connect from 127.0.0.3, 127.0.0.4 and 127.0.0.5.

use qi_rooms_client::{Client, ServerProcess};
use serde_json::{json, Value};
use std::net::{SocketAddr, TcpListener};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const NGINX_CONF: &str = r#"
daemon off;
master_process off;
pid DIR/nginx.pid;
error_log DIR/error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path DIR/body;
    proxy_temp_path DIR/proxy;
    fastcgi_temp_path DIR/fastcgi;
    uwsgi_temp_path DIR/uwsgi;
    scgi_temp_path DIR/scgi;
    map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
    upstream qi { server QI; keepalive 16; }
    server {
        listen LISTEN;
        location / {
            proxy_pass http://qi;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
            proxy_buffering off;
            proxy_bind 127.0.0.2;
        }
    }
}
"#;

struct Nginx(Child);

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn nginx(dir: &Path, qi: &str) -> (Nginx, String) {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let listen = format!("127.0.0.1:{port}");
    let conf = NGINX_CONF.replace("DIR", dir.to_str().unwrap()).replace("QI", qi).replace("LISTEN", &listen);
    let file = dir.join("nginx.conf");
    std::fs::write(&file, conf).unwrap();
    let program = ["/usr/sbin/nginx", "/usr/bin/nginx"].into_iter().find(|p| Path::new(p).is_file());
    let program = program.expect("nginx is installed (scripts/install-cluster-servers.sh)");
    let child = Command::new(program)
        .arg("-c")
        .arg(&file)
        .arg("-p")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::net::TcpStream::connect(&listen).is_err() {
        assert!(started.elapsed() < Duration::from_secs(10), "nginx did not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    (Nginx(child), listen)
}

/// One request from the loopback address `from`: the status and the body.
async fn request(from: &str, to: &str, method: &str, path: &str, headers: &str, body: Option<&Value>) -> (u16, String) {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse::<SocketAddr>().unwrap()).unwrap();
    let mut stream = socket.connect(to.parse().unwrap()).await.unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nhost: {to}\r\n{headers}content-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, answer.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default())
}

async fn make_room(from: &str, to: &str, headers: &str) -> (u16, String) {
    request(from, to, "POST", "/api/rooms", headers, Some(&json!({}))).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_nginx_clients_are_told_apart_and_a_spoofed_header_is_ignored() {
    let data = tempfile::tempdir().unwrap();
    let args = [
        "serve",
        "--data",
        data.path().to_str().unwrap(),
        "--trust-proxy",
        "127.0.0.2",
        "--room-creations-per-minute",
        "2",
        "--log-level",
        "warn",
    ];
    let qi = ServerProcess::start(env!("CARGO_BIN_EXE_qi").as_ref(), args).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (_nginx, proxy) = nginx(dir.path(), &qi.addr);

    // A page and the API through the proxy.
    let (status, page) = request("127.0.0.3", &proxy, "GET", "/xq", "", None).await;
    assert_eq!(status, 200);
    assert!(page.contains("<html") || page.contains("<!DOCTYPE") || page.contains("<!doctype"), "{page:.200}");
    let (status, levels) = request("127.0.0.3", &proxy, "GET", "/api/xq/levels", "", None).await;
    assert_eq!(status, 200, "{levels}");

    // Client .3 makes its two rooms, then is refused, even when it names someone else in its
    // own X-Forwarded-For (nginx appends the address it really came from).
    let (status, first) = make_room("127.0.0.3", &proxy, "").await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(make_room("127.0.0.3", &proxy, "").await.0, 200);
    assert_eq!(make_room("127.0.0.3", &proxy, "").await.0, 429, "its third of the minute");
    assert_eq!(make_room("127.0.0.3", &proxy, "x-forwarded-for: 127.0.0.9\r\n").await.0, 429, "spoofed through nginx");
    // Another client behind the same proxy has its own allowance.
    assert_eq!(make_room("127.0.0.4", &proxy, "").await.0, 200, "a second client behind the proxy");
    // Straight to qi, a header from a peer that is not the proxy is ignored: .3 is still .3.
    assert_eq!(make_room("127.0.0.3", &qi.addr, "x-forwarded-for: 127.0.0.10\r\n").await.0, 429);
    assert_eq!(make_room("127.0.0.3", &qi.addr, "forwarded: for=127.0.0.11\r\n").await.0, 429);

    // A room's WebSockets through the proxy: both seats, a move, its state on the other side.
    let room: Value = serde_json::from_str(&first).unwrap();
    let mut red = Client::seat(&proxy, &room, "red").await.expect("Red's socket through nginx");
    let mut black = Client::seat(&proxy, &room, "black").await.expect("Black's socket through nginx");
    red.send_move(0, "h2e2").await.unwrap();
    let seen = black.state_where(|s| s["moves"] == json!(["h2e2"])).await.expect("Black sees Red's move");
    assert_eq!(seen["moves"], json!(["h2e2"]));
}
