//! Lazy SMP: helper workers that search the same root on threads of their own while the main
//! worker searches, meeting it only through the shared transposition table.

use crate::nnue::Network;
use crate::search::{Limits, SearchInfo, Worker};
use crate::tt::Table;
use crate::Played;
use std::sync::Arc;
use xiangqi::{Move, Position};

/// The helper threads' workers (Pikafish's `ThreadPool`, less the main thread's).
#[derive(Default)]
pub(crate) struct ThreadPool {
    helpers: Vec<Worker>,
}

impl ThreadPool {
    /// How many helpers there are.
    pub(crate) fn len(&self) -> usize {
        self.helpers.len()
    }

    /// Whether the search runs on the caller's thread alone.
    pub(crate) fn is_empty(&self) -> bool {
        self.helpers.is_empty()
    }

    /// Keeps `count` helpers: the first ones stay (with their statistics), new ones search `tt`
    /// with `net`.
    pub(crate) fn resize(&mut self, count: usize, tt: &Arc<Table>, net: &Option<Arc<Network>>) {
        self.helpers.truncate(count);
        while self.helpers.len() < count {
            let mut helper = Worker::new(Arc::clone(tt), self.helpers.len() + 1);
            helper.set_net(net.clone());
            self.helpers.push(helper);
        }
    }

    /// Every helper evaluates with `net` from now on.
    pub(crate) fn set_net(&mut self, net: &Option<Arc<Network>>) {
        for h in &mut self.helpers {
            h.set_net(net.clone());
        }
    }

    /// Every helper searches `tt` from now on.
    pub(crate) fn share_table(&mut self, tt: &Arc<Table>) {
        for h in &mut self.helpers {
            h.tt = Arc::clone(tt);
        }
    }

    /// Every helper forgets what it learned.
    pub(crate) fn clear(&mut self) {
        for h in &mut self.helpers {
            h.clear();
        }
    }

    /// Searches with every thread: the helpers without limits until `main`'s search (the one
    /// that answers) ends. The nodes are all threads'.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn search(
        &mut self,
        main: &mut Worker,
        pos: &Position,
        game: &[Played],
        limits: &Limits,
        only: Option<&[Move]>,
        on_iteration: impl FnMut(&SearchInfo),
    ) -> SearchInfo {
        use std::sync::atomic::{AtomicBool, Ordering};
        let done = Arc::new(AtomicBool::new(false));
        let mut info = std::thread::scope(|scope| {
            for h in self.helpers.iter_mut() {
                h.stop = Arc::clone(&done);
                h.helper_nodes = Arc::clone(&main.helper_nodes);
                let unlimited = Limits::default();
                scope.spawn(move || h.deepen(pos, game, &unlimited, only, |_| {}));
            }
            let info = main.deepen(pos, game, limits, only, on_iteration);
            done.store(true, Ordering::Relaxed);
            info
        });
        info.nodes = main.nodes + main.helper_nodes.load(Ordering::Relaxed);
        info
    }

    /// WebAssembly has no threads here: the main worker searches alone.
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn search(
        &mut self,
        main: &mut Worker,
        pos: &Position,
        game: &[Played],
        limits: &Limits,
        only: Option<&[Move]>,
        on_iteration: impl FnMut(&SearchInfo),
    ) -> SearchInfo {
        main.deepen(pos, game, limits, only, on_iteration)
    }
}
