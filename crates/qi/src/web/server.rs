//! The app on a socket: a cap on open connections, header, idle and body timeouts, and a
//! shutdown that stops accepting at once and gives requests in flight a bounded grace period.
//!
//! hyper serves each connection (HTTP/1.1 with upgrades, so WebSockets work); its timer cuts a
//! connection that does not finish a request header in time. Once a connection is upgraded it
//! leaves hyper and these HTTP timeouts: the WebSocket code sets its own idle rules. It still
//! holds its connection slot until it closes.

use super::framing::{Framing, Verdict};
use super::limits::{closing, BodyTimeout};
use super::ApiError;
use axum::extract::ConnectInfo;
use axum::http::StatusCode;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

/// The resources one client can hold, and how long shutting down may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerLimits {
    /// A connection must deliver a complete request header within this time of opening, and
    /// within this time of its previous response: it is also the keep-alive idle timeout
    /// (hyper runs one timer from "ready for a request" to "header complete").
    pub header_timeout: Duration,
    /// A request body must arrive in full within this time of its header.
    pub body_timeout: Duration,
    /// Connections open at once, WebSockets included. Beyond it a new connection waits up to
    /// [`ServerLimits::queue_wait`] for a free slot, then gets a 503 and is closed.
    pub max_connections: usize,
    /// How long a connection over the cap waits for a slot.
    pub queue_wait: Duration,
    /// After SIGINT/SIGTERM: how long requests in flight may take to finish.
    pub grace: Duration,
}

impl Default for ServerLimits {
    fn default() -> ServerLimits {
        ServerLimits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections: 4096,
            queue_wait: Duration::from_secs(1),
            grace: Duration::from_secs(5),
        }
    }
}

/// Largest request head (request line and headers) hyper buffers; a longer one gets 431.
/// The address alone is limited to [`super::MAX_URI_BYTES`].
pub const MAX_HEAD_BYTES: usize = 32 * 1024;
/// Connections over the cap that may wait for a slot at once; past it they are closed at once.
const MAX_WAITING: usize = 256;
/// How long a turned-away connection gets to read its 503.
const REFUSAL_TIME: Duration = Duration::from_millis(500);

/// Serves `app` on `listener` within `limits` until `shutdown` completes, then stops accepting
/// and returns when the open connections are done or the grace period is over, whichever is
/// first. Connections still open then are left to the caller (the process exits).
pub async fn serve(
    listener: TcpListener,
    app: axum::Router,
    limits: ServerLimits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let waiting = Arc::new(Semaphore::new(MAX_WAITING));
    // Every connection task holds a receiver: the send tells them to stop, and `closed`
    // completes when the last one has ended.
    let (stop, _) = watch::channel(());
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(limits.header_timeout).max_buf_size(MAX_HEAD_BYTES);
    let http = Arc::new(http);
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(connection) => connection,
            // Out of file descriptors or a connection reset before accept: nothing to serve;
            // pause briefly so a full descriptor table does not spin the loop.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        // Small JSON answers: send them at once rather than wait for more to write.
        let _ = stream.set_nodelay(true);
        let slot = slots.clone().try_acquire_owned().ok();
        let wait_turn = if slot.is_none() {
            match waiting.clone().try_acquire_owned() {
                Ok(turn) => Some(turn),
                // Even the waiting room is full: close at once rather than hold the socket.
                Err(_) => continue,
            }
        } else {
            None
        };
        let connection = Connection {
            http: http.clone(),
            app: app.clone(),
            peer,
            body_timeout: BodyTimeout(limits.body_timeout),
            stop: stop.subscribe(),
        };
        let slots = slots.clone();
        tokio::spawn(async move {
            let slot = match slot {
                Some(slot) => slot,
                None => {
                    let queued = tokio::time::timeout(limits.queue_wait, slots.acquire_owned()).await;
                    drop(wait_turn);
                    match queued {
                        Ok(Ok(slot)) => slot,
                        _ => return refuse(stream).await,
                    }
                }
            };
            connection.run(stream, slot).await;
        });
    }
    // Stop accepting: new connections are refused by the kernel from here on.
    drop(listener);
    let _ = stop.send(());
    let _ = tokio::time::timeout(limits.grace, stop.closed()).await;
    Ok(())
}

/// One accepted connection and what serving it needs.
struct Connection {
    http: Arc<hyper::server::conn::http1::Builder>,
    app: axum::Router,
    peer: SocketAddr,
    body_timeout: BodyTimeout,
    stop: watch::Receiver<()>,
}

