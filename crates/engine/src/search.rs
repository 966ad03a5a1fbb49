//! Iterative deepening, principal-variation alpha-beta with a transposition table, null-move
//! pruning, late-move reductions, killer and history ordering, and a capture quiescence search.
//!
//! Game end inside the search: no legal move loses (mate and stalemate alike); a position that
//! repeats one on the current path or in the game's history scores as a draw. The finer Asian
//! repetition rulings (perpetual check and chase lose) are left to the game referee.

use crate::eval::{evaluate, value};
use crate::score::{Score, INFINITY, MATE};
use crate::tt::{Bound, Entry, Table};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use xiangqi::{Move, MoveList, Position};

const MAX_PLY: usize = 96;

/// When to stop searching. With no limit at all the search stops at depth 64.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deepest iteration to run.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this much time (an iteration that cannot finish is not started).
    pub time: Option<Duration>,
    /// How many best lines to find (MultiPV); 0 and 1 both mean one.
    pub multipv: usize,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    pub fn time(time: Duration) -> Limits {
        Limits { time: Some(time), ..Limits::default() }
    }
}

/// One of the best lines at the root: its score for the side to move and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line's score, from the side to move's point of view.
    pub score: Score,
    /// The line's moves, starting with a root move.
    pub pv: Vec<Move>,
}

/// The result of one completed iteration (and of the whole search).
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// The best move; `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    /// The best line's score.
    pub score: Score,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time spent so far.
    pub elapsed: Duration,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The best lines, best first (`Limits::multipv` of them, fewer when there are fewer legal
    /// moves); the first is `score` and `pv`.
    pub lines: Vec<Line>,
}

/// A searcher with its own transposition table and ordering statistics.
pub struct Engine {
    tt: Table,
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Box<[[i32; 90]; 90]>,
    stop: Arc<AtomicBool>,
    path: Vec<u64>,
    nodes: u64,
    started: Instant,
    deadline: Option<Instant>,
    node_limit: u64,
    aborted: bool,
    /// Root moves left out of this search (MultiPV: the first moves of the better lines).
    excluded: Vec<Move>,
}

