//! Runs CPU-heavy work off the async threads, a few jobs at a time, each bounded in time,
//! so that a flood of solve requests cannot stall the server.

use super::ApiError;
use axum::http::StatusCode;
use std::sync::LazyLock;
use std::time::Duration;
use tokio::sync::Semaphore;

/// Jobs running at once (the machine has few cores; the rest of the server must stay responsive).
const MAX_JOBS: usize = 2;
/// How long a request waits for a free slot before it is told to come back later.
const QUEUE_WAIT: Duration = Duration::from_secs(2);

static JOBS: LazyLock<Semaphore> = LazyLock::new(|| Semaphore::new(MAX_JOBS));

/// Runs `job` on the blocking pool with a slot from [`JOBS`]; answers 429 when no slot frees up
/// in time and 503 when the job outlives `limit`. The slot stays taken until the job really ends,
/// so abandoned jobs still count against the limit.
pub async fn run<T, F>(limit: Duration, job: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce() -> Result<T, ApiError> + Send + 'static,
{
    let permit = match tokio::time::timeout(QUEUE_WAIT, JOBS.acquire()).await {
        Ok(Ok(permit)) => permit,
        _ => return Err(ApiError::new(StatusCode::TOO_MANY_REQUESTS, "the server is busy; try again in a moment")),
    };
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        job()
    });
    match tokio::time::timeout(limit, task).await {
        Ok(Ok(result)) => result,
        Ok(Err(_join_error)) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error")),
        Err(_elapsed) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the request took longer than {} s and was abandoned", limit.as_secs()),
        )),
    }
}
