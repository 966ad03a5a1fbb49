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

use super::xq_game::{replay, MoveView};
use crate::extract::Body;
use crate::ApiError;
use axum::extract::{ConnectInfo, Request};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, Semaphore};
use xiangqi::notation::{format, Notation};
use xiangqi::{Move, Position};
use xiangqi_engine::{Engine, Limits, Score, SearchInfo};

/// Searches at once on the whole server (each takes a core).
pub const MAX_ANALYSES: usize = 2;
/// Searches at once from one client address (a tab switching positions overlaps briefly).
pub const MAX_PER_CLIENT: usize = 2;
/// The longest one analysis may think.
const MAX_ANALYSE: Duration = Duration::from_secs(10);
const DEFAULT_ANALYSE: Duration = Duration::from_secs(4);
/// A review thinks this long per position at most, and this long for the whole game.
const MAX_REVIEW_PER_POSITION: Duration = Duration::from_millis(1000);
const DEFAULT_REVIEW_PER_POSITION: Duration = Duration::from_millis(150);
const MAX_REVIEW: Duration = Duration::from_secs(60);
/// The transposition table of each search.
const HASH_MB: usize = 16;
const MAX_MULTIPV: usize = 3;

static SLOTS: Semaphore = Semaphore::const_new(MAX_ANALYSES);
static CLIENTS: Mutex<Option<HashMap<IpAddr, usize>>> = Mutex::new(None);

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
    /// Best lines wanted, 1 to 3 (default 1).
    #[serde(default)]
    pub multipv: Option<usize>,
    /// Thinking time in milliseconds (at most 10000; default 4000).
    #[serde(default)]
    pub movetime_ms: Option<u64>,
}

/// A score as the page shows it: centipawns and, when the engine sees one, moves to mate,
/// both from Red's point of view (positive: Red is better).
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct Eval {
    pub cp: i32,
    pub mate: Option<i32>,
}

impl Eval {
    fn red(score: Score, turn: xiangqi::Color) -> Eval {
        let sign = if turn == xiangqi::Color::Red { 1 } else { -1 };
        Eval { cp: sign * score.centipawns(), mate: score.mate_in().map(|m| sign * m) }
    }

    /// Red's winning chances in percent (lichess's logistic curve; a mate is 0 or 100; mate 0,
    /// a side already mated, goes by the sign of `cp`).
    pub fn win_percent(self) -> f64 {
        match self.mate {
            Some(m) if m > 0 || (m == 0 && self.cp > 0) => 100.0,
            Some(_) => 0.0,
            None => 50.0 + 50.0 * (2.0 / (1.0 + (-0.004 * f64::from(self.cp)).exp()) - 1.0),
        }
    }
}

#[derive(Serialize, Debug)]
pub struct LineView {
    pub eval: Eval,
    /// The moves in all three notations.
    pub pv: Vec<MoveView>,
}

#[derive(Serialize, Debug)]
pub struct InfoView {
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: u64,
    /// Best first.
    pub lines: Vec<LineView>,
}

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
    ApiError::new(StatusCode::TOO_MANY_REQUESTS, message).with_code("busy", [])
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

fn client_of(req: &Request) -> IpAddr {
    req.extensions().get::<ConnectInfo<SocketAddr>>().map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip())
}