impl Engine {
    /// An engine with a transposition table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: Table::new(hash_mb),
            killers: [[None; 2]; MAX_PLY],
            history: Box::new([[0; 90]; 90]),
            stop: Arc::new(AtomicBool::new(false)),
            path: Vec::new(),
            nodes: 0,
            started: Instant::now(),
            deadline: None,
            node_limit: u64::MAX,
            aborted: false,
            excluded: Vec::new(),
        }
    }

    /// A flag that stops a running search (from another thread) when set.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        *self.history = [[0; 90]; 90];
        self.killers = [[None; 2]; MAX_PLY];
    }

    /// Searches `pos`. `game` holds the hashes of the positions before it in the game (for
    /// repetition); `on_iteration` hears about each completed depth.
    pub fn search(
        &mut self,
        pos: &Position,
        game: &[u64],
        limits: &Limits,
        mut on_iteration: impl FnMut(&SearchInfo),
    ) -> SearchInfo {
        self.stop.store(false, Ordering::Relaxed);
        self.started = Instant::now();
        self.deadline = limits.time.map(|t| self.started + t);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.aborted = false;
        self.killers = [[None; 2]; MAX_PLY];
        self.path.clear();
        self.path.extend_from_slice(game);
        let max_depth = limits.depth.unwrap_or(64).clamp(1, MAX_PLY as u32 - 16);
        let mut root = pos.clone();
        let legal = root.legal_moves();
        let first = legal.first().copied();
        let mut best = SearchInfo {
            best: first,
            score: Score(if legal.is_empty() { -MATE } else { 0 }),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: first.into_iter().collect(),
            lines: first.map(|m| Line { score: Score(0), pv: vec![m] }).into_iter().collect(),
        };
        if legal.is_empty() {
            best.lines.clear();
            return best;
        }
        let wanted = limits.multipv.clamp(1, legal.len());
        for depth in 1..=max_depth as i32 {
            // MultiPV: each further line searches the root without the earlier lines' moves.
            let mut lines: Vec<Line> = Vec::with_capacity(wanted);
            self.excluded.clear();
            while lines.len() < wanted {
                let score = self.alpha_beta(&mut root, depth, -INFINITY, INFINITY, 0, true);
                if self.aborted {
                    break;
                }
                let pv = self.principal_variation(&root);
                let Some(&m) = pv.first() else { break };
                self.excluded.push(m);
                lines.push(Line { score: Score(score), pv });
            }
            self.excluded.clear();
            if self.aborted || lines.is_empty() {
                break;
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.score.0));
            if wanted > 1 {
                // The root entry now holds the last line's move; the best one should lead the
                // next iteration.
                let root_entry = Entry {
                    key: root.hash(),
                    mv: lines[0].pv.first().copied(),
                    score: lines[0].score.to_tt(0),
                    depth,
                    bound: Bound::Exact,
                };
                self.tt.put(root_entry);
            }
            best = SearchInfo {
                best: lines[0].pv.first().copied().or(best.best),
                score: lines[0].score,
                depth: depth as u32,
                nodes: self.nodes,
                elapsed: self.started.elapsed(),
                pv: lines[0].pv.clone(),
                lines,
            };
            on_iteration(&best);
            if let Some(m) = best.score.mate_in() {
                if depth >= 2 * m.abs() + 2 {
                    break;
                }
            }
            // Another iteration takes several times as long as this one: don't start what
            // cannot finish.
            if let (Some(deadline), Some(total)) = (self.deadline, limits.time) {
                if deadline.saturating_duration_since(Instant::now()) < total / 2 {
                    break;
                }
            }
        }
        best.nodes = self.nodes;
        best.elapsed = self.started.elapsed();
        best
    }

    fn principal_variation(&self, root: &Position) -> Vec<Move> {
        let mut pos = root.clone();
        let mut pv = Vec::new();
        while let Some(m) = self.tt.get(pos.hash()).and_then(|e| e.mv) {
            if pv.len() >= 32 || !pos.is_legal(m) {
                break;
            }
            pos.play_unchecked(m);
            pv.push(m);
        }
        pv
    }

    fn out_of_time(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        self.aborted
    }

    fn is_repetition(&self, pos: &Position) -> bool {
        let hash = pos.hash();
        // Only positions since the last capture can repeat; the newest path entry is the
        // parent (other side to move), so step back two at a time.
        let window = (pos.halfmoves() as usize).min(self.path.len());
        self.path[self.path.len() - window..].iter().rev().skip(1).step_by(2).any(|&h| h == hash)
    }

    fn alpha_beta(&mut self, pos: &mut Position, depth: i32, mut alpha: i32, beta: i32, ply: usize, pv: bool) -> i32 {
        self.nodes += 1;
        if ply > 0 {
            if self.out_of_time() {
                return 0;
            }
            if self.is_repetition(pos) {
                return 0;
            }
        }
        let in_check = pos.is_check();
        let depth = if in_check { depth + 1 } else { depth };
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        let hash = pos.hash();
        let entry = self.tt.get(hash);
        if let Some(e) = entry.filter(|e| e.depth >= depth && ply > 0 && !pv) {
            let s = Score::from_tt(e.score, ply).0;
            match e.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }

        // Null move: if passing still fails high, a real move will too.
        if !pv && !in_check && depth >= 3 && beta.abs() < MATE - 1000 && has_attackers(pos) && evaluate(pos) >= beta {
            pos.swap_turn_unchecked();
            self.path.push(hash);
            let score = -self.alpha_beta(pos, depth - 3, -beta, -beta + 1, ply + 1, false);
            self.path.pop();
            pos.swap_turn_unchecked();
            if self.aborted {
                return 0;
            }
            if score >= beta {
                return beta;
            }
        }

        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return -MATE + ply as i32;
        }
        if ply == 0 && !self.excluded.is_empty() {
            moves.retain(|m| !self.excluded.contains(&m));
        }
        self.order(pos, &mut moves, entry.and_then(|e| e.mv), ply);

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for (i, &m) in moves.iter().enumerate() {
            let capture = pos.is_capture(m);
            let undo = pos.play_unchecked(m);
            self.path.push(hash);
            let gives_check = pos.is_check();
            let mut score;
            if i == 0 {
                score = -self.alpha_beta(pos, depth - 1, -beta, -alpha, ply + 1, pv);
            } else {
                // Late quiet moves are searched shallower first.
                let reduce = if i >= 4 && depth >= 3 && !capture && !gives_check && !in_check { 1 } else { 0 };
                score = -self.alpha_beta(pos, depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, false);
                if score > alpha && (reduce > 0 || score < beta) {
                    score = -self.alpha_beta(pos, depth - 1, -beta, -alpha, ply + 1, pv);
                }
            }
            self.path.pop();
            pos.undo(m, undo);
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    if !capture {
                        let k = &mut self.killers[ply];
                        if k[0] != Some(m) {
                            k[1] = k[0];
                            k[0] = Some(m);
                        }
                        let h = &mut self.history[m.from().index()][m.to().index()];
                        *h = (*h + depth * depth).min(1 << 20);
                    }
                    break;
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.put(Entry { key: hash, mv: best_move, score: Score(best_score).to_tt(ply), depth, bound });
        best_score
    }

    fn quiesce(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let in_check = pos.is_check();
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return -MATE + ply as i32;
        }
        if !in_check {
            let stand = evaluate(pos);
            if stand >= beta || ply >= MAX_PLY - 1 {
                return stand;
            }
            alpha = alpha.max(stand);
            moves.retain(|m| pos.is_capture(m));
        } else if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        self.order(pos, &mut moves, None, ply);
        let mut best = if in_check { -INFINITY } else { alpha };
        for &m in moves.iter() {
            let undo = pos.play_unchecked(m);
            let score = -self.quiesce(pos, -beta, -alpha, ply + 1);
            pos.undo(m, undo);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Hash move, then captures by victim value minus attacker value, killers, history.
    fn order(&self, pos: &Position, moves: &mut MoveList, hash_move: Option<Move>, ply: usize) {
        let killers = self.killers.get(ply).copied().unwrap_or_default();
        let key = |m: Move| -> i32 {
            if Some(m) == hash_move {
                return 4_000_000;
            }
            if let Some(victim) = pos.piece_at(m.to()) {
                let attacker = pos.piece_at(m.from()).map_or(0, |p| value(p.kind));
                return 3_000_000 + value(victim.kind) * 8 - attacker / 8;
            }
            if killers[0] == Some(m) {
                return 2_000_001;
            }
            if killers[1] == Some(m) {
                return 2_000_000;
            }
            self.history[m.from().index()][m.to().index()]
        };
        moves.sort_by_cached_key(|&m| -key(m));
    }
}

