//! Building a version's model data from games (offline; deterministic, fixed seed): the move
//! weights (softmax regression, AdaGrad), the opening book and the board table. Also the
//! games file reader and an estimate of the coded size.
//!
//! Train/test split used for the shipped data: games whose index in the file is a multiple of
//! [`HOLDOUT`] are held out; the rest train.

use super::board::BoardModel;
use super::book::{self, Book};
use super::model::{self, Model, NF, NW, SCALE};
use xiangqi::{check_game_length, Excerpt, Move, Position};

/// One game in five is held out.
pub const HOLDOUT: usize = 5;

/// Whether the game with this index (0-based, in file order) is held out of training.
pub fn is_held_out(index: usize) -> bool {
    index % HOLDOUT == 0
}

/// A game from a games file.
#[derive(Clone, Debug)]
pub struct Game {
    /// The game's id (first column).
    pub id: String,
    /// The start position (second column).
    pub start: Position,
    /// The moves, each legal in turn (third column).
    pub moves: Vec<Move>,
}

impl Game {
    /// The position after all the moves.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }
}

/// Reads a games file (tab-separated: id, start FEN, moves in ICCS separated by spaces, ...;
/// `#` lines are comments). Every move is checked.
pub fn parse_games(text: &str) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 3 {
            return Err(format!("line {}: expected id, FEN and moves", n + 1));
        }
        let start: Position = cols[1].parse().map_err(|e| format!("line {}: bad FEN: {e}", n + 1))?;
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for t in cols[2].split_whitespace() {
            let m: Move = t.parse().map_err(|e| format!("line {}: {}: {e}", n + 1, Excerpt(t)))?;
            pos.play(m).map_err(|e| format!("line {}: ply {}: {e}", n + 1, moves.len() + 1))?;
            moves.push(m);
            check_game_length(moves.len()).map_err(|e| format!("line {}: {e}", n + 1))?;
        }
        games.push(Game { id: cols[0].to_string(), start, moves });
    }
    Ok(games)
}

/// Trains the move weights on `games`; returns integer weights (1/64 nat).
pub fn train_weights(games: &[&Game], epochs: usize) -> Vec<i32> {
    // Every ply: its moves' feature rows and the index of the move played.
    let mut feats: Vec<u16> = Vec::new();
    let mut plies: Vec<(usize, u16, u16)> = Vec::new(); // (offset in feats, moves, target)
    let mut scratch = Vec::new();
    for g in games {
        let mut pos = g.start.clone();
        for (i, &m) in g.moves.iter().enumerate() {
            let mut legal: Vec<Move> = pos.legal_moves().to_vec();
            legal.sort_unstable();
            model::features(&mut pos, &g.moves[..i], &legal, &mut scratch);
            let target = legal.binary_search(&m).expect("games are checked");
            plies.push((feats.len(), legal.len() as u16, target as u16));
            for row in &scratch {
                feats.extend_from_slice(row);
            }
            pos.play_unchecked(m);
        }
    }
    let mut w = vec![0f64; NW];
    let mut g2 = vec![1e-8f64; NW];
    let mut order: Vec<usize> = (0..plies.len()).collect();
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let (lr, l2) = (0.1, 1e-4);
    let mut scores = Vec::new();
    let mut grad = vec![0f64; NW];
    for _ in 0..epochs {
        for i in (1..order.len()).rev() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            order.swap(i, (rng % (i as u64 + 1)) as usize);
        }
        for &k in &order {
            let (off, n, target) = plies[k];
            let rows = &feats[off..off + n as usize * NF];
            scores.clear();
            scores.extend(rows.chunks_exact(NF).map(|r| r.iter().map(|&f| w[f as usize]).sum::<f64>()));
            let max = scores.iter().copied().fold(f64::MIN, f64::max);
            let z: f64 = scores.iter().map(|s| (s - max).exp()).sum();
            for (j, r) in rows.chunks_exact(NF).enumerate() {
                let p = (scores[j] - max).exp() / z - if j == target as usize { 1.0 } else { 0.0 };
                for &f in r {
                    grad[f as usize] += p;
                }
            }
            for (j, r) in rows.chunks_exact(NF).enumerate() {
                let _ = j;
                for &f in r {
                    let f = f as usize;
                    if grad[f] != 0.0 {
                        let gr = grad[f] + l2 * w[f];
                        g2[f] += gr * gr;
                        w[f] -= lr * gr / g2[f].sqrt();
                        grad[f] = 0.0;
                    }
                }
            }
        }
    }
    w.iter().map(|&x| (x * SCALE).round() as i32).collect()
}

/// Weights as the data file's text (one line per feature group would be nicer to read; one
/// number per line keeps diffs small).
pub fn weights_text(w: &[i32]) -> String {
    w.iter().map(|v| format!("{v}\n")).collect()
}

/// The opening book: positions before `model::BOOK_PLIES` seen in at least `min_games`
/// games, with move counts. Returns the data file's bytes.
pub fn build_book(games: &[&Game], min_games: u32) -> Vec<u8> {
    use std::collections::HashMap;
    let mut seen: HashMap<u64, HashMap<u16, u32>> = HashMap::new();
    for g in games {
        let mut pos = g.start.clone();
        for &played in g.moves.iter().take(model::BOOK_PLIES) {
            let (k, mirrored) = book::canonical_key(&pos);
            let m = if mirrored { book::mirror(played) } else { played };
            *seen.entry(k).or_default().entry(m.to_u16()).or_default() += 1;
            pos.play_unchecked(played);
        }
    }
    let mut entries = Vec::new();
    for (h, moves) in seen {
        if moves.values().sum::<u32>() >= min_games {
            for (m, c) in moves {
                entries.push((h, m, c.min(u16::MAX as u32) as u16));
            }
        }
    }
    Book::from_entries(entries).to_bytes()
}

/// The board table from the final positions of `games`.
pub fn build_board(games: &[&Game]) -> String {
    let finals: Vec<Position> = games.iter().map(|g| g.final_position()).collect();
    BoardModel::train(finals.iter()).to_text()
}

/// Ideal coded size of the moves of `games` under `model` (sum of -log2 p), in bits, and the
/// number of plies.
pub fn ideal_bits(model: &Model, games: &[&Game]) -> (f64, usize) {
    let (mut bits, mut plies) = (0f64, 0usize);
    let (mut scratch, mut freq) = (Vec::new(), Vec::new());
    for g in games {
        let mut pos = g.start.clone();
        for (i, &m) in g.moves.iter().enumerate() {
            let mut legal: Vec<Move> = pos.legal_moves().to_vec();
            legal.sort_unstable();
            let total = model.frequencies(&mut pos, &g.moves[..i], &legal, &mut scratch, &mut freq);
            let k = legal.binary_search(&m).expect("games are checked");
            bits += (total as f64 / freq[k] as f64).log2();
            plies += 1;
            pos.play_unchecked(m);
        }
    }
    (bits, plies)
}
