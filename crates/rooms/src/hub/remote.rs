//! Requests to other instances through the bus: sent with a correlation id, and answered when
//! the owner's response comes back (or not at all, after [`REMOTE_TIMEOUT`]).

use super::registry::lock;
use super::Hub;
use crate::wire::{Body, Envelope, Request, Response};
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::oneshot;

/// How long an answer from another instance may take before it counts as gone.
const REMOTE_TIMEOUT: Duration = Duration::from_secs(2);

impl Hub {
    /// Sends `request` to instance `to`; `None` when it does not answer in time.
    pub(super) async fn remote(&self, to: &str, request: Request) -> Option<Response> {
        let bus = self.inner.bus.as_ref()?;
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        lock(&self.inner.pending).insert(id, tx);
        let envelope = Envelope { id, from: self.inner.instance.clone(), body: Body::Request(request) };
        let answer = match bus.send(to, &envelope).await {
            Ok(true) => tokio::time::timeout(REMOTE_TIMEOUT, rx).await.ok().and_then(Result::ok),
            _ => None,
        };
        lock(&self.inner.pending).remove(&id);
        answer
    }

    /// Hands the answer to request `id` to its waiter (none once it has given up).
    pub(super) fn answered(&self, id: u64, response: Response) {
        if let Some(tx) = lock(&self.inner.pending).remove(&id) {
            let _ = tx.send(response);
        }
    }
}