/// Whether the side to move has a rook, horse or cannon (null moves are unsafe in the
/// zugzwang-prone endings without them).
fn has_attackers(pos: &Position) -> bool {
    use xiangqi::PieceKind::*;
    pos.pieces().any(|(_, p)| p.color == pos.turn() && matches!(p.kind, Rook | Horse | Cannon))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best(fen: &str, depth: u32) -> SearchInfo {
        Engine::new(4).search(&fen.parse().unwrap(), &[], &Limits::depth(depth), |_| {})
    }

    #[test]
    fn takes_a_free_rook() {
        let info = best("3k5/9/9/9/9/9/9/3r5/9/3RK4 w - - 0 1", 3);
        assert_eq!(info.best.unwrap().to_string(), "d0d2");
    }

    #[test]
    fn finds_mate_in_two() {
        // Red: rooks on a8 and b7 ladder the king: a8-a9 is not yet mate, but the ladder is.
        let info = best("4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1", 5);
        assert!(info.score.mate_in().is_some_and(|m| m > 0), "{}", info.score);
    }

    #[test]
    fn mated_side_has_no_move() {
        let info = best("R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1", 3);
        assert_eq!(info.best, None);
        assert!(info.score.is_mate());
    }

    #[test]
    fn multipv_gives_distinct_lines_best_first() {
        // Red can take the rook on d2 (best) or play something quiet.
        let pos = "3k5/9/9/9/9/9/9/3r5/9/3RK4 w - - 0 1".parse().unwrap();
        let limits = Limits { multipv: 3, ..Limits::depth(3) };
        let info = Engine::new(4).search(&pos, &[], &limits, |_| {});
        assert_eq!(info.lines.len(), 3);
        assert_eq!(info.lines[0].pv[0].to_string(), "d0d2");
        assert_eq!(info.best, Some(info.lines[0].pv[0]));
        assert_eq!(info.score, info.lines[0].score);
        let firsts: std::collections::HashSet<_> = info.lines.iter().map(|l| l.pv[0]).collect();
        assert_eq!(firsts.len(), 3, "each line starts with another move");
        assert!(info.lines.windows(2).all(|w| w[0].score >= w[1].score));
        // One line by default, and never more lines than legal moves.
        let one = Engine::new(4).search(&pos, &[], &Limits::depth(2), |_| {});
        assert_eq!(one.lines.len(), 1);
        let all = Engine::new(4).search(&pos, &[], &Limits { multipv: 500, ..Limits::depth(1) }, |_| {});
        assert_eq!(all.lines.len(), pos.legal_moves().len());
    }

    #[test]
    fn respects_node_limit_and_stop() {
        let mut engine = Engine::new(1);
        let limits = Limits { nodes: Some(5_000), ..Limits::default() };
        let info = engine.search(&Position::startpos(), &[], &limits, |_| {});
        assert!(info.best.is_some());
        assert!(info.nodes <= 5_000 + 64, "{} nodes", info.nodes);
    }
}
