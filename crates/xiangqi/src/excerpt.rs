//! Quoting input in error messages without echoing all of it.

use core::fmt;

/// Input quoted in an error message: the whole text when it is short, else its first
/// [`Excerpt::CHARS`] characters and its length, so that a message never repeats kilobytes
/// of what a client sent.
///
/// ```
/// use xiangqi::Excerpt;
/// assert_eq!(Excerpt("h2e9").to_string(), "\"h2e9\"");
/// let long = "x".repeat(5000);
/// assert_eq!(Excerpt(&long).to_string(), format!("\"{}\"… (5000 bytes)", "x".repeat(Excerpt::CHARS)));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Excerpt<'a>(pub &'a str);

impl Excerpt<'_> {
    /// Characters quoted from a long text.
    pub const CHARS: usize = 40;
}

impl fmt::Display for Excerpt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(Excerpt::CHARS) {
            None => write!(f, "{:?}", self.0),
            Some((end, _)) => write!(f, "{:?}… ({} bytes)", &self.0[..end], self.0.len()),
        }
    }
}
