//! Packs the master games (`crates/xiangqi/tests/data/games.tsv`) into the explorer's format
//! (`src/codec.rs`): one byte a move, so the built-in collection costs about 100 bytes a game.
//! A game whose result the file does not give (`*`) gets the one the rules give its last
//! position (the side to move with no legal move has lost), else stays unknown.

use std::path::PathBuf;
use xiangqi::{Move, Position};

#[allow(dead_code)]
#[path = "src/codec.rs"]
mod codec;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let source = manifest.join("../xiangqi/tests/data/games.tsv");
    println!("cargo:rerun-if-changed={}", source.display());
    println!("cargo:rerun-if-changed=src/codec.rs");
    let text = std::fs::read_to_string(&source).unwrap_or_else(|e| panic!("{}: {e}", source.display()));
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [id, fen, moves, result, ..] = fields[..] else { panic!("games.tsv line {}: too few fields", i + 1) };
        let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("games.tsv line {}: {e}", i + 1));
        let moves: Vec<Move> = moves
            .split_whitespace()
            .map(|m| m.parse().unwrap_or_else(|e| panic!("games.tsv line {}: {m}: {e}", i + 1)))
            .collect();
        let mut end = start.clone();
        for &m in &moves {
            end.play(m).unwrap_or_else(|e| panic!("games.tsv line {}: {e}", i + 1));
        }
        let result = match result {
            "1-0" => 1,
            "1/2-1/2" => 2,
            "0-1" => 3,
            // No legal move: the side to move has lost (checkmate, or stalemate, which loses too).
            _ if end.legal_moves().is_empty() => match end.turn() {
                xiangqi::Color::Red => 3,
                xiangqi::Color::Black => 1,
            },
            _ => 0,
        };
        games.push(codec::PackedGame { id: id.to_string(), result, start, moves });
    }
    let bytes = codec::encode(&games).unwrap_or_else(|e| panic!("games.tsv: {e}"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("master.bin");
    std::fs::write(out, bytes).expect("OUT_DIR is writable");
}
