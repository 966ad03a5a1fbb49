//! The hand-built repetition cases in `tests/data/rulings.tsv`: every row's verdict, judged by
//! `Game::status` at the repetition. `tests/differential/rulings.py` (scripts/test.d/rulings.sh)
//! checks the same table against pyffish.

mod pyffish;

use std::collections::BTreeMap;
use xiangqi::outcome::{Game, Rules};
use xiangqi::{Move, PieceKind, Position};

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

/// The issue asks for every rule from both colours: each case `X` has a row `X-mirror`, the
/// same case with the board reflected across the river and the colours exchanged, with the
/// other side winning.
#[test]
fn every_case_is_also_played_by_the_other_colour() {
    let cases = cases();
    let by_id: BTreeMap<&str, &Case> = cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let mut missing = Vec::new();
    for c in cases.iter().filter(|c| !c.id.ends_with("-mirror")) {
        let Some(m) = by_id.get(format!("{}-mirror", c.id).as_str()) else {
            missing.push(format!("{}: no {}-mirror row", c.id, c.id));
            continue;
        };
        let moves: Vec<String> = c
            .moves
            .split_whitespace()
            .map(|s| {
                let mv: Move = s.parse().unwrap();
                Move::new(mv.from().flip().mirror(), mv.to().flip().mirror()).to_string()
            })
            .collect();
        let verdict = match c.verdict.as_str() {
            "red wins" => "black wins",
            "black wins" => "red wins",
            other => other,
        };
        if m.fen != reflected_fen(&c.fen) || m.moves != moves.join(" ") || m.verdict != verdict || m.reason != c.reason
        {
            missing.push(format!("{}: {} is not its reflection", c.id, m.id));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// `fen` with the board reflected across the river, the colours exchanged and the other side to
/// move.
fn reflected_fen(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
    let ranks: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|ch| if ch.is_ascii_uppercase() { ch.to_ascii_lowercase() } else { ch.to_ascii_uppercase() })
                .collect()
        })
        .collect();
    fields[0] = ranks.join("/");
    fields[1] = if fields[1] == "w" { "b".into() } else { "w".into() };
    fields.join(" ")
}

/// Our verdict after `moves` from `fen`: outcome and reason names.
fn judge_text(fen: &str, moves: &str) -> Result<(String, String), String> {
    let start: Position = fen.parse().map_err(|e| format!("{e}"))?;
    let moves: Vec<Move> =
        moves.split_whitespace().map(|m| m.parse().map_err(|e| format!("{m}: {e}"))).collect::<Result<_, _>>()?;
    let game = Game::from_moves(start, &moves, Rules::default()).map_err(|e| format!("{e}"))?;
    let status = game.status();
    Ok((status.outcome.name().to_string(), status.reason.map_or("none", |r| r.name()).to_string()))
}

#[test]
#[ignore = "needs the cycles from tests/differential/rulings.py (scripts/test.d/rulings.sh)"]
fn generated_cycles_agree_with_pyffish() {
    let path = std::env::var("RULINGS_CASES").expect("set RULINGS_CASES to the TSV from rulings.py generate");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (mut checked, mut wrong, mut already, mut false_pin) = (0, Vec::new(), 0, 0);
    let mut verdicts = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (name, fen, moves, pyffish) = (cols[0], cols[1], cols[2], cols[3]);
        let (ours, reason) = judge_text(fen, moves).unwrap_or_else(|e| panic!("{name}: {e}"));
        *verdicts.entry(format!("{ours} ({reason})")).or_insert(0) += 1;
        checked += 1;
        if ours == pyffish {
            continue;
        }
        match pyffish::known_difference(fen, moves, pyffish, &ours) {
            Some(pyffish::Difference::AlreadyAttacked) => already += 1,
            Some(pyffish::Difference::FalsePin) => false_pin += 1,
            None => wrong.push(format!("{name}: pyffish {pyffish}, we {ours} ({reason})\t{fen}\t{moves}")),
        }
    }
    eprintln!(
        "{checked} generated cycles: {} agree with pyffish, {already} differ by R8 (the piece was attacked \
         before the move), {false_pin} by a pin pyffish sees between kings that do not face, {} otherwise; \
         our verdicts: {verdicts:?}",
        checked - already - false_pin - wrong.len(),
        wrong.len()
    );
    assert!(wrong.is_empty(), "{} of {checked} disagree:\n{}", wrong.len(), wrong.join("\n"));
    assert!(checked >= 100, "only {checked} cycles");
}

