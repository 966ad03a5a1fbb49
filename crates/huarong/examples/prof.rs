use huarong::{solve, Convention, Layout, PieceSet};
use std::time::Instant;
fn main() {
    let start: Layout = "VCCV/VCCV/VHHV/VSSV/S..S".parse().unwrap();
    let t = Instant::now();
    for _ in 0..100 {
        std::hint::black_box(solve(start, Convention::Piece));
    }
    println!("solve {:?}", t.elapsed() / 100);
    for set in
        [PieceSet { vertical: 4, horizontal: 1, soldiers: 4 }, PieceSet { vertical: 2, horizontal: 2, soldiers: 4 }]
    {
        let t = Instant::now();
        let s = huarong::survey::SetSurvey::run(set);
        println!("{set} {} layouts {} groups {:?}", s.codes.len(), s.groups, t.elapsed());
    }
}
