//! Huarong Dao endpoints: the classic layouts, one layout described (pieces and the moves it
//! allows, in the piece convention: one piece moving any distance is one step), the solver, a
//! hint (the next move of a shortest solution) and puzzles by difficulty from the shipped list
//! (so the page needs no survey database).

use crate::cpu;
use crate::extract::Body;
use crate::ApiError;
use axum::Json;
use huarong::puzzle::{self, SplitMix64};
use huarong::{catalog, shortest, solve, Convention, Layout, PieceSet};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The step convention of the page (the Chinese one).
const CONVENTION: Convention = Convention::Piece;
/// A layout's text is 24 characters and a share code shorter; anything much longer is not one.
const MAX_LAYOUT_CHARS: usize = 100;
/// The largest groups of layouts are solved well within this on a slow machine.
const SOLVE_LIMIT: Duration = Duration::from_secs(10);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutRequest {
    /// The text form (`VCCV/VCCV/VHHV/VSSV/S..S`) or a share code.
    pub layout: String,
}

#[derive(Serialize)]
pub struct PieceView {
    pub piece: char,
    /// Top-left cell, row * 4 + col.
    pub cell: usize,
}

#[derive(Serialize)]
pub struct MoveView {
    pub piece: char,
    pub from: usize,
    pub to: usize,
    /// The layout after the move, as text.
    pub layout: String,
}

#[derive(Serialize)]
pub struct LayoutView {
    pub layout: String,
    /// The share code (`/huarong?l=...`).
    pub code: String,
    pub solved: bool,
    pub pieces: Vec<PieceView>,
    pub moves: Vec<MoveView>,
}

#[derive(Serialize)]
pub struct ClassicView {
    pub name: &'static str,
    pub pinyin: &'static str,
    pub layout: String,
    pub code: String,
    /// Minimum steps in the piece convention; `null` when unsolvable.
    pub steps: Option<u32>,
}

#[derive(Serialize)]
pub struct Classics {
    pub classics: Vec<ClassicView>,
}

#[derive(Serialize)]
pub struct StepView {
    pub piece: char,
    pub from: usize,
    pub to: usize,
    pub layout: String,
    pub code: String,
    pub solved: bool,
}

#[derive(Serialize)]
pub struct SolutionView {
    /// Minimum steps from the layout; `null` when it cannot be solved.
    pub steps: Option<usize>,
    /// Layouts reachable from this one.
    pub states: usize,
    pub path: Vec<StepView>,
}

fn parse(text: &str) -> Result<Layout, ApiError> {
    let text = text.trim();
    if text.chars().count() > MAX_LAYOUT_CHARS {
        return Err(ApiError::bad_request(format!("a layout is at most {MAX_LAYOUT_CHARS} characters")));
    }
    if text.contains('/') {
        Layout::parse(text).map_err(|e| ApiError::bad_request(format!("bad layout: {e}")))
    } else {
        Layout::from_share_code(text).map_err(|e| ApiError::bad_request(format!("bad layout code: {e}")))
    }
}

pub async fn classics() -> Json<Classics> {
    let classics = catalog::classics()
        .iter()
        .map(|c| ClassicView {
            name: c.name,
            pinyin: c.pinyin,
            layout: c.layout.to_text(),
            code: c.layout.share_code(),
            steps: c.steps(CONVENTION),
        })
        .collect();
    Json(Classics { classics })
}

pub async fn describe(Body(req): Body<LayoutRequest>) -> Result<Json<LayoutView>, ApiError> {
    let layout = parse(&req.layout)?;
    Ok(Json(LayoutView {
        layout: layout.to_text(),
        code: layout.share_code(),
        solved: layout.is_solved(),
        pieces: layout.pieces().map(|(piece, cell)| PieceView { piece: piece.letter(), cell }).collect(),
        moves: layout
            .moves(CONVENTION)
            .into_iter()
            .map(|(m, next)| MoveView { piece: m.piece.letter(), from: m.from, to: m.to, layout: next.to_text() })
            .collect(),
    }))
}

