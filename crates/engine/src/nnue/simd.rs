//! The net's vector kernels. Each has a scalar form, written so that compilers vectorise it
//! (SSE2 on any x86-64, `simd128` on WebAssembly built with it), and the dot product also an
//! explicit AVX2 form chosen at run time. All are integer arithmetic in the same order of
//! exact operations, so every path gives the same numbers (a test compares them).

use super::network::{HIDDEN, QA};

/// `acc += add - sub` lane by lane (a quiet move: the piece leaves one square for another).
#[inline]
pub(crate) fn add_sub(acc: &mut [i16; HIDDEN], add: &[i16; HIDDEN], sub: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        acc[i] = acc[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
    }
}

/// `acc += add - sub1 - sub2` (a capture: the captured piece leaves too).
#[inline]
pub(crate) fn add_sub_sub(acc: &mut [i16; HIDDEN], add: &[i16; HIDDEN], sub1: &[i16; HIDDEN], sub2: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        acc[i] = acc[i].wrapping_add(add[i]).wrapping_sub(sub1[i]).wrapping_sub(sub2[i]);
    }
}

/// `acc += add`.
#[inline]
pub(crate) fn add(acc: &mut [i16; HIDDEN], add: &[i16; HIDDEN]) {
    for i in 0..HIDDEN {
        acc[i] = acc[i].wrapping_add(add[i]);
    }
}

/// Σ clamp(a, 0, QA)² × w over the lanes: the output layer's sum for one side's neurons.
/// Computed as (c × w) × c, where c × w fits 16 bits (c ≤ 255 and |w| ≤ 127 by the net's
/// checks), so the vector form can multiply in 16 bits and add pairs into 32.
#[inline]
pub(crate) fn screlu_dot(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { screlu_dot_avx2(acc, w) };
        }
    }
    screlu_dot_scalar(acc, w)
}

#[inline]
pub(crate) fn screlu_dot_scalar(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for i in 0..HIDDEN {
        let c = acc[i].clamp(0, QA as i16);
        sum = sum.wrapping_add(i32::from(c.wrapping_mul(w[i])) * i32::from(c));
    }
    sum
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn screlu_dot_avx2(acc: &[i16; HIDDEN], w: &[i16; HIDDEN]) -> i32 {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    for i in (0..HIDDEN).step_by(16) {
        // SAFETY: i + 16 <= HIDDEN, and unaligned loads accept any address.
        let a = unsafe { _mm256_loadu_si256(acc.as_ptr().add(i).cast()) };
        let b = unsafe { _mm256_loadu_si256(w.as_ptr().add(i).cast()) };
        let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
        let cw = _mm256_mullo_epi16(c, b);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(cw, c));
    }
    let lo = _mm256_castsi256_si128(sum);
    let hi = _mm256_extracti128_si256(sum, 1);
    let s = _mm_add_epi32(lo, hi);
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
    _mm_cvtsi128_si32(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vector_dot_product_equals_the_scalar_one() {
        let mut acc = [0i16; HIDDEN];
        let mut w = [0i16; HIDDEN];
        for round in 0..200i32 {
            for i in 0..HIDDEN {
                acc[i] = ((i as i32 * 811 + round * 97) % 700 - 200) as i16;
                w[i] = ((i as i32 * 37 + round * 13) % 255 - 127) as i16;
            }
            assert_eq!(screlu_dot(&acc, &w), screlu_dot_scalar(&acc, &w));
        }
    }
}
