//! Solves a Huarong Dao layout and prints a shortest solution step by step.
//!
//! ```text
//! cargo run --release -p huarong --example solve -- [LAYOUT] [piece|straight|unit]
//! ```
//!
//! LAYOUT is a classic's name (`横刀立马` or `heng dao li ma`), the text form
//! (`VCCV/VCCV/VHHV/VSSV/S..S`, rows top to bottom) or a share code. Without arguments it
//! solves 横刀立马 under the piece convention (any distance along any path counts as one step).

use huarong::{catalog, solve, Convention, Layout};
use std::error::Error;
use std::io::Write;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let layout = read_layout(args.first().map_or("横刀立马", String::as_str))?;
    let convention: Convention = args.get(1).map_or(Ok(Convention::Piece), |c| c.parse())?;
    run(layout, convention, &mut std::io::stdout().lock())?;
    Ok(())
}

fn read_layout(text: &str) -> Result<Layout, Box<dyn Error>> {
    if let Some(classic) = catalog::find(text) {
        return Ok(classic.layout);
    }
    let parsed = if text.contains('/') { text.parse() } else { Layout::from_share_code(text) };
    Ok(parsed.map_err(|e| format!("{text:?}: {e}"))?)
}

fn run(layout: Layout, convention: Convention, out: &mut impl Write) -> std::io::Result<()> {
    let solution = solve(layout, convention);
    writeln!(out, "{}\n", grid(layout))?;
    let Some(steps) = solution.steps else {
        return writeln!(out, "no solution: {} layouts reachable, none solved", solution.states);
    };
    writeln!(out, "{steps} steps ({convention} convention), {} layouts reachable\n", solution.states)?;
    for (i, step) in solution.path.iter().enumerate() {
        writeln!(out, "{}. {}\n{}\n", i + 1, step.mv, grid(step.layout))?;
    }
    Ok(())
}

/// The layout as five rows of four cells.
fn grid(layout: Layout) -> String {
    layout.to_text().replace('/', "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_the_classic_in_81_piece_steps() {
        let mut out = Vec::new();
        run(read_layout("heng dao li ma").unwrap(), Convention::Piece, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("81 steps (piece convention), 25955 layouts reachable"), "{text}");
        assert!(text.contains("\n81. C "), "{text}");
        // Solved: Cao Cao covers the middle of the two bottom rows.
        let last_rows: Vec<&str> = text.trim_end().lines().rev().take(2).collect();
        assert!(last_rows.iter().all(|row| &row[1..3] == "CC"), "{text}");
    }

    #[test]
    fn reads_every_form_and_says_what_is_wrong() {
        let classic = read_layout("横刀立马").unwrap();
        assert_eq!(read_layout("VCCV/VCCV/VHHV/VSSV/S..S").unwrap(), classic);
        assert_eq!(read_layout(&classic.share_code()).unwrap(), classic);
        let err = read_layout("VCCV/VCCV/VHHV/VSSV").unwrap_err().to_string();
        assert_eq!(err, "\"VCCV/VCCV/VHHV/VSSV\": expected 5 rows separated by '/', found 4");
    }
}
