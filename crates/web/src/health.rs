//! `/healthz` (the process answers) and `/readyz` (the stores and Redis answer), for a load
//! balancer or a service manager. A readiness answer is reused for [`READY_CACHE`] and one probe
//! runs at a time, so however often `/readyz` is asked the servers behind it see at most one
//! probe a second.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Map, Value};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Mutex;
use tokio::time::Instant;

/// How long one readiness answer is reused.
pub const READY_CACHE: Duration = Duration::from_secs(1);

/// The longest one probe may take before it counts as failed.
pub const PROBE_WAIT: Duration = Duration::from_secs(2);

/// One probe: `Ok` when the part it checks answers, else why not (no secrets in it).
pub type Probe = Arc<dyn Fn() -> Pin<Box<dyn Future<Output = Result<(), String>> + Send>> + Send + Sync>;

/// A [`Probe`] from an async function.
pub fn probe<F, Fut>(check: F) -> Probe
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), String>> + Send + 'static,
{
    Arc::new(move || -> Pin<Box<dyn Future<Output = Result<(), String>> + Send>> { Box::pin(check()) })
}

/// What `/readyz` checks, by name (`postgresql`, `redis`); none means ready once serving.
#[derive(Clone, Default)]
pub struct Readiness {
    probes: Vec<(String, Probe)>,
    last: Arc<Mutex<Option<(Instant, bool, Value)>>>,
}

impl Readiness {
    /// Adds a probe named `name`.
    #[must_use]
    pub fn with(mut self, name: &str, probe: Probe) -> Readiness {
        self.probes.push((name.to_string(), probe));
        self
    }

    /// Runs every probe (each within [`PROBE_WAIT`]): whether all passed, and each one's result.
    pub async fn check(&self) -> (bool, Value) {
        let mut last = self.last.lock().await;
        if let Some((at, ready, checks)) = last.as_ref() {
            if at.elapsed() < READY_CACHE {
                return (*ready, checks.clone());
            }
        }
        let mut checks = Map::new();
        let mut ready = true;
        for (name, probe) in &self.probes {
            let result = match tokio::time::timeout(PROBE_WAIT, probe()).await {
                Ok(Ok(())) => "ok".to_string(),
                Ok(Err(e)) => e,
                Err(_) => format!("no answer within {PROBE_WAIT:?}"),
            };
            ready &= result == "ok";
            checks.insert(name.clone(), Value::String(result));
        }
        let checks = Value::Object(checks);
        *last = Some((Instant::now(), ready, checks.clone()));
        (ready, checks)
    }
}

/// The two routes.
pub fn routes(readiness: Readiness) -> Router {
    Router::new().route("/healthz", get(|| async { Json(json!({"ok": true})) })).route(
        "/readyz",
        get(move || {
            let readiness = readiness.clone();
            async move { ready(&readiness).await }
        }),
    )
}

async fn ready(readiness: &Readiness) -> Response {
    let (ready, checks) = readiness.check().await;
    let status = if ready { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, Json(json!({"ready": ready, "checks": checks}))).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tower::ServiceExt;

    async fn get_json(app: &Router, path: &str) -> (StatusCode, Value) {
        let response = app.clone().oneshot(Request::get(path).body(Body::empty()).unwrap()).await.unwrap();
        let status = response.status();
        let bytes = http_body_util::BodyExt::collect(response.into_body()).await.unwrap().to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn ready_only_when_every_probe_passes_and_probes_are_not_repeated_within_a_second() {
        let runs = Arc::new(AtomicUsize::new(0));
        let counted = runs.clone();
        let passing = probe(move || {
            counted.fetch_add(1, Ordering::SeqCst);
            async { Ok(()) }
        });
        let failing = probe(|| async { Err("connection refused".to_string()) });
        let app = routes(Readiness::default().with("postgresql", passing.clone()));
        assert_eq!(get_json(&app, "/healthz").await, (StatusCode::OK, json!({"ok": true})));
        let ok = (StatusCode::OK, json!({"ready": true, "checks": {"postgresql": "ok"}}));
        assert_eq!(get_json(&app, "/readyz").await, ok);
        assert_eq!(get_json(&app, "/readyz").await, ok);
        assert_eq!(runs.load(Ordering::SeqCst), 1, "the second answer was the first one reused");

        let app = routes(Readiness::default().with("postgresql", passing).with("redis", failing));
        let (status, body) = get_json(&app, "/readyz").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(body, json!({"ready": false, "checks": {"postgresql": "ok", "redis": "connection refused"}}));
    }
}
