//! Self-play data: the engine plays itself at a fixed number of nodes a move from varied
//! openings, on several threads, and the quiet positions of each game are appended to a data
//! file with the search's score and the game's result.

use crate::data_file::{Appender, DataError};
use crate::record::{GameResult, Record, RECORD_BYTES};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use xiangqi::outcome::{Game, Outcome, Rules};
use xiangqi::{Color, Move, Position};
use xiangqi_engine::{Engine, Limits, Played};

/// Where a game starts: a position and the book moves played from it.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The start position.
    pub start: Position,
    /// The book moves from `start`.
    pub moves: Vec<Move>,
}

/// How to generate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Nodes the engine searches for each move.
    pub nodes: u64,
    /// Random legal moves played after the book moves, at least and at most.
    pub random_plies: (usize, usize),
    /// Games played at once, one thread each.
    pub threads: usize,
    /// Stop when the file holds this many positions.
    pub target: u64,
    /// The transposition table of each thread, in MiB.
    pub hash_mb: usize,
    /// The random seed (each thread derives its own from it).
    pub seed: u64,
}

/// Where the generation stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Positions in the file.
    pub positions: u64,
    /// Positions this run added.
    pub added: u64,
    /// Games this run finished.
    pub games: u64,
    /// Quiet positions left out because the file already had them.
    pub duplicates: u64,
}

/// A score beyond this (either sign) for this many plies in a row ends the game as a win.
const ADJUDICATE_SCORE: i32 = 2500;
const ADJUDICATE_PLIES: usize = 8;
/// A game this long (plies after the opening) is a draw.
const MAX_PLIES: usize = 400;
/// Scores beyond this are wins by rule or mates, not evaluations: not kept as samples.
const MAX_SAMPLE_SCORE: i32 = 8000;

