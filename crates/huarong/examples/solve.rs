//! Solves a layout given on the command line (a grid or a classic's name) and prints the path.
//!
//! `cargo run --release -p huarong --example solve -- 横刀立马`

use huarong::{catalog, shortest, Convention, Layout};

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_else(|| "横刀立马".to_string());
    let start = match catalog::find(&arg) {
        Some(classic) => classic.layout,
        None => match arg.parse::<Layout>() {
            Ok(layout) => layout,
            Err(e) => {
                eprintln!("{arg:?}: {e}");
                std::process::exit(2);
            }
        },
    };
    let found = shortest(start, Convention::Piece);
    match found.steps {
        None => println!("{start}: unsolvable ({} mirror classes searched)", found.explored),
        Some(n) => {
            println!("{start}: {n} steps ({} mirror classes searched)", found.explored);
            for (i, step) in found.path.iter().enumerate() {
                println!("{:>3}. {:<16} {}", i + 1, step.mv.to_string(), step.layout);
            }
        }
    }
}
