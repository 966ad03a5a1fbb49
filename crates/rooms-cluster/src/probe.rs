//! Readiness probes: does the PostgreSQL server take a connection and answer, does Redis answer
//! a PING. Each uses a connection of its own, made for the probe, so a probe never waits behind
//! the store's work or the bus's, and it says nothing about a server it did not reach within
//! its wait.

use std::time::Duration;

/// Whether PostgreSQL at `url` takes a new connection and answers `SELECT 1` within `wait`.
/// Blocks: run it off the async runtime.
///
/// # Errors
/// Why not, without the URL (it may hold a password).
pub fn ping_postgres(url: &str, wait: Duration) -> Result<(), String> {
    let mut config: postgres::Config = url.parse().map_err(|e| format!("bad database URL: {e}"))?;
    config.connect_timeout(wait);
    let mut client = config.connect(postgres::NoTls).map_err(|e| e.to_string())?;
    client.simple_query("SELECT 1").map(|_| ()).map_err(|e| e.to_string())
}

/// Whether Redis at `url` answers a PING on a new connection within `wait`.
///
/// # Errors
/// Why not, without the URL.
pub async fn ping_redis(url: &str, wait: Duration) -> Result<(), String> {
    let client = redis::Client::open(url).map_err(|e| format!("bad Redis URL: {e}"))?;
    let ping = async {
        let mut connection = client.get_multiplexed_async_connection().await?;
        redis::cmd("PING").query_async::<String>(&mut connection).await
    };
    match tokio::time::timeout(wait, ping).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within {wait:?}")),
    }
}
