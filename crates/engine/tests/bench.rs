//! The bench signature: the total node count of `bench::run` at its default depth. A change to
//! the search or the evaluation that changes what the engine does changes it; a refactor must
//! not. When a change is meant, update the number here (and say so in the commit message).

use xiangqi_engine::bench;

#[test]
fn bench_signature() {
    let result = bench::run(bench::DEFAULT_DEPTH, |_, _, _| {});
    assert_eq!(result.nodes, 183_260, "bench signature changed");
}

/// The hand-written evaluation's signature: the search around it is unchanged by the net.
#[test]
fn classical_bench_signature() {
    let result = bench::run_with(bench::DEFAULT_DEPTH, None, |_, _, _| {});
    assert_eq!(result.nodes, 207_731, "classical bench signature changed");
}
