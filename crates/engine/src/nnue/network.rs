//! The quantised net and its file.
//!
//! The net: 1,260 inputs ([`super::features`]) → [`HIDDEN`] neurons per side (one weight
//! matrix for both sides' views) → the side to move's and the other side's neurons, squared
//! and clipped (SCReLU) → one output, the score in centipawns.
//!
//! The file (all little-endian): `QIXQNNUE`, then `u32`s version, features, hidden, QA, QB,
//! scale, then the body's FNV-1a 64-bit checksum (`u64`), then the body: the first layer's
//! weights (`i16`, feature by feature, [`HIDDEN`] each), its biases (`i16` × [`HIDDEN`]), the
//! output weights (`i16` × 2 × [`HIDDEN`], the side to move's first) and the output bias
//! (`i32`).

use super::features::FEATURES;

/// Neurons per side in the first layer.
pub const HIDDEN: usize = 128;
/// The first layer's quantisation: 1.0 is stored as `QA`, and the activation clips at it.
pub const QA: i32 = 255;
/// The output layer's quantisation: 1.0 is stored as `QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of the net's output.
pub const SCALE: i32 = 400;
/// The file format's version.
pub const VERSION: u32 = 1;
/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"QIXQNNUE";

const HEADER_BYTES: usize = 8 + 6 * 4 + 8;
const BODY_BYTES: usize = (FEATURES * HIDDEN + HIDDEN + 2 * HIDDEN) * 2 + 4;
/// The size of a net file in bytes.
pub const FILE_BYTES: usize = HEADER_BYTES + BODY_BYTES;

/// A quantised net, ready to evaluate.
#[derive(Clone)]
pub struct Network {
    /// The first layer's weights: one row of [`HIDDEN`] per feature.
    pub(crate) ft_weights: Box<[[i16; HIDDEN]]>,
    pub(crate) ft_bias: [i16; HIDDEN],
    /// The output weights: the side to move's neurons first.
    pub(crate) out_weights: [i16; 2 * HIDDEN],
    /// The output bias, in units of `QA * QB`.
    pub(crate) out_bias: i32,
}

impl core::fmt::Debug for Network {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Network({} → {HIDDEN}×2 → 1, checksum {:016x})", FEATURES, self.checksum())
    }
}

/// Why bytes are not a net this build can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file does not start with `QIXQNNUE`.
    NotANet,
    /// A net of another version or shape than this build evaluates.
    Incompatible(String),
    /// The file is shorter or longer than its shape says.
    Size {
        /// The size its header asks for.
        expected: usize,
        /// The size it has.
        found: usize,
    },
    /// The body does not match its checksum (a damaged or cut file).
    Checksum,
    /// A weight so large that the integer arithmetic could overflow.
    OutOfRange(String),
}

impl core::fmt::Display for NetError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NetError::NotANet => f.write_str("not a Qi net (no QIXQNNUE header)"),
            NetError::Incompatible(why) => write!(f, "a net this build cannot use: {why}"),
            NetError::Size { expected, found } => write!(f, "a net of {found} bytes, where its shape needs {expected}"),
            NetError::Checksum => f.write_str("the net's checksum does not match (a damaged file)"),
            NetError::OutOfRange(what) => write!(f, "the net's weights are out of range: {what}"),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 64 bits: enough to tell a damaged file, with no dependency.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

