//! A puzzle's first rating, from how hard the engine found it: the nodes it searched before the
//! solution's first move became its choice for good, the length of the line, and how many
//! captures and checks tempt the player elsewhere. The page then follows each player's results
//! (the shipped rating is where a player starts, not a measured one).

/// The rating for a solution found after `found_at` nodes, `solver_moves` long, with `tempting`
/// other captures and checks: 1000 for a mate in one seen at once, about 170 more for each
/// doubling of the nodes, 90 for each further move, 20 for each tempting alternative (at most
/// ten counted); rounded to 10, between 600 and 2800.
pub fn rating(found_at: u64, solver_moves: usize, tempting: usize) -> u32 {
    let effort = (found_at.max(256) as f64 / 256.0).log2();
    let raw = 1000.0 + 170.0 * effort + 90.0 * solver_moves.saturating_sub(1) as f64 + 20.0 * tempting.min(10) as f64;
    ((raw / 10.0).round() * 10.0).clamp(600.0, 2800.0) as u32
}

#[cfg(test)]
mod tests {
    use super::rating;

    #[test]
    fn harder_means_higher() {
        assert_eq!(rating(100, 1, 0), 1000);
        assert!(rating(100_000, 1, 0) > rating(10_000, 1, 0));
        assert!(rating(10_000, 3, 0) > rating(10_000, 1, 0));
        assert!(rating(10_000, 1, 5) > rating(10_000, 1, 0));
        assert_eq!(rating(u64::MAX, 7, 50), 2800);
    }
}
