//! Iterative deepening with aspiration windows over a principal-variation alpha-beta search:
//! transposition table (hash move first), check extension, null move (verified where
//! zugzwang is likely), razoring, reverse futility, futility and late-move pruning, late-move
//! reductions, SEE to order and prune captures, killer / history / counter-move /
//! continuation-history ordering, and a quiescence search of the captures that do not lose
//! material (with the transposition table: it meets the same positions by other orders).
//!
//! Game end inside the search: no legal move loses (mate and stalemate alike); the move
//! limit and a board without attackers are draws; a position that repeats one on the search
//! path or in the game is judged by the Asian rules ([`xiangqi::repetition::judge`]): the
//! side that checks or chases perpetually loses, other repetitions are draws.

use crate::clock::Instant;
use crate::continuation::{ContinuationHistory, LIMIT as HISTORY_LIMIT, PIECE_CODES};
use crate::eval::evaluate;
use crate::movepick::{Kind, MovePicker, Refutations};
use crate::nnue::{Accumulator, Network};
use crate::score::{Score, INFINITY, MATE, MATE_BOUND};
use crate::see::{loses_nothing, see, victim_value};
use crate::tt::{Bound, Entry, Table};
use crate::Played;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use xiangqi::outcome::Rules;
use xiangqi::repetition::{judge, Ruling};
use xiangqi::{Move, PieceKind, Position, Square};

/// The deepest ply the search reaches (extensions included).
pub(crate) const MAX_PLY: usize = 100;
/// The deepest iteration.
pub const MAX_DEPTH: u32 = 80;
/// The score of a repetition the side to move wins by rule (beyond any evaluation, below mates).
const RULE_WIN: i32 = MATE_BOUND - 200;
/// Scores beyond this (either sign) are won or lost by mate or by rule, not by the evaluation:
/// margins and windows built on the evaluation do not apply to them.
const WIN_BOUND: i32 = RULE_WIN - 1000;
/// Plies without a capture that draw (the 60-move rule, as the rules judge a game).
const MOVE_LIMIT: u32 = Rules::DEFAULT_MOVE_LIMIT;

/// When to stop searching. With no limit at all the search goes on to [`MAX_DEPTH`] or until
/// the stop flag ([`crate::Engine::stop_handle`]) is set.
///
/// ```
/// use std::time::Duration;
/// use xiangqi_engine::Limits;
/// let l = Limits { multipv: 3, ..Limits::time(Duration::from_millis(500)) };
/// assert_eq!((l.depth, l.multipv), (None, 3));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deepest iteration (at most [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (the search finishes the node it is in).
    pub nodes: Option<u64>,
    /// Think at most this long: the search stops when the time is up, keeping the best move of
    /// the unfinished iteration when it found a better one (`go movetime` uses all of it).
    pub time: Option<Duration>,
    /// Begin no new iteration after this much time (a share of a clock, where the time saved
    /// is worth more later); `None`: deepen until [`Limits::time`] is up.
    pub optimum: Option<Duration>,
    /// How many best lines to find (0 or 1: one).
    pub multipv: usize,
}

impl Limits {
    /// Search to `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// Search for `time`.
    pub fn time(time: Duration) -> Limits {
        Limits { time: Some(time), ..Limits::default() }
    }
}

/// One line of a multi-PV search: its score and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The score of the line's first move, for the side to move.
    pub score: Score,
    /// The moves, the first of which is the root move.
    pub pv: Vec<Move>,
}

/// The result of one completed iteration (and of the whole search).
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// The best move; `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    /// The best move's score, for the side to move.
    pub score: Score,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The best lines, best first (as many as [`Limits::multipv`] asked, at most the number of
    /// legal moves); `lines[0]` is `score` and `pv`.
    pub lines: Vec<Line>,
    /// How full the transposition table is, in permille.
    pub hashfull: u32,
}

/// What the search keeps per ply.
#[derive(Clone, Copy, Default)]
struct Frame {
    eval: i32,
    /// The move played from this ply (`None`: a null move or none yet).
    mv: Option<Move>,
    /// The piece code that moved.
    piece: u8,
}

