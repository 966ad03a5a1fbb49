#![no_main]
//! Any text as a shared board link's query, through the real router wherever a link is read
//! for a preview: the board and embed pages' preview tags (`/xq?…`, `/embed?…`), the card
//! (`/preview/xq.png?…`) and the oEmbed answer (`/oembed?…`, raw or as the `url` of a board
//! link). Every answer is below 500; an oEmbed answer's `html` is one iframe and a page gains
//! no tag but the preview's own (whatever the link says, it is escaped).

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use tower::ServiceExt;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap())
}

/// The bytes as a query an address can carry: what a URI may hold stays (`%` too, so the
/// fuzzer writes its own escapes, good or bad), anything else is percent-escaped.
fn query(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?%".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

async fn get(uri: &str) -> Option<(u16, Vec<u8>)> {
    let request = Request::get(uri).body(Body::empty()).ok()?;
    let response = qi_web::router().oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    Some((status, response.into_body().collect().await.unwrap().to_bytes().to_vec()))
}

fn tags(body: &[u8]) -> usize {
    body.iter().filter(|&&b| b == b'<').count()
}

/// A page's tag count without a preview and with one (a game that reads).
fn reference(page: &'static str) -> (usize, usize) {
    runtime().block_on(async {
        let plain = get(page).await.unwrap();
        let shown = get(&format!("{page}?moves=h2e2")).await.unwrap();
        assert_eq!((plain.0, shown.0), (200, 200));
        (tags(&plain.1), tags(&shown.1))
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let q = query(rest);
    let (uri, page) = match pick % 5 {
        0 => (format!("/oembed?{q}"), None),
        1 => {
            let url = form_urlencoded::byte_serialize(b"https://qi.example/xq?").collect::<String>() + &q;
            (format!("/oembed?format=json&url={url}"), None)
        }
        2 => (format!("/xq?{q}"), Some("/xq")),
        3 => (format!("/embed?{q}"), Some("/embed")),
        _ => (format!("/preview/xq.png?{q}"), None),
    };
    let Some((status, body)) = runtime().block_on(get(&uri)) else { return };
    // A card is drawn on the preview pool within 5 s, else 503 (the documented answer of a busy
    // server): under the address sanitizer on a loaded machine a long game's card can take that.
    let busy = status == 503 && uri.starts_with("/preview/") && String::from_utf8_lossy(&body).contains("longer than");
    assert!(status < 500 || busy, "{uri}: {status} {}", String::from_utf8_lossy(&body));
    if uri.starts_with("/oembed") && status == 200 {
        let value: serde_json::Value = serde_json::from_slice(&body).expect("oEmbed answers JSON");
        let html = value["html"].as_str().expect("an html snippet");
        assert!(html.starts_with("<iframe ") && tags(html.as_bytes()) == 2, "{uri}: {html}");
    }
    if let Some(page) = page {
        static XQ: OnceLock<(usize, usize)> = OnceLock::new();
        static EMBED: OnceLock<(usize, usize)> = OnceLock::new();
        let cell = if page == "/xq" { &XQ } else { &EMBED };
        let (plain, shown) = *cell.get_or_init(|| reference(page));
        let n = tags(&body);
        assert!(status != 200 || n == plain || n == shown, "{uri}: {n} tags, {plain} plain, {shown} with a preview");
    }
});
