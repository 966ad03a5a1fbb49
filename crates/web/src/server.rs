//! The app on a socket: caps on open connections (in all and per client address), header,
//! keep-alive idle, body and write timeouts, and a shutdown that stops accepting at once and
//! gives requests in flight a bounded grace period.
//!
//! hyper serves each connection (HTTP/1.1 with upgrades, so WebSockets work); the connection's
//! [`Deadlines`] cut it when a head, the next request or the client's reading of an answer
//! takes too long. Once a connection is upgraded it leaves hyper and these HTTP timeouts: the
//! WebSocket code sets its own idle rules. It still holds its connection slots until it closes.

use super::address_cap::{AddressCap, AddressSlot};
use super::deadlines::{Deadlines, Timeouts};
use super::framing::{Framing, Verdict, MAX_HEAD_BYTES};
use super::limits::{closing, BodyTimeout};
use super::ApiError;
use axum::extract::ConnectInfo;
use axum::http::StatusCode;
use hyper::body::{Body, Frame, Incoming, SizeHint};
use hyper_util::rt::TokioIo;
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
    /// A connection must deliver a complete request header within this time of opening; on a
    /// kept-alive connection, within this time of the next head's first byte.
    pub header_timeout: Duration,
    /// A kept-alive connection is closed when its next request has not begun this long after
    /// the previous answer was sent.
    pub idle_timeout: Duration,
    /// A request body must arrive in full within this time of its header.
    pub body_timeout: Duration,
    /// A connection whose client takes no byte of its answer for this long is closed (the
    /// timer restarts with every byte taken).
    pub write_timeout: Duration,
    /// Connections open at once, WebSockets included. Beyond it a new connection waits up to
    /// [`ServerLimits::queue_wait`] for a free slot, then gets a 503 and is closed.
    pub max_connections: usize,
    /// Connections one client address (an IPv6 /64) may hold at once, waiting ones included;
    /// beyond it a new one gets a 503 at once.
    pub max_connections_per_address: usize,
    /// How long a connection over the cap waits for a slot.
    pub queue_wait: Duration,
    /// After SIGINT/SIGTERM: how long requests in flight may take to finish.
    pub grace: Duration,
}

impl Default for ServerLimits {
    fn default() -> ServerLimits {
        ServerLimits {
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(30),
            max_connections: 4096,
            max_connections_per_address: 256,
            queue_wait: Duration::from_secs(1),
            grace: Duration::from_secs(5),
        }
    }
}

/// Connections over a cap that may wait for a slot or read their 503 at once; past it they are
/// closed at once.
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
    let per_address = AddressCap::new(limits.max_connections_per_address);
    let waiting = Arc::new(Semaphore::new(MAX_WAITING));
    let timeouts = Timeouts { header: limits.header_timeout, idle: limits.idle_timeout, write: limits.write_timeout };
    // Every connection task holds a receiver: the send tells them to stop, and `closed`
    // completes when the last one has ended.
    let (stop, _) = watch::channel(());
    let mut http = hyper::server::conn::http1::Builder::new();
    // The connection's Deadlines time heads; hyper's timer would also cut idle connections.
    http.header_read_timeout(None).max_buf_size(MAX_HEAD_BYTES);
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
        let Some(address) = per_address.try_take(peer.ip()) else {
            // This address holds its share: no waiting (only its own connections free a place).
            crate::refusal::refused("connections_per_address");
            if let Ok(turn) = waiting.clone().try_acquire_owned() {
                tokio::spawn(async move {
                    refuse(stream, FROM_ONE_ADDRESS).await;
                    drop(turn);
                });
            }
            continue;
        };
        let slot = slots.clone().try_acquire_owned().ok();
        let wait_turn = if slot.is_none() {
            match waiting.clone().try_acquire_owned() {
                Ok(turn) => Some(turn),
                // Even the waiting room is full: close at once rather than hold the socket.
                Err(_) => {
                    crate::refusal::refused("connections");
                    continue;
                }
            }
        } else {
            None
        };
        let connection = Connection {
            http: http.clone(),
            app: app.clone(),
            peer,
            body_timeout: BodyTimeout(limits.body_timeout),
            timeouts,
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
                        _ => {
                            crate::refusal::refused("connections");
                            return refuse(stream, OVER_THE_CAP).await;
                        }
                    }
                }
            };
            metrics::gauge!("qi_connections_open").increment(1.0);
            connection.run(stream, Slots { _all: slot, _address: address }).await;
            metrics::gauge!("qi_connections_open").decrement(1.0);
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
    timeouts: Timeouts,
    stop: watch::Receiver<()>,
}

