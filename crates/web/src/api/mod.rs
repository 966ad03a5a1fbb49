//! The JSON API the pages use: each endpoint is the `qi-api` function of the same path, run on
//! a bounded pool with a time limit (the WebAssembly module calls the same functions in the
//! browser). Analysis and review stream server-sent events (`analysis.rs`).

mod analysis;

use super::cpu::{self, Pool};
use super::extract::Body;
use super::ApiError;
use axum::http::Uri;
use axum::routing::{get, post};
use axum::{Json, Router};
use qi_api::{clock_entropy, engine, game, huarong, link, moves, pgn, record};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::time::Duration;

/// Game checks, notation, links and records take milliseconds; this is far beyond any.
const GAME_LIMIT: Duration = Duration::from_secs(5);

pub fn routes() -> Router {
    Router::new()
        .route("/huarong/classics", get(|| async { Json(huarong::classics()) }))
        .route("/huarong/layout", post(|Body(req)| async move { huarong::describe(&req).map(Json) }))
        .route("/huarong/solve", post(on(&cpu::SOLVER, huarong::SOLVE_LIMIT, huarong::solve_layout)))
        .route("/huarong/hint", post(on(&cpu::SOLVER, huarong::SOLVE_LIMIT, huarong::hint)))
        .route("/huarong/puzzle", post(|Body(req)| async move { huarong::puzzle(&req, clock_entropy()).map(Json) }))
        .route("/xq/analyse", post(analysis::analyse))
        .route("/xq/review", post(analysis::review))
        .route("/xq/move", post(on(&cpu::GAMES, GAME_LIMIT, moves::read_move)))
        .route("/xq/record/import", post(on(&cpu::GAMES, GAME_LIMIT, record::import)))
        .route("/xq/record/export", post(on(&cpu::GAMES, GAME_LIMIT, record::export)))
        .route("/xq/engine", post(best_move))
        .route("/xq/levels", get(|| async { Json(engine::levels()) }))
        .route("/xq/explore", post(on(&cpu::GAMES, GAME_LIMIT, explore)))
        .route("/xq/game", post(on(&cpu::GAMES, GAME_LIMIT, game::describe)))
        .route("/xq/link", post(on(&cpu::GAMES, GAME_LIMIT, link::decode)))
        .route("/xq/link/encode", post(on(&cpu::GAMES, GAME_LIMIT, link::encode)))
        .route("/xq/pgn/import", post(on(&cpu::GAMES, GAME_LIMIT, pgn::import)))
        .route("/xq/pgn/export", post(on(&cpu::GAMES, GAME_LIMIT, pgn::export)))
        .fallback(unknown)
}

/// What a pooled handler's future gives.
type Answer<Res> = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Json<Res>, ApiError>> + Send>>;

/// A handler that reads the body as `Req` and answers `job(&req)` from `pool` within `limit`.
fn on<Req, Res>(
    pool: &'static Pool,
    limit: Duration,
    job: fn(&Req) -> Result<Res, qi_api::ApiError>,
) -> impl Fn(Body<Req>) -> Answer<Res> + Clone + Send + Sync + 'static
where
    Req: DeserializeOwned + Send + 'static,
    Res: Serialize + Send + 'static,
{
    move |Body(req)| Box::pin(async move { pool.run(limit, move || job(&req)).await.map(Json) })
}

async fn best_move(Body(req): Body<engine::EngineRequest>) -> Result<Json<engine::EngineView>, ApiError> {
    let think = engine::think_time(&req)?;
    cpu::ENGINE.run(think + Duration::from_secs(2), move || engine::best_move(&req, clock_entropy())).await.map(Json)
}

/// The opening explorer on the master games: the same report as `qi explore --json` and the
/// browser's explorer module (`xiangqi_explorer::answer`).
fn explore(req: &xiangqi_explorer::Request) -> Result<xiangqi_explorer::Report, qi_api::ApiError> {
    xiangqi_explorer::answer(req, &[xiangqi_explorer::master()]).map_err(|e| qi_api::ApiError::bad_request(e.0))
}

async fn unknown(uri: Uri) -> ApiError {
    ApiError::not_found(format!("no API endpoint {}", uri.path()))
}
