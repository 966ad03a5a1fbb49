//! Link previews over HTTP on a real socket: the preview tags of each link form, the pictures
//! (size, same bytes each time, validators), oEmbed, and bad links answered 400.

use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use xiangqi::{Move, Position};
use xiangqi_link::LinkFormat;

/// An answer: status, headers (lower-case names) and body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The `content` of the meta tag `name` (a property or a name).
    fn meta(&self, name: &str) -> Option<String> {
        let page = self.text();
        let needle = format!("=\"{name}\" content=\"");
        let at = page.find(&needle)? + needle.len();
        let end = page[at..].find('"')?;
        Some(page[at..at + end].replace("&amp;", "&"))
    }
}

async fn server() -> SocketAddr {
    let listener = qi_web::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, qi_web::router()).await });
    addr
}

async fn get(addr: SocketAddr, path: &str, extra: &[(&str, &str)]) -> Answer {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in extra {
        head += &format!("{k}: {v}\r\n");
    }
    head += "\r\n";
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect::<Vec<_>>();
    let mut body = raw[split + 4..].to_vec();
    if headers.iter().any(|(k, v)| k == "transfer-encoding" && v == "chunked") {
        body = unchunk(&body);
    }
    Answer { status, headers, body }
}

fn unchunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = data.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = usize::from_str_radix(std::str::from_utf8(&data[..line_end]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[line_end + 2..line_end + 2 + size]);
        data = &data[line_end + 4 + size..];
    }
}

fn game(moves: &[&str]) -> (Position, Vec<Move>) {
    (Position::startpos(), moves.iter().map(|m| m.parse().unwrap()).collect())
}

fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let be = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    (be(16), be(20))
}

const OPENING: [&str; 4] = ["h2e2", "h9g7", "h0g2", "i9h9"];

#[tokio::test]
async fn each_link_form_carries_the_preview_tags_in_the_language_asked_for() {
    let addr = server().await;
    let (start, moves) = game(&OPENING);
    let compact = xiangqi_link::encode_query(LinkFormat::Compact, &start, &moves).unwrap();
    let seed = xiangqi_link::encode_query(LinkFormat::Seed, &start, &moves).unwrap();
    let plain = format!("moves={}", OPENING.join("."));
    for query in [&compact, &seed, &plain] {
        let page = get(addr, &format!("/xq?{query}&ply=2"), &[("Accept-Language", "en-GB,en;q=0.9")]).await;
        assert_eq!(page.status, 200);
        assert_eq!(page.header("vary"), Some("Accept-Language"));
        assert_eq!(page.meta("og:title").as_deref(), Some("Xiangqi game · 4 moves"), "{query}");
        assert_eq!(
            page.meta("og:description").as_deref(),
            Some("4 moves, the last 车9平8. Red to move. Replay, analyse or play on at Qi."),
        );
        assert_eq!(page.meta("twitter:card").as_deref(), Some("summary_large_image"));
        assert_eq!(page.meta("og:url"), Some(format!("http://{addr}/xq?{query}&ply=2")));
        let image = page.meta("og:image").unwrap();
        assert!(image.starts_with(&format!("http://{addr}/preview/xq.png?")), "{image}");
        assert!(!image.contains("ply="), "one picture for every view of the link: {image}");
        // The page is still the board page, its scripts and all.
        assert!(page.text().contains("/assets/xq."), "the board page");

        let zh = get(addr, &format!("/xq?{query}"), &[("Accept-Language", "zh-CN,zh;q=0.9,en;q=0.5")]).await;
        assert_eq!(zh.meta("og:title").as_deref(), Some("象棋对局 · 4 步"));
        assert!(zh.meta("og:description").unwrap().starts_with("共 4 步，最后一步 车9平8。轮到红方走棋。"));
    }
    // The Huarong page: the classic's name and its minimum steps.
    let code = {
        let layout: huarong::Layout = "VCCV/VCCV/VHHV/VSSV/S..S".parse().unwrap();
        layout.share_code()
    };
    let page = get(addr, &format!("/huarong?l={code}"), &[]).await;
    assert_eq!(page.meta("og:title").as_deref(), Some("横刀立马 · Huarong Dao"));
    assert!(page.meta("og:description").unwrap().starts_with("Solved in 81 steps at the least."));
    assert_eq!(page.meta("og:image"), Some(format!("http://{addr}/preview/huarong.png?l={code}")));
    assert_eq!(page.meta("twitter:card").as_deref(), Some("summary_large_image"));
    // A layout that is not a classic is solved for its preview.
    let page = get(addr, "/huarong?l=VCCV/VCCV/VHHV/VSSV/.S.S", &[("Accept-Language", "zh")]).await;
    assert_eq!(page.meta("og:title").as_deref(), Some("华容道布局"));
    let layout = qi_api::huarong::LayoutRequest { layout: "VCCV/VCCV/VHHV/VSSV/.S.S".into() };
    let steps = qi_api::huarong::solve_layout(&layout).unwrap().steps.unwrap();
    let said = page.meta("og:description").unwrap();
    assert!(said.starts_with(&format!("最少 {steps} 步可解。")), "{said}");
    // A board page with no game, or a link that does not read, is the plain page: it says
    // itself what is wrong.
    for path in ["/xq", "/xq?g=BQ*g", "/huarong?l=nonsense"] {
        let page = get(addr, path, &[]).await;
        assert_eq!(page.status, 200, "{path}");
        assert!(page.meta("og:image").is_none(), "{path}");
    }
}

