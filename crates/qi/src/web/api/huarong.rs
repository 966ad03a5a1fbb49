//! Huarong Dao endpoints: the classic layouts, one layout described (pieces and the moves it
//! allows, in the piece convention: one piece moving any distance is one step), and the solver.

use crate::web::cpu;
use crate::web::extract::Body;
use crate::web::ApiError;
use axum::Json;
use huarong::{catalog, solve, Convention, Layout};
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
