//! The API's error: a status code and a message, sent as `{"error": "..."}`, plus, when the
//! page should say it in the user's language, a `code` and its `vars`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

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

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        qi_api::ApiError::new(status.as_u16(), message).into()
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

/// The page API's errors carry their status as a number.
impl From<qi_api::ApiError> for ApiError {
    fn from(e: qi_api::ApiError) -> ApiError {
        let status = StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        ApiError { status, message: e.message, code: e.code, vars: e.vars }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body =
            qi_api::ApiError { status: self.status.as_u16(), message: self.message, code: self.code, vars: self.vars }
                .to_json();
        (self.status, Json(body)).into_response()
    }
}

/// The last resort when a handler panics: a 500 with a JSON body, and the server keeps running.
pub fn panic_response(_panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response()
}
