//! The 2,401 master games of `crates/xiangqi/tests/data/games.tsv`: every one gets a code, and
//! the distribution by family (specific code or "others" code) and the table's size are the
//! ones the README states.

use std::collections::BTreeMap;
use xiangqi::{Move, Position};
use xiangqi_opening::classify;

/// Per family: (games, games with a specific code, games with an "others" code).
type Families = BTreeMap<char, (usize, usize, usize)>;

/// The number of games, the families' counts and each code's count.
fn distribution() -> (usize, Families, BTreeMap<String, usize>) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../xiangqi/tests/data/games.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut games = 0;
    let mut families = BTreeMap::new();
    let mut codes = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let start = Position::from_fen(fields[1]).unwrap();
        let moves: Vec<Move> = fields[2].split_whitespace().map(|m| m.parse().unwrap()).collect();
        let o = classify(&start, &moves).unwrap_or_else(|| panic!("{} has no code", fields[0]));
        games += 1;
        let f = families.entry(o.family()).or_insert((0, 0, 0));
        f.0 += 1;
        if o.is_others() {
            f.2 += 1;
        } else {
            f.1 += 1;
        }
        *codes.entry(o.code.to_string()).or_insert(0) += 1;
    }
    (games, families, codes)
}

/// The README's figures table, as the distribution writes it.
fn figures_table(games: usize, families: &Families) -> String {
    let mut s = String::from("| family | games | specific code | \"others\" code |\n|---|---|---|---|\n");
    let (mut all, mut specific, mut others) = (0, 0, 0);
    for (f, (n, sp, ot)) in families {
        s += &format!("| {f} | {n} | {sp} | {ot} |\n");
        all += n;
        specific += sp;
        others += ot;
    }
    assert_eq!(all, games);
    s += &format!("| all | {all} | {specific} | {others} |\n");
    s
}

#[test]
fn every_master_game_has_a_code_and_the_readme_states_the_distribution() {
    let (games, families, codes) = distribution();
    assert_eq!(games, 2401);
    let table = figures_table(games, &families);
    let by_code: Vec<String> = codes.iter().map(|(c, n)| format!("{c} {n}")).collect();
    eprintln!("{table}\nby code: {}", by_code.join(", "));
    let readme = include_str!("../README.md");
    assert!(readme.contains(&table), "the README's figures differ from the games':\n{table}");
    let t = xiangqi_opening::Table::builtin();
    let size = format!("{} codes on {} lines", t.codes(), t.entries().len());
    assert!(readme.contains(&size), "the README does not say {size:?}");
}
