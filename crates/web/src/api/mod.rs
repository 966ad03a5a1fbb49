//! The JSON API the pages use. Each endpoint is one thin adapter over the libraries.

mod huarong;
mod xq_analysis;
mod xq_engine;
mod xq_errors;
mod xq_game;
mod xq_link;
mod xq_move;
mod xq_pgn;
mod xq_record;

use super::ApiError;
use axum::http::Uri;
use axum::routing::{get, post};
use axum::Router;

pub use xq_game::{GameRequest, GameView};

pub fn routes() -> Router {
    Router::new()
        .route("/huarong/classics", get(huarong::classics))
        .route("/huarong/layout", post(huarong::describe))
        .route("/huarong/solve", post(huarong::solve_layout))
        .route("/xq/analyse", post(xq_analysis::analyse))
        .route("/xq/review", post(xq_analysis::review))
        .route("/xq/move", post(xq_move::read_move))
        .route("/xq/record/import", post(xq_record::import))
        .route("/xq/record/export", post(xq_record::export))
        .route("/huarong/hint", post(huarong::hint))
        .route("/huarong/puzzle", post(huarong::puzzle))
        .route("/xq/engine", post(xq_engine::best_move))
        .route("/xq/game", post(xq_game::handle))
        .route("/xq/link", post(xq_link::decode))
        .route("/xq/link/encode", post(xq_link::encode))
        .route("/xq/pgn/import", post(xq_pgn::import))
        .route("/xq/pgn/export", post(xq_pgn::export))
        .fallback(unknown)
}

async fn unknown(uri: Uri) -> ApiError {
    ApiError::not_found(format!("no API endpoint {}", uri.path()))
}
