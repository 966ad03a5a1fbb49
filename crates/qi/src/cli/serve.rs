//! `qi serve [--addr 127.0.0.1:8080]`: the web app, from this one binary.

use anyhow::{Context, Result};
use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};

#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on: `127.0.0.1:8080`, `localhost:8080`, `[::1]:8080`, `0.0.0.0:8080`,
    /// or just a port (on 127.0.0.1); port 0 picks a free port (the real address is printed).
    #[arg(long, default_value = "127.0.0.1:8080", value_parser = parse_addr)]
    addr: SocketAddr,
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

pub fn run(args: Args) -> Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let listener = qi::web::bind(args.addr).await.with_context(|| format!("cannot listen on {}", args.addr))?;
        let addr = listener.local_addr()?;
        // Tests read this line to find the port; flush so it is not stuck in a pipe buffer.
        println!("Qi is serving on http://{addr}/  (Xiangqi: http://{addr}/xq, Huarong Dao: http://{addr}/huarong)");
        std::io::stdout().flush()?;
        qi::web::serve(listener, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("serving")
    })
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
