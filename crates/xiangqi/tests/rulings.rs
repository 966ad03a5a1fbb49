//! The hand-built repetition cases in `tests/data/rulings.tsv`: every row's verdict, judged by
//! `Game::status` at the repetition. `tests/differential/rulings.py` (scripts/test.d/rulings.sh)
//! checks the same table against pyffish.

use std::collections::BTreeMap;
use xiangqi::outcome::{Game, Rules};
use xiangqi::{Move, Position};

struct Case {
    id: String,
    fen: String,
    moves: String,
    verdict: String,
    reason: String,
    rule: String,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/rulings.tsv");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(cols.len() >= 7, "line {}: {} columns", i + 1, cols.len());
        out.push(Case {
            id: cols[0].into(),
            fen: cols[1].into(),
            moves: cols[2].into(),
            verdict: cols[3].into(),
            reason: cols[4].into(),
            rule: cols[5].into(),
        });
    }
    out
}

#[test]
fn every_case_is_judged_as_the_table_says() {
    let cases = cases();
    let mut wrong = Vec::new();
    let mut rules = BTreeMap::new();
    for c in &cases {
        let start: Position = c.fen.parse().unwrap_or_else(|e| panic!("{}: {e}", c.id));
        let moves: Vec<Move> = c.moves.split_whitespace().map(|m| m.parse().unwrap()).collect();
        let game = Game::from_moves(start, &moves, Rules::default()).unwrap_or_else(|e| panic!("{}: {e}", c.id));
        let status = game.status();
        let reason = status.reason.map_or("none", |r| r.name());
        if status.outcome.name() != c.verdict || reason != c.reason {
            wrong.push(format!("{}: table {} ({}), we {} ({reason})", c.id, c.verdict, c.reason, status.outcome));
        }
        *rules.entry(c.rule.split(' ').next().unwrap_or("").to_string()).or_insert(0) += 1;
    }
    assert!(wrong.is_empty(), "{} of {} cases differ:\n{}", wrong.len(), cases.len(), wrong.join("\n"));
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    eprintln!("{} cases, by deciding rule: {rules:?}", cases.len());
}

/// Our verdict after `moves` from `fen`: outcome and reason names.
fn judge_text(fen: &str, moves: &str) -> Result<(String, String), String> {
    let start: Position = fen.parse().map_err(|e| format!("{e}"))?;
    let moves: Vec<Move> = moves.split_whitespace().map(|m| m.parse().map_err(|e| format!("{m}: {e}"))).collect::<Result<_, _>>()?;
    let game = Game::from_moves(start, &moves, Rules::default()).map_err(|e| format!("{e}"))?;
    let status = game.status();
    Ok((status.outcome.name().to_string(), status.reason.map_or("none", |r| r.name()).to_string()))
}

#[test]
#[ignore = "development aid: prints our verdict for each `id<TAB>fen<TAB>moves` line of $RULINGS_PRINT"]
fn print_verdicts() {
    let path = std::env::var("RULINGS_PRINT").expect("RULINGS_PRINT");
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        match judge_text(cols[1], cols[2]) {
            Ok((o, r)) => println!("{}\t{o}\t{r}", cols[0]),
            Err(e) => println!("{}\terror\t{e}", cols[0]),
        }
    }
}