/// A small deterministic random source (xorshift64*), so a seed gives the same cycles.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// Start positions for the random play that comes before each cycle (varied material).
const STARTS: [&str; 8] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3akab2/9/4b4/p3p3p/2r3n2/2P6/P3P3P/2N1B4/4A4/2BAK1R2 w - - 0 1",
    "2bak4/4a4/4b4/9/9/2r6/9/4B4/4A1n2/2CAK4 w - - 0 1",
    "3ak4/4a4/4b4/9/2p6/6R2/9/4B4/4A4/3AK1C2 w - - 0 1",
    "3k1ab2/4a4/9/6N2/2p6/9/9/2n6/4A4/4K4 w - - 0 1",
    "2bakab2/9/2n1c1n2/p1p3p1p/4r4/2P3P2/P3P3P/2N1C1N2/4R4/2BAKAB2 w - - 0 1",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
    "4ka3/4a4/4b4/2R6/9/9/6c2/4B4/4A4/3AK4 w - - 0 1",
];

/// A chase cycle in `pos`, if one is found: the chaser's move `a` (a rook, horse, cannon,
/// advisor or elephant) attacks an enemy piece it could legally take, the target's move `b`
/// takes it to a square that the chaser's return `a'` attacks, and `b'` takes it back. Whether
/// that is a chase is for the rules to say: protected targets, pins, exchanges, checks,
/// discovered attacks and counter-chases all occur.
fn chase_cycle(pos: &Position, rng: &mut Rng) -> Option<[Move; 4]> {
    let quiet = |p: &Position| -> Vec<Move> { p.legal_moves().iter().copied().filter(|&m| !p.is_capture(m)).collect() };
    let chaser = |k: PieceKind| !matches!(k, PieceKind::King | PieceKind::Pawn);
    let mut first = quiet(pos);
    rng.shuffle(&mut first);
    for &a in first.iter().take(24) {
        if !pos.piece_at(a.from()).is_some_and(|p| chaser(p.kind)) {
            continue;
        }
        let mut after_a = pos.clone();
        after_a.play_unchecked(a);
        let back = Move::new(a.to(), a.from());
        let mut flights: Vec<Move> =
            quiet(&after_a).into_iter().filter(|b| after_a.can_capture(a.to(), b.from())).collect();
        rng.shuffle(&mut flights);
        for b in flights {
            let mut after_b = after_a.clone();
            after_b.play_unchecked(b);
            if !after_b.is_legal(back) {
                continue;
            }
            let mut after_c = after_b.clone();
            after_c.play_unchecked(back);
            let home = Move::new(b.to(), b.from());
            if after_c.can_capture(a.from(), b.to()) && after_c.is_legal(home) {
                return Some([a, b, back, home]);
            }
        }
    }
    None
}

#[test]
#[ignore = "writes chase cycles for tests/differential/rulings.py: RULINGS_GENERATE=path,count[,seed]"]
fn write_chase_cycles() {
    let spec = std::env::var("RULINGS_GENERATE").expect("RULINGS_GENERATE=path,count[,seed]");
    let parts: Vec<&str> = spec.split(',').collect();
    let (path, count) = (parts[0], parts[1].parse::<usize>().expect("a count"));
    let seed: u64 = parts.get(2).map_or(1, |s| s.parse().expect("a seed"));
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut out = String::from("# name\tfen\tmoves (a chase cycle played twice: the start occurs a third time)\n");
    let (mut made, mut tries) = (0, 0);
    while made < count && tries < count * 50 {
        tries += 1;
        let mut pos: Position = STARTS[rng.below(STARTS.len())].parse().unwrap();
        for _ in 0..2 + rng.below(40) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let quiet: Vec<Move> = legal.iter().copied().filter(|&m| !pos.is_capture(m)).collect();
            let pick = if !quiet.is_empty() && rng.below(5) > 0 {
                quiet[rng.below(quiet.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            pos.play_unchecked(pick);
        }
        if pos.legal_moves().is_empty() {
            continue;
        }
        if let Some(cycle) = chase_cycle(&pos, &mut rng) {
            let moves: Vec<String> = cycle.iter().chain(cycle.iter()).map(Move::to_string).collect();
            out += &format!("chase-{made}\t{}\t{}\n", pos.fen(), moves.join(" "));
            made += 1;
        }
    }
    std::fs::write(path, out).unwrap_or_else(|e| panic!("{path}: {e}"));
    eprintln!("{made} chase cycles in {tries} tries written to {path}");
    assert!(made * 2 >= count, "only {made} cycles found");
}
