//! The Huarong Dao page's preview (`/huarong?l=CODE`): the layout's name when it is a classic
//! and its minimum number of steps, and its picture (`/preview/huarong.png?l=CODE`).

use super::{cards, tags, words};
use crate::cpu;
use crate::origin::origin;
use crate::ApiError;
use axum::extract::RawQuery;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use lru::LruCache;
use qi_api::huarong::{self as api, LayoutRequest, LayoutView};
use qi_board_image::Block;
use std::num::NonZeroUsize;
use std::sync::Mutex;
use std::time::Duration;

/// Layouts whose minimum steps are remembered, so that a page asked again is not solved again.
pub const MAX_SOLVED_LAYOUTS: usize = 1024;
/// A preview waits this long for a solution; past it the page says no number (the search,
/// bounded by the solver pool's own limit, is left to end).
const SOLVE_WAIT: Duration = Duration::from_secs(3);

static SOLVED: Mutex<Option<LruCache<String, Option<usize>>>> = Mutex::new(None);

/// The layout's code from a Huarong page's query (`l=`), if it has one.
fn code_of(query: &str) -> Option<String> {
    form_urlencoded::parse(query.trim_start_matches('?').as_bytes())
        .find(|(k, _)| k == "l")
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// The layout, checked, on the games pool.
async fn layout(code: String) -> Result<LayoutView, ApiError> {
    cpu::GAMES.run(Duration::from_secs(5), move || api::describe(&LayoutRequest { layout: code })).await
}

/// The classic with this code: its name and its steps.
fn classic(code: &str) -> Option<(&'static str, Option<usize>)> {
    api::classics().classics.into_iter().find(|c| c.code == code).map(|c| (c.name, c.steps.map(|s| s as usize)))
}

/// The minimum steps of the layout with this code: `Some(None)` when it has no solution,
/// `None` when the solver did not answer in time.
async fn steps(code: &str) -> Option<Option<usize>> {
    let remembered = SOLVED.lock().unwrap_or_else(|e| e.into_inner()).as_mut().and_then(|c| c.get(code).copied());
    if remembered.is_some() {
        return remembered;
    }
    let layout = code.to_string();
    let solved =
        cpu::SOLVER.run(SOLVE_WAIT, move || Ok(api::solve_layout(&LayoutRequest { layout })?.steps)).await.ok()?;
    let mut guard = SOLVED.lock().unwrap_or_else(|e| e.into_inner());
    let cache =
        guard.get_or_insert_with(|| LruCache::new(NonZeroUsize::new(MAX_SOLVED_LAYOUTS).unwrap_or(NonZeroUsize::MIN)));
    cache.put(code.to_string(), solved);
    Some(solved)
}

/// The Huarong page `page` with the preview of the layout in `query`; `None` when the query
/// names no layout or one that does not read.
pub(crate) async fn page(page: &str, query: &str, headers: &HeaderMap) -> Option<Response> {
    let view = layout(code_of(query)?).await.ok()?;
    let (name, steps) = match classic(&view.code) {
        Some((name, steps)) => (Some(name), Some(steps)),
        None => (None, steps(&view.code).await),
    };
    let lang = words::Lang::of_request(query, headers);
    let words = words::huarong(name, steps, lang);
    let base = origin(headers);
    let at = tags::Addresses {
        page: format!("{base}/huarong?{query}"),
        image: format!("{base}/preview/huarong.png?l={}", view.code),
        oembed: None,
    };
    Some(super::html(tags::into_page(page, &words, lang, &at)))
}

/// `/preview/huarong.png?l=CODE`: the layout's picture, its minimum steps beside it.
pub(crate) async fn card(RawQuery(query): RawQuery, headers: HeaderMap) -> Result<Response, ApiError> {
    let code = code_of(query.as_deref().unwrap_or(""))
        .ok_or_else(|| ApiError::bad_request("give the layout as l=CODE (its share code or its text)"))?;
    let view = layout(code).await?;
    let steps = match classic(&view.code) {
        Some((_, steps)) => steps,
        None => steps(&view.code).await.flatten(),
    };
    let blocks: Vec<Block> = view
        .pieces
        .iter()
        .map(|p| {
            let (width, height) = match p.piece {
                'C' => (2, 2),
                'H' => (2, 1),
                'V' => (1, 2),
                _ => (1, 1),
            };
            let cols = huarong::board::COLS;
            Block { col: (p.cell % cols) as u32, row: (p.cell / cols) as u32, width, height, main: p.piece == 'C' }
        })
        .collect();
    let caption = steps.map(|n| n.to_string()).unwrap_or_default();
    let (cols, rows) = (huarong::board::COLS as u32, huarong::board::ROWS as u32);
    cards::answer(format!("huarong {} {caption}", view.code), &headers, move || {
        qi_board_image::blocks_card_png(cols, rows, &blocks, &caption)
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR.as_u16(), e.to_string()))
    })
    .await
}
