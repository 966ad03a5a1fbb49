//! Behind a reverse proxy every connection comes from the proxy. For connections from the
//! proxies named by `--trust-proxy` (and only those), the client's address is read from
//! `X-Forwarded-For` (else `Forwarded: for=`) and put where every per-address limit and the
//! access log look for it; a header sent by anyone else is ignored, so no client can pretend
//! to be another.

use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;
use ipnet::IpNet;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// The most addresses read from one request's forwarding headers (a longer chain is cut at
/// the right end's this many, the hops nearest this server).
pub const MAX_HOPS: usize = 16;

/// The proxies whose forwarding headers are believed.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(Arc<Vec<IpNet>>);

impl TrustedProxies {
    /// Reads networks (`10.0.0.0/8`, `::1/128`) and single addresses (`127.0.0.1`).
    ///
    /// # Errors
    /// The first entry that is neither, quoted.
    pub fn parse<S: AsRef<str>>(entries: &[S]) -> Result<TrustedProxies, String> {
        let nets = entries
            .iter()
            .map(|e| {
                let e = e.as_ref().trim();
                e.parse::<IpNet>()
                    .or_else(|_| e.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("{e:?} is not an address or a network (CIDR, e.g. 10.0.0.0/8)"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(TrustedProxies(Arc::new(nets)))
    }

    /// Whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// The client a request from `peer` stands for: `peer` itself unless it is trusted and the
    /// headers name someone; then the rightmost address that is not a trusted proxy (the
    /// leftmost when all are).
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let chain = forwarded_chain(headers);
        chain.iter().rev().find(|ip| !self.trusts(**ip)).or(chain.first()).copied().unwrap_or(peer)
    }
}

/// The addresses of `X-Forwarded-For` (all its lines, in order) or else of `Forwarded`'s
/// `for=` parameters; names the proxy could not give (`unknown`, obfuscated) are skipped.
fn forwarded_chain(headers: &HeaderMap) -> Vec<IpAddr> {
    let values = |name: &str| -> Vec<String> {
        headers.get_all(name).iter().filter_map(|v| v.to_str().ok()).map(str::to_string).collect()
    };
    let xff = values("x-forwarded-for");
    let items: Vec<String> = if xff.is_empty() {
        values("forwarded")
            .iter()
            .flat_map(|v| v.split(','))
            .filter_map(|element| {
                element.split(';').find_map(|pair| {
                    let (key, value) = pair.split_once('=')?;
                    key.trim().eq_ignore_ascii_case("for").then(|| value.trim().trim_matches('"').to_string())
                })
            })
            .collect()
    } else {
        xff.iter().flat_map(|v| v.split(',')).map(|s| s.trim().to_string()).collect()
    };
    let start = items.len().saturating_sub(MAX_HOPS);
    items[start..].iter().filter_map(|item| address(item)).collect()
}

/// `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`, `[2001:db8::1]:4711`.
fn address(item: &str) -> Option<IpAddr> {
    if let Ok(ip) = item.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(addr) = item.parse::<SocketAddr>() {
        return Some(addr.ip());
    }
    item.strip_prefix('[').and_then(|rest| rest.split(']').next()).and_then(|ip| ip.parse().ok())
}

/// Middleware: replaces the connection's peer address by the client's for trusted proxies.
pub async fn real_client(State(trusted): State<TrustedProxies>, mut req: Request, next: Next) -> Response {
    if let Some(ConnectInfo(peer)) = req.extensions().get::<ConnectInfo<SocketAddr>>().copied() {
        let client = trusted.client(peer.ip(), req.headers());
        if client != peer.ip() {
            req.extensions_mut().insert(ConnectInfo(SocketAddr::new(client, peer.port())));
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.append(axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(), v.parse().unwrap());
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn only_a_trusted_peer_s_headers_name_the_client() {
        let trusted = TrustedProxies::parse(&["127.0.0.1", "10.0.0.0/8"]).unwrap();
        let h = headers(&[("x-forwarded-for", "203.0.113.9")]);
        assert_eq!(trusted.client(ip("127.0.0.1"), &h), ip("203.0.113.9"));
        assert_eq!(trusted.client(ip("198.51.100.7"), &h), ip("198.51.100.7"), "an untrusted peer is itself");
        // A client's own X-Forwarded-For is to the left of what the proxy appended.
        let spoofed = headers(&[("x-forwarded-for", "1.2.3.4, 203.0.113.9, 10.1.1.1")]);
        assert_eq!(trusted.client(ip("127.0.0.1"), &spoofed), ip("203.0.113.9"));
        let lines = headers(&[("x-forwarded-for", "1.2.3.4"), ("x-forwarded-for", "203.0.113.10")]);
        assert_eq!(trusted.client(ip("127.0.0.1"), &lines), ip("203.0.113.10"));
        assert_eq!(trusted.client(ip("127.0.0.1"), &headers(&[])), ip("127.0.0.1"));
        assert_eq!(trusted.client(ip("::ffff:127.0.0.1"), &h), ip("203.0.113.9"), "a mapped IPv4 peer");
    }

    #[test]
    fn forwarded_for_and_its_address_forms() {
        let trusted = TrustedProxies::parse(&["::1/128"]).unwrap();
        let h = headers(&[("forwarded", "for=192.0.2.60;proto=https, for=\"[2001:db8:cafe::17]:4711\"")]);
        assert_eq!(trusted.client(ip("::1"), &h), ip("2001:db8:cafe::17"));
        let unknown = headers(&[("forwarded", "for=unknown"), ("x-forwarded-for", "garbage")]);
        assert_eq!(trusted.client(ip("::1"), &unknown), ip("::1"), "nothing readable: the peer");
        assert_eq!(address("192.0.2.1:80"), Some(ip("192.0.2.1")));
    }

    #[test]
    fn bad_entries_are_named() {
        assert!(TrustedProxies::parse(&["10.0.0.0/33"]).unwrap_err().contains("\"10.0.0.0/33\""));
        assert!(TrustedProxies::parse(&["proxy.local"]).is_err());
        assert!(TrustedProxies::parse::<&str>(&[]).unwrap().is_empty());
    }
}