/// Sets the stop flags when the stream is dropped (the client went away or moved on).
struct CancelOnDrop(Arc<AtomicBool>, Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        self.1.store(true, Ordering::Relaxed);
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

fn notate(pos: &Position, line: &[Move]) -> Vec<MoveView> {
    let mut pos = pos.clone();
    line.iter()
        .map(|&m| {
            let view = MoveView {
                iccs: m.to_string(),
                wxf: format(&pos, m, Notation::Wxf),
                chinese: format(&pos, m, Notation::Chinese),
            };
            pos.play_unchecked(m);
            view
        })
        .collect()
}

fn info_view(pos: &Position, info: &SearchInfo) -> InfoView {
    InfoView {
        depth: info.depth,
        nodes: info.nodes,
        time_ms: info.elapsed.as_millis() as u64,
        lines: info
            .lines
            .iter()
            .map(|l| LineView { eval: Eval::red(l.score, pos.turn()), pv: notate(pos, &l.pv) })
            .collect(),
    }
}

pub async fn analyse(req: Request) -> Response {
    match start_analysis(req).await {
        Ok(response) => response,
        Err(e) => e.into_response(),
    }
}

async fn start_analysis(req: Request) -> Result<Response, ApiError> {
    let (client, req): (IpAddr, AnalyseRequest) = read_body(req).await?;
    let multipv = req.multipv.unwrap_or(1);
    if !(1..=MAX_MULTIPV).contains(&multipv) {
        return Err(ApiError::bad_request(format!("multipv {multipv} is out of range (1 to {MAX_MULTIPV})")));
    }
    let think =
        req.movetime_ms.map_or(DEFAULT_ANALYSE, Duration::from_millis).clamp(Duration::from_millis(50), MAX_ANALYSE);
    let (start, moves) = replay(req.fen.as_deref(), &req.moves)?;
    streamed(client, move |mut search| {
        let (pos, history) = xiangqi_engine::replay(&start, &moves);
        let limits = Limits { time: Some(think), multipv, ..Limits::default() };
        let info = search.engine.search(&pos, &history, &limits, |info| {
            // A search that began after the client left stops at its first iteration.
            if search.cancelled.load(Ordering::Relaxed)
                || search.tx.send(json_event("info", &info_view(&pos, info))).is_err()
            {
                search.stop.store(true, Ordering::Relaxed);
            }
        });
        let _ = search.tx.send(json_event("done", &info_view(&pos, &info)));
    })
}

/// What a streamed search job works with: its engine, the stream's sender, and the flags the
/// stream sets when the client goes away.
struct StreamedSearch {
    engine: Engine,
    tx: mpsc::UnboundedSender<Event>,
    stop: Arc<AtomicBool>,
    cancelled: Arc<AtomicBool>,
}

impl StreamedSearch {
    fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

/// Takes an analysis slot for `client` and runs `job` on the blocking pool, answering with the
/// events it sends as a server-sent event stream; dropping the stream stops the job's search.
fn streamed(client: IpAddr, job: impl FnOnce(StreamedSearch) + Send + 'static) -> Result<Response, ApiError> {
    let slot = take_slot(client)?;
    let (tx, rx) = mpsc::unbounded_channel();
    let engine = Engine::new(HASH_MB);
    let (stop, cancelled) = (engine.stop_handle(), Arc::new(AtomicBool::new(false)));
    let cancel = CancelOnDrop(Arc::clone(&stop), Arc::clone(&cancelled));
    tokio::task::spawn_blocking(move || {
        let _slot = slot;
        job(StreamedSearch { engine, tx, stop, cancelled });
    });
    Ok(Sse::new(event_stream(rx, cancel)).keep_alive(KeepAlive::default()).into_response())
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
    /// Thinking time per position in milliseconds (at most 1000; default 150).
    #[serde(default)]
    pub movetime_ms: Option<u64>,
}

/// One position of the reviewed game.
#[derive(Serialize, Debug, Clone)]
pub struct PositionScore {
    /// 0 = the start.
    pub ply: usize,
    pub eval: Eval,
    /// The engine's move there (absent at the end of a game).
    pub best: Option<MoveView>,
}

/// How bad a move was: how many points of the mover's winning chances it gave away.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// Thresholds in winning-chance points (10, 20, 30), as lichess's computer analysis does.
    pub fn of_loss(loss: f64) -> Option<Judgement> {
        match loss {
            l if l >= 30.0 => Some(Judgement::Blunder),
            l if l >= 20.0 => Some(Judgement::Mistake),
            l if l >= 10.0 => Some(Judgement::Inaccuracy),
            _ => None,
        }
    }
}

#[derive(Serialize, Debug)]
pub struct MoveJudgement {
    /// The move's ply (1 = the first move).
    pub ply: usize,
    /// Winning-chance points the mover lost with it (0 when it was as good as the best).
    pub loss: f64,
    pub judgement: Option<Judgement>,
    /// The engine's move instead, when the played one was judged.
    pub better: Option<MoveView>,
}

/// Judges each move from the scores of the positions before and after it.
pub fn judge(scores: &[PositionScore], moves: &[Move], start: &Position) -> Vec<MoveJudgement> {
    let mut red_to_move = start.turn() == xiangqi::Color::Red;
    let mut out = Vec::with_capacity(moves.len());
    for (i, &played) in moves.iter().enumerate() {
        let (Some(before), Some(after)) = (scores.get(i), scores.get(i + 1)) else { break };
        let (b, a) = (before.eval.win_percent(), after.eval.win_percent());
        let loss = if red_to_move { b - a } else { a - b }.max(0.0);
        let same = before.best.as_ref().is_some_and(|m| m.iccs == played.to_string());
        let judgement = if same { None } else { Judgement::of_loss(loss) };
        let better = judgement.and(before.best.clone());
        out.push(MoveJudgement { ply: i + 1, loss: (loss * 10.0).round() / 10.0, judgement, better });
        red_to_move = !red_to_move;
    }
    out
}

pub async fn review(req: Request) -> Response {
    match start_review(req).await {
        Ok(response) => response,
        Err(e) => e.into_response(),
    }
}

async fn start_review(req: Request) -> Result<Response, ApiError> {
    let (client, req): (IpAddr, ReviewRequest) = read_body(req).await?;
    let (start, moves) = replay(req.fen.as_deref(), &req.moves)?;
    let positions = moves.len() as u32 + 1;
    let per = req
        .movetime_ms
        .map_or(DEFAULT_REVIEW_PER_POSITION, Duration::from_millis)
        .clamp(Duration::from_millis(20), MAX_REVIEW_PER_POSITION)
        .min(MAX_REVIEW / positions);
    streamed(client, move |mut search| {
        let mut scores = Vec::with_capacity(moves.len() + 1);
        let mut pos = start.clone();
        let mut history = Vec::with_capacity(moves.len());
        for ply in 0..=moves.len() {
            if search.cancelled() {
                return;
            }
            let info = search.engine.search(&pos, &history, &Limits::time(per), |_| {
                if search.cancelled.load(Ordering::Relaxed) {
                    search.stop.store(true, Ordering::Relaxed);
                }
            });
            let score = PositionScore {
                ply,
                eval: Eval::red(info.score, pos.turn()),
                best: info.best.map(|m| notate(&pos, &[m]).remove(0)),
            };
            if search.tx.send(json_event("position", &score)).is_err() {
                return;
            }
            scores.push(score);
            if let Some(&m) = moves.get(ply) {
                history.push(xiangqi_engine::Played { hash: pos.hash(), mv: m });
                pos.play_unchecked(m);
            }
        }
        let _ = search.tx.send(json_event("done", &judge(&scores, &moves, &start)));
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ply: usize, cp: i32, best: Option<&str>) -> PositionScore {
        let best = best.map(|b| MoveView { iccs: b.into(), wxf: String::new(), chinese: String::new() });
        PositionScore { ply, eval: Eval { cp, mate: None }, best }
    }

    #[test]
    fn judges_by_the_winning_chances_the_mover_gives_away() {
        let start = Position::startpos();
        let moves: Vec<Move> = ["h2e2", "h9g7", "h0g2"].iter().map(|m| m.parse().unwrap()).collect();
        // Red keeps its edge; Black's reply throws away 600 centipawns; Red's best move is no mistake.
        let scores = [at(0, 20, Some("h2e2")), at(1, 30, Some("b9c7")), at(2, 630, Some("h0g2")), at(3, 600, None)];
        let verdicts = judge(&scores, &moves, &start);
        assert_eq!(verdicts.len(), 3);
        assert_eq!(verdicts[0].judgement, None);
        assert_eq!(verdicts[1].judgement, Some(Judgement::Blunder));
        assert_eq!(verdicts[1].better.as_ref().unwrap().iccs, "b9c7");
        assert_eq!(verdicts[2].judgement, None, "the engine's own move");
        assert_eq!(Judgement::of_loss(12.0), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_loss(25.0), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_loss(5.0), None);
    }

    #[test]
    fn scores_are_from_reds_side() {
        let pos: Position = "5k3/9/9/9/9/9/9/9/9/3RK4 b - - 0 1".parse().unwrap();
        let info = Engine::new(1).search(&pos, &[], &Limits::depth(2), |_| {});
        let e = Eval::red(info.score, pos.turn());
        assert!(e.cp > 300, "Black alone against a rook: Red is far ahead ({})", e.cp);
        assert!(e.win_percent() > 50.0);
        // Black already mated: "mate 0", and Red's chances are 100%.
        let mated: Position = "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1".parse().unwrap();
        let info = Engine::new(1).search(&mated, &[], &Limits::depth(2), |_| {});
        assert_eq!(Eval::red(info.score, mated.turn()).win_percent(), 100.0);
        assert_eq!(Eval { cp: 0, mate: Some(-3) }.win_percent(), 0.0);
    }

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
