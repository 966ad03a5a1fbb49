//! The engine as its callers see it (Pikafish's `Engine`, apart from the worker): the options
//! (hash size, threads, net), the stop flag, and a search's entry point. The search itself is a
//! worker's (`search.rs`, one per thread); the helper threads of lazy SMP are the thread pool's
//! (`thread_pool.rs`).

use crate::nnue::Network;
use crate::score::Score;
use crate::search::{Limits, SearchInfo, Worker};
use crate::thread_pool::ThreadPool;
use crate::tt::Table;
use crate::Played;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use xiangqi::{Move, Position};

/// A searcher: a transposition table, the threads that search with it, and their move-ordering
/// statistics (kept from search to search until [`Engine::clear`]).
pub struct Engine {
    /// The worker on the caller's thread: its best move is the search's.
    main: Worker,
    /// The helper threads' workers (lazy SMP; empty: one thread).
    pool: ThreadPool,
    /// The size of the transposition table, in MiB.
    hash_mb: usize,
}

/// Why [`Engine::set_hash`] refused a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashError {
    /// The size asked for, in MiB.
    pub requested: usize,
    /// The largest size allowed, in MiB.
    pub max: usize,
}

impl core::fmt::Display for HashError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "a hash table of {} MiB cannot be had (at most {} MiB, and the memory must be free)",
            self.requested, self.max
        )
    }
}

impl std::error::Error for HashError {}

/// Why [`Engine::set_threads`] refused a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadsError {
    /// The count asked for.
    pub requested: usize,
    /// The most threads allowed ([`Engine::MAX_THREADS`]).
    pub max: usize,
}

impl core::fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} search threads cannot be had (1 to {})", self.requested, self.max)
    }
}

impl std::error::Error for ThreadsError {}
impl Engine {
    /// The largest hash table, in MiB.
    pub const MAX_HASH_MB: usize = crate::tt::MAX_MB;
    /// The most search threads (on WebAssembly, which has no threads here, one).
    #[cfg(not(target_arch = "wasm32"))]
    pub const MAX_THREADS: usize = 64;
    /// The most search threads (on WebAssembly, which has no threads here, one).
    #[cfg(target_arch = "wasm32")]
    pub const MAX_THREADS: usize = 1;

    /// An engine with a transposition table of about `hash_mb` MiB. A size that is too large
    /// or cannot be allocated falls back to the largest that can (down to 1 MiB); it never
    /// aborts. See [`Engine::set_hash`] to learn whether a size is possible. It evaluates with
    /// the built-in net ([`crate::nnue::default_net`]) where the build has one, else with the
    /// hand-written evaluation; [`Engine::set_net`] changes that.
    pub fn new(hash_mb: usize) -> Engine {
        let mut mb = hash_mb.clamp(1, Self::MAX_HASH_MB);
        let tt = loop {
            match Table::new(mb) {
                Some(t) => break t,
                None if mb > 1 => mb /= 2,
                None => panic!("cannot allocate a 1 MiB hash table"),
            }
        };
        let mut engine = Engine { main: Worker::new(Arc::new(tt), 0), pool: ThreadPool::default(), hash_mb: mb };
        // The built-in net where there is one (not on WebAssembly, whose page loads a net).
        engine.set_net(crate::nnue::default_net());
        engine
    }

    /// Evaluates with `net` from now on, or with the hand-written evaluation for `None`
    /// (helper threads too).
    pub fn set_net(&mut self, net: Option<Arc<Network>>) {
        self.pool.set_net(&net);
        self.main.set_net(net);
    }

    /// The net the engine evaluates with (`None`: the hand-written evaluation).
    pub fn net(&self) -> Option<&Arc<Network>> {
        self.main.net.as_ref()
    }

    /// The number of threads a search runs on.
    pub fn threads(&self) -> usize {
        1 + self.pool.len()
    }

    /// Sets the number of threads a search runs on (1 to [`Engine::MAX_THREADS`]): lazy SMP,
    /// every thread searching the same position with the one transposition table, the others'
    /// results reaching this one through it. The best move is this thread's; the nodes are all
    /// threads' (and a node limit counts them all). Helpers keep their move-ordering statistics
    /// from search to search, as this engine does.
    ///
    /// ```
    /// use xiangqi::Position;
    /// use xiangqi_engine::{Engine, Limits};
    /// let mut engine = Engine::new(4);
    /// # #[cfg(not(target_arch = "wasm32"))]
    /// engine.set_threads(2).unwrap();
    /// let info = engine.search(&Position::startpos(), &[], &Limits::depth(6), |_| {});
    /// assert!(info.best.is_some());
    /// assert!(engine.set_threads(Engine::MAX_THREADS + 1).is_err());
    /// ```
    pub fn set_threads(&mut self, threads: usize) -> Result<(), ThreadsError> {
        if !(1..=Self::MAX_THREADS).contains(&threads) {
            return Err(ThreadsError { requested: threads, max: Self::MAX_THREADS });
        }
        self.pool.resize(threads - 1, &self.main.tt, &self.main.net);
        Ok(())
    }