/// One thread's searcher (Pikafish's `Worker`): its view of the shared transposition table,
/// its move-ordering statistics and the state of the search it runs. [`crate::Engine`] holds
/// one for the caller's thread and more for the helper threads.
pub(crate) struct Worker {
    /// The transposition table, shared by all the engine's workers.
    pub(crate) tt: Arc<Table>,
    /// A helper's number (1, 2, ...; 0 for the worker of the caller's thread): odd helpers
    /// search every iteration one ply deeper, so that the threads' trees differ.
    helper_id: usize,
    /// A helper adds its nodes here (every 1024 nodes); the main worker reads the sum.
    pub(crate) helper_nodes: Arc<AtomicU64>,
    /// The helpers' nodes when last read (counted against the node limit).
    pub(crate) others: u64,
    /// The nodes already added to `helper_nodes`.
    published: u64,
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// History of quiet moves by piece code and target square.
    history: Box<[[i32; Square::COUNT]; PIECE_CODES]>,
    /// The reply that refuted a move, by its piece code and target square.
    counter: Box<[[Option<Move>; Square::COUNT]; PIECE_CODES]>,
    /// History of quiet moves after the move one and two plies before (continuation history).
    continuation: ContinuationHistory,
    stack: [Frame; MAX_PLY + 2],
    /// The triangular principal-variation table.
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// The flag that stops the search (the caller's for the main worker, the pool's for helpers).
    pub(crate) stop: Arc<AtomicBool>,
    /// Hashes of the positions before the current node: the game, then the search path.
    path: Vec<u64>,
    /// The moves played in the game from its positions in `path` (the search path's moves
    /// are in `stack`).
    game_moves: Vec<Move>,
    game_len: usize,
    root_excluded: Vec<Move>,
    /// The root moves allowed (`None`: all).
    root_allowed: Option<Vec<Move>>,
    /// The best line found so far in the running root search.
    partial: Option<Line>,
    pub(crate) nodes: u64,
    seldepth: usize,
    started: Instant,
    deadline: Option<Instant>,
    node_limit: u64,
    aborted: bool,
    /// Root searches repeated with a wider window (the score fell outside the aspiration window).
    researches: u64,
    /// The window of the last root search (the score it returned lies inside it).
    last_window: (i32, i32),
    lmr: Box<[[i32; 64]; 64]>,
    /// Recent static evaluations by position hash: quiescence meets the same positions again
    /// through other capture orders. Each slot holds the hash's high 48 bits and the score.
    eval_cache: Box<[u64; EVAL_CACHE_SLOTS]>,
    /// The learned evaluation, if one is set (else the hand-written one).
    pub(crate) net: Option<Arc<Network>>,
    /// The net's accumulator of each ply's position on the search path.
    accumulators: Box<[Accumulator]>,
}

const EVAL_CACHE_SLOTS: usize = 1 << 16;

impl Worker {
    /// A worker on `tt` (the engine's table, shared by all its workers); `helper_id` 0 for the
    /// caller's thread, 1, 2, ... for the helpers.
    pub(crate) fn new(tt: Arc<Table>, helper_id: usize) -> Worker {
        let mut lmr = Box::new([[0; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.6 + (d as f64).ln() * (m as f64).ln() / 2.2) as i32;
            }
        }
        Worker {
            tt,
            helper_id,
            helper_nodes: Arc::new(AtomicU64::new(0)),
            others: 0,
            published: 0,
            killers: [[None; 2]; MAX_PLY + 2],
            history: Box::new([[0; Square::COUNT]; PIECE_CODES]),
            counter: Box::new([[None; Square::COUNT]; PIECE_CODES]),
            continuation: ContinuationHistory::new(),
            stack: [Frame::default(); MAX_PLY + 2],
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            stop: Arc::new(AtomicBool::new(false)),
            path: Vec::new(),
            game_moves: Vec::new(),
            game_len: 0,
            root_excluded: Vec::new(),
            partial: None,
            root_allowed: None,
            nodes: 0,
            seldepth: 0,
            started: Instant::now(),
            deadline: None,
            node_limit: u64::MAX,
            aborted: false,
            researches: 0,
            last_window: (-INFINITY, INFINITY),
            lmr,
            eval_cache: vec![0; EVAL_CACHE_SLOTS]
                .into_boxed_slice()
                .try_into()
                .expect("the length is EVAL_CACHE_SLOTS"),
            net: None,
            accumulators: Vec::new().into_boxed_slice(),
        }
    }

    /// Evaluates with `net` from now on, or with the hand-written evaluation for `None`.
    pub(crate) fn set_net(&mut self, net: Option<Arc<Network>>) {
        self.accumulators = match &net {
            Some(n) => vec![Accumulator::new(n, &Position::startpos()); MAX_PLY + 2].into_boxed_slice(),
            None => Vec::new().into_boxed_slice(),
        };
        self.net = net;
        self.eval_cache.fill(0);
    }

    /// Forgets everything learned (a new game), the shared table too.
    pub(crate) fn clear(&mut self) {
        self.tt.clear();
        *self.history = [[0; Square::COUNT]; PIECE_CODES];
        *self.counter = [[None; Square::COUNT]; PIECE_CODES];
        self.continuation.clear();
        self.killers = [[None; 2]; MAX_PLY + 2];
    }

    /// All threads' nodes so far.
    fn total_nodes(&self) -> u64 {
        self.nodes + self.helper_nodes.load(Ordering::Relaxed) * (self.helper_id == 0) as u64
    }

