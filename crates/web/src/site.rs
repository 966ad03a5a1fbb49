//! The site's files as the build prepared them (`build.rs`): each with its content hash as a
//! validator, a hashed address cached for ever, and gzip and brotli versions. `qi serve`
//! answers from this table; `qi site` writes it out as static files.

use axum::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::io;
use std::path::Path;

/// One file of the site.
pub struct SiteFile {
    /// Its name under `assets/` (`board.js`, `xq.html`, `qi/qi_wasm_bg.wasm`), or `sw.js`.
    pub name: &'static str,
    /// Its plain address (`/assets/board.js`); empty for a page, served at its route.
    pub url: &'static str,
    /// Its address with the content hash (`/assets/board.0123456789.js`), cached for ever;
    /// empty for pages and the service worker, which must always be revalidated.
    pub hashed: &'static str,
    /// A strong validator: the content hash, quoted.
    pub etag: &'static str,
    /// The bytes, and compressed.
    pub raw: &'static [u8],
    /// gzip.
    pub gzip: &'static [u8],
    /// brotli.
    pub brotli: &'static [u8],
}

/// Every file of the site.
pub static FILES: &[SiteFile] = include!(concat!(env!("OUT_DIR"), "/site_files.rs"));

/// The pages and where they are served; `qi site` writes each as a folder's `index.html`.
pub const PAGES: [(&str, &str); 5] = [
    ("/", "index.html"),
    ("/xq", "xq.html"),
    ("/puzzles", "puzzles.html"),
    ("/huarong", "huarong.html"),
    ("/embed", "embed.html"),
];

/// The page shown for any address that is not a page or file.
pub const NOT_FOUND_PAGE: &str = "404.html";

/// Scripts, styles and fonts are never changed under a hashed name.
const FOREVER: &str = "public, max-age=31536000, immutable";

/// The file at `url` (plain or hashed address), and whether it was asked by its hash.
pub fn by_url(url: &str) -> Option<(&'static SiteFile, bool)> {
    FILES.iter().find_map(|f| {
        if !f.hashed.is_empty() && f.hashed == url {
            Some((f, true))
        } else if f.url == url {
            Some((f, false))
        } else {
            None
        }
    })
}

/// The file called `name` (`xq.html`, `sw.js`).
pub fn by_name(name: &str) -> Option<&'static SiteFile> {
    FILES.iter().find(|f| f.name == name)
}

/// The answer for `file` to a request with `headers`: 304 when the client's copy is current,
/// else the smallest encoding the client takes.
pub fn respond(file: &SiteFile, forever: bool, headers: &HeaderMap) -> Response {
    let mut response = if headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|tag| tag.trim() == file.etag || tag.trim() == "*"))
    {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let accepts = |coding: &str| {
            headers.get_all(ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok()).any(|v| {
                v.split(',').any(|part| {
                    let mut it = part.split(';');
                    it.next().is_some_and(|c| c.trim().eq_ignore_ascii_case(coding))
                        && it.all(|param| param.trim().replace(' ', "") != "q=0")
                })
            })
        };
        let (body, coding) = if accepts("br") && file.brotli.len() < file.raw.len() {
            (file.brotli, Some("br"))
        } else if accepts("gzip") && file.gzip.len() < file.raw.len() {
            (file.gzip, Some("gzip"))
        } else {
            (file.raw, None)
        };
        let mut response = body.into_response();
        let h = response.headers_mut();
        h.insert(CONTENT_TYPE, HeaderValue::from_static(content_type(file.name)));
        h.insert(CONTENT_LENGTH, HeaderValue::from(body.len()));
        if let Some(coding) = coding {
            h.insert(CONTENT_ENCODING, HeaderValue::from_static(coding));
        }
        response
    };
    let h = response.headers_mut();
    h.insert(ETAG, HeaderValue::from_static(file.etag));
    h.insert(VARY, HeaderValue::from_static("Accept-Encoding"));
    h.insert(CACHE_CONTROL, HeaderValue::from_static(if forever { FOREVER } else { "no-cache" }));
    response
}