    /// The size of the transposition table, in MiB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Replaces the transposition table by one of `hash_mb` MiB (emptied). Too large a size
    /// (above [`Engine::MAX_HASH_MB`]) or one that cannot be allocated is an error and keeps
    /// the old table.
    pub fn set_hash(&mut self, hash_mb: usize) -> Result<(), HashError> {
        let err = HashError { requested: hash_mb, max: Self::MAX_HASH_MB };
        if hash_mb == 0 {
            return Err(err);
        }
        // Free the old table first (the helpers hold it too) so that the new one can use its
        // memory.
        self.share_table(Arc::new(Table::new(1).ok_or(err)?));
        let (table, result) = match Table::new(hash_mb) {
            Some(t) => {
                self.hash_mb = hash_mb;
                (t, Ok(()))
            }
            None => (Table::new(self.hash_mb).or_else(|| Table::new(1)).ok_or(err)?, Err(err)),
        };
        self.share_table(Arc::new(table));
        result
    }

    /// Makes `tt` the table of this engine and its helpers.
    fn share_table(&mut self, tt: Arc<Table>) {
        self.pool.share_table(&tt);
        self.main.tt = tt;
    }

    /// The flag that stops a search when set (from another thread, or from the
    /// `on_iteration` callback). The caller owns it: the search only reads it and never clears
    /// it, so a flag that is still set stops the next search at once (it answers with the first
    /// legal move). Clear it, or give the engine a fresh one with [`Engine::set_stop_handle`],
    /// before searching again.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.main.stop)
    }

    /// Makes `stop` the flag that stops the search (see [`Engine::stop_handle`]); a caller
    /// that gives each search its own flag never has to clear one.
    ///
    /// ```
    /// use std::sync::{atomic::{AtomicBool, Ordering}, Arc};
    /// use xiangqi::Position;
    /// use xiangqi_engine::{Engine, Limits};
    ///
    /// let mut engine = Engine::new(1);
    /// let stop = Arc::new(AtomicBool::new(false));
    /// engine.set_stop_handle(Arc::clone(&stop));
    /// // Stop after the third depth, from the progress callback.
    /// let info = engine.search(&Position::startpos(), &[], &Limits::default(), |i| {
    ///     if i.depth == 3 {
    ///         stop.store(true, Ordering::Relaxed);
    ///     }
    /// });
    /// assert_eq!(info.depth, 3);
    /// assert!(info.best.is_some());
    /// ```
    pub fn set_stop_handle(&mut self, stop: Arc<AtomicBool>) {
        self.main.stop = stop;
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.pool.clear();
        self.main.clear();
    }

    /// What the transposition table holds for `pos`: the stored move, score and depth.
    pub fn probe(&self, pos: &Position) -> Option<(Option<Move>, Score, u32)> {
        let e = self.main.tt.get(pos.hash())?;
        let mv = e.mv.filter(|&m| pos.is_legal(m));
        Some((mv, Score::from_tt(e.score, 0), e.depth.max(0) as u32))
    }

    /// Searches `pos`. `game` holds the positions before it in the game and the moves played
    /// (see [`crate::replay`]), for the repetition rules; `on_iteration` hears about each
    /// completed depth.
    pub fn search(
        &mut self,
        pos: &Position,
        game: &[Played],
        limits: &Limits,
        on_iteration: impl FnMut(&SearchInfo),
    ) -> SearchInfo {
        self.search_moves(pos, game, limits, None, on_iteration)
    }

    /// [`Engine::search`] among the root moves in `only` (all legal moves when `None`; UCI
    /// `searchmoves`, UCCI `banmoves`). With none of them legal there is no best move.
    pub fn search_moves(
        &mut self,
        pos: &Position,
        game: &[Played],
        limits: &Limits,
        only: Option<&[Move]>,
        on_iteration: impl FnMut(&SearchInfo),
    ) -> SearchInfo {
        self.main.tt.new_search();
        self.main.helper_nodes.store(0, Ordering::Relaxed);
        self.main.others = 0;
        if self.pool.is_empty() {
            return self.main.deepen(pos, game, limits, only, on_iteration);
        }
        self.pool.search(&mut self.main, pos, game, limits, only, on_iteration)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_size_is_bounded() {
        let mut engine = Engine::new(1);
        assert!(engine.set_hash(Engine::MAX_HASH_MB + 1).is_err());
        assert!(engine.set_hash(usize::MAX).is_err());
        assert_eq!(engine.hash_mb(), 1);
        assert!(engine.set_hash(0).is_err());
        assert!(engine.set_hash(2).is_ok());
        assert_eq!(engine.hash_mb(), 2);
    }
}