    /// Iterative deepening on this thread.
    pub(crate) fn deepen(
        &mut self,
        pos: &Position,
        game: &[Played],
        limits: &Limits,
        only: Option<&[Move]>,
        mut on_iteration: impl FnMut(&SearchInfo),
    ) -> SearchInfo {
        self.started = Instant::now();
        self.deadline = limits.time.map(|t| self.started + t);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.published = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.killers = [[None; 2]; MAX_PLY + 2];
        self.stack = [Frame::default(); MAX_PLY + 2];
        for row in self.history.iter_mut() {
            for h in row.iter_mut() {
                *h /= 4;
            }
        }
        self.path.clear();
        self.path.extend(game.iter().map(|p| p.hash));
        self.game_moves.clear();
        self.game_moves.extend(game.iter().map(|p| p.mv));
        self.game_len = game.len();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH) as i32;
        let mut root = pos.clone();
        let mut legal = root.legal_moves();
        if let Some(only) = only {
            legal.retain(|m| only.contains(&m));
        }
        self.root_allowed = only.map(|_| legal.to_vec());
        let multipv = limits.multipv.max(1).min(legal.len().max(1));
        let fallback = legal.first().copied();
        let mut best = SearchInfo {
            best: fallback,
            score: Score(if legal.is_empty() { -MATE } else { 0 }),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: fallback.into_iter().collect(),
            lines: Vec::new(),
            hashfull: 0,
        };
        if legal.is_empty() {
            self.root_allowed = None;
            return best;
        }
        let mut previous: Vec<Line> = Vec::new();
        'deepening: for depth in 1..=max_depth {
            // A stop asked for between iterations (by `on_iteration`, say) begins no new one.
            if depth > 1 && self.stop.load(Ordering::Relaxed) {
                break;
            }
            let mut lines: Vec<Line> = Vec::with_capacity(multipv);
            self.root_excluded.clear();
            for k in 0..multipv {
                let guess = previous.get(k).map(|l| l.score.0);
                // Odd helpers a ply deeper (the main engine's `helper_id` is 0).
                let score = self.aspiration(&mut root, depth + (self.helper_id & 1) as i32, guess);
                let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].iter().flatten().copied().collect();
                if self.aborted {
                    // A move that beat the first one in the unfinished iteration is kept.
                    if k == 0 && !pv.is_empty() && pv.first() != best.pv.first() && score > -INFINITY {
                        if let Some(p) = self.partial.take() {
                            best.best = p.pv.first().copied();
                            best.score = p.score;
                            best.pv = p.pv.clone();
                            if let Some(l) = best.lines.first_mut() {
                                *l = p;
                            }
                        }
                    }
                    break 'deepening;
                }
                let Some(&first) = pv.first() else { break };
                self.root_excluded.push(first);
                lines.push(Line { score: Score(score), pv });
            }
            lines.sort_by_key(|l| core::cmp::Reverse(l.score));
            let Some(top) = lines.first() else { break };
            best = SearchInfo {
                best: top.pv.first().copied(),
                score: top.score,
                depth: depth as u32,
                seldepth: self.seldepth as u32,
                nodes: self.total_nodes(),
                elapsed: self.started.elapsed(),
                pv: top.pv.clone(),
                lines: lines.clone(),
                hashfull: self.tt.hashfull(),
            };
            previous = lines;
            on_iteration(&best);
            if let Some(m) = best.score.mate_in() {
                if depth >= 2 * m.abs() + 4 && multipv == 1 {
                    break;
                }
            }
            if legal.len() == 1 && limits.time.is_some() && depth >= 4 {
                break;
            }
            // With a clock, the time not spent on this move is kept for the next ones.
            if limits.optimum.is_some_and(|optimum| self.started.elapsed() > optimum) {
                break;
            }
        }
        self.root_excluded.clear();
        self.root_allowed = None;
        if self.helper_id > 0 {
            self.helper_nodes.fetch_add(self.nodes - self.published, Ordering::Relaxed);
            self.published = self.nodes;
        }
        best.nodes = self.total_nodes();
        best.elapsed = self.started.elapsed();
        best.seldepth = best.seldepth.max(self.seldepth as u32);
        best.hashfull = self.tt.hashfull();
        if best.lines.is_empty() {
            best.lines.push(Line { score: best.score, pv: best.pv.clone() });
        }
        best
    }

    /// One root search in a window around `guess` that widens until the score falls inside.
    fn aspiration(&mut self, root: &mut Position, depth: i32, guess: Option<i32>) -> i32 {
        self.partial = None;
        let mut delta = 30;
        let (mut alpha, mut beta) = match guess {
            Some(g) if depth >= 4 && g.abs() < WIN_BOUND => (g - delta, g + delta),
            _ => (-INFINITY, INFINITY),
        };
        loop {
            self.last_window = (alpha, beta);
            if let Some(net) = &self.net {
                self.accumulators[0] = Accumulator::new(net, root);
            }
            let score = self.alpha_beta(root, depth, alpha, beta, 0, true, false);
            if self.aborted {
                return score;
            }
            if (score <= alpha && alpha > -INFINITY) || (score >= beta && beta < INFINITY) {
                self.researches += 1;
            }
            if score <= alpha && alpha > -INFINITY {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta += delta / 2 + 10;
            if delta > 600 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The accumulator of the position after `m` from `pos`, at `ply + 1`.
    #[inline]
    fn push_move(&mut self, pos: &Position, m: Move, ply: usize) {
        if let Some(net) = &self.net {
            self.accumulators[ply + 1] = self.accumulators[ply].after_move(net, pos, m);
        }
    }

    /// A null move: the pieces stand where they stood.
    #[inline]
    fn push_null(&mut self, ply: usize) {
        if self.net.is_some() {
            self.accumulators[ply + 1] = self.accumulators[ply];
        }
    }

    /// The evaluation of `pos`, the position at `ply` on the search path, through the cache:
    /// the net's, from the ply's accumulator, or the hand-written one.
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let hash = pos.hash();
        let slot = &mut self.eval_cache[hash as usize & (EVAL_CACHE_SLOTS - 1)];
        if *slot & !0xffff == hash & !0xffff && *slot != 0 {
            return *slot as u16 as i16 as i32;
        }
        let raw = match &self.net {
            Some(net) => self.accumulators[ply].evaluate(net, pos.turn()),
            None => evaluate(pos),
        };
        // Evaluations stay clear of the scores of wins by rule and mates.
        let score = raw.clamp(-WIN_BOUND + 1, WIN_BOUND - 1).clamp(i16::MIN as i32, i16::MAX as i32);
        *slot = (hash & !0xffff) | score as i16 as u16 as u64;
        score
    }

    fn out_of_time(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
            if self.helper_id > 0 {
                self.helper_nodes.fetch_add(self.nodes - self.published, Ordering::Relaxed);
                self.published = self.nodes;
            } else {
                self.others = self.helper_nodes.load(Ordering::Relaxed);
            }
        }
        if self.nodes + self.others >= self.node_limit {
            self.aborted = true;
        }
        self.aborted
    }

    /// The score of a repetition of `pos` on the path, if it repeats: for the side to move.
    fn repetition(&self, pos: &Position) -> Option<i32> {
        let hash = pos.hash();
        let n = self.path.len();
        let window = (pos.halfmoves() as usize).min(n);
        // The newest path entry is the parent (other side to move): step back two at a time.
        let mut j = n.checked_sub(2)?;
        let lowest = n - window;
        loop {
            if j < lowest {
                return None;
            }
            if self.path[j] == hash {
                break;
            }
            j = j.checked_sub(2)?;
        }
        // The moves of the cycle: from the game, then from the search path (rare enough
        // that a small allocation does not matter; judging costs more).
        let mut moves = Vec::with_capacity(n - j);
        for i in j..n {
            let m = if i < self.game_len { Some(self.game_moves[i]) } else { self.stack[i - self.game_len].mv };
            // A null move in the cycle: not a repetition of real moves.
            let Some(m) = m else { return Some(0) };
            moves.push(m);
        }
        Some(match judge(pos, &moves) {
            Ruling::PerpetualCheck { loser } | Ruling::PerpetualChase { loser } if loser == pos.turn() => -RULE_WIN,
            Ruling::PerpetualCheck { .. } | Ruling::PerpetualChase { .. } => RULE_WIN,
            _ => 0,
        })
    }

    /// The principal-variation search of `pos` to `depth` in the window (`alpha`, `beta`), at
    /// `ply` from the root; a `cut_node` is expected to fail high. The steps are numbered as in
    /// Stockfish's search, which this one follows in outline.
    #[allow(clippy::too_many_arguments)]
    fn alpha_beta(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        // Step 1. The node's start: an empty PV, the check extension, and at the horizon the
        // quiescence search.
        if pv_node {
            self.pv_len[ply] = 0;
        }
        let in_check = pos.is_check();
        let depth = if in_check && ply < MAX_PLY / 2 { depth + 1 } else { depth };
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(pos, alpha, beta, ply, in_check);
        }
        // Step 2. Count the node; below the root, the ends of the search: a stop, a repetition
        // judged by the rules, the move limit, and mate-distance pruning.
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let root = ply == 0;
        if !root {
            if self.out_of_time() {
                return 0;
            }
            if let Some(s) = self.repetition(pos) {
                return s;
            }
            if pos.halfmoves() >= MOVE_LIMIT {
                return 0;
            }
            // Mate distance: no line from here can do better than mating at once.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        // Step 3. The transposition table: its move is tried first, and its score ends a
        // non-PV node searched deep enough.
        let hash = pos.hash();
        let entry = self.tt.get(hash);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(s) = entry.filter(|e| e.depth >= depth && !pv_node).and_then(|e| cutoff(&e, ply, alpha, beta)) {
            return s;
        }
        // Step 4. The static evaluation (none in check), and whether it improves on two plies ago.
        let static_eval = if in_check { -INFINITY } else { entry.map_or_else(|| self.evaluate(pos, ply), |e| e.eval) };
        // A stored bound on the score is a better guess than the static evaluation.
        let eval = match entry {
            _ if in_check => -INFINITY,
            Some(e) if e.bound != Bound::Upper && Score::from_tt(e.score, ply).0 > static_eval => {
                Score::from_tt(e.score, ply).0.min(RULE_WIN - 1)
            }
            Some(e) if e.bound != Bound::Lower && Score::from_tt(e.score, ply).0 < static_eval => {
                Score::from_tt(e.score, ply).0.max(-RULE_WIN + 1)
            }
            _ => static_eval,
        };
        self.stack[ply].eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].eval;
        self.killers[ply + 1] = [None; 2];

        if !pv_node && !in_check {
            // Step 5. Razoring: far below alpha, only captures can save it (unless alpha is a mate,
            // which a quiet move may beat by mating sooner).
            if depth <= 3 && eval + 250 * depth < alpha && alpha < WIN_BOUND {
                let q = self.quiesce(pos, alpha - 1, alpha, ply, false);
                if q < alpha {
                    return q;
                }
            }
            // Step 6. Reverse futility: so far above beta that a quiet move will not lose it all. Not
            // when beta is being mated: no static score proves the mate is escaped.
            let margin = 85 * depth - if improving { 60 } else { 0 };
            if depth <= 7 && eval - margin >= beta && eval.abs() < WIN_BOUND && beta > -WIN_BOUND {
                return eval;
            }
            // Step 7. Null move: if passing still fails high, a real move will too. Without rooks or
            // horses, zugzwang is likely: verify with a reduced real search.
            let last_was_null = ply > 0 && self.stack[ply - 1].mv.is_none();
            let attackers = if depth >= 2 && !last_was_null && eval >= beta { attackers(pos) } else { 0 };
            if attackers > 0 && beta.abs() < WIN_BOUND {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.stack[ply].mv = None;
                self.stack[ply].piece = 0;
                pos.swap_turn_unchecked();
                self.path.push(hash);
                self.push_null(ply);
                let score = -self.alpha_beta(pos, depth - r, -beta, -beta + 1, ply + 1, false, !cut_node);
                self.path.pop();
                pos.swap_turn_unchecked();
                if self.aborted {
                    return 0;
                }
                if score >= beta {
                    let score = if score >= WIN_BOUND { beta } else { score };
                    if attackers >= 3 && depth < 12 {
                        return score;
                    }
                    let v = self.alpha_beta(pos, depth - r, beta - 1, beta, ply, false, false);
                    if self.aborted {
                        return 0;
                    }
                    if v >= beta {
                        return score;
                    }
                }
            }
        }

        // Step 8. The moves, in the picker's order; with none the side to move has lost (mate
        // and stalemate alike).
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return -MATE + ply as i32;
        }
        // The two moves before this node, for the continuation history of its quiet moves.
        let earlier = self.earlier_moves(ply);
        let refutations = Refutations { killers: self.killers[ply], counter: self.counter_move(ply) };
        let codes = pos.codes();
        let mut picker = MovePicker::main(pos, moves, tt_move, &refutations, |m| {
            self.quiet_stat(&earlier, codes[m.from().index()], m.to().index())
        });

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried: [Option<Move>; 64] = [None; 64];
        let mut quiet_count = 0;
        let mut searched = 0;
        // Step 9. The move loop (at the root, only the moves not yet in a MultiPV line and allowed).
        while let Some((m, kind)) = picker.next(pos) {
            if root && (self.root_excluded.contains(&m) || self.root_allowed.as_ref().is_some_and(|a| !a.contains(&m)))
            {
                continue;
            }
            let capture = pos.is_capture(m);
            let piece = pos.codes()[m.from().index()];
            let killer_or_counter = kind == Kind::Refutation;
            // Step 10. Shallow pruning of moves that are unlikely to matter (late moves,
            // futility, bad history, captures that lose by SEE); none of it when alpha is a
            // mate already found: only a sooner mate beats it, and that may be any quiet move.
            if !root && best_score > -WIN_BOUND && alpha < WIN_BOUND && !in_check {
                if !capture && !killer_or_counter {
                    let lmp = (3 + depth * depth) / if improving { 1 } else { 2 };
                    if depth <= 8 && quiet_count as i32 >= lmp {
                        continue;
                    }
                    if depth <= 6 && eval + 110 + 100 * depth <= alpha && searched > 0 {
                        // Futility: still allowed if it gives check.
                        let undo = pos.play_unchecked(m);
                        let checks = pos.is_check();
                        pos.undo(m, undo);
                        if !checks {
                            continue;
                        }
                    }
                    let h = self.quiet_stat(&earlier, piece, m.to().index());
                    if depth <= 3 && h < -5000 * depth && searched > 0 {
                        continue;
                    }
                } else if kind == Kind::BadCapture && depth <= 6 && see(pos, m) < -90 * depth {
                    continue;
                }
            }
            // Step 11. Make the move.
            self.stack[ply].mv = Some(m);
            self.stack[ply].piece = piece;
            self.push_move(pos, m, ply);
            let undo = pos.play_unchecked(m);
            self.path.push(hash);
            let gives_check = pos.is_check();
            let new_depth = depth - 1;
            // Step 12. Search it: the first move with the full window, the others with a null
            // window, reduced late (LMR), searched again at full depth and then with the full
            // window when they beat alpha.
            let mut score;
            if searched == 0 {
                score = -self.alpha_beta(pos, new_depth, -beta, -alpha, ply + 1, pv_node, false);
            } else {
                let mut r = 0;
                if depth >= 3 && searched > 2 * pv_node as usize && (!capture || kind == Kind::BadCapture) {
                    r = self.lmr[depth.min(63) as usize][searched.min(63)];
                    r += !improving as i32 + cut_node as i32;
                    r -= pv_node as i32 + killer_or_counter as i32 + gives_check as i32;
                    if !capture {
                        r -= (self.quiet_stat(&earlier, piece, m.to().index()) / 10_000).clamp(-2, 2);
                    } else {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.alpha_beta(pos, new_depth - r, -alpha - 1, -alpha, ply + 1, false, true);
                if score > alpha && r > 0 {
                    score = -self.alpha_beta(pos, new_depth, -alpha - 1, -alpha, ply + 1, false, !cut_node);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.alpha_beta(pos, new_depth, -beta, -alpha, ply + 1, true, false);
                }
            }
            // Step 13. Undo the move.
            self.path.pop();
            pos.undo(m, undo);
            if self.aborted {
                return 0;
            }
            searched += 1;
            if !capture && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = Some(m);
                quiet_count += 1;
            }
            // Step 14. A new best move: the PV, alpha, and at beta a cutoff that rewards a quiet
            // move in the ordering statistics.
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                        if root {
                            let pv = self.pv[0][..self.pv_len[0]].iter().flatten().copied().collect();
                            self.partial = Some(Line { score: Score(score), pv });
                        }
                    }
                    alpha = score;
                    if score >= beta {
                        if !capture {
                            self.reward_quiet(pos, m, ply, depth, &quiets_tried[..quiet_count]);
                        }
                        break;
                    }
                }
            }
        }
        // Step 15. Nothing searched: every move was pruned or excluded.
        if searched == 0 {
            return if root { -INFINITY } else { alpha };
        }
        // Step 16. Store the result (not for a root search that excluded MultiPV lines' moves).
        let bound = bound_of(best_score, original_alpha, beta);
        if !root || self.root_excluded.is_empty() {
            self.tt.put(
                hash,
                Entry { mv: best_move, score: Score(best_score).to_tt(ply), eval: static_eval, depth, bound },
            );
        }
        best_score
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = if ply < MAX_PLY { self.pv_len[ply + 1] } else { 0 };
        head[ply][0] = Some(m);
        let n = child_len.min(MAX_PLY - 1);
        if let Some(child) = tail.first() {
            head[ply][1..=n].copy_from_slice(&child[..n]);
        }
        self.pv_len[ply] = n + 1;
        if ply < MAX_PLY {
            self.pv_len[ply + 1] = 0;
        }
    }

    /// A quiet move refuted the node: remember it as a killer and counter-move, raise its
    /// history and lower that of the quiet moves tried before it.
    fn reward_quiet(&mut self, pos: &Position, m: Move, ply: usize, depth: i32, tried: &[Option<Move>]) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        if ply > 0 {
            let prev = self.stack[ply - 1];
            if let Some(p) = prev.mv {
                self.counter[prev.piece as usize][p.to().index()] = Some(m);
            }
        }
        let bonus = (depth * depth * 16).min(1600);
        let codes = pos.codes();
        let earlier = self.earlier_moves(ply);
        let mut update = |mv: Move, b: i32| {
            let (piece, to) = (codes[mv.from().index()], mv.to().index());
            let h = &mut self.history[piece as usize][to];
            *h += b - *h * b.abs() / HISTORY_LIMIT;
            for e in earlier.iter().flatten() {
                self.continuation.update(*e, piece, to, b);
            }
        };
        update(m, bonus);
        for &q in tried.iter().flatten() {
            if q != m {
                update(q, -bonus);
            }
        }
    }

    /// The moves one and two plies before `ply` as (piece code, target), where there was one
    /// (not a null move, not before the root).
    #[inline]
    fn earlier_moves(&self, ply: usize) -> [Option<(u8, usize)>; 2] {
        let at = |back: usize| {
            let f = self.stack[ply.checked_sub(back)?];
            f.mv.map(|m| (f.piece, m.to().index()))
        };
        [at(1), at(2)]
    }

    /// How good a quiet move of `piece` to `to` has been: its history plus its continuation
    /// history after the `earlier` moves ([`Worker::earlier_moves`] of the node).
    #[inline]
    fn quiet_stat(&self, earlier: &[Option<(u8, usize)>; 2], piece: u8, to: usize) -> i32 {
        let mut s = self.history[piece as usize][to];
        for e in earlier.iter().flatten() {
            s += self.continuation.get(*e, piece, to);
        }
        s
    }

    fn quiesce(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: usize, in_check: bool) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.out_of_time() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        let hash = pos.hash();
        let entry = self.tt.get(hash);
        if let Some(s) = entry.and_then(|e| cutoff(&e, ply, alpha, beta)) {
            return s;
        }
        let original_alpha = alpha;
        let mut best_move = None;
        let mut best;
        let stand;
        let moves;
        if in_check {
            moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            stand = -INFINITY;
            best = -INFINITY;
        } else {
            // Standing pat needs no full move list: a stalemate (a loss in Xiangqi) first
            // reached here is missed, as in most engines; the full-width search sees it.
            stand = match entry {
                Some(e) => e.eval,
                None => self.evaluate(pos, ply),
            };
            if stand >= beta {
                if entry.is_none() {
                    let e =
                        Entry { mv: None, score: Score(stand).to_tt(ply), eval: stand, depth: -1, bound: Bound::Lower };
                    self.tt.put(hash, e);
                }
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            moves = pos.legal_captures();
        }
        let mut picker = MovePicker::quiescence(pos, moves, entry.and_then(|e| e.mv));
        while let Some((m, _)) = picker.next(pos) {
            if !in_check {
                // Delta pruning and losing captures.
                if stand + victim_value(pos, m) + 200 < alpha {
                    continue;
                }
                if !loses_nothing(pos, m) {
                    continue;
                }
            }
            self.push_move(pos, m, ply);
            let undo = pos.play_unchecked(m);
            let check = pos.is_check();
            let score = -self.quiesce(pos, -beta, -alpha, ply + 1, check);
            pos.undo(m, undo);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // Stored below every full-width depth: it orders and cuts only other quiescence nodes.
        let bound = bound_of(best, original_alpha, beta);
        let eval = if in_check { -INFINITY } else { stand };
        self.tt.put(hash, Entry { mv: best_move, score: Score(best).to_tt(ply), eval, depth: -1, bound });
        best
    }

    /// The move that last refuted the move played before `ply` (by its piece and target).
    fn counter_move(&self, ply: usize) -> Option<Move> {
        let prev = self.stack[ply.checked_sub(1)?];
        prev.mv.and_then(|p| self.counter[prev.piece as usize][p.to().index()])
    }
}

