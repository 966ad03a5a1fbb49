//! Solver speed: 横刀立马 and 峰回路转 in the piece convention, in-process: the full search
//! (`solve`, which counts the reachable layouts) and the early-exit one (`shortest`).

use criterion::{criterion_group, criterion_main, Criterion};
use huarong::{shortest, solve, Convention, Layout};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    for (name, grid) in [("hengdaolima", "VCCV/VCCV/VHHV/VSSV/S..S"), ("fenghuiluzhuan", "SSSV/CCVV/CCVV/.HHV/.SHH")] {
        let start: Layout = grid.parse().unwrap();
        c.bench_function(&format!("solve_piece_{name}"), |b| b.iter(|| solve(black_box(start), Convention::Piece)));
        c.bench_function(&format!("shortest_piece_{name}"), |b| {
            b.iter(|| shortest(black_box(start), Convention::Piece))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
