//! Every request-answer endpoint by its path, for a caller that holds only JSON text (the
//! WebAssembly module). The server routes the same paths to the same functions itself.

use crate::{engine, game, huarong, link, moves, pgn, record, ApiError};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The paths [`call`] answers (after `/api`); analysis and review stream, so they are not here.
pub const CALL_PATHS: [&str; 14] = [
    "/xq/game",
    "/xq/link",
    "/xq/link/encode",
    "/xq/move",
    "/xq/pgn/import",
    "/xq/pgn/export",
    "/xq/record/import",
    "/xq/record/export",
    "/xq/engine",
    "/xq/levels",
    "/huarong/classics",
    "/huarong/layout",
    "/huarong/solve",
    "/huarong/hint",
];

/// Answers the request `body` (a JSON object; empty for `/huarong/classics` and `/xq/levels`) sent to `path`,
/// as the server's `POST /api{path}` does; `entropy` is any varied number (the weak engine
/// levels and an unseeded puzzle pick with it). `/huarong/puzzle` is answered too.
///
/// # Errors
/// What the endpoint says, with the status the server would answer; 404 for an unknown path,
/// 400 for a body that is not a JSON object, 422 for one whose fields do not fit.
pub fn call(path: &str, body: &str, entropy: u64) -> Result<serde_json::Value, ApiError> {
    match path {
        "/xq/game" => answer(game::describe(&parse_request(body)?)),
        "/xq/link" => answer(link::decode(&parse_request(body)?)),
        "/xq/link/encode" => answer(link::encode(&parse_request(body)?)),
        "/xq/move" => answer(moves::read_move(&parse_request(body)?)),
        "/xq/pgn/import" => answer(pgn::import(&parse_request(body)?)),
        "/xq/pgn/export" => answer(pgn::export(&parse_request(body)?)),
        "/xq/record/import" => answer(record::import(&parse_request(body)?)),
        "/xq/record/export" => answer(record::export(&parse_request(body)?)),
        "/xq/engine" => answer(engine::best_move(&parse_request(body)?, entropy)),
        "/xq/levels" => answer(Ok(engine::levels())),
        "/huarong/classics" => answer(Ok(huarong::classics())),
        "/huarong/layout" => answer(huarong::describe(&parse_request(body)?)),
        "/huarong/solve" => answer(huarong::solve_layout(&parse_request(body)?)),
        "/huarong/hint" => answer(huarong::hint(&parse_request(body)?)),
        "/huarong/puzzle" => answer(huarong::puzzle(&parse_request(body)?, entropy)),
        _ => Err(ApiError::not_found(format!("no API endpoint {}", xiangqi::Excerpt(path)))),
    }
}

/// Reads a request body: a JSON object whose fields fit `T`.
///
/// # Errors
/// 400 when the text is not JSON or not an object, 422 when its fields do not fit.
pub fn parse_request<T: DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    let value: serde_json::Value =
        serde_json::from_str(body).map_err(|e| ApiError::bad_request(format!("the body is not valid JSON: {e}")))?;
    // serde would also take `[]` for a struct of defaults.
    if !value.is_object() {
        return Err(ApiError::bad_request("the body must be a JSON object"));
    }
    serde_json::from_value(value).map_err(|e| ApiError::new(422, format!("the JSON does not fit: {e}")))
}

fn answer(result: Result<impl Serialize, ApiError>) -> Result<serde_json::Value, ApiError> {
    let value = result?;
    serde_json::to_value(value).map_err(|e| ApiError::new(500, format!("internal error: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_path_is_answered() {
        for path in CALL_PATHS {
            let error = call(path, "[]", 0).err();
            assert_ne!(error.map(|e| e.status), Some(404), "{path}");
        }
        assert_eq!(call("/nope", "{}", 0).unwrap_err().status, 404);
    }

    #[test]
    fn bodies_are_objects_whose_fields_fit() {
        assert_eq!(call("/xq/game", "[]", 0).unwrap_err().status, 400);
        assert_eq!(call("/xq/game", "{", 0).unwrap_err().status, 400);
        assert_eq!(call("/xq/game", r#"{"moves": 3}"#, 0).unwrap_err().status, 422);
        assert_eq!(call("/xq/game", r#"{"bogus": 1}"#, 0).unwrap_err().status, 422);
        let view = call("/xq/game", r#"{"moves": ["h2e2"]}"#, 0).unwrap();
        // Black after 炮二平五: the h-file cannon has one more square than at the start.
        assert_eq!(view["legal"].as_array().unwrap().len(), 45);
    }

    #[test]
    fn a_puzzle_is_the_same_for_the_same_seed() {
        let body = r#"{"min": 60, "max": 70, "seed": "2026-12-01"}"#;
        assert_eq!(call("/huarong/puzzle", body, 1).unwrap(), call("/huarong/puzzle", body, 2).unwrap());
    }
}