/// The stored score of `e` if it decides a node searched in `(alpha, beta)` at `ply`.
#[inline]
fn cutoff(e: &Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = Score::from_tt(e.score, ply).0;
    match e.bound {
        Bound::Exact => Some(s),
        Bound::Lower if s >= beta => Some(s),
        Bound::Upper if s <= alpha => Some(s),
        _ => None,
    }
}

/// What a node's best score says about its true score, searched in `(alpha, beta)`.
#[inline]
fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The side to move's rooks count 2, horses and cannons 1: 0 means null moves are unsafe.
fn attackers(pos: &Position) -> i32 {
    let us = pos.turn();
    pos.pieces()
        .filter(|(_, p)| p.color == us)
        .map(|(_, p)| match p.kind {
            PieceKind::Rook => 2,
            PieceKind::Horse | PieceKind::Cannon => 1,
            _ => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Engine;

    /// A worker as `Engine::new(4)` makes its main one.
    fn worker() -> Worker {
        let mut worker = Worker::new(Arc::new(Table::new(4).unwrap()), 0);
        worker.set_net(crate::nnue::default_net());
        worker
    }

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
    fn respects_node_limit_and_stop() {
        let mut engine = Engine::new(1);
        let limits = Limits { nodes: Some(5_000), ..Limits::default() };
        let info = engine.search(&Position::startpos(), &[], &limits, |_| {});
        assert!(info.best.is_some());
        assert!(info.nodes <= 5_000 + 64, "{} nodes", info.nodes);
    }

    #[test]
    fn multipv_gives_distinct_lines_best_first() {
        let mut engine = Engine::new(4);
        let limits = Limits { multipv: 3, ..Limits::depth(4) };
        let info = engine.search(&Position::startpos(), &[], &limits, |_| {});
        assert_eq!(info.lines.len(), 3);
        let firsts: Vec<Move> = info.lines.iter().map(|l| l.pv[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        assert!(info.lines.windows(2).all(|w| w[0].score >= w[1].score));
        assert_eq!(info.lines[0].pv, info.pv);
    }

    #[test]
    fn aspiration_widens_until_the_score_fits() {
        // A middle game (the folium self-test position).
        let fen = "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1";
        let mut pos: Position = fen.parse().unwrap();
        let mut engine = worker();
        let full = engine.aspiration(&mut pos, 5, None);
        assert_eq!(engine.researches, 0, "a full window is never searched again");
        // A guess far too low fails high, one far too high fails low: each is searched again
        // in wider windows until the score falls inside, so the score returned is exact, not a
        // bound. (It need not equal the full window's: pruning depends on the window.)
        for guess in [full - 500, full + 500, full - 40, full + 40] {
            let mut engine = worker();
            let score = engine.aspiration(&mut pos, 5, Some(guess));
            let (alpha, beta) = engine.last_window;
            // 500 off always misses the window; 40 off may land inside it when pruning in the
            // narrower window finds a score nearer the guess.
            assert!(engine.researches >= 1 || (guess - full).abs() < 100, "guess {guess}: score {score}");
            assert!(alpha == -INFINITY || score > alpha, "guess {guess}: {score} fails low in ({alpha}, {beta})");
            assert!(beta == INFINITY || score < beta, "guess {guess}: {score} fails high in ({alpha}, {beta})");
        }
        // (A guess equal to the full window's score is not asserted to fit: pruning depends on
        // the window, and with net 2 no narrow window here confirms its own centre.)
        // No window around a mate score: it is searched with the full window at once.
        let mut engine = worker();
        engine.aspiration(&mut pos, 5, Some(MATE - 10));
        assert_eq!(engine.researches, 0);
    }

    /// Loads a game (`moves` from `fen`) into the engine's path as a search would, and
    /// judges the final position's repetition for its side to move.
    fn judged(fen: &str, moves: &str) -> Option<i32> {
        let start: Position = fen.parse().unwrap();
        let moves: Vec<Move> = moves.split(' ').map(|m| m.parse().unwrap()).collect();
        let (end, game) = crate::replay(&start, &moves);
        let mut engine = Worker::new(Arc::new(Table::new(1).unwrap()), 0);
        engine.path = game.iter().map(|p| p.hash).collect();
        engine.game_moves = game.iter().map(|p| p.mv).collect();
        engine.game_len = game.len();
        engine.repetition(&end)
    }

    #[test]
    fn repetitions_are_judged_by_the_asian_rules() {
        // Red's rook checks from e5 and d5 while the king steps aside: Red, not to move, loses.
        let check = "4k4/9/9/9/4R4/9/9/9/9/5K3 b - - 0 1";
        assert_eq!(judged(check, "e9d9 e5d5 d9e9 d5e5"), Some(RULE_WIN));
        // Black's cannon chases Red's rook to and fro (rulings table fsf-1): Black, to move, loses.
        let chase = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1";
        assert_eq!(judged(chase, "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7"), Some(-RULE_WIN));
        // Both horses go out and back: a draw; no repetition at all: nothing to judge.
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        assert_eq!(judged(start, "h0g2 h9g7 g2h0 g7h9"), Some(0));
        assert_eq!(judged(start, "h0g2 h9g7 g2h0"), None);
    }

    #[test]
    fn the_search_avoids_a_losing_perpetual_check() {
        // Red is a horse down and has checked from e5 and d5: checking from e5 again repeats
        // the start and loses by rule (a draw would have pleased Red), so it plays another move.
        let fen = "n3k4/9/9/9/4R4/9/9/9/1r7/5K3 b - - 0 1";
        let start: Position = fen.parse().unwrap();
        let moves: Vec<Move> = "e9d9 e5d5 d9e9".split(' ').map(|m| m.parse().unwrap()).collect();
        let (pos, game) = crate::replay(&start, &moves);
        let info = Engine::new(4).search(&pos, &game, &Limits::depth(6), |_| {});
        assert_ne!(info.best.map(|m| m.to_string()).as_deref(), Some("d5e5"), "{:?}", info.pv);
    }
}
