//! `Engine`: the search for JavaScript, meant to run in a Web Worker (a search blocks the
//! thread it runs on; a worker's `terminate()` is the page's way to stop one early, since a
//! plain static server cannot give the page the cross-origin isolation that shared memory,
//! and so a stop flag set from another thread, would need).

use crate::call::envelope;
use qi_api::analysis::{self, AnalyseRequest, ReviewRequest};
use qi_api::game::replay;
use qi_api::{parse_request, ApiError};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use xiangqi_engine::{Limits, SearchInfo};

/// What `go` may be asked (the engine's own limits; the page's analysis has its own bounds).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct GoRequest {
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    depth: Option<u32>,
    #[serde(default)]
    nodes: Option<u64>,
    #[serde(default)]
    movetime_ms: Option<u64>,
    #[serde(default)]
    multipv: Option<usize>,
}

/// A searcher with its own transposition table and move-ordering statistics, kept between
/// searches (call `clear()` for a new game).
#[wasm_bindgen]
pub struct Engine {
    inner: xiangqi_engine::Engine,
}

fn info_json(info: &SearchInfo) -> Value {
    let lines: Vec<Value> = info
        .lines
        .iter()
        .map(|l| {
            json!({
                "score": {"cp": l.score.centipawns(), "mate": l.score.mate_in()},
                "pv": l.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "bestmove": info.best.map(|m| m.to_string()),
        "depth": info.depth,
        "seldepth": info.seldepth,
        "nodes": info.nodes,
        "time_ms": info.elapsed.as_millis() as u64,
        "nps": (info.nodes as f64 / info.elapsed.as_secs_f64().max(1e-3)) as u64,
        "lines": lines,
    })
}

fn emit(on_event: &js_sys::Function, name: &str, data: &impl serde::Serialize) -> bool {
    let text = serde_json::to_string(data).unwrap_or_default();
    on_event.call2(&JsValue::NULL, &JsValue::from_str(name), &JsValue::from_str(&text)).is_ok()
}

#[wasm_bindgen]
impl Engine {
    /// An engine with a transposition table of `hash_mb` MiB (16 when not given).
    #[wasm_bindgen(constructor)]
    pub fn new(hash_mb: Option<usize>) -> Engine {
        Engine { inner: xiangqi_engine::Engine::new(hash_mb.unwrap_or(16)) }
    }

    /// Searches the position at the end of a game: `request` is JSON `{fen?, moves?, depth?,
    /// nodes?, movetime_ms?, multipv?}` (no limit at all: depth 10). Calls `on_info(json)` after
    /// each completed depth (return `false` from it to stop), and returns the final JSON
    /// `{bestmove, depth, seldepth, nodes, time_ms, nps, lines: [{score: {cp, mate}, pv}]}`,
    /// scores for the side to move.
    ///
    /// # Errors
    /// A request that does not read, a bad FEN or move.
    pub fn go(&mut self, request: &str, on_info: Option<js_sys::Function>) -> Result<String, JsError> {
        let fail = |e: ApiError| JsError::new(&e.message);
        let req: GoRequest = parse_request(request).map_err(fail)?;
        let (start, moves) = replay(req.fen.as_deref(), &req.moves).map_err(fail)?;
        let (pos, history) = xiangqi_engine::replay(&start, &moves);
        let mut limits = Limits {
            depth: req.depth.map(|d| d.clamp(1, xiangqi_engine::MAX_DEPTH)),
            nodes: req.nodes,
            time: req.movetime_ms.map(Duration::from_millis),
            multipv: req.multipv.unwrap_or(1).clamp(1, 16),
            ..Limits::default()
        };
        if limits.depth.is_none() && limits.nodes.is_none() && limits.time.is_none() {
            limits.depth = Some(10);
        }
        let stop = Arc::new(AtomicBool::new(false));
        self.inner.set_stop_handle(Arc::clone(&stop));
        let info = self.inner.search(&pos, &history, &limits, |info| {
            if let Some(f) = &on_info {
                let text = info_json(info).to_string();
                let go_on = f.call1(&JsValue::NULL, &JsValue::from_str(&text));
                if go_on.is_ok_and(|v| v == JsValue::FALSE) {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        });
        Ok(info_json(&info).to_string())
    }

    /// The page's analysis, as the server's `POST /api/xq/analyse`: `body` as there; calls
    /// `on_event("info", json)` after each depth and returns `""` once `on_event("done", json)`
    /// was called, or the error as `{"status", "body"}` JSON.
    pub fn analyse(&mut self, body: &str, on_event: &js_sys::Function) -> String {
        let job = match parse_request::<AnalyseRequest>(body).and_then(|req| analysis::prepare_analysis(&req)) {
            Ok(job) => job,
            Err(e) => return envelope(Err(e)),
        };
        let done = analysis::analyse(&job, &mut self.inner, |info| emit(on_event, "info", info));
        emit(on_event, "done", &done);
        String::new()
    }

    /// The page's game review, as the server's `POST /api/xq/review`: `on_event("position",
    /// json)` per position, then `on_event("done", judgements)`; returns `""`, or the error.
    pub fn review(&mut self, body: &str, on_event: &js_sys::Function) -> String {
        let job = match parse_request::<ReviewRequest>(body).and_then(|req| analysis::prepare_review(&req)) {
            Ok(job) => job,
            Err(e) => return envelope(Err(e)),
        };
        if let Some(judged) = analysis::review(&job, &mut self.inner, |score| emit(on_event, "position", score)) {
            emit(on_event, "done", &judged);
        }
        String::new()
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.inner.clear();
    }
}
