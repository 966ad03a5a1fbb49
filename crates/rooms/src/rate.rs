//! A token bucket: `rate` events per second on average, bursts of up to `burst`.

use tokio::time::Instant;

/// Allows `rate` events per second with bursts of `burst`.
///
/// ```
/// use qi_rooms::TokenBucket;
/// let now = tokio::time::Instant::now();
/// let mut bucket = TokenBucket::new(2.0, 3.0, now);
/// assert!((0..3).all(|_| bucket.allow(now)));
/// assert!(!bucket.allow(now));
/// assert!(bucket.allow(now + std::time::Duration::from_millis(500)));
/// ```
#[derive(Clone, Debug)]
pub struct TokenBucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    at: Instant,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(rate: f64, burst: f64, now: Instant) -> TokenBucket {
        TokenBucket { rate, burst, tokens: burst, at: now }
    }

    /// Takes a token if there is one at `now`.
    pub fn allow(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether the bucket is full at `now` (nothing to remember: a limiter may forget it).
    pub fn is_full(&self, now: Instant) -> bool {
        self.tokens + now.saturating_duration_since(self.at).as_secs_f64() * self.rate >= self.burst
    }
}
