//! Engine analysis streamed to the page as server-sent events:
//!
//! - `POST /api/xq/analyse`: the best lines (MultiPV 1-3) of the position at the end of a game,
//!   one `info` event per completed depth, then `done`. The search has a time bound and stops
//!   as soon as the client goes away (the page closes the stream when the position changes).
//! - `POST /api/xq/review`: every position of a game scored in turn (`position` events), then
//!   `done` with each move judged (inaccuracy, mistake, blunder) and the better move.
//!
//! Searches run on the blocking pool, at most [`MAX_ANALYSES`] at once on the server and
//! [`MAX_PER_CLIENT`] per client address, so analysis never starves play or other users.

use crate::extract::Body;
use crate::ApiError;
use axum::extract::{ConnectInfo, Request};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream};
use qi_api::analysis::{self as job, AnalyseRequest, ReviewRequest};
use serde::Serialize;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, Semaphore};
use xiangqi_engine::Engine;

/// Searches at once on the whole server (each takes a core).
pub const MAX_ANALYSES: usize = 2;
/// Searches at once from one client address (a tab switching positions overlaps briefly).
pub const MAX_PER_CLIENT: usize = 2;
/// The transposition table of each search.
const HASH_MB: usize = qi_api::analysis::HASH_MB;

static SLOTS: Semaphore = Semaphore::const_new(MAX_ANALYSES);
static CLIENTS: Mutex<Option<HashMap<IpAddr, usize>>> = Mutex::new(None);

/// The client's share of the analysis slots, given back when the search ends.
#[derive(Debug)]
struct Slot {
    _permit: tokio::sync::SemaphorePermit<'static>,
    client: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut clients = CLIENTS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(map) = clients.as_mut() {
            if let Some(n) = map.get_mut(&self.client) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&self.client);
                }
            }
        }
    }
}

fn busy(message: &str) -> ApiError {
    ApiError::new(StatusCode::TOO_MANY_REQUESTS.as_u16(), message).with_code("busy", [])
}

/// Takes a server slot and one of the client's, or says why not (429).
fn take_slot(client: IpAddr) -> Result<Slot, ApiError> {
    let mut clients = CLIENTS.lock().unwrap_or_else(|e| e.into_inner());
    let map = clients.get_or_insert_with(HashMap::new);
    let mine = map.get(&client).copied().unwrap_or(0);
    if mine >= MAX_PER_CLIENT {
        return Err(busy("too many analyses from this address at once"));
    }
    let permit = SLOTS.try_acquire().map_err(|_| busy("the server is busy analysing; try again in a moment"))?;
    map.insert(client, mine + 1);
    Ok(Slot { _permit: permit, client })
}

/// The client as every per-address limit counts it (an IPv6 address by its /64).
fn client_of(req: &Request) -> IpAddr {
    crate::address_cap::counted_as(
        req.extensions().get::<ConnectInfo<SocketAddr>>().map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip()),
    )
}

/// Sets the stop flag when the stream is dropped (the client went away or moved on).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The events a search thread sends, as a stream that stops the search when dropped.
fn event_stream(
    rx: mpsc::UnboundedReceiver<Event>,
    cancel: CancelOnDrop,
) -> impl Stream<Item = Result<Event, std::convert::Infallible>> {
    stream::unfold((rx, cancel), |(mut rx, cancel)| async move { rx.recv().await.map(|e| (Ok(e), (rx, cancel))) })
}

fn json_event(name: &str, data: &impl Serialize) -> Event {
    Event::default().event(name).json_data(data).unwrap_or_else(|_| Event::default().event(name))
}

async fn read_body<T: serde::de::DeserializeOwned>(req: Request) -> Result<(IpAddr, T), ApiError> {
    use axum::extract::FromRequest;
    let client = client_of(&req);
    let Body(body) = Body::<T>::from_request(req, &()).await?;
    Ok((client, body))
}

pub async fn analyse(req: Request) -> Response {
    match start_analysis(req).await {
        Ok(response) => response,
        Err(e) => e.into_response(),
    }
}

async fn start_analysis(req: Request) -> Result<Response, ApiError> {
    let (client, req): (IpAddr, AnalyseRequest) = read_body(req).await?;
    let analysis = job::prepare_analysis(&req)?;
    streamed(client, analysis.stop_handle(), move |engine, tx| {
        let done = job::analyse(&analysis, engine, |info| tx.send(json_event("info", info)).is_ok());
        let _ = tx.send(json_event("done", &done));
    })
}

/// Takes an analysis slot for `client` and runs `job` on the blocking pool with a fresh engine,
/// answering with the events it sends as a server-sent event stream; dropping the stream (the
/// client went away or moved on) sets `stop`, which ends the job's search.
fn streamed(
    client: IpAddr,
    stop: Arc<AtomicBool>,
    job: impl FnOnce(&mut Engine, &mpsc::UnboundedSender<Event>) + Send + 'static,
) -> Result<Response, ApiError> {
    let slot = take_slot(client)?;
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::task::spawn_blocking(move || {
        let _slot = slot;
        job(&mut Engine::new(HASH_MB), &tx);
    });
    Ok(Sse::new(event_stream(rx, CancelOnDrop(stop))).keep_alive(KeepAlive::default()).into_response())
}

pub async fn review(req: Request) -> Response {
    match start_review(req).await {
        Ok(response) => response,
        Err(e) => e.into_response(),
    }
}

async fn start_review(req: Request) -> Result<Response, ApiError> {
    let (client, req): (IpAddr, ReviewRequest) = read_body(req).await?;
    let review = job::prepare_review(&req)?;
    streamed(client, review.stop_handle(), move |engine, tx| {
        let judged = job::review(&review, engine, |score| tx.send(json_event("position", score)).is_ok());
        if let Some(judged) = judged {
            let _ = tx.send(json_event("done", &judged));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    // One test for everything that uses the global slots (parallel tests would disturb each other).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn slots_are_bounded_and_a_stream_dropped_by_its_client_stops_its_search() {
        let client: IpAddr = "192.0.2.7".parse().unwrap();
        let a = take_slot(client).unwrap();
        let b = take_slot(client).unwrap();
        assert_eq!(take_slot(client).unwrap_err().status, StatusCode::TOO_MANY_REQUESTS);
        drop(a);
        let c = take_slot(client).unwrap();
        drop((b, c));
        assert!(CLIENTS.lock().unwrap().as_ref().unwrap().get(&client).is_none());

        // A ten-second analysis: read its first event, then go away as the page does.
        use http_body_util::BodyExt;
        let body = r#"{"moves": ["h2e2"], "multipv": 2, "movetime_ms": 10000}"#;
        let req = axum::http::Request::post("/api/xq/analyse")
            .header("content-type", "application/json")
            .body(axum::body::Body::from(body))
            .unwrap();
        let response = analyse(req).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        let mut body = response.into_body();
        let frame = body.frame().await.unwrap().unwrap().into_data().unwrap();
        let text = String::from_utf8_lossy(&frame);
        assert!(text.starts_with("event: info") && text.contains("\"lines\""), "{text}");
        assert_eq!(SLOTS.available_permits(), MAX_ANALYSES - 1);
        let left = std::time::Instant::now();
        drop(body);
        while SLOTS.available_permits() < MAX_ANALYSES {
            assert!(left.elapsed() < Duration::from_secs(2), "the search goes on after the client left");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}
