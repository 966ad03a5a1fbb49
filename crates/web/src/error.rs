//! The API's error: a status code and a message, sent as `{"error": "..."}`, plus, when the
//! page should say it in the user's language, a `code` and its `vars`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// An error answered to the client. Bad input is always a 4xx with a message saying what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// A stable name of the error (`"illegal_move"`) that the page translates, with the values
    /// its text needs; `None` for errors only shown as they are.
    pub code: Option<&'static str>,
    pub vars: Vec<(&'static str, String)>,
}

/// Longest message sent; a longer one (a serde error quoting a whole field, a long path) keeps
/// its start and its end. Messages built here quote input through `xiangqi::Excerpt`.
pub const MAX_MESSAGE_BYTES: usize = 300;

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: shorten(message.into()), code: None, vars: Vec::new() }
    }

    /// The same error with a code for the page to translate and the values its text needs.
    pub fn with_code(mut self, code: &'static str, vars: impl IntoIterator<Item = (&'static str, String)>) -> ApiError {
        self.code = Some(code);
        self.vars.extend(vars);
        self
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
        let body = match self.code {
            None => json!({ "error": self.message }),
            Some(code) => {
                let vars: serde_json::Map<String, serde_json::Value> =
                    self.vars.into_iter().map(|(k, v)| (k.to_string(), v.into())).collect();
                json!({ "error": self.message, "code": code, "vars": vars })
            }
        };
        (self.status, Json(body)).into_response()
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
