//! The page API by path, as JSON text in and out.

use wasm_bindgen::prelude::*;

/// Answers `body` (JSON text) sent to `path` (`/xq/game`, `/huarong/solve`, …, as the server's
/// `/api{path}`) with `{"status": 200, "body": answer}`, or with the error's status and
/// `{"error", "code"?, "vars"?}` as the body: never throws.
#[wasm_bindgen]
pub fn call(path: &str, body: &str) -> String {
    envelope(qi_api::call(path, body, entropy()))
}

/// An answer as the module returns it: `{"status": 200, "body": answer}`, or the error's status
/// with `{"error", "code"?, "vars"?}` as the body (index.js unwraps it).
pub(crate) fn envelope(result: Result<serde_json::Value, qi_api::ApiError>) -> String {
    let (status, body) = match result {
        Ok(answer) => (200, answer),
        Err(e) => (e.status, e.to_json()),
    };
    serde_json::json!({ "status": status, "body": body }).to_string()
}

/// A varied number for the weak engine levels and unseeded puzzles.
pub(crate) fn entropy() -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        (js_sys::Math::random() * 2f64.powi(53)) as u64
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        qi_api::clock_entropy()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_errors_carry_their_status() {
        let ok: serde_json::Value = serde_json::from_str(&call("/xq/game", r#"{"moves": ["h2e2"]}"#)).unwrap();
        assert_eq!(ok["status"], 200);
        assert_eq!(ok["body"]["moves"][0]["wxf"], "C2.5");
        let bad: serde_json::Value = serde_json::from_str(&call("/xq/game", r#"{"moves": ["h2h8"]}"#)).unwrap();
        assert_eq!(bad["status"], 400);
        assert_eq!(bad["body"]["code"], "illegal_move");
        let none: serde_json::Value = serde_json::from_str(&call("/rooms", "{}")).unwrap();
        assert_eq!(none["status"], 404);
    }
}