#[tokio::test]
async fn the_picture_is_large_the_same_bytes_each_time_and_differs_between_games() {
    let addr = server().await;
    let (start, moves) = game(&OPENING);
    let compact = xiangqi_link::encode_query(LinkFormat::Compact, &start, &moves).unwrap();
    let first = get(addr, &format!("/preview/xq.png?{compact}"), &[]).await;
    assert_eq!(first.status, 200);
    assert_eq!(first.header("content-type"), Some("image/png"));
    let (w, h) = png_size(&first.body);
    assert!(w >= 1200 && h >= 630, "{w}x{h}");
    let etag = first.header("etag").unwrap().to_string();
    assert!(first.header("cache-control").unwrap().contains("max-age="));
    // The same link, and the same game in another link form: the same bytes.
    let again = get(addr, &format!("/preview/xq.png?{compact}"), &[]).await;
    assert_eq!(again.body, first.body);
    let plain = get(addr, &format!("/preview/xq.png?moves={}", OPENING.join(".")), &[]).await;
    assert_eq!(plain.body, first.body);
    assert_eq!(plain.header("etag"), Some(etag.as_str()));
    let revalidated = get(addr, &format!("/preview/xq.png?{compact}"), &[("If-None-Match", &etag)]).await;
    assert_eq!(revalidated.status, 304);
    assert!(revalidated.body.is_empty());
    // Another game, another picture.
    let other = get(addr, "/preview/xq.png?moves=h2e2.h9g7", &[]).await;
    assert_eq!(other.status, 200);
    assert_ne!(other.body, first.body);
    assert_ne!(other.header("etag"), Some(etag.as_str()));
    // A Huarong layout's picture.
    let layout = get(addr, "/preview/huarong.png?l=VCCV/VCCV/VHHV/VSSV/S..S", &[]).await;
    assert_eq!(layout.status, 200);
    assert_eq!(png_size(&layout.body), (1200, 630));
}

#[tokio::test]
async fn bad_links_are_answered_400_never_500() {
    let addr = server().await;
    let long = format!("/preview/xq.png?moves={}", "h2e2.".repeat(1000));
    for path in [
        "/preview/xq.png?g=BQ*g",
        "/preview/xq.png?g=Z0",
        "/preview/xq.png?p=%%%&r=",
        "/preview/xq.png?moves=h2e2.h2e2",
        "/preview/xq.png?fen=rubbish",
        "/preview/xq.png",
        "/preview/xq.png?flip=1",
        long.as_str(),
        "/preview/huarong.png?l=nonsense",
        "/preview/huarong.png",
        "/oembed?url=http%3A%2F%2Fx%2Fxq%3Fg%3DBQ*g&format=json",
        "/oembed?format=json",
    ] {
        let answer = get(addr, path, &[]).await;
        assert_eq!(answer.status, 400, "{path}: {}", answer.text());
        let error: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
        assert!(!error["error"].as_str().unwrap().is_empty(), "{path}");
    }
}

#[tokio::test]
async fn oembed_answers_a_rich_iframe_for_a_board_link() {
    let addr = server().await;
    let (start, moves) = game(&OPENING);
    let compact = xiangqi_link::encode_query(LinkFormat::Compact, &start, &moves).unwrap();
    let url = format!("https://qi.example/xq?{compact}&ply=1");
    let query: String = form_urlencoded::Serializer::new(String::new()).append_pair("url", &url).finish();
    let answer = get(addr, &format!("/oembed?{query}&format=json"), &[]).await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    let v: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
    assert_eq!(v["version"], "1.0");
    assert_eq!(v["type"], "rich");
    assert_eq!(v["width"], qi_web::EMBED_WIDTH);
    let html = v["html"].as_str().unwrap();
    assert!(html.starts_with("<iframe src=\""), "{html}");
    assert!(html.contains(&format!("http://{addr}/embed?{}", compact.replace('&', "&amp;"))), "{html}");
    assert_eq!(v["thumbnail_url"], format!("http://{addr}/preview/xq.png?{compact}"));
    // Bounds the consumer sets are kept, down to the narrowest the embed fits.
    let narrow = get(addr, &format!("/oembed?{query}&format=json&maxwidth=300"), &[]).await;
    let v: serde_json::Value = serde_json::from_slice(&narrow.body).unwrap();
    assert_eq!(v["width"], 300);
    // Only JSON, and only board links.
    assert_eq!(get(addr, &format!("/oembed?{query}&format=xml"), &[]).await.status, 501);
    assert_eq!(get(addr, "/oembed?url=http%3A%2F%2Fx%2Fhuarong%3Fl%3Dx", &[]).await.status, 404);
    // The board page names its oEmbed answer for discovery.
    let page = get(addr, &format!("/xq?{compact}"), &[]).await;
    assert!(page.text().contains("type=\"application/json+oembed\""));
}
