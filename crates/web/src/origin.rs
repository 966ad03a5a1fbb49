//! The server's own address as the client used it, for the absolute links the server writes
//! (a room's invitations, a preview's `og:url` and `og:image`).

use axum::http::HeaderMap;

/// `http://host:port` as the client addressed the server (`https` behind a proxy that says so).
pub(crate) fn origin(headers: &HeaderMap) -> String {
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b)))
        .unwrap_or("localhost");
    let https = headers.get("x-forwarded-proto").is_some_and(|p| p.as_bytes().eq_ignore_ascii_case(b"https"));
    format!("{}://{host}", if https { "https" } else { "http" })
}
