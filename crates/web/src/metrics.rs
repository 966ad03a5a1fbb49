//! Prometheus metrics at `/metrics`, all named `qi_…`, recorded through the `metrics` crate and
//! written by its Prometheus exporter. The binary installs the recorder ([`install`]); without
//! one every figure recorded here costs next to nothing and goes nowhere.
//!
//! Requests are counted by route *pattern* (`/api/rooms/{room}`, never the path a client sent) and
//! status, and unmatched ones as `unmatched`, so no client can grow the number of series.

use axum::extract::{ConnectInfo, MatchedPath, Request};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::time::Instant;

/// Latency buckets in seconds: a page or a move in milliseconds, a solve or a search in seconds.
const LATENCY_BUCKETS: [f64; 12] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0];

/// How often histograms are folded (keeps the recorder's memory flat between scrapes).
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// Installs the process-wide Prometheus recorder and starts its upkeep; needs a tokio runtime.
///
/// # Errors
/// When a recorder is installed already.
pub fn install() -> Result<PrometheusHandle, String> {
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &LATENCY_BUCKETS)
        .map_err(|e| e.to_string())?
        .install_recorder()
        .map_err(|e| e.to_string())?;
    let upkeep = handle.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(UPKEEP_EVERY).await;
            upkeep.run_upkeep();
        }
    });
    Ok(handle)
}

/// What `/metrics` serves: the recorder's handle, the token it asks for (if any), and the rooms
/// whose figures are read at each scrape.
#[derive(Clone)]
pub struct Exposition {
    /// The installed recorder.
    pub handle: PrometheusHandle,
    /// When set, a scrape must send `Authorization: Bearer TOKEN`.
    pub token: Option<String>,
    /// The rooms service, for the rooms and sockets gauges.
    pub rooms: Option<crate::rooms::Rooms>,
}

/// `GET /metrics`.
pub fn routes(exposition: Exposition) -> Router {
    Router::new().route(
        "/metrics",
        get(move |req: Request| {
            let exposition = exposition.clone();
            async move { scrape(&exposition, &req) }
        }),
    )
}

fn scrape(exposition: &Exposition, req: &Request) -> Response {
    if let Some(token) = &exposition.token {
        let sent = req.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
        let expected = format!("Bearer {token}");
        // Compared whole, in time independent of where the first difference is.
        let same = sent.is_some_and(|s| {
            s.len() == expected.len() && s.bytes().zip(expected.bytes()).fold(0, |d, (a, b)| d | (a ^ b)) == 0
        });
        if !same {
            return crate::ApiError::new(401, "this server's metrics need its token").into_response();
        }
    }
    if let Some(rooms) = &exposition.rooms {
        metrics::gauge!("qi_rooms_in_memory").set(rooms.hub().rooms_in_memory() as f64);
        metrics::gauge!("qi_room_sockets_open").set(rooms.sockets_open() as f64);
    }
    for (name, pool) in crate::cpu::POOLS {
        metrics::gauge!("qi_cpu_pool_busy", "pool" => name).set(pool.busy() as f64);
        metrics::gauge!("qi_cpu_pool_slots", "pool" => name).set(pool.size() as f64);
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], exposition.handle.render()).into_response()
}

/// The route a request matched, filled in by [`name_route`] inside the router for [`track`]
/// outside it.
#[derive(Clone, Default)]
struct RouteName(Arc<OnceLock<String>>);

/// Outermost layer: counts each request by route and status and times it
/// (`qi_http_requests_total`, `qi_http_request_duration_seconds`), and writes the access log
/// line (target `qi::access`: method, route pattern, status, time, client address; never the
/// path or query a client sent, which may carry a seat's token).
pub async fn track(mut req: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = RouteName::default();
    req.extensions_mut().insert(route.clone());
    let method = req.method().clone();
    let client = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let response = next.run(req).await;
    let route = route.0.get().cloned().unwrap_or_else(|| "unmatched".into());
    let status = response.status().as_u16();
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    tracing::info!(target: "qi::access", %method, route = %route, status, ms, client = ?client);
    let status = status.to_string();
    metrics::counter!("qi_http_requests_total", "route" => route.clone(), "status" => status).increment(1);
    metrics::histogram!("qi_http_request_duration_seconds", "route" => route).record(started.elapsed().as_secs_f64());
    response
}

/// Route layer: tells [`track`] which route pattern matched.
pub async fn name_route(req: Request, next: Next) -> Response {
    if let (Some(path), Some(route)) = (req.extensions().get::<MatchedPath>(), req.extensions().get::<RouteName>()) {
        let _ = route.0.set(path.as_str().to_string());
    }
    next.run(req).await
}

pub use crate::refusal::refused;
