//! Huarong Dao: the classic layouts, one layout described (pieces and the moves it
//! allows, in the piece convention: one piece moving any distance is one step), the solver, a
//! hint (the next move of a shortest solution) and puzzles by difficulty from the shipped list
//! (so the page needs no survey database).

use crate::ApiError;
use huarong::puzzle::{self, SplitMix64};
use huarong::{catalog, shortest, solve, Convention, Layout, PieceSet};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The step convention of the page (the Chinese one).
const CONVENTION: Convention = Convention::Piece;
/// A layout's text is 24 characters and a share code shorter; anything much longer is not one.
const MAX_LAYOUT_CHARS: usize = 100;
/// The largest groups of layouts are solved well within this on a slow machine.
pub const SOLVE_LIMIT: Duration = Duration::from_secs(10);

/// A layout to describe, solve or hint.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutRequest {
    /// The text form (`VCCV/VCCV/VHHV/VSSV/S..S`) or a share code.
    pub layout: String,
}

/// A piece on the board.
#[derive(Serialize)]
pub struct PieceView {
    /// Its letter (`C` Cao Cao, `V` vertical, `H` horizontal, `S` soldier).
    pub piece: char,
    /// Top-left cell, row * 4 + col.
    pub cell: usize,
}

/// A move of one piece.
#[derive(Serialize)]
pub struct MoveView {
    /// The piece's letter.
    pub piece: char,
    /// Its top-left cell before, row * 4 + col.
    pub from: usize,
    /// And after.
    pub to: usize,
    /// The layout after the move, as text.
    pub layout: String,
}

/// A layout described.
#[derive(Serialize)]
pub struct LayoutView {
    /// The text form.
    pub layout: String,
    /// The share code (`/huarong?l=...`).
    pub code: String,
    /// Whether Cao Cao is at the exit.
    pub solved: bool,
    /// The pieces.
    pub pieces: Vec<PieceView>,
    /// The moves it allows (piece convention).
    pub moves: Vec<MoveView>,
}

/// A classic layout.
#[derive(Serialize)]
pub struct ClassicView {
    /// Its Chinese name (`横刀立马`).
    pub name: &'static str,
    /// Its name in pinyin.
    pub pinyin: &'static str,
    /// The text form.
    pub layout: String,
    /// The share code.
    pub code: String,
    /// Minimum steps in the piece convention; `null` when unsolvable.
    pub steps: Option<u32>,
}

/// The classic layouts.
#[derive(Serialize)]
pub struct Classics {
    /// In the catalogue's order.
    pub classics: Vec<ClassicView>,
}

/// A step of a solution.
#[derive(Serialize)]
pub struct StepView {
    /// The piece's letter.
    pub piece: char,
    /// Its top-left cell before.
    pub from: usize,
    /// And after.
    pub to: usize,
    /// The layout after the step, as text.
    pub layout: String,
    /// And as a share code.
    pub code: String,
    /// Whether it is solved.
    pub solved: bool,
}

/// A shortest solution.
#[derive(Serialize)]
pub struct SolutionView {
    /// Minimum steps from the layout; `null` when it cannot be solved.
    pub steps: Option<usize>,
    /// Layouts reachable from this one.
    pub states: usize,
    /// The steps.
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

/// The classic layouts with their minimum steps.
pub fn classics() -> Classics {
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
    Classics { classics }
}

/// The layout of `req`: pieces and moves.
///
/// # Errors
/// A layout or code that does not read.
pub fn describe(req: &LayoutRequest) -> Result<LayoutView, ApiError> {
    let layout = parse(&req.layout)?;
    Ok(LayoutView {
        layout: layout.to_text(),
        code: layout.share_code(),
        solved: layout.is_solved(),
        pieces: layout.pieces().map(|(piece, cell)| PieceView { piece: piece.letter(), cell }).collect(),
        moves: layout
            .moves(CONVENTION)
            .into_iter()
            .map(|(m, next)| MoveView { piece: m.piece.letter(), from: m.from, to: m.to, layout: next.to_text() })
            .collect(),
    })
}

/// A shortest solution of the layout of `req`.
///
/// # Errors
/// A layout or code that does not read.
pub fn solve_layout(req: &LayoutRequest) -> Result<SolutionView, ApiError> {
    let layout = parse(&req.layout)?;
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
}

/// A hint.
#[derive(Serialize)]
pub struct HintView {
    /// Minimum steps from the layout; `null` when it cannot be solved.
    pub steps: Option<usize>,
    /// The first move of a shortest solution (`null` when solved or unsolvable).
    #[serde(rename = "move")]
    pub next: Option<MoveView>,
}

/// The next best move: the first step of a shortest solution (the early-exit search).
///
/// # Errors
/// A layout or code that does not read.
pub fn hint(req: &LayoutRequest) -> Result<HintView, ApiError> {
    let layout = parse(&req.layout)?;
    let found = shortest(layout, CONVENTION);
    let next = found.path.first().map(|s| MoveView {
        piece: s.mv.piece.letter(),
        from: s.mv.from,
        to: s.mv.to,
        layout: s.layout.to_text(),
    });
    Ok(HintView { steps: found.steps, next })
}

/// Longest seed text (a date is 10 characters).
const MAX_SEED_CHARS: usize = 64;

/// What puzzle is wanted.
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

/// A puzzle.
#[derive(Serialize)]
pub struct PuzzleView {
    /// The layout, as text.
    pub layout: String,
    /// The share code (`/huarong?l=...`).
    pub code: String,
    /// Minimum steps.
    pub steps: u8,
    /// The pieces besides Cao Cao.
    pub pieces: String,
}

/// A puzzle whose minimum is in `min..=max` steps, from the list shipped with the solver; a
/// request with no seed is picked with `entropy` (any varied number).
///
/// # Errors
/// Bad bounds, piece set or seed, or no puzzle that fits (422).
pub fn puzzle(req: &PuzzleRequest, entropy: u64) -> Result<PuzzleView, ApiError> {
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
    let random = match &req.seed {
        Some(seed) if seed.chars().count() > MAX_SEED_CHARS => {
            return Err(ApiError::bad_request(format!("a seed is at most {MAX_SEED_CHARS} characters")))
        }
        Some(seed) => SplitMix64::new(SplitMix64::seed_from(seed)).next_u64(),
        None => SplitMix64::new(entropy).next_u64(),
    };
    let Some((layout, steps)) = puzzle::pick_shipped(min..=max, set, random) else {
        return Err(ApiError::unprocessable(format!("no puzzle of {min}-{max} steps with these pieces")));
    };
    Ok(PuzzleView {
        layout: layout.to_text(),
        code: layout.share_code(),
        steps,
        pieces: layout.piece_set().to_string(),
    })
}
