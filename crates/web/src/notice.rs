//! The operator's word on every page: a message shown at the top of each page (maintenance,
//! an event) and the chat switch (`data-chat="off"` on the page, which the room page reads to
//! leave its chat out). Written into each page as it is served, so that a server without them
//! serves the site's files untouched, compressed and with their validators.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{ACCEPT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, ETAG};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use std::sync::Arc;

/// The longest operator message, in characters.
pub const MAX_NOTICE_CHARS: usize = 500;

/// Largest page body the notice is written into (the site's pages are a few KiB).
const MAX_PAGE_BYTES: usize = 1 << 20;

/// What the operator says on every page.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SiteNotice {
    /// A message at the top of every page (plain text), if any.
    pub message: Option<String>,
    /// Whether players may chat in rooms.
    pub chat: bool,
}

impl Default for SiteNotice {
    fn default() -> SiteNotice {
        SiteNotice { message: None, chat: true }
    }
}

impl SiteNotice {
    /// A notice with `message` (trimmed; empty is none) and the chat on or off.
    ///
    /// # Errors
    /// When the message is longer than [`MAX_NOTICE_CHARS`].
    pub fn new(message: Option<&str>, chat: bool) -> Result<SiteNotice, String> {
        let message = message.map(str::trim).filter(|m| !m.is_empty());
        if let Some(m) = message {
            let chars = m.chars().count();
            if chars > MAX_NOTICE_CHARS {
                return Err(format!("the site message has {chars} characters; at most {MAX_NOTICE_CHARS}"));
            }
        }
        Ok(SiteNotice { message: message.map(str::to_owned), chat })
    }

    /// Whether pages are served as built (no message, chat on).
    pub fn is_plain(&self) -> bool {
        self.message.is_none() && self.chat
    }

    /// `html` with the notice written in: the chat switch on `<html>`, the message first in `<body>`.
    pub fn write_into(&self, html: &str) -> String {
        let mut out = String::with_capacity(html.len() + 256);
        let mut rest = html;
        if !self.chat {
            if let Some(at) = html.find("<html") {
                let at = at + "<html".len();
                out.push_str(&html[..at]);
                out.push_str(" data-chat=\"off\"");
                rest = &html[at..];
            }
        }
        if let Some(message) = &self.message {
            if let Some(open) = rest.find("<body") {
                if let Some(close) = rest[open..].find('>') {
                    let at = open + close + 1;
                    out.push_str(&rest[..at]);
                    out.push_str(
                        "<div class=\"site-notice\" role=\"status\" data-site-notice style=\"background:#7a2e12;\
                         color:#fff;padding:.5em 1em;text-align:center;font-weight:600\">",
                    );
                    push_escaped(&mut out, message);
                    out.push_str("</div>");
                    rest = &rest[at..];
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// A short tag for validators: pages with a notice must not match the plain pages' ETags.
    fn tag(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.hash(&mut h);
        h.finish()
    }
}

fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// Middleware: writes `notice` into every HTML page. Pages are asked uncompressed from the
/// handlers (they are small) so their text can be changed.
pub async fn onto_pages(State(notice): State<Arc<SiteNotice>>, mut request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let maybe_page = !path.starts_with("/api/") && !path.starts_with("/assets/") && path != "/sw.js";
    if !maybe_page {
        return next.run(request).await;
    }
    request.headers_mut().remove(ACCEPT_ENCODING);
    let response = next.run(request).await;
    let is_html =
        response.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("text/html"));
    if !is_html {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_PAGE_BYTES).await else {
        return Response::from_parts(parts, Body::from("the page could not be read"));
    };
    let html = String::from_utf8_lossy(&bytes);
    let written = notice.write_into(&html);
    parts.headers.insert(CONTENT_LENGTH, HeaderValue::from(written.len()));
    if let Some(etag) = parts.headers.get(ETAG).and_then(|v| v.to_str().ok()) {
        let tagged = format!("{}-{:x}\"", etag.trim_end_matches('"'), notice.tag());
        if let Ok(v) = HeaderValue::from_str(&tagged) {
            parts.headers.insert(ETAG, v);
        }
    }
    Response::from_parts(parts, Body::from(written))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_is_escaped_and_first_in_the_body_and_the_chat_switch_on_html() {
        let notice = SiteNotice::new(Some("  Back at 18:00 <b>&</b> \"soon\"  "), false).unwrap();
        let page = notice
            .write_into("<!doctype html><html lang=\"en\"><head></head><body class=\"x\"><p>hi</p></body></html>");
        assert!(page.contains("<html data-chat=\"off\" lang=\"en\">"), "{page}");
        assert!(
            page.contains("<body class=\"x\"><div class=\"site-notice\""),
            "the notice comes first in the body: {page}"
        );
        assert!(page.contains(">Back at 18:00 &lt;b&gt;&amp;&lt;/b&gt; &quot;soon&quot;</div><p>hi</p>"), "{page}");
    }

    #[test]
    fn no_notice_changes_nothing_and_a_long_message_is_refused() {
        let plain = SiteNotice::new(Some("   "), true).unwrap();
        assert!(plain.is_plain());
        let html = "<html><body>x</body></html>";
        assert_eq!(plain.write_into(html), html);
        let long = "é".repeat(MAX_NOTICE_CHARS + 1);
        assert!(SiteNotice::new(Some(&long), true).unwrap_err().contains("at most 500"));
        assert!(SiteNotice::new(Some(&long[..MAX_NOTICE_CHARS * 2]), true).is_ok());
    }
}
