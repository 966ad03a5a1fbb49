//! A cap on the connections one client address holds, so one host cannot take every slot of
//! the server's connection cap.
//!
//! IPv6 addresses count by their /64 network: one host is usually given a whole /64 and can
//! pick a new address in it for every connection. An IPv4 address written as IPv6
//! (`::ffff:a.b.c.d`, from a dual-stack listener) counts as that IPv4 address.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};

/// The open connections of every client address, and how many each may have.
#[derive(Debug)]
pub struct AddressCap {
    limit: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One connection counted against its address; dropping it frees the place.
#[derive(Debug)]
pub struct AddressSlot {
    cap: Arc<AddressCap>,
    key: IpAddr,
}

impl AddressCap {
    /// At most `limit` connections per address (at least one).
    pub fn new(limit: usize) -> Arc<AddressCap> {
        Arc::new(AddressCap { limit: limit.max(1), open: Mutex::new(HashMap::new()) })
    }

    /// A place for one more connection from `ip`, or `None` when it already has `limit`.
    pub fn try_take(self: &Arc<Self>, ip: IpAddr) -> Option<AddressSlot> {
        let key = counted_as(ip);
        let mut open = self.open.lock().ok()?;
        let count = open.entry(key).or_insert(0);
        if *count >= self.limit {
            return None;
        }
        *count += 1;
        Some(AddressSlot { cap: self.clone(), key })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        if let Ok(mut open) = self.cap.open.lock() {
            if let Some(count) = open.get_mut(&self.key) {
                *count -= 1;
                if *count == 0 {
                    open.remove(&self.key);
                }
            }
        }
    }
}

/// The address a connection from `ip` is counted under (its client key: an IPv4 address, or
/// an IPv6 address's /64). Other per-address limits use it too.
pub fn counted_as(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn an_address_gets_its_limit_and_a_freed_place_is_reused() {
        let cap = AddressCap::new(2);
        let first = cap.try_take(ip("192.0.2.1")).unwrap();
        let _second = cap.try_take(ip("192.0.2.1")).unwrap();
        assert!(cap.try_take(ip("192.0.2.1")).is_none());
        assert!(cap.try_take(ip("192.0.2.2")).is_some(), "another address has its own places");
        drop(first);
        assert!(cap.try_take(ip("192.0.2.1")).is_some());
    }

    #[test]
    fn ipv6_counts_by_its_64_bit_network_and_mapped_ipv4_as_ipv4() {
        let cap = AddressCap::new(1);
        let _held = cap.try_take(ip("2001:db8:1:2::1")).unwrap();
        assert!(cap.try_take(ip("2001:db8:1:2:ffff::9")).is_none(), "same /64");
        assert!(cap.try_take(ip("2001:db8:1:3::1")).is_some(), "another /64");
        let _v4 = cap.try_take(ip("198.51.100.7")).unwrap();
        assert!(cap.try_take(ip("::ffff:198.51.100.7")).is_none());
    }

    #[test]
    fn the_table_forgets_addresses_with_no_connection() {
        let cap = AddressCap::new(4);
        let slots: Vec<_> = (0..50).map(|i| cap.try_take(IpAddr::from([10, 0, 0, i])).unwrap()).collect();
        assert_eq!(cap.open.lock().unwrap().len(), 50);
        drop(slots);
        assert!(cap.open.lock().unwrap().is_empty());
    }
}
