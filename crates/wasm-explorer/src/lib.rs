#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod mine;

use serde::Deserialize;
use serde_json::{json, Value};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use xiangqi_explorer::{master, read_request, Explorer, Request};

pub use mine::MAX_MY_GAMES;

thread_local! {
    /// The user's own collections (the module runs on one thread).
    static MINE: RefCell<Explorer> = RefCell::new(Explorer::new());
}

/// `{"status": 200, "body": answer}` or `{"status": 400, "body": {"error": message}}`.
fn envelope(result: Result<Value, String>) -> String {
    match result {
        Ok(body) => json!({ "status": 200, "body": body }),
        Err(error) => json!({ "status": 400, "body": { "error": error } }),
    }
    .to_string()
}

fn parse<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| format!("the request does not read: {e}"))
}

/// The explorer's report for the position of `request` (`{fen?, moves}`) from `sources`:
/// `all` (or empty), `master` or `mine`.
#[wasm_bindgen]
pub fn explore(request: &str, sources: &str) -> String {
    envelope((|| {
        let request: Request = parse(request)?;
        let (start, moves) = read_request(&request).map_err(|e| e.0)?;
        MINE.with(|mine| {
            let mine = mine.borrow();
            let list: Vec<&Explorer> = match sources {
                "" | "all" => vec![master(), &mine],
                "master" => vec![master()],
                "mine" => vec![&mine],
                other => return Err(format!("unknown sources {other:?} (all, master or mine)")),
            };
            let report = xiangqi_explorer::explore(&list, &start, &moves);
            serde_json::to_value(report).map_err(|e| e.to_string())
        })
    })())
}

/// The ECCO opening of the game of `request` (`{fen?, moves}`): `{code, name_zh, name_en}`, or
/// `null` when the table names none.
#[wasm_bindgen]
pub fn classify(request: &str) -> String {
    envelope((|| {
        let request: Request = parse(request)?;
        let (start, moves) = read_request(&request).map_err(|e| e.0)?;
        Ok(match xiangqi_opening::classify(&start, &moves) {
            Some(o) => json!({ "code": o.code, "name_zh": o.name_zh, "name_en": o.name_en }),
            None => Value::Null,
        })
    })())
}

/// Adds `games` (`[{id, fen?, moves, result?}]`) to the user's explorer: `{added, games}`.
#[wasm_bindgen(js_name = addGames)]
pub fn add_games(games: &str) -> String {
    envelope((|| {
        let games: Vec<mine::NewGame> = parse(games)?;
        MINE.with(|m| mine::add(&mut m.borrow_mut(), &games))
    })())
}

/// The user's explorer, packed (`xiangqi-explorer`'s format), for the page to keep.
#[wasm_bindgen(js_name = myGames)]
pub fn my_games() -> Vec<u8> {
    MINE.with(|m| m.borrow().pack())
}

/// How many games the user's explorer holds.
#[wasm_bindgen(js_name = myGamesCount)]
pub fn my_games_count() -> usize {
    MINE.with(|m| m.borrow().len())
}

/// Replaces the user's explorer with packed games (what [`my_games`] gave): `{games}`.
#[wasm_bindgen(js_name = loadMyGames)]
pub fn load_my_games(bytes: &[u8]) -> String {
    envelope((|| {
        let explorer = Explorer::from_packed(bytes).map_err(|e| e.0)?;
        if explorer.len() > MAX_MY_GAMES {
            return Err(format!("{} games: your explorer holds at most {MAX_MY_GAMES}", explorer.len()));
        }
        let games = explorer.len();
        MINE.with(|m| *m.borrow_mut() = explorer);
        Ok(json!({ "games": games }))
    })())
}

/// Empties the user's explorer.
#[wasm_bindgen(js_name = clearMyGames)]
pub fn clear_my_games() {
    MINE.with(|m| *m.borrow_mut() = Explorer::new());
}
