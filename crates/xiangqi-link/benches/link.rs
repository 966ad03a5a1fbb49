//! Compact links: decoding and encoding a 100-ply game (the issue asks for at most 1 ms to
//! decode). Run with `cargo bench -p xiangqi --bench link`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use xiangqi::{Move, Position};
use xiangqi_link as link;

const GAME: &str = "g0e2 g6g5 b0a2 h9g7 a0a1 g9e7 a1g1 b9a7 g3g4 g5g4 g1g4 h7h9 a3a4 h9g9 g4h4 a9a8 i0i1 a8f8 i1f1 i9i8 a2b4 b7d7 b4d5 f8f1 h0f1 i8f8 h4f4 f8f4 d5f4 a7c8 b2c2 c8d6 c2c6 e6e5 c3c4 d6f5 f4d5 f9e8 d5b6 d7b7 h2h7 g9f9 f1d2 f9f6 c6i6 f6e6 i6i9 e9f9 c4c5 e6e3 d0e1 e3d3 c5d5 e5e4 e2g4 b7c7 i9i4 f5g3 e1f2 g7e6 h7h5 e6g5 i4h4 d3i3 d5e5 e4e3 d2c4 e7c5 e5f5 g5f7 f5f6 f7d6 b6d5 d6f5 d5c7 f5h4 c4e5 i3i0 f0e1 h4g2 e5g6 f9e9 c7d5 g2h0 e1f0 h0f1 e0e1 i0i1 e1e0 i1i0 e0e1 i0i1 e1e0 g3h1 g6i7 f1d2 e0d0 d2b1 d0e0 h1f2";

fn bench(c: &mut Criterion) {
    let moves: Vec<Move> = GAME.split_whitespace().map(|m| m.parse().unwrap()).collect();
    assert_eq!(moves.len(), 100);
    let start = Position::startpos();
    let value = link::encode_compact(&start, &moves);
    let query = format!("g={value}");
    c.bench_function("decode compact 100 plies", |b| b.iter(|| link::decode(black_box(&query)).unwrap()));
    c.bench_function("encode compact 100 plies", |b| b.iter(|| link::encode_compact(&start, black_box(&moves))));
    let seed = link::encode_seed(&start, &moves).unwrap().query();
    c.bench_function("decode seed 100 plies", |b| b.iter(|| link::decode(black_box(&seed)).unwrap()));
}

criterion_group!(benches, bench);
criterion_main!(benches);
