//! Request limits applied before any handler runs.

use super::{ApiError, MAX_URI_BYTES};
use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Refuses over-long paths and query strings (414) so no handler parses megabytes of query.
pub async fn uri_length(req: Request, next: Next) -> Response {
    let len = req.uri().path_and_query().map_or(0, |pq| pq.as_str().len());
    if len > MAX_URI_BYTES {
        let message = format!("the address is {len} bytes long; at most {MAX_URI_BYTES} are accepted");
        return ApiError::new(StatusCode::URI_TOO_LONG, message).into_response();
    }
    next.run(req).await
}

/// Gives the body-size layer's plain-text 413 the API's JSON form.
pub async fn json_too_large(req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE && !is_json {
        let message = format!("the request body is larger than {} bytes", super::MAX_BODY_BYTES);
        return ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, message).into_response();
    }
    response
}
