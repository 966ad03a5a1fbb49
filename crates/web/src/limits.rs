//! Request limits applied before any handler runs.

use super::{ApiError, MAX_BODY_BYTES, MAX_URI_BYTES};
use axum::body::Body;
use axum::extract::Request;
use axum::http::header::{CONNECTION, CONTENT_LENGTH};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::time::Duration;

/// How long a request body may take to arrive in full, counted from the end of its header.
/// The server puts it in each request's extensions; without it (a router driven in-process)
/// [`DEFAULT_BODY_TIMEOUT`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyTimeout(pub Duration);

/// The body timeout when the server sets none.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// Refuses over-long paths and query strings (414) so no handler parses megabytes of query.
pub async fn uri_length(req: Request, next: Next) -> Response {
    let len = req.uri().path_and_query().map_or(0, |pq| pq.as_str().len());
    if len > MAX_URI_BYTES {
        crate::refusal::refused("uri_bytes");
        let message = format!("the address is {len} bytes long; at most {MAX_URI_BYTES} are accepted");
        return ApiError::new(StatusCode::URI_TOO_LONG.as_u16(), message).into_response();
    }
    next.run(req).await
}

/// Reads the whole body (at most [`MAX_BODY_BYTES`], within the [`BodyTimeout`]) before the
/// handler runs: 413 when it is larger, 408 when it comes too slowly, 400 when the client
/// breaks it off. A connection left with unread body bytes is closed after the answer.
pub async fn read_body(req: Request, next: Next) -> Response {
    let declared = req.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return closing(too_large());
    }
    let limit = req.extensions().get::<BodyTimeout>().map_or(DEFAULT_BODY_TIMEOUT, |t| t.0);
    let (parts, body) = req.into_parts();
    let bytes = match tokio::time::timeout(limit, axum::body::to_bytes(body, MAX_BODY_BYTES)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(e)) if is_length_limit(&e) => return closing(too_large()),
        Ok(Err(_)) => return closing(ApiError::bad_request("the request body could not be read")),
        Err(_elapsed) => {
            crate::refusal::refused("body_time");
            let message = format!("the request body did not arrive within {} s", limit.as_secs_f32());
            return closing(ApiError::new(StatusCode::REQUEST_TIMEOUT.as_u16(), message));
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes))).await
}

fn too_large() -> ApiError {
    crate::refusal::refused("body_bytes");
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE.as_u16(),
        format!("the request body is larger than {MAX_BODY_BYTES} bytes"),
    )
}

fn is_length_limit(error: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        if e.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        source = e.source();
    }
    false
}

/// `response` with the connection closed after it (its framing cannot be trusted, or body
/// bytes are left unread on it).
pub(super) fn closing(response: impl IntoResponse) -> Response {
    let mut response = response.into_response();
    response.headers_mut().insert(CONNECTION, HeaderValue::from_static("close"));
    response
}
