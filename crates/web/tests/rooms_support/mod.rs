//! Shared by the room tests: a server on a free loopback port and a test position. The HTTP
//! and WebSocket clients are `qi_rooms_client`'s.
#![allow(dead_code, unused_imports)]

pub use qi_rooms_client::{create, http, Client, WAIT};

/// A position three plies from mate: d6d7 a3a2 i0i9 mates.
pub const MATE_IN_TWO: &str = "3k5/9/9/3P5/9/9/p8/9/9/4K3R w - - 0 1";

/// Starts the app with `rooms` on a free loopback port; returns `127.0.0.1:port`.
pub async fn start(rooms: qi_web::rooms::Rooms) -> String {
    let listener = qi_web::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(qi_web::serve(listener, rooms, qi_web::ServerLimits::default(), std::future::pending::<()>()));
    addr
}