/// The places a connection holds while it is open: one of the server's, one of its address's.
struct Slots {
    _all: OwnedSemaphorePermit,
    _address: AddressSlot,
}

impl Connection {
    async fn run(self, stream: TcpStream, slots: Slots) {
        let Connection { http, app, peer, body_timeout, timeouts, mut stop } = self;
        let framing = Arc::new(Mutex::new(Framing::default()));
        let deadlines = Arc::new(Deadlines::new(timeouts));
        let heads = framing.clone();
        let clock = deadlines.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            clock.request_started();
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(body_timeout);
            let verdict = heads.lock().map_or(Verdict::Unknown, |mut f| f.take());
            let app = app.clone();
            let clock = clock.clone();
            async move {
                let response = if verdict == Verdict::Doubled {
                    let message = "the request has both Content-Length and Transfer-Encoding; send one";
                    closing(ApiError::bad_request(message))
                } else if verdict == Verdict::TooLarge {
                    // hyper refuses a head this long when it arrives in pieces, not always when
                    // it arrives at once: one limit either way.
                    let message = format!("the request head is longer than {MAX_HEAD_BYTES} bytes");
                    closing(ApiError::new(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE.as_u16(), message))
                } else {
                    let response = app.oneshot(req.map(axum::body::Body::new)).await?;
                    // Past a head we could not follow (one that asked for an upgrade it did not
                    // get), close rather than read more requests unchecked.
                    let upgraded = response.status() == StatusCode::SWITCHING_PROTOCOLS;
                    if upgraded {
                        clock.upgraded();
                    }
                    if verdict == Verdict::Unknown && !upgraded {
                        closing(response)
                    } else {
                        response
                    }
                };
                Ok::<_, std::convert::Infallible>(response.map(|body| Answer { body, clock }))
            }
        });
        let io = TokioIo::new(Slotted { stream, framing, deadlines: deadlines.clone(), _slots: slots });
        // Errors here are the client's (a reset, a malformed head): nothing to report.
        let mut connection = std::pin::pin!(http.serve_connection(io, service).with_upgrades());
        // A deadline that passes drops the connection, which closes the socket.
        let mut expired = std::pin::pin!(deadlines.expired());
        tokio::select! {
            _ = connection.as_mut() => return,
            _ = expired.as_mut() => return,
            // Shutting down (or the server is gone): finish the request in flight, then close.
            _ = stop.changed() => {}
        }
        // No request in flight (a client still sending its head, or idle between requests):
        // nothing to finish, and the grace is not spent waiting for it.
        if !deadlines.serving() {
            return;
        }
        connection.as_mut().graceful_shutdown();
        tokio::select! {
            _ = connection => {}
            _ = expired => {}
        }
    }
}

/// An answer's body, which tells the connection's [`Deadlines`] when hyper is done with it
/// (hyper drops a body once its last byte is written, or the connection is gone).
struct Answer {
    body: axum::body::Body,
    clock: Arc<Deadlines>,
}

impl Drop for Answer {
    fn drop(&mut self) {
        self.clock.answer_finished();
    }
}

impl Body for Answer {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The 503 messages: over the server's cap, and over one address's.
const OVER_THE_CAP: &str = "the server has too many open connections; try again in a moment";
const FROM_ONE_ADDRESS: &str = "too many open connections from your address; close some and try again";

/// The answer to a connection over a cap: a 503 it can read, then the connection closes.
async fn refuse(mut stream: TcpStream, message: &str) {
    let body = format!(r#"{{"error":"{message}"}}"#);
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         retry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
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

/// A socket that holds its connection slots for as long as it is open, also after an upgrade
/// hands it to the WebSocket code, shows the bytes it reads to [`Framing`] and tells the
/// connection's [`Deadlines`] when bytes come in and when a write waits for the client.
struct Slotted {
    stream: TcpStream,
    framing: Arc<Mutex<Framing>>,
    deadlines: Arc<Deadlines>,
    _slots: Slots,
}

impl Slotted {
    fn note_write(&self, polled: &Poll<io::Result<usize>>) {
        match polled {
            Poll::Pending => self.deadlines.write_blocked(),
            Poll::Ready(Ok(1..)) => self.deadlines.wrote(),
            Poll::Ready(_) => {}
        }
    }
}

impl AsyncRead for Slotted {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.stream).poll_read(cx, buf);
        let read = &buf.filled()[before..];
        if !read.is_empty() {
            this.deadlines.read();
            if let Ok(mut framing) = this.framing.lock() {
                framing.read(read);
            }
        }
        polled
    }
}

impl AsyncWrite for Slotted {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.note_write(&polled);
        polled
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
        let this = self.get_mut();
        let polled = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.note_write(&polled);
        polled
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