fn read_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Network {
    /// A net from its quantised parts: the first layer's weights feature by feature
    /// (`FEATURES * HIDDEN`), its biases (`HIDDEN`), the output weights (`2 * HIDDEN`, the
    /// side to move's first) and the output bias (in units of `QA * QB`).
    ///
    /// # Errors
    /// [`NetError::Size`] for slices of the wrong length, [`NetError::OutOfRange`] for
    /// weights that could overflow the accumulator (a neuron's bias plus its 32 largest
    /// weights beyond `i16`) or the output (an output weight beyond ±127).
    pub fn from_parts(
        ft_weights: &[i16],
        ft_bias: &[i16],
        out_weights: &[i16],
        out_bias: i32,
    ) -> Result<Network, NetError> {
        for (found, expected) in
            [(ft_weights.len(), FEATURES * HIDDEN), (ft_bias.len(), HIDDEN), (out_weights.len(), 2 * HIDDEN)]
        {
            if found != expected {
                return Err(NetError::Size { expected, found });
            }
        }
        let mut rows = vec![[0i16; HIDDEN]; FEATURES].into_boxed_slice();
        for (row, chunk) in rows.iter_mut().zip(ft_weights.chunks_exact(HIDDEN)) {
            row.copy_from_slice(chunk);
        }
        for n in 0..HIDDEN {
            let largest = rows.iter().map(|r| r[n].unsigned_abs() as i64).max().unwrap_or(0);
            if ft_bias[n].unsigned_abs() as i64 + 32 * largest > i16::MAX as i64 {
                return Err(NetError::OutOfRange(format!("neuron {n} could overflow its 16-bit accumulator")));
            }
        }
        if let Some(w) = out_weights.iter().find(|w| w.unsigned_abs() > 127) {
            return Err(NetError::OutOfRange(format!("output weight {w} beyond ±127")));
        }
        Ok(Network {
            ft_weights: rows,
            ft_bias: ft_bias.try_into().expect("length checked"),
            out_weights: out_weights.try_into().expect("length checked"),
            out_bias,
        })
    }

    /// Reads a net file.
    ///
    /// # Errors
    /// A [`NetError`] saying what is wrong; never a panic, whatever the bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_BYTES || bytes[..8] != MAGIC {
            return Err(NetError::NotANet);
        }
        let fields = [VERSION, FEATURES as u32, HIDDEN as u32, QA as u32, QB as u32, SCALE as u32];
        let names = ["version", "features", "hidden", "QA", "QB", "scale"];
        for (i, (&want, name)) in fields.iter().zip(names).enumerate() {
            let got = read_u32(bytes, 8 + 4 * i);
            if got != want {
                return Err(NetError::Incompatible(format!("{name} {got}, where this build has {want}")));
            }
        }
        if bytes.len() != FILE_BYTES {
            return Err(NetError::Size { expected: FILE_BYTES, found: bytes.len() });
        }
        let stored = u64::from_le_bytes(bytes[32..40].try_into().expect("8 bytes"));
        let body = &bytes[HEADER_BYTES..];
        if fnv1a(body) != stored {
            return Err(NetError::Checksum);
        }
        let i16s: Vec<i16> = body[..BODY_BYTES - 4].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
        let (ft, rest) = i16s.split_at(FEATURES * HIDDEN);
        let (bias, out) = rest.split_at(HIDDEN);
        let out_bias = i32::from_le_bytes(body[BODY_BYTES - 4..].try_into().expect("4 bytes"));
        Network::from_parts(ft, bias, out, out_bias)
    }

    /// The net as a file ([`Network::from_bytes`] reads it back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let body = self.body();
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(&MAGIC);
        for v in [VERSION, FEATURES as u32, HIDDEN as u32, QA as u32, QB as u32, SCALE as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    fn body(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(BODY_BYTES);
        let weights = self.ft_weights.iter().flatten().chain(&self.ft_bias).chain(&self.out_weights);
        for w in weights {
            body.extend_from_slice(&w.to_le_bytes());
        }
        body.extend_from_slice(&self.out_bias.to_le_bytes());
        body
    }

    /// The checksum of the net's weights: a short name for it (the file's checksum field).
    pub fn checksum(&self) -> u64 {
        fnv1a(&self.body())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small net with varied weights, for tests.
    pub(crate) fn sample() -> Network {
        let ft: Vec<i16> = (0..FEATURES * HIDDEN).map(|i| ((i * 7919 % 61) as i16 - 30) * 3).collect();
        let bias: Vec<i16> = (0..HIDDEN).map(|i| (i as i16 % 17) * 5).collect();
        let out: Vec<i16> = (0..2 * HIDDEN).map(|i| (i as i16 * 37 % 201) - 100).collect();
        Network::from_parts(&ft, &bias, &out, 1234).unwrap()
    }

    #[test]
    fn a_net_round_trips_through_its_file() {
        let net = sample();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.checksum(), net.checksum());
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = sample().to_bytes();
        assert_eq!(Network::from_bytes(b"hello").unwrap_err(), NetError::NotANet);
        let mut flipped = bytes.clone();
        flipped[1000] ^= 1;
        assert_eq!(Network::from_bytes(&flipped).unwrap_err(), NetError::Checksum);
        assert!(matches!(Network::from_bytes(&bytes[..bytes.len() - 1]), Err(NetError::Size { .. })));
        let mut other = bytes.clone();
        other[20] = 99; // hidden
        assert!(matches!(Network::from_bytes(&other), Err(NetError::Incompatible(_))));
    }

    #[test]
    fn weights_that_could_overflow_are_refused() {
        let ft = vec![2000i16; FEATURES * HIDDEN];
        let r = Network::from_parts(&ft, &[0; HIDDEN], &[0; 2 * HIDDEN], 0);
        assert!(matches!(r, Err(NetError::OutOfRange(_))));
        let r = Network::from_parts(&vec![0; FEATURES * HIDDEN], &[0; HIDDEN], &[200; 2 * HIDDEN], 0);
        assert!(matches!(r, Err(NetError::OutOfRange(_))));
    }
}