impl Connection {
    async fn run(self, stream: TcpStream, slot: OwnedSemaphorePermit) {
        let Connection { http, app, peer, body_timeout, mut stop } = self;
        let framing = Arc::new(Mutex::new(Framing::default()));
        let heads = framing.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(body_timeout);
            let verdict = heads.lock().map_or(Verdict::Unknown, |mut f| f.take());
            let app = app.clone();
            async move {
                if verdict == Verdict::Doubled {
                    let message = "the request has both Content-Length and Transfer-Encoding; send one";
                    return Ok::<_, std::convert::Infallible>(closing(ApiError::bad_request(message)));
                }
                let response = app.oneshot(req.map(axum::body::Body::new)).await?;
                // Past a head we could not follow (one that asked for an upgrade it did not
                // get), close rather than read more requests unchecked.
                let lost = verdict == Verdict::Unknown && response.status() != StatusCode::SWITCHING_PROTOCOLS;
                Ok(if lost { closing(response) } else { response })
            }
        });
        let io = TokioIo::new(Slotted { stream, framing, _slot: slot });
        // Errors here are the client's (a reset, a timeout, a malformed head): nothing to report.
        let mut connection = std::pin::pin!(http.serve_connection(io, service).with_upgrades());
        tokio::select! {
            _ = connection.as_mut() => return,
            // Shutting down (or the server is gone): finish the request in flight, then close.
            _ = stop.changed() => {}
        }
        connection.as_mut().graceful_shutdown();
        let _ = connection.await;
    }
}

/// The answer to a connection over the cap: a 503 it can read, then the connection closes.
async fn refuse(mut stream: TcpStream) {
    const BODY: &str = r#"{"error":"the server has too many open connections; try again in a moment"}"#;
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         retry-after: 1\r\nconnection: close\r\n\r\n{BODY}",
        BODY.len()
    );
    let _ = tokio::time::timeout(REFUSAL_TIME, async {
        stream.write_all(response.as_bytes()).await?;
        stream.shutdown().await?;
        // Read what the client sent, so that closing does not reset the connection before
        // the client has read the answer.
        let mut sink = [0u8; 4096];
        while tokio::io::AsyncReadExt::read(&mut stream, &mut sink).await? > 0 {}
        io::Result::Ok(())
    })
    .await;
}

/// A socket that holds a connection slot for as long as it is open, also after an upgrade
/// hands it to the WebSocket code, and shows the bytes it reads to [`Framing`].
struct Slotted {
    stream: TcpStream,
    framing: Arc<Mutex<Framing>>,
    _slot: OwnedSemaphorePermit,
}

impl AsyncRead for Slotted {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.stream).poll_read(cx, buf);
        if let Ok(mut framing) = this.framing.lock() {
            framing.read(&buf.filled()[before..]);
        }
        polled
    }
}

impl AsyncWrite for Slotted {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::extract::Request;
    use axum::http::header::CONNECTION;
    use axum::http::HeaderValue;
    use axum::response::Response;
    use axum::routing::get;
    use tokio::io::AsyncReadExt;

    /// A route that upgrades its connection and echoes what comes after, as a WebSocket would.
    async fn echo(mut req: Request) -> Response {
        let upgrade = hyper::upgrade::on(&mut req);
        tokio::spawn(async move {
            let Ok(upgraded) = upgrade.await else { return };
            let mut io = TokioIo::new(upgraded);
            let mut buf = [0u8; 64];
            while let Ok(n @ 1..) = io.read(&mut buf).await {
                if io.write_all(&buf[..n]).await.is_err() {
                    break;
                }
            }
        });
        let mut response = Response::new(axum::body::Body::empty());
        *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
        response.headers_mut().insert(CONNECTION, HeaderValue::from_static("upgrade"));
        response.headers_mut().insert("upgrade", HeaderValue::from_static("echo"));
        response
    }

    #[tokio::test]
    async fn an_upgraded_connection_leaves_the_http_timeouts_and_keeps_its_slot() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let limits = ServerLimits {
            header_timeout: Duration::from_millis(300),
            max_connections: 1,
            queue_wait: Duration::from_millis(100),
            ..ServerLimits::default()
        };
        let app = axum::Router::new().route("/echo", get(echo));
        tokio::spawn(serve(listener, app, limits, std::future::pending()));

        let mut client = TcpStream::connect(addr).await.unwrap();
        client
            .write_all(b"GET /echo HTTP/1.1\r\nHost: t\r\nConnection: upgrade\r\nUpgrade: echo\r\n\r\n")
            .await
            .unwrap();
        let mut head = vec![0u8; 256];
        let n = client.read(&mut head).await.unwrap();
        assert!(head[..n].starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&head[..n]));
        // Well past the header timeout, the upgraded connection still carries bytes.
        tokio::time::sleep(Duration::from_millis(700)).await;
        client.write_all(b"ping").await.unwrap();
        let mut echoed = [0u8; 4];
        client.read_exact(&mut echoed).await.unwrap();
        assert_eq!(&echoed, b"ping");
        // It still holds the only slot: a second client is turned away.
        let mut second = TcpStream::connect(addr).await.unwrap();
        let mut answer = String::new();
        second.read_to_string(&mut answer).await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    }
}
