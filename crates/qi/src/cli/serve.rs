//! `qi serve [--addr 127.0.0.1:8080] [--data DIR]`: the web app, from this one binary.
//!
//! SIGINT (Ctrl-C) or SIGTERM stops accepting at once; requests in flight get `--grace`
//! seconds to finish, then the process exits whatever is still open.

use anyhow::{Context, Result};
use qi_web::ServerLimits;
use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// A TOML file of settings: each key is a flag's name (`max_rooms = 500`, `data = "/srv/qi"`);
    /// a flag or a QI_… variable wins over the file.
    #[arg(long, env = "QI_CONFIG", value_name = "FILE")]
    config: Option<std::path::PathBuf>,
    /// Print the settings in force (secrets masked) and where each came from, then exit.
    #[arg(long)]
    print_config: bool,
    /// With --print-config: one JSON object, `{"settings": {NAME: {"value", "from"}}}`.
    #[arg(long, requires = "print_config")]
    json: bool,
    /// Address to listen on: `127.0.0.1:8080`, `localhost:8080`, `[::1]:8080`, `0.0.0.0:8080`,
    /// or just a port (on 127.0.0.1); port 0 picks a free port (the real address is printed).
    #[arg(long, env = "QI_ADDR", default_value = "127.0.0.1:8080", value_parser = parse_addr)]
    addr: SocketAddr,
    #[command(flatten)]
    rooms: super::serve_rooms::RoomArgs,
    /// Seconds a connection has to send a complete request header after it opens; on a
    /// kept-alive connection, after the next header's first byte.
    #[arg(long, env = "QI_HEADER_TIMEOUT", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout: u64,
    /// Seconds a kept-alive connection may wait for its next request after an answer.
    #[arg(long, env = "QI_IDLE_TIMEOUT", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=3600))]
    idle_timeout: u64,
    /// Seconds a request body has to arrive in full after its header.
    #[arg(long, env = "QI_BODY_TIMEOUT", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    body_timeout: u64,
    /// Seconds a client may take no byte of its answer before the connection is closed.
    #[arg(long, env = "QI_WRITE_TIMEOUT", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    write_timeout: u64,
    /// Connections open at once (WebSockets included); more wait a second for a free slot,
    /// then get a 503. Lowered to fit the open-file limit when that is smaller.
    #[arg(long, env = "QI_MAX_CONNECTIONS", default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections: u64,
    /// Connections one client address (an IPv6 /64) may hold at once; more get a 503 at once.
    /// Behind a reverse proxy every client has the proxy's address: raise it to
    /// `--max-connections` there and cap per client in the proxy.
    #[arg(long, env = "QI_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_connections_per_address: u64,
    /// Reverse proxies (addresses or CIDR networks, comma-separated) whose `X-Forwarded-For` /
    /// `Forwarded` headers name the client: the per-address limits and the logs then count
    /// real clients. Anyone else's such headers are ignored.
    #[arg(long, env = "QI_TRUST_PROXY", value_name = "CIDR", value_delimiter = ',', num_args = 1..)]
    trust_proxy: Vec<String>,
    /// A token `/metrics` asks for (`Authorization: Bearer TOKEN`); without one `/metrics` is
    /// open to anyone who reaches the server. Give it as QI_METRICS_TOKEN, not as a flag.
    #[arg(long, env = "QI_METRICS_TOKEN", hide_env_values = true, value_name = "TOKEN")]
    metrics_token: Option<String>,
    /// Log lines (access and events, on standard error): `text` for people, `json` for a
    /// log collector (one object a line).
    #[arg(long, env = "QI_LOG_FORMAT", default_value = "text", value_parser = ["text", "json"])]
    log_format: String,
    /// The least important log lines written: `error`, `warn`, `info` (each request),
    /// `debug`, or `off`.
    #[arg(long, env = "QI_LOG_LEVEL", default_value = "info", value_parser = ["off", "error", "warn", "info", "debug"])]
    log_level: String,
    /// A message shown at the top of every page (maintenance, an event): plain text, at most
    /// 500 characters.
    #[arg(long, env = "QI_MESSAGE", value_name = "TEXT")]
    message: Option<String>,
    /// Seconds requests in flight get to finish after SIGINT / SIGTERM.
    #[arg(long, env = "QI_GRACE", default_value_t = 5, value_parser = clap::value_parser!(u64).range(0..=600))]
    grace: u64,
}

/// Reads a listening address: an IP and port, a host name and port (`localhost:8080`, resolved,
/// IPv4 first), or a bare port on the loopback address.
fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    let text = text.trim();
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if !text.contains(':') {
        return Err(format!("{text:?} has no port: write HOST:PORT, e.g. localhost:8080"));
    }
    let found: Vec<SocketAddr> = text.to_socket_addrs().map_err(|e| format!("cannot resolve {text:?}: {e}"))?.collect();
    found
        .iter()
        .find(|a| a.is_ipv4())
        .or(found.first())
        .copied()
        .ok_or_else(|| format!("{text:?} resolves to no address"))
}
/// File descriptors kept free for what is not a client connection (the listener, the
/// runtime, files the server opens).
const SPARE_FDS: u64 = 64;

