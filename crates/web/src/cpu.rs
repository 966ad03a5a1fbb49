//! Runs CPU-heavy work off the async threads, a few jobs at a time, each bounded in time,
//! in separate pools, so that a flood of solve requests can neither stall the server nor play.

use super::ApiError;
use axum::http::StatusCode;
use std::time::Duration;
use tokio::sync::Semaphore;

/// A number of slots for jobs of one kind.
pub struct Pool {
    slots: Semaphore,
    size: usize,
    /// Hand freed memory back to the system after each job: jobs of this kind allocate tens of
    /// megabytes, which glibc would otherwise keep in the thread's malloc arena.
    trim: bool,
}

/// Puzzle solving: seconds of CPU at worst, so few at once (the machine has few cores).
pub static SOLVER: Pool = Pool::new(SOLVER_SLOTS).trimmed();
/// Game checks, notation and links: milliseconds each; their own slots, so that a flood of
/// solve requests never blocks play.
pub static GAMES: Pool = Pool::new(GAMES_SLOTS);

/// Preview pictures: tens of milliseconds each, a few at once, apart from play.
pub static IMAGES: Pool = Pool::new(IMAGES_SLOTS);

/// The engine: it thinks for up to seconds and uses a whole core, so one search at a time.
pub static ENGINE: Pool = Pool::new(ENGINE_SLOTS).trimmed();

/// Every pool by the name its metrics carry.
pub static POOLS: [(&str, &Pool); 4] =
    [("solver", &SOLVER), ("games", &GAMES), ("images", &IMAGES), ("engine", &ENGINE)];

const SOLVER_SLOTS: usize = 2;
const GAMES_SLOTS: usize = 8;
const ENGINE_SLOTS: usize = 1;
const IMAGES_SLOTS: usize = 2;

/// Threads the server's runtime may run blocking work on: one per pool slot (a slot is held
/// until its job ends, so the pools never run more jobs than that) and a few for other
/// blocking calls. Each thread that ever allocates keeps a malloc arena, so more threads than
/// jobs would only hold memory after a burst.
pub const BLOCKING_THREADS: usize = SOLVER_SLOTS + GAMES_SLOTS + ENGINE_SLOTS + IMAGES_SLOTS + 5;

/// How long a request waits for a free slot before it is told to come back later.
const QUEUE_WAIT: Duration = Duration::from_secs(2);

impl Pool {
    const fn new(slots: usize) -> Pool {
        Pool { slots: Semaphore::const_new(slots), size: slots, trim: false }
    }

    /// Its number of slots.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Slots taken now (jobs running, abandoned ones included).
    pub fn busy(&self) -> usize {
        self.size.saturating_sub(self.slots.available_permits())
    }

    const fn trimmed(self) -> Pool {
        Pool { trim: true, ..self }
    }

    /// Runs `job` on the blocking pool with a slot of this pool; answers 429 when no slot frees
    /// up in time and 503 when the job outlives `limit`. The slot stays taken until the job
    /// really ends, so abandoned jobs still count against the limit.
    pub async fn run<T, F>(&'static self, limit: Duration, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce() -> Result<T, ApiError> + Send + 'static,
    {
        let permit = match tokio::time::timeout(QUEUE_WAIT, self.slots.acquire()).await {
            Ok(Ok(permit)) => permit,
            _ => {
                crate::refusal::refused("cpu_pool_queue");
                return Err(ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS.as_u16(),
                    "the server is busy; try again in a moment",
                ));
            }
        };
        let trim = self.trim;
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let result = job();
            if trim {
                return_free_memory();
            }
            result
        });
        match tokio::time::timeout(limit, task).await {
            Ok(Ok(result)) => result,
            Ok(Err(_join_error)) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR.as_u16(), "internal error")),
            Err(_elapsed) => Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE.as_u16(),
                format!("the request took longer than {} s and was abandoned", limit.as_secs_f32()),
            )),
        }
    }
}

/// Gives the pages malloc holds free, in every arena, back to the system (glibc keeps them
/// otherwise: after a burst of solves the server stayed at its peak).
fn return_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory; it is safe to call from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static POOL: Pool = Pool::new(2);

    // One test: the pool is global, so parallel tests would disturb each other.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn slots_and_time_limits_hold_under_a_flood() {
        let slow = || {
            std::thread::sleep(Duration::from_millis(3500));
            Ok(())
        };
        // Fill every slot with a job that outlives its time limit: each is answered 503 in time.
        let started = std::time::Instant::now();
        let running: Vec<_> = (0..2).map(|_| tokio::spawn(POOL.run(Duration::from_millis(300), slow))).collect();
        for job in running {
            assert_eq!(job.await.unwrap().unwrap_err().status, StatusCode::SERVICE_UNAVAILABLE);
        }
        assert!(started.elapsed() < Duration::from_secs(2));
        // The abandoned jobs still hold their slots, so a new request is turned away, not queued forever.
        let busy = POOL.run(Duration::from_secs(5), || Ok(1)).await.unwrap_err();
        assert_eq!(busy.status, StatusCode::TOO_MANY_REQUESTS);
        // Once they end, work is accepted again.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(POOL.run(Duration::from_secs(5), || Ok(7)).await.unwrap(), 7);
        // Other pools are not affected by this one being full.
        assert_eq!(GAMES.run(Duration::from_secs(5), || Ok(8)).await.unwrap(), 8);
    }
}