/// Plays games until the file at `path` holds [`Options::target`] positions or `stop` is set,
/// appending each game's quiet positions as it ends (so a run killed at any point loses at most
/// the games under way). Positions already in the file are not written again. `progress`
/// hears after each game.
///
/// # Errors
/// A [`DataError`] when the file cannot be read or written.
pub fn generate(
    path: &Path,
    openings: &[Opening],
    options: &Options,
    stop: &AtomicBool,
    mut progress: impl FnMut(&Progress),
) -> Result<Progress, DataError> {
    let mut seen: HashSet<[u8; 29]> = HashSet::new();
    let mut out = Appender::open(path, |packed| {
        seen.insert(Record::position_key(packed));
    })?;
    let mut state = Progress { positions: out.records(), ..Progress::default() };
    if state.positions >= options.target || openings.is_empty() {
        return Ok(state);
    }
    // The workers stop on the caller's flag or on this one, set when the target is reached.
    let done = Arc::new(AtomicBool::new(false));
    let (send, receive) = mpsc::sync_channel::<Vec<[u8; RECORD_BYTES]>>(options.threads.max(1) * 2);
    let result = std::thread::scope(|scope| {
        for thread in 0..options.threads.max(1) {
            let send = send.clone();
            let done = &done;
            let seed = options.seed ^ (thread as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            scope.spawn(move || {
                let mut rng = SmallRng::seed_from_u64(seed);
                let mut engine = Engine::new(options.hash_mb);
                while !done.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed) {
                    let opening = &openings[rng.random_range(0..openings.len())];
                    let Some(game) = play_game(&mut engine, opening, options, &mut rng, || {
                        done.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed)
                    }) else {
                        continue;
                    };
                    if send.send(game).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut write = || -> Result<(), DataError> {
            for game in receive.iter() {
                state.games += 1;
                for packed in &game {
                    if state.positions >= options.target {
                        break;
                    }
                    if seen.insert(Record::position_key(packed)) {
                        out.push(packed)?;
                        state.positions += 1;
                        state.added += 1;
                    } else {
                        state.duplicates += 1;
                    }
                }
                out.flush()?;
                progress(&state);
                if state.positions >= options.target {
                    done.store(true, Ordering::Relaxed);
                }
            }
            Ok(())
        };
        let result = write();
        // On a write error the workers must still end for the scope to close.
        done.store(true, Ordering::Relaxed);
        drop(receive);
        result
    });
    result.map(|()| state)
}

/// One self-play game from `opening` after random plies: its quiet positions, packed with
/// the result; `None` when the random plies ended the game or `stopped` said so.
fn play_game(
    engine: &mut Engine,
    opening: &Opening,
    options: &Options,
    rng: &mut SmallRng,
    stopped: impl Fn() -> bool,
) -> Option<Vec<[u8; RECORD_BYTES]>> {
    let mut game = Game::from_moves(opening.start.clone(), &opening.moves, Rules::default()).ok()?;
    let (low, high) = options.random_plies;
    for _ in 0..rng.random_range(low..=high.max(low)) {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        game.play(moves[rng.random_range(0..moves.len())]).ok()?;
    }
    if game.status().is_over() {
        return None;
    }
    engine.clear();
    let (_, mut history) = xiangqi_engine::replay(game.start(), game.moves());
    let limits = Limits { nodes: Some(options.nodes), ..Limits::default() };
    let mut samples: Vec<Record> = Vec::new();
    let mut streak: (Option<Color>, usize) = (None, 0);
    let result = loop {
        let status = game.status();
        if status.is_over() {
            break match status.outcome {
                Outcome::RedWins => GameResult::RedWin,
                Outcome::BlackWins => GameResult::BlackWin,
                _ => GameResult::Draw,
            };
        }
        if history.len() >= opening.moves.len() + high + MAX_PLIES {
            break GameResult::Draw;
        }
        if stopped() {
            return None;
        }
        let pos = game.position().clone();
        let info = engine.search(&pos, &history, &limits, |_| {});
        let best = info.best?;
        let cp = info.score.centipawns();
        // A side clearly winning for several plies in a row has won.
        let leader = (cp.abs() >= ADJUDICATE_SCORE).then(|| if cp > 0 { pos.turn() } else { pos.turn().other() });
        streak = match (leader, streak) {
            (Some(l), (Some(s), n)) if l == s => (Some(l), n + 1),
            (Some(l), _) => (Some(l), 1),
            (None, _) => (None, 0),
        };
        if let (Some(winner), n) = streak {
            if n >= ADJUDICATE_PLIES {
                break if winner == Color::Red { GameResult::RedWin } else { GameResult::BlackWin };
            }
        }
        if !pos.is_check() && !pos.is_capture(best) && cp.abs() <= MAX_SAMPLE_SCORE {
            samples.push(Record::new(&pos, cp as i16, GameResult::Draw));
        }
        history.push(Played { hash: pos.hash(), mv: best });
        game.play(best).ok()?;
    };
    Some(
        samples
            .into_iter()
            .map(|mut r| {
                r.result = result;
                r.pack()
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generates_quiet_scored_positions_and_resumes_to_the_target() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.bin");
        let openings = [Opening { start: Position::startpos(), moves: vec![] }];
        let options = Options { nodes: 300, random_plies: (4, 8), threads: 2, target: 60, hash_mb: 1, seed: 7 };
        let stop = AtomicBool::new(false);
        let mut calls = 0;
        let first =
            generate(&path, &openings, &Options { target: 30, ..options.clone() }, &stop, |_| calls += 1).unwrap();
        assert_eq!(first.positions, 30);
        assert!(calls >= 1);
        let second = generate(&path, &openings, &options, &stop, |_| {}).unwrap();
        assert_eq!((second.positions, second.added), (60, 30));
        let records = crate::data_file::read_all(&path).unwrap();
        assert_eq!(records.len(), 60);
        let keys: HashSet<_> = records.iter().map(|r| Record::position_key(&r.pack())).collect();
        assert_eq!(keys.len(), 60, "no position twice");
        for r in &records {
            let mut setup = xiangqi::Setup::empty();
            for (sq, piece) in r.pieces() {
                setup.board[sq] = Some(piece);
            }
            setup.turn = r.turn;
            let pos = Position::from_setup(&setup).expect("a legal position");
            assert!(!pos.is_check(), "quiet positions only");
            assert!(i32::from(r.score).abs() <= MAX_SAMPLE_SCORE);
        }
    }
}
