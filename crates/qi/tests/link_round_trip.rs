//! Share links lose nothing: random games from non-standard positions with random move
//! counters come back the same (start FEN with its counters, and moves) through the library,
//! the HTTP API and the command line.

use axum::body::Body;
use axum::http::{header, Request};
use http_body_util::BodyExt;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::process::Command;
use tower::ServiceExt;
use xiangqi::{Move, Position, Setup};
use xiangqi_link::{self as link, LinkFormat};

/// A start position reached by `skip` random plies from the standard one, with the counters
/// replaced, and a random game of up to `len` plies from it.
fn random_game(seed: u64, skip: usize, len: usize, halfmoves: u32, fullmoves: u32) -> (Position, Vec<Move>) {
    let mut rng = seed | 1;
    let mut next = |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let mut pos = Position::startpos();
    for _ in 0..skip {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        pos.play_unchecked(legal[next(legal.len())]);
    }
    let start = Position::from_setup(&Setup { halfmoves, fullmoves, ..pos.to_setup() }).unwrap();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..len {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[next(legal.len())];
        pos.play_unchecked(m);
        moves.push(m);
    }
    (start, moves)
}

fn counters() -> impl Strategy<Value = (u32, u32)> {
    prop_oneof![Just((0, 1)), (0u32..300, 1u32..400), (any::<u32>(), 1u32..=u32::MAX)]
}

async fn post(path: &str, body: Value) -> Value {
    let req = Request::post(path).header(header::CONTENT_TYPE, "application/json").body(Body::from(body.to_string()));
    let response = qi_web::router().oneshot(req.unwrap()).await.unwrap();
    assert!(response.status().is_success(), "{path}: {}", response.status());
    serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap()
}

fn iccs(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn through_the_library_and_the_http_api(
        seed in any::<u64>(), skip in 0usize..60, len in 0usize..80, (h, f) in counters()
    ) {
        let (start, moves) = random_game(seed, skip, len, h, f);
        let query = link::share_query(&start, &moves).unwrap();
        let back = link::decode(&query).unwrap();
        prop_assert_eq!(back.start.fen(), start.fen());
        prop_assert_eq!(&back.moves, &moves);
        let counted = (h, f) != (0, 1);
        prop_assert_eq!(link::encode_query(LinkFormat::Seed, &start, &moves).is_err(), counted);

        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let game = post("/api/xq/game", json!({"fen": start.fen(), "moves": iccs(&moves)})).await;
            let link = game["link"].as_str().expect("every legal game gets a link").to_string();
            let decoded = post("/api/xq/link", json!({ "link": link })).await;
            assert_eq!(decoded["start_fen"], start.fen());
            assert_eq!(decoded["moves"], json!(iccs(&moves)));
            let encoded = post("/api/xq/link/encode", json!({"fen": start.fen(), "moves": iccs(&moves)})).await;
            let compact = encoded["compact"].as_str().unwrap().to_string();
            assert_eq!(post("/api/xq/link", json!({ "link": compact })).await["start_fen"], start.fen());
            assert_eq!(encoded["seed"].is_null(), counted, "{encoded}");
        });
    }
}

proptest! {
    // Two processes per case: fewer cases.
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn through_the_command_line(seed in any::<u64>(), skip in 0usize..60, len in 0usize..60, (h, f) in counters()) {
        let (start, moves) = random_game(seed, skip, len, h, f);
        let qi = env!("CARGO_BIN_EXE_qi");
        let out = Command::new(qi).args(["link", "encode", "--fen", &start.fen()]).args(iccs(&moves)).output().unwrap();
        prop_assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let query = String::from_utf8(out.stdout).unwrap().trim().to_string();
        let out = Command::new(qi).args(["link", "decode", "--json", &query]).output().unwrap();
        prop_assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let decoded: Value = serde_json::from_slice(&out.stdout).unwrap();
        prop_assert_eq!(&decoded["start_fen"], &json!(start.fen()));
        prop_assert_eq!(&decoded["moves"], &json!(iccs(&moves)));
    }
}
