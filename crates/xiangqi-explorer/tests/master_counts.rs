//! The explorer's counts against a direct count over `crates/xiangqi/tests/data/games.tsv`:
//! for several positions, every game is replayed move by move (comparing whole positions, not
//! hashes) and the moves played from the position within the depth are tallied.

use std::collections::BTreeMap;
use xiangqi::{Color, Move, Position};
use xiangqi_explorer::{explore, master, DEPTH};

struct TsvGame {
    id: String,
    start: Position,
    moves: Vec<Move>,
    /// 1 Red won, 2 draw, 3 Black won, 0 unknown: the file's result, else the rules' verdict on
    /// the last position (no legal move loses), as the README says.
    result: u8,
}

fn games() -> Vec<TsvGame> {
    let text = include_str!("../../xiangqi/tests/data/games.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let start = Position::from_fen(f[1]).unwrap();
            let moves: Vec<Move> = f[2].split_whitespace().map(|m| m.parse().unwrap()).collect();
            let mut end = start.clone();
            moves.iter().for_each(|&m| end.play(m).unwrap());
            let result = match f[3] {
                "1-0" => 1,
                "1/2-1/2" => 2,
                "0-1" => 3,
                _ if end.legal_moves().is_empty() => {
                    if end.turn() == Color::Red {
                        3
                    } else {
                        1
                    }
                }
                _ => 0,
            };
            TsvGame { id: f[0].to_string(), start, moves, result }
        })
        .collect()
}

/// Per move (ICCS): games, red, draw, black, first game's id; by replaying every game.
fn direct(games: &[TsvGame], target: &Position) -> BTreeMap<String, (u32, u32, u32, u32, String)> {
    let mut out: BTreeMap<String, (u32, u32, u32, u32, String)> = BTreeMap::new();
    for g in games {
        let mut pos = g.start.clone();
        let mut seen = Vec::new();
        for &m in g.moves.iter().take(DEPTH) {
            if pos.piece_codes() == target.piece_codes() && pos.turn() == target.turn() && !seen.contains(&m) {
                seen.push(m);
                let e = out.entry(m.to_string()).or_insert((0, 0, 0, 0, g.id.clone()));
                e.0 += 1;
                match g.result {
                    1 => e.1 += 1,
                    2 => e.2 += 1,
                    3 => e.3 += 1,
                    _ => {}
                }
            }
            pos.play(m).unwrap();
        }
    }
    out
}

fn position(moves: &str) -> (Position, Vec<Move>) {
    let moves: Vec<Move> = moves.split_whitespace().map(|m| m.parse().unwrap()).collect();
    (Position::startpos(), moves)
}

#[test]
fn counts_equal_a_direct_count_over_the_games() {
    let games = games();
    assert_eq!(games.len(), 2401);
    assert_eq!(master().len(), 2401);
    // The start; common openings; a transposition (the horse first, then the cannon, as
    // after h2e2 b9c7 b0c2); a line
    // ten plies deep from the first game; and one at the depth, where nothing is indexed.
    let first: Vec<String> = games[1].moves.iter().map(Move::to_string).collect();
    let lines = [
        String::new(),
        "h2e2".to_string(),
        "h2e2 h9g7".to_string(),
        "b0c2 b9c7 h2e2".to_string(),
        "c3c4".to_string(),
        "g0e2 b9c7".to_string(),
        first[..10].join(" "),
        first[..DEPTH].join(" "),
    ];
    let mut checked_results = 0;
    for line in &lines {
        let (start, moves) = position(line);
        let mut target = start.clone();
        moves.iter().for_each(|&m| target.play(m).unwrap());
        let expected = direct(&games, &target);
        let report = explore(&[master()], &start, &moves);
        let got: BTreeMap<String, (u32, u32, u32, u32, String)> = report
            .moves
            .iter()
            .map(|m| (m.mv.clone(), (m.games, m.red, m.draw, m.black, m.typical.id.clone())))
            .collect();
        assert_eq!(got, expected, "after {line:?}");
        assert_eq!(report.total, expected.values().map(|e| e.0).sum::<u32>());
        checked_results += report.red + report.draw + report.black;
        if moves.len() >= DEPTH {
            assert!(report.moves.is_empty());
        } else {
            assert!(!report.moves.is_empty(), "after {line:?}");
        }
    }
    assert_eq!(explore(&[master()], &Position::startpos(), &[]).total, 2401);
    // Every game reads back whole (the moves past the depth are kept packed until asked for).
    for (i, g) in games.iter().enumerate() {
        let got = master().game(i).unwrap();
        assert_eq!((got.id.as_str(), &got.moves, got.start.fen()), (g.id.as_str(), &g.moves, g.start.fen()));
    }
    assert!(checked_results > 0, "some games have a result");
}

#[test]
fn the_typical_game_plays_the_move_at_its_ply() {
    let (start, moves) = position("h2e2 h9g7");
    let report = explore(&[master()], &start, &moves);
    for m in &report.moves {
        let typical: Vec<&str> = m.typical.moves.split(' ').collect();
        assert_eq!(typical[m.typical.ply], m.mv);
        assert_eq!(typical[..m.typical.ply], ["h2e2", "h9g7"]);
    }
}

#[test]
fn figures() {
    let m = master();
    let results = (0..m.len()).fold([0usize; 4], |mut acc, i| {
        acc[match m.game(i).unwrap().result {
            xiangqi_explorer::GameResult::RedWins => 0,
            xiangqi_explorer::GameResult::Draw => 1,
            xiangqi_explorer::GameResult::BlackWins => 2,
            xiangqi_explorer::GameResult::Unknown => 3,
        }] += 1;
        acc
    });
    let t = std::time::Instant::now();
    let again = xiangqi_explorer::Explorer::from_packed(xiangqi_explorer::MASTER_PACKED).unwrap();
    println!(
        "# packed {} bytes, {} games, {} visits, results red/draw/black/unknown {results:?}, read and checked in {:?}",
        xiangqi_explorer::MASTER_PACKED.len(),
        again.len(),
        again.visits(),
        t.elapsed()
    );
}
