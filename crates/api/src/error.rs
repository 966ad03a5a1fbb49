//! The API's error: an HTTP status, a message, and, when a page should say it in the user's
//! language, a `code` and its `vars`.

/// An error answered to the client. Bad input is always a 4xx with a message saying what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status the server answers with (400, 404, 422, 429, ...).
    pub status: u16,
    /// What is wrong, in English, at most [`MAX_MESSAGE_BYTES`].
    pub message: String,
    /// A stable name of the error (`"illegal_move"`) that the page translates, with the values
    /// its text needs; `None` for errors only shown as they are.
    pub code: Option<&'static str>,
    /// The values the translated text needs (`("ply", "3")`).
    pub vars: Vec<(&'static str, String)>,
}

/// Longest message sent; a longer one (a serde error quoting a whole field, a long path) keeps
/// its start and its end. Messages built here quote input through `xiangqi::Excerpt`.
pub const MAX_MESSAGE_BYTES: usize = 300;

impl ApiError {
    /// An error with `status` and `message` (shortened to [`MAX_MESSAGE_BYTES`]).
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
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
        ApiError::new(400, message)
    }

    /// 404: no such thing (an unknown endpoint).
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, message)
    }

    /// 422: the content is valid but cannot be processed (e.g. no puzzle fits the request).
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(422, message)
    }

    /// The error as the JSON body every client reads: `{"error"}`, plus `code` and `vars`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut body = serde_json::Map::new();
        body.insert("error".into(), self.message.clone().into());
        if let Some(code) = self.code {
            let vars: serde_json::Map<String, serde_json::Value> =
                self.vars.iter().map(|(k, v)| (k.to_string(), v.clone().into())).collect();
            body.insert("code".into(), code.into());
            body.insert("vars".into(), vars.into());
        }
        body.into()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl std::error::Error for ApiError {}

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

    #[test]
    fn the_json_body_carries_code_and_vars_only_when_coded() {
        assert_eq!(ApiError::bad_request("x").to_json(), serde_json::json!({"error": "x"}));
        let coded = ApiError::bad_request("x").with_code("busy", [("n", "2".to_string())]);
        assert_eq!(coded.to_json(), serde_json::json!({"error": "x", "code": "busy", "vars": {"n": "2"}}));
    }
}