pub fn run(mut args: Args) -> Result<()> {
    args.rooms.read_secrets()?;
    let max_connections = fit_open_file_limit(args.max_connections);
    let limits = ServerLimits {
        header_timeout: Duration::from_secs(args.header_timeout),
        idle_timeout: Duration::from_secs(args.idle_timeout),
        body_timeout: Duration::from_secs(args.body_timeout),
        write_timeout: Duration::from_secs(args.write_timeout),
        max_connections: max_connections as usize,
        max_connections_per_address: args.max_connections_per_address as usize,
        grace: Duration::from_secs(args.grace),
        ..ServerLimits::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // Every CPU-heavy job runs in a bounded pool (web::cpu); more blocking threads than those
        // pools' slots would only add malloc arenas that keep memory after a burst.
        .max_blocking_threads(qi_web::BLOCKING_THREADS)
        .build()
        .context("starting the async runtime")?;
    let trusted_proxies =
        qi_web::TrustedProxies::parse(&args.trust_proxy).map_err(anyhow::Error::msg).context("--trust-proxy")?;
    start_logs(&args.log_format, &args.log_level);
    runtime.block_on(async {
        let metrics = qi_web::metrics::install().map_err(anyhow::Error::msg).context("starting the metrics")?;
        let opened = args.rooms.open().await?;
        let listener = qi_web::bind(args.addr).await.with_context(|| format!("cannot listen on {}", args.addr))?;
        let addr = listener.local_addr()?;
        println!("Rooms are kept in {} (down for {} ms before this start)", args.rooms.describe(), opened.downtime_ms);
        // Tests read this line to find the port; flush so it is not stuck in a pipe buffer.
        println!("Qi is serving on http://{addr}/  (Xiangqi: http://{addr}/xq, Huarong Dao: http://{addr}/huarong)");
        std::io::stdout().flush()?;
        if max_connections < args.max_connections {
            eprintln!("note: at most {max_connections} connections at once (the open-file limit)");
        }
        let stop = stop_signal()?;
        let operations = qi_web::Operations {
            readiness: args.rooms.readiness(),
            metrics: Some(qi_web::metrics::Exposition {
                handle: metrics,
                token: args.metrics_token.clone(),
                rooms: Some(opened.rooms.clone()),
            }),
            trusted_proxies,
            notice: qi_web::notice::SiteNotice::new(args.message.as_deref(), args.rooms.chat_on())
                .map_err(anyhow::Error::msg)?,
        };
        qi_web::serve_with(listener, opened.rooms, limits, operations, async move {
            stop.await;
            eprintln!("stopping: finishing requests in flight (at most {} s)", args.grace);
        })
        .await
        .context("serving")
    })?;
    // Jobs still running in the blocking pools (a solve, a search) are not waited for.
    runtime.shutdown_background();
    Ok(())
}

/// Writes the log lines (`tracing` events of every crate) to standard error, as text or JSON.
fn start_logs(format: &str, level: &str) {
    let level = level.parse().unwrap_or(tracing_subscriber::filter::LevelFilter::INFO);
    let colour = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let logs = tracing_subscriber::fmt().with_writer(std::io::stderr).with_max_level(level).with_ansi(colour);
    // A second subscriber (only in tests that run two servers in one process) is not an error.
    let _ = if format == "json" { logs.json().try_init() } else { logs.try_init() };
}

/// Completes on the first SIGINT or SIGTERM.
fn stop_signal() -> Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupt = signal(SignalKind::interrupt()).context("listening for SIGINT")?;
    let mut terminate = signal(SignalKind::terminate()).context("listening for SIGTERM")?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    })
}

/// Raises the soft open-file limit to the hard one and returns how many connections fit in it.
fn fit_open_file_limit(wanted: u64) -> u64 {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit/setrlimit only read and write the struct passed to them.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return wanted;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit.rlim_cur = limit.rlim_max;
            }
        }
    }
    wanted.min(limit.rlim_cur.saturating_sub(SPARE_FDS).max(1))
}

#[cfg(test)]
mod tests {
    use super::parse_addr;

    #[test]
    fn reads_addresses_host_names_and_ports() {
        assert_eq!(parse_addr("127.0.0.1:8080").unwrap().to_string(), "127.0.0.1:8080");
        assert_eq!(parse_addr("[::1]:9000").unwrap().to_string(), "[::1]:9000");
        assert_eq!(parse_addr("localhost:8080").unwrap().port(), 8080);
        assert!(parse_addr("localhost:8080").unwrap().ip().is_loopback());
        assert_eq!(parse_addr("8081").unwrap().to_string(), "127.0.0.1:8081");
        assert!(parse_addr("localhost").unwrap_err().contains("no port"));
        assert!(parse_addr("localhost:99999").is_err());
    }
}