pub async fn solve_layout(Body(req): Body<LayoutRequest>) -> Result<Json<SolutionView>, ApiError> {
    let layout = parse(&req.layout)?;
    cpu::SOLVER
        .run(SOLVE_LIMIT, move || {
            let solution = solve(layout, CONVENTION);
            Ok(SolutionView {
                steps: solution.steps,
                states: solution.states,
                path: solution
                    .path
                    .iter()
                    .map(|s| StepView {
                        piece: s.mv.piece.letter(),
                        from: s.mv.from,
                        to: s.mv.to,
                        layout: s.layout.to_text(),
                        code: s.layout.share_code(),
                        solved: s.layout.is_solved(),
                    })
                    .collect(),
            })
        })
        .await
        .map(Json)
}

#[derive(Serialize)]
pub struct HintView {
    /// Minimum steps from the layout; `null` when it cannot be solved.
    pub steps: Option<usize>,
    /// The first move of a shortest solution (`null` when solved or unsolvable).
    #[serde(rename = "move")]
    pub next: Option<MoveView>,
}

/// The next best move: the first step of a shortest solution (the early-exit search).
pub async fn hint(Body(req): Body<LayoutRequest>) -> Result<Json<HintView>, ApiError> {
    let layout = parse(&req.layout)?;
    cpu::SOLVER
        .run(SOLVE_LIMIT, move || {
            let found = shortest(layout, CONVENTION);
            let next = found.path.first().map(|s| MoveView {
                piece: s.mv.piece.letter(),
                from: s.mv.from,
                to: s.mv.to,
                layout: s.layout.to_text(),
            });
            Ok(HintView { steps: found.steps, next })
        })
        .await
        .map(Json)
}

/// Longest seed text (a date is 10 characters).
const MAX_SEED_CHARS: usize = 64;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRequest {
    /// Fewest minimum steps (default 1).
    pub min: Option<u8>,
    /// Most minimum steps (default 138).
    pub max: Option<u8>,
    /// The pieces besides Cao Cao (`4V+1H+4S`); any set of the shipped list when absent.
    pub pieces: Option<String>,
    /// The same seed gives the same puzzle (the daily puzzle sends the date); random when absent.
    pub seed: Option<String>,
}

#[derive(Serialize)]
pub struct PuzzleView {
    pub layout: String,
    /// The share code (`/huarong?l=...`).
    pub code: String,
    /// Minimum steps.
    pub steps: u8,
    /// The pieces besides Cao Cao.
    pub pieces: String,
}

/// A puzzle whose minimum is in `min..=max` steps, from the list shipped with the solver.
pub async fn puzzle(Body(req): Body<PuzzleRequest>) -> Result<Json<PuzzleView>, ApiError> {
    let (min, max) = (req.min.unwrap_or(1), req.max.unwrap_or(u8::MAX - 1));
    if min > max {
        return Err(ApiError::bad_request(format!("min ({min}) is above max ({max})")));
    }
    let set = match req.pieces.as_deref().map(str::trim).filter(|p| !p.is_empty() && *p != "any") {
        None => None,
        Some(text) if text.chars().count() > MAX_LAYOUT_CHARS => {
            return Err(ApiError::bad_request("a piece set is at most 100 characters"))
        }
        Some(text) => Some(text.parse::<PieceSet>().map_err(|e| ApiError::bad_request(e.to_string()))?),
    };
    let random = match req.seed {
        Some(seed) if seed.chars().count() > MAX_SEED_CHARS => {
            return Err(ApiError::bad_request(format!("a seed is at most {MAX_SEED_CHARS} characters")))
        }
        Some(seed) => SplitMix64::new(SplitMix64::seed_from(&seed)).next_u64(),
        None => SplitMix64::new(
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64),
        )
        .next_u64(),
    };
    let Some((layout, steps)) = puzzle::pick_shipped(min..=max, set, random) else {
        return Err(ApiError::unprocessable(format!("no puzzle of {min}-{max} steps with these pieces")));
    };
    Ok(Json(PuzzleView {
        layout: layout.to_text(),
        code: layout.share_code(),
        steps,
        pieces: layout.piece_set().to_string(),
    }))
}
