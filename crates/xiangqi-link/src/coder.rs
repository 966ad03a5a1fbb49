//! A binary arithmetic coder (Witten, Neal and Cleary's, 32-bit, integer only) that writes
//! single bits, so a link is cut to the bit. Symbols are coded as `[low, high)` out of `total`
//! (total below 2^24). Past the end of its input the decoder reads zero bits; the encoder ends
//! its output so that zero bits complete it, and trailing zero bits may be dropped.

use super::bits::BitWriter;

const TOP: u64 = (1 << 32) - 1;
const HALF: u64 = 1 << 31;
const Q1: u64 = 1 << 30;
const Q3: u64 = 3 << 30;
/// The largest total frequency the coder accepts.
pub(crate) const MAX_TOTAL: u32 = 1 << 24;

pub(crate) struct Encoder {
    low: u64,
    high: u64,
    follow: u32,
    pub out: BitWriter,
}

impl Encoder {
    pub fn new() -> Encoder {
        Encoder { low: 0, high: TOP, follow: 0, out: BitWriter::new() }
    }

    fn emit(&mut self, bit: bool) {
        self.out.push(bit);
        for _ in 0..self.follow {
            self.out.push(!bit);
        }
        self.follow = 0;
    }

    /// Codes the symbol occupying `[lo, hi)` of `total`.
    pub fn encode(&mut self, lo: u32, hi: u32, total: u32) {
        debug_assert!(lo < hi && hi <= total && total <= MAX_TOTAL);
        let range = self.high - self.low + 1;
        self.high = self.low + range * hi as u64 / total as u64 - 1;
        self.low += range * lo as u64 / total as u64;
        loop {
            if self.high < HALF {
                self.emit(false);
            } else if self.low >= HALF {
                self.emit(true);
                self.low -= HALF;
                self.high -= HALF;
            } else if self.low >= Q1 && self.high < Q3 {
                self.follow += 1;
                self.low -= Q1;
                self.high -= Q1;
            } else {
                break;
            }
            self.low <<= 1;
            self.high = self.high << 1 | 1;
        }
    }

    /// Codes a bit that is true with probability `p_true / total`.
    pub fn encode_bit(&mut self, bit: bool, p_true: u32, total: u32) {
        if bit {
            self.encode(0, p_true, total)
        } else {
            self.encode(p_true, total, total)
        }
    }

    /// Ends the stream: two more bits (and pending ones) pick a value inside the final
    /// interval once zeros follow. Trailing zero bits are then dropped.
    pub fn finish(mut self) -> BitWriter {
        self.follow += 1;
        let bit = self.low >= Q1;
        self.emit(bit);
        let mut out = self.out;
        out.trim_trailing_zeros();
        out
    }
}

pub(crate) struct Decoder<'a> {
    low: u64,
    high: u64,
    value: u64,
    bits: &'a [u8],
    nbits: usize,
    pos: usize,
}

impl<'a> Decoder<'a> {
    /// Reads the first `nbits` bits of `bits` (most significant first).
    pub fn new(bits: &'a [u8], nbits: usize) -> Decoder<'a> {
        let mut d = Decoder { low: 0, high: TOP, value: 0, bits, nbits, pos: 0 };
        for _ in 0..32 {
            d.value = d.value << 1 | d.next_bit();
        }
        d
    }

    fn next_bit(&mut self) -> u64 {
        let k = self.pos;
        self.pos += 1;
        if k < self.nbits {
            (self.bits[k / 8] >> (7 - k % 8) & 1) as u64
        } else {
            0
        }
    }

    /// Bits the encoder had written when it reached the current state: the stream ends two
    /// bits later (see [`Encoder::finish`]).
    pub fn bits_read(&self) -> usize {
        self.pos - 32
    }

    /// Bits read so far beyond the end of the input.
    pub fn overrun(&self) -> usize {
        self.pos.saturating_sub(self.nbits)
    }

    /// The position of the next symbol within `total`; find the symbol whose `[lo, hi)`
    /// contains it, then call [`Decoder::consume`].
    pub fn target(&self, total: u32) -> u32 {
        let range = self.high - self.low + 1;
        let t = ((self.value - self.low + 1) * total as u64 - 1) / range;
        t.min(total as u64 - 1) as u32
    }

    pub fn consume(&mut self, lo: u32, hi: u32, total: u32) {
        let range = self.high - self.low + 1;
        self.high = self.low + range * hi as u64 / total as u64 - 1;
        self.low += range * lo as u64 / total as u64;
        loop {
            if self.high < HALF {
            } else if self.low >= HALF {
                self.value -= HALF;
                self.low -= HALF;
                self.high -= HALF;
            } else if self.low >= Q1 && self.high < Q3 {
                self.value -= Q1;
                self.low -= Q1;
                self.high -= Q1;
            } else {
                break;
            }
            self.low <<= 1;
            self.high = self.high << 1 | 1;
            self.value = self.value << 1 | self.next_bit();
        }
    }

    pub fn decode_bit(&mut self, p_true: u32, total: u32) -> bool {
        let bit = self.target(total) < p_true;
        if bit {
            self.consume(0, p_true, total)
        } else {
            self.consume(p_true, total, total)
        }
        bit
    }

    /// Decodes a symbol given cumulative frequencies `cum` (cum[0] = 0, cum[n] = total).
    pub fn decode_symbol(&mut self, cum: &[u32]) -> usize {
        let total = cum[cum.len() - 1];
        let t = self.target(total);
        // The last i with cum[i] <= t.
        let i = cum.partition_point(|&c| c <= t) - 1;
        self.consume(cum[i], cum[i + 1], total);
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_mixed_symbols() {
        let mut rng = 12345u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for _ in 0..200 {
            let n = (next() % 300) as usize;
            let mut symbols = Vec::new();
            let mut enc = Encoder::new();
            for _ in 0..n {
                let k = 1 + (next() % 60) as usize;
                let cum: Vec<u32> = (0..=k as u32).map(|i| i * i * 97 + i).collect();
                let s = (next() % k as u64) as usize;
                enc.encode(cum[s], cum[s + 1], cum[k]);
                let b = next() % 3 == 0;
                enc.encode_bit(b, 3, 1000);
                symbols.push((cum, s, b));
            }
            let out = enc.finish();
            let len = out.len();
            let bytes = out.into_bytes(false);
            let mut dec = Decoder::new(&bytes, len);
            for (cum, s, b) in &symbols {
                assert_eq!(dec.decode_symbol(cum), *s);
                assert_eq!(dec.decode_bit(3, 1000), *b);
            }
        }
    }
}
