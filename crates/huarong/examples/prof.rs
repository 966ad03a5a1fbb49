use huarong::{solve, Convention, Layout};
use std::time::Instant;
fn main() {
    let start: Layout = "VCCV/VCCV/VHHV/VSSV/S..S".parse().unwrap();
    let mut times: Vec<_> = (0..300)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(solve(start, Convention::Piece));
            t.elapsed()
        })
        .collect();
    times.sort();
    println!("solve min {:?} median {:?}", times[0], times[150]);
}
