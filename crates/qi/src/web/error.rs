//! The API's error: a status code and a message, sent as `{"error": "..."}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// An error answered to the client. Bad input is always a 4xx with a message saying what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

/// Longest message sent; a longer one (a serde error quoting a whole field, a long path) keeps
/// its start and its end. Messages built here quote input through `xiangqi::Excerpt`.
pub const MAX_MESSAGE_BYTES: usize = 300;

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: shorten(message.into()) }
    }

    /// 400: the request is well formed but its content is wrong (bad FEN, illegal move...).
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 422: the content is valid but cannot be processed (e.g. an unsolvable puzzle).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

/// The message cut to [`MAX_MESSAGE_BYTES`] or a little less: its first 200 and last 80
/// bytes (on character boundaries), joined by `…`.
fn shorten(message: String) -> String {
    if message.len() <= MAX_MESSAGE_BYTES {
        return message;
    }
    let mut head = 200;
    while !message.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = message.len() - 80;
    while !message.is_char_boundary(tail) {
        tail += 1;
    }
    format!("{}…{}", &message[..head], &message[tail..])
}

/// The last resort when a handler panics: a 500 with a JSON body, and the server keeps running.
pub fn panic_response(_panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_keep_their_start_and_end() {
        let quoted = "象".repeat(20_000);
        let error = ApiError::bad_request(format!("invalid type: string \"{quoted}\", expected a move at column 9"));
        assert!(error.message.len() <= MAX_MESSAGE_BYTES, "{}", error.message.len());
        assert!(error.message.starts_with("invalid type: string \"象"), "{}", error.message);
        assert!(error.message.ends_with("expected a move at column 9"), "{}", error.message);
        assert_eq!(ApiError::bad_request("short").message, "short");
    }
}