/// The content type of a file name.
pub fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("webmanifest") => "application/manifest+json",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        Some("wasm") => "application/wasm",
        Some("txt") | Some("md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Marks a page as served with no server behind it (`qi site`): it hides what needs one (rooms).
const STATIC_MARK: &str = "<meta name=\"qi-server\" content=\"none\">";

/// Writes the single-player site into `dir` for any static file server, at the addresses
/// `qi serve` uses: `/xq/index.html` for `/xq`, every file at its plain and hashed address,
/// each with `.gz` and `.br` beside it for servers that send precompressed files. Returns the
/// number of files written.
///
/// # Errors
/// The folder cannot be made or written.
pub fn write_static_site(dir: &Path) -> io::Result<usize> {
    let mut written = 0;
    let mut put = |rel: &str, bytes: &[u8], gzip: Option<&[u8]>, brotli: Option<&[u8]>| -> io::Result<()> {
        let path = dir.join(rel.trim_start_matches('/'));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, bytes)?;
        written += 1;
        for (ext, data) in [("gz", gzip), ("br", brotli)] {
            if let Some(data) = data.filter(|d| d.len() < bytes.len()) {
                std::fs::write(path.with_file_name(format!("{}.{ext}", file_name(&path))), data)?;
            }
        }
        Ok(())
    };
    for file in FILES.iter().filter(|f| !f.url.is_empty()) {
        put(file.url, file.raw, Some(file.gzip), Some(file.brotli))?;
        if !file.hashed.is_empty() {
            put(file.hashed, file.raw, Some(file.gzip), Some(file.brotli))?;
        }
    }
    let favicon = by_url("/assets/favicon.ico").map(|(f, _)| f.raw).unwrap_or_default();
    put("favicon.ico", favicon, None, None)?;
    let mark = |name: &str| -> Vec<u8> {
        let page = by_name(name).map_or("", |f| std::str::from_utf8(f.raw).unwrap_or(""));
        page.replacen("<head>", &format!("<head>\n  {STATIC_MARK}"), 1).into_bytes()
    };
    for (route, name) in PAGES {
        let rel = if route == "/" { "index.html".to_string() } else { format!("{route}/index.html") };
        put(&rel, &mark(name), None, None)?;
    }
    put(NOT_FOUND_PAGE, &mark(NOT_FOUND_PAGE), None, None)?;
    Ok(written)
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::HeaderName;

    fn ask(url: &str, headers: &[(HeaderName, &str)]) -> Response {
        let mut map = HeaderMap::new();
        for (k, v) in headers {
            map.insert(k.clone(), HeaderValue::from_str(v).unwrap());
        }
        let (file, forever) = by_url(url).unwrap_or_else(|| panic!("{url} is in the site"));
        respond(file, forever, &map)
    }

    #[test]
    fn hashed_addresses_are_kept_for_ever_and_plain_ones_revalidated() {
        let board = by_url("/assets/board.js").unwrap().0;
        assert!(board.hashed.starts_with("/assets/board.") && board.hashed.ends_with(".js"), "{}", board.hashed);
        let forever = ask(board.hashed, &[]);
        assert_eq!(forever.headers()[CACHE_CONTROL], FOREVER);
        let plain = ask("/assets/board.js", &[]);
        assert_eq!(plain.headers()[CACHE_CONTROL], "no-cache");
        assert_eq!(plain.headers()[ETAG], board.etag);
        let again = ask("/assets/board.js", &[(IF_NONE_MATCH, board.etag)]);
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    }

    #[test]
    fn the_smallest_encoding_the_client_takes_is_sent() {
        let url = "/assets/xq.js";
        let br = ask(url, &[(ACCEPT_ENCODING, "gzip, deflate, br")]);
        assert_eq!(br.headers()[CONTENT_ENCODING], "br");
        let gzip = ask(url, &[(ACCEPT_ENCODING, "gzip")]);
        assert_eq!(gzip.headers()[CONTENT_ENCODING], "gzip");
        let refused = ask(url, &[(ACCEPT_ENCODING, "br;q=0, gzip")]);
        assert_eq!(refused.headers()[CONTENT_ENCODING], "gzip");
        let plain = ask(url, &[]);
        assert!(plain.headers().get(CONTENT_ENCODING).is_none());
        assert_eq!(plain.headers()[VARY], "Accept-Encoding");
    }

    #[test]
    fn pages_carry_an_import_map_of_every_script_and_the_webassembly() {
        let page = std::str::from_utf8(by_name("xq.html").unwrap().raw).unwrap();
        let map_at = page.find("<script type=\"importmap\">").expect("an import map");
        assert!(map_at < page.find("<script type=\"module\"").unwrap(), "the map comes before the modules");
        for url in ["/assets/xq.js", "/assets/board.js", "/assets/qi/index.js", "/assets/qi/qi_wasm_bg.wasm"] {
            let hashed = by_url(url).unwrap().0.hashed;
            assert!(page.contains(&format!("\"{url}\":\"{hashed}\"")), "{url}");
        }
        let style = by_url("/assets/style.css").unwrap().0.hashed;
        assert!(page.contains(&format!("href=\"{style}\"")), "the stylesheet by its hashed name");
    }

    #[test]
    fn the_manifest_names_its_icons_by_hash_and_every_page_links_it() {
        let manifest = by_url("/assets/manifest.webmanifest").unwrap().0;
        assert_eq!(content_type(manifest.name), "application/manifest+json");
        let text = std::str::from_utf8(manifest.raw).unwrap();
        for icon in ["icon-192.png", "icon-512.png", "icon-maskable-512.png"] {
            let hashed = by_url(&format!("/assets/icons/{icon}")).unwrap().0.hashed;
            assert!(text.contains(&format!("\"{hashed}\"")), "{icon} by its hashed name in {text}");
        }
        for (_, name) in PAGES.iter().filter(|(_, name)| *name != "embed.html") {
            let page = std::str::from_utf8(by_name(name).unwrap().raw).unwrap();
            assert!(page.contains(&format!("rel=\"manifest\" href=\"{}\"", manifest.hashed)), "{name}");
            assert!(page.contains("<meta name=\"theme-color\""), "{name}");
            assert!(page.contains("rel=\"apple-touch-icon\""), "{name}");
        }
    }

    #[test]
    fn the_service_worker_keeps_the_favicon_and_answers_its_plain_address() {
        let favicon = by_url("/assets/favicon.ico").unwrap().0.hashed;
        let worker = std::str::from_utf8(by_name("sw.js").unwrap().raw).unwrap();
        assert!(worker.contains(&format!("const FAVICON = '{favicon}'")), "the plain address answered with it");
        assert!(worker.contains(&format!("\"{favicon}\"")), "precached");
    }

    #[test]
    fn the_static_site_has_the_same_addresses_and_marks_itself() {
        let dir = std::env::temp_dir().join(format!("qi-site-test-{}", std::process::id()));
        let written = write_static_site(&dir).unwrap();
        assert!(written > 20, "{written}");
        let xq = std::fs::read_to_string(dir.join("xq/index.html")).unwrap();
        assert!(xq.contains(STATIC_MARK));
        let board = by_url("/assets/board.js").unwrap().0;
        assert_eq!(std::fs::read(dir.join(board.hashed.trim_start_matches('/'))).unwrap(), board.raw);
        assert!(dir.join("sw.js").exists() && dir.join("huarong/index.html").exists() && dir.join("404.html").exists());
        // The embeddable board works with no server too.
        assert!(std::fs::read_to_string(dir.join("embed/index.html")).unwrap().contains(STATIC_MARK));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
