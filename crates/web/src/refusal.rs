//! The one counter every bound reports to when it turns something away: a leaf, so that the
//! pools and limits that count refusals need not import the metrics module that reads them.

/// Counts a request or connection turned away by the bound `limit` (`qi_refusals_total`).
pub fn refused(limit: &'static str) {
    metrics::counter!("qi_refusals_total", "limit" => limit).increment(1);
}
