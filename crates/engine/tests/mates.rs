//! Pruning never loses a forced mate: endings with a short forced mate, found and measured by
//! an exhaustive search here (every attacking move, every defence, no pruning), must be
//! reported by the engine as a mate of exactly that length.
//!
//! The positions are made, not picked: a fixed pseudo-random generator places a few red
//! attackers against the black king (with or without advisors), and the exhaustive search keeps
//! those with a forced mate in one to three moves.

use xiangqi::Position;
use xiangqi_engine::{Engine, Limits};

/// Whether the side to move mates within `n` moves, whatever the defence. In Xiangqi a side
/// without a legal move loses, stalemated or mated; `stalemates` says whether to count a
/// stalemate as the end.
fn mates_within(pos: &mut Position, n: u32, stalemates: bool) -> bool {
    for &m in pos.legal_moves().iter() {
        let undo = pos.play_unchecked(m);
        let replies = pos.legal_moves();
        let forced = (replies.is_empty() && (stalemates || pos.is_check()))
            || (n > 1
                && !replies.is_empty()
                && replies.iter().all(|&r| {
                    let u = pos.play_unchecked(r);
                    let ok = mates_within(pos, n - 1, stalemates);
                    pos.undo(r, u);
                    ok
                }));
        pos.undo(m, undo);
        if forced {
            return true;
        }
    }
    false
}

/// The length of the shortest forced mate, up to `max` moves.
fn shortest_mate(pos: &Position, max: u32, stalemates: bool) -> Option<u32> {
    let mut p = pos.clone();
    (1..=max).find(|&n| mates_within(&mut p, n, stalemates))
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) % n
    }
}

/// A random ending: the black king (and maybe advisors) in its palace, the red king in its
/// own, and two or three red attackers anywhere; `None` when the placement is not legal.
fn random_ending(rng: &mut Rng) -> Option<Position> {
    let mut board = [[' '; 9]; 10];
    let mut place = |c: char, squares: &[(usize, usize)], rng: &mut Rng| -> bool {
        let (f, r) = squares[rng.below(squares.len() as u64) as usize];
        if board[r][f] != ' ' {
            return false;
        }
        board[r][f] = c;
        true
    };
    let palace =
        |r0: usize| -> Vec<(usize, usize)> { (3..6).flat_map(|f| (r0..r0 + 3).map(move |r| (f, r))).collect() };
    let black_advisors = [(3, 9), (5, 9), (4, 8), (3, 7), (5, 7)];
    let anywhere: Vec<(usize, usize)> = (0..9).flat_map(|f| (0..10).map(move |r| (f, r))).collect();
    let mut ok = place('k', &palace(7), rng) && place('K', &palace(0), rng);
    for _ in 0..rng.below(3) {
        ok &= place('a', &black_advisors, rng);
    }
    for _ in 0..2 + rng.below(2) {
        let piece = ['R', 'R', 'H', 'C', 'P'][rng.below(5) as usize];
        let squares: Vec<(usize, usize)> =
            if piece == 'P' { anywhere.iter().copied().filter(|&(_, r)| r >= 5).collect() } else { anywhere.clone() };
        ok &= place(piece, &squares, rng);
    }
    if !ok {
        return None;
    }
    let rows: Vec<String> = (0..10)
        .rev()
        .map(|r| {
            let mut row = String::new();
            let mut empty = 0;
            for &cell in &board[r] {
                match cell {
                    ' ' => empty += 1,
                    c => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(if c == 'H' { 'N' } else { c });
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    let pos: Position = format!("{} w - - 0 1", rows.join("/")).parse().ok()?;
    // Red to move, not in check, and with something to do.
    (!pos.is_check() && !pos.legal_moves().is_empty()).then_some(pos)
}

#[test]
fn pruning_keeps_every_forced_mate_at_its_length() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut found = [0; 4];
    let mut engine = Engine::new(4);
    let mut tried = 0;
    // By how many plies beyond the mate's length the engine was latest to see it exactly.
    let mut late = [i32::MIN; 4];
    // Endings where a stalemate wins faster than any checkmate (left out).
    let mut stalemate_first = 0;
    // Mates the engine reports longer than they are (it stops deepening once it has a mate and
    // depth 2m + 4, so a shorter one pruned away at low depth would stay unseen). There were 2
    // before pruning left nodes with a mate bound alone: in `9/P8/4ka3/1R7/9/9/9/9/5K3/9 w`
    // the mate in 3 (b6e6+ e7d7 f1e1) was cut by reverse futility at Black's node and reported
    // as mate 4 (b6b7+).
    let mut longer = Vec::new();
    while found.iter().sum::<usize>() < 45 && tried < 20_000 {
        tried += 1;
        let Some(pos) = random_ending(&mut rng) else { continue };
        // Checkmates only: a stalemate first reached in quiescence is not seen (standing pat
        // needs no move list; see `quiesce`), so a win that needs one can be found longer.
        let Some(n) = shortest_mate(&pos, 3, false) else { continue };
        if shortest_mate(&pos, n, true) != Some(n) {
            stalemate_first += 1;
            continue;
        }
        if found[n as usize] >= 15 {
            continue;
        }
        found[n as usize] += 1;
        engine.clear();
        // Every iteration: never a mate shorter than the true one (that would be a false
        // mate), and the true length by depth 2n + 8 at the latest.
        let mut first_exact = None;
        let info = engine.search(&pos, &[], &Limits::depth(2 * n + 8), |i| {
            let m = i.score.mate_in().unwrap_or(i32::MAX);
            assert!(m >= n as i32, "{}: depth {} claims mate {m}, the truth is {n}", pos.fen(), i.depth);
            if m == n as i32 && first_exact.is_none() {
                first_exact = Some(i.depth);
            }
        });
        let found_mate = info.score.mate_in().unwrap_or_else(|| panic!("{}: no mate ({})", pos.fen(), info.score));
        if found_mate != n as i32 {
            longer.push(format!("{} mate {n}, found mate {found_mate}", pos.fen()));
            continue;
        }
        late[n as usize] = late[n as usize].max(first_exact.unwrap() as i32 - (2 * n - 1) as i32);
        // The move it chose mates as fast: after it, the defence cannot last longer.
        let mut after = pos.clone();
        after.play_unchecked(info.best.unwrap());
        let replies = after.legal_moves();
        assert!(
            replies.is_empty()
                || replies.iter().all(|&r| {
                    let mut p = after.clone();
                    p.play_unchecked(r);
                    shortest_mate(&p, n - 1, true).is_some()
                }),
            "{}: {} does not mate in {n}",
            pos.fen(),
            info.best.unwrap()
        );
    }
    eprintln!(
        "mates found {found:?} of {tried} endings ({stalemate_first} left out: a stalemate wins sooner); \
         latest exact sight, in plies beyond the mate's: {late:?}"
    );
    eprintln!("found longer than they are: {longer:#?}");
    assert!(longer.is_empty(), "{longer:#?}");
    assert!(found[1] >= 10 && found[2] >= 10 && found[3] >= 5, "{found:?} of {tried} endings");
}
