#![doc = include_str!("../README.md")]
//!
//! [`router`] builds the whole app (tests drive it with `tower::ServiceExt::oneshot`);
//! [`bind`] and [`serve`] put it on a socket, within the [`ServerLimits`].

mod address_cap;
pub mod api;
mod assets;
mod cpu;
mod deadlines;
mod extract;
mod forwarded;
mod framing;
pub mod health;
mod limits;
pub mod metrics;
pub mod notice;
mod origin;
mod preview;
mod refusal;
pub mod rooms;
mod server;
pub mod site;

use axum::Router;
use std::net::SocketAddr;
use tokio::net::TcpListener;

pub use cpu::BLOCKING_THREADS;
pub use forwarded::{TrustedProxies, MAX_HOPS};
pub use framing::MAX_HEAD_BYTES;
pub use preview::{EMBED_HEIGHT, EMBED_WIDTH, MAX_CARDS, MAX_CARD_BYTES, MAX_SOLVED_LAYOUTS, MIN_EMBED_WIDTH};
pub use qi_api::ApiError;
pub use server::ServerLimits;

/// Largest request body the app reads (JSON bodies are small: a game is a few KiB).
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Longest path plus query string accepted; a share link of a long game fits easily.
pub const MAX_URI_BYTES: usize = 8 * 1024;

/// The whole app without rooms: pages, assets, API, and the limits that keep bad input away
/// from handlers.
pub fn router() -> Router {
    app(None)
}

/// The whole app, with the play-a-friend rooms when given.
pub fn app(rooms: Option<rooms::Rooms>) -> Router {
    let (api, pages) = match rooms {
        // The pages see the rooms too: a finished room's page previews its game.
        Some(rooms) => {
            (rooms::routes(rooms.clone()).merge(api::routes()), assets::routes().layer(axum::Extension(rooms)))
        }
        None => (api::routes(), assets::routes()),
    };
    harden(Router::new().merge(preview::routes()).merge(pages).nest("/api", api))
}

/// The limits every route gets: address length, body size and read time (413 and 408 in
/// JSON), and a panic caught as a 500 so that one bad request never takes the server down.
fn harden(routes: Router) -> Router {
    routes
        .layer(axum::middleware::from_fn(limits::read_body))
        .layer(axum::middleware::from_fn(limits::uri_length))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(panic_response))
}

/// The last resort when a handler panics: a 500 with a JSON body, and the server keeps running.
fn panic_response(_panic: Box<dyn std::any::Any + Send + 'static>) -> axum::response::Response {
    use axum::response::IntoResponse;
    ApiError::new(500, "internal error").into_response()
}

/// Connections the kernel may queue before the server accepts them (the standard library's
/// 128 drops connects in a burst of new clients).
const ACCEPT_BACKLOG: u32 = 1024;

/// Binds the listening socket (port 0 picks a free port; read the real one from the listener).
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(ACCEPT_BACKLOG)
}

/// Serves the app with `rooms` on `listener` within `limits` until `shutdown` completes; then
/// stops accepting, closes the room sockets with "service restart" (their clients reconnect to
/// the next server) and returns once requests in flight are done or `limits.grace` is over.
/// `/readyz` checks nothing beyond the process answering: see [`serve_with`].
pub async fn serve(
    listener: TcpListener,
    rooms: rooms::Rooms,
    limits: ServerLimits,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    serve_with(listener, rooms, limits, Operations::default(), shutdown).await
}

/// What an operator adds to the app: the probes `/readyz` runs and the metrics `/metrics`
/// serves (no `/metrics` without them).
#[derive(Clone, Default)]
pub struct Operations {
    /// `/readyz`'s probes.
    pub readiness: health::Readiness,
    /// `/metrics`, when a recorder is installed.
    pub metrics: Option<metrics::Exposition>,
    /// The proxies whose `X-Forwarded-For` / `Forwarded` name the client.
    pub trusted_proxies: TrustedProxies,
    /// The operator's message on every page and the chat switch.
    pub notice: notice::SiteNotice,
}

/// [`serve`], with `/readyz` and `/metrics` as `operations` say, and every request counted.
pub async fn serve_with(
    listener: TcpListener,
    rooms: rooms::Rooms,
    limits: ServerLimits,
    operations: Operations,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let closer = rooms.clone();
    let (stopped, stopped_at) = tokio::sync::oneshot::channel();
    let stop = async move {
        shutdown.await;
        closer.close_sockets();
        let _ = stopped.send(tokio::time::Instant::now());
    };
    let mut app = health::routes(operations.readiness).merge(app(Some(rooms.clone())));
    if let Some(exposition) = operations.metrics {
        app = app.merge(metrics::routes(exposition));
    }
    if !operations.notice.is_plain() {
        let notice = std::sync::Arc::new(operations.notice);
        app = app.layer(axum::middleware::from_fn_with_state(notice, notice::onto_pages));
    }
    let trusted = operations.trusted_proxies;
    // Outermost first: the client's address is settled before anything counts or logs it.
    let app = app
        .route_layer(axum::middleware::from_fn(metrics::name_route))
        .layer(axum::middleware::from_fn(metrics::track))
        .layer(axum::middleware::from_fn_with_state(trusted, forwarded::real_client));
    server::serve(listener, app, limits, stop).await?;
    // Upgraded connections leave the HTTP server: wait (within the same grace) for the room
    // and lobby sockets to have sent their close frames, so that their clients see 1012 and
    // not a connection that just broke when the process exits.
    if let Ok(at) = stopped_at.await {
        rooms.sockets_closed(at + limits.grace).await;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use axum::routing::get;
    use tower::ServiceExt;

    async fn boom() -> &'static str {
        panic!("a bug")
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_500_and_the_app_keeps_serving() {
        let app = harden(Router::new().route("/boom", get(boom)).route("/ok", get(|| async { "ok" })));
        let response = app.clone().oneshot(Request::get("/boom").body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let response = app.oneshot(Request::get("/ok").body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
    }
}
