//! Cost of one repetition ruling, as a search would ask for it: `judge(position, cycle)`.
//! Run: `cargo bench -p xiangqi --bench repetition`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use xiangqi::repetition::{judge, Ruling};
use xiangqi::{Color, Move, Position};

fn cycle(fen: &str, moves: &str) -> (Position, Vec<Move>) {
    (fen.parse().unwrap(), moves.split_whitespace().map(|m| m.parse().unwrap()).collect())
}

fn rulings(c: &mut Criterion) {
    let cases = [
        // A plain draw: nobody attacks anything (the chase scan stops after two moves).
        (
            "draw-startpos",
            cycle("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "h0g2 h9g7 g2h0 g7h9"),
            Ruling::Draw,
        ),
        // Perpetual check: decided by the check pass alone.
        (
            "perpetual-check",
            cycle("4k4/9/9/9/4R4/9/9/9/9/5K3 b - - 0 1", "e9d9 e5d5 d9e9 d5e5"),
            Ruling::PerpetualCheck { loser: Color::Red },
        ),
        // A rook follows an unprotected cannon: every move is judged.
        (
            "perpetual-chase",
            cycle("5k3/9/2c6/9/9/9/2R6/9/9/4K4 b - - 0 1", "c7d7 c3d3 d7c7 d3c3"),
            Ruling::PerpetualChase { loser: Color::Red },
        ),
        // A middlegame-like board: a cannon chases a rook protected by the other rook.
        (
            "chase-crowded",
            cycle("2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/C5NC1/9/1NBAKAB1R b - - 0 1", "a7b7 a2b2 b7a7 b2a2"),
            Ruling::PerpetualChase { loser: Color::Red },
        ),
        // Both sides chase through an eight-ply cycle (Fairy-Stockfish's mutual chase case).
        (
            "mutual-chase-8",
            cycle("4k4/7n1/9/4p2R1/9/9/4P4/9/9/4K4 b - - 0 1", "h8f7 h6h7 f7g5 h7g7 g5i6 g7g6 i6h8 g6h6"),
            Ruling::Draw,
        ),
    ];
    let mut group = c.benchmark_group("repetition::judge");
    for (name, (pos, moves), expected) in &cases {
        assert_eq!(judge(pos, moves), *expected, "{name}: the case must be what it says");
        group.bench_function(*name, |b| b.iter(|| judge(black_box(pos), black_box(moves))));
    }
    group.finish();
}

criterion_group!(benches, rulings);
criterion_main!(benches);
