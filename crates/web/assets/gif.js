// @ts-check
// An animated GIF from RGBA frames (GIF89a, one global palette, looping). The palette is the
// 256 most common colours of the first and last frames (a board picture has few colours but
// anti-aliased edges); every pixel takes its nearest entry. Each frame after the first stores
// only the rectangle that changed (a move changes two points), so long games stay small.

/**
 * @typedef {{ data: Uint8ClampedArray, width: number, height: number }} Frame
 */

/** 15-bit colour key of the pixel at byte `i`. */
const key15 = (/** @type {Uint8ClampedArray} */ d, /** @type {number} */ i) => ((d[i] >> 3) << 10) | ((d[i + 1] >> 3) << 5) | (d[i + 2] >> 3);

/**
 * @param {Frame[]} samples
 * @returns {Uint8Array} 256 × RGB
 */
function palette(samples) {
  const count = new Uint32Array(1 << 15);
  const sum = new Float64Array(3 << 15);
  for (const { data } of samples) {
    for (let i = 0; i < data.length; i += 4) {
      const k = key15(data, i);
      count[k]++;
      sum[3 * k] += data[i];
      sum[3 * k + 1] += data[i + 1];
      sum[3 * k + 2] += data[i + 2];
    }
  }
  const keys = [...count.keys()].filter((k) => count[k]).sort((a, b) => count[b] - count[a]).slice(0, 256);
  const out = new Uint8Array(256 * 3);
  keys.forEach((k, j) => {
    for (let c = 0; c < 3; c++) out[3 * j + c] = Math.round(sum[3 * k + c] / count[k]);
  });
  return out;
}

/**
 * The palette index of every pixel of a frame.
 * @param {Frame} frame
 * @param {Uint8Array} colors
 * @param {Int16Array} cache colour key -> index (-1: not yet known), shared by all frames
 */
function indexed(frame, colors, cache) {
  const { data } = frame;
  const out = new Uint8Array(data.length / 4);
  for (let p = 0, i = 0; i < data.length; p++, i += 4) {
    const k = key15(data, i);
    let best = cache[k];
    if (best < 0) {
      let bestDist = Infinity;
      for (let j = 0; j < 256; j++) {
        const dr = colors[3 * j] - data[i];
        const dg = colors[3 * j + 1] - data[i + 1];
        const db = colors[3 * j + 2] - data[i + 2];
        const dist = dr * dr + dg * dg + db * db;
        if (dist < bestDist) [bestDist, best] = [dist, j];
      }
      cache[k] = best;
    }
    out[p] = best;
  }
  return out;
}

/** A growing byte buffer. */
class Bytes {
  constructor() {
    /** @type {Uint8Array<ArrayBuffer>} */
    this.buf = new Uint8Array(1 << 16);
    this.length = 0;
  }
  /** @param {...number} bytes */
  push(...bytes) {
    for (const b of bytes) {
      if (this.length === this.buf.length) {
        const bigger = new Uint8Array(this.buf.length * 2);
        bigger.set(this.buf);
        this.buf = bigger;
      }
      this.buf[this.length++] = b;
    }
  }
  /** @param {number} v */
  u16(v) {
    this.push(v & 0xff, v >> 8);
  }
  /** @param {string} s */
  ascii(s) {
    for (const ch of s) this.push(ch.charCodeAt(0));
  }
  /** @returns {Uint8Array<ArrayBuffer>} */
  result() {
    return this.buf.slice(0, this.length);
  }
}

/**
 * LZW-compresses 8-bit indices into `out` as GIF data sub-blocks.
 * @param {Uint8Array} pixels
 * @param {Bytes} out
 */
function lzw(pixels, out) {
  const clear = 256;
  const end = 257;
  out.push(8); // minimum code size
  let block = [];
  let acc = 0;
  let bits = 0;
  const emit = (/** @type {number} */ code, /** @type {number} */ size) => {
    acc |= code << bits;
    bits += size;
    while (bits >= 8) {
      block.push(acc & 0xff);
      acc >>>= 8;
      bits -= 8;
      if (block.length === 255) {
        out.push(255, ...block);
        block = [];
      }
    }
  };
  /** @type {Map<number, number>} */
  let table = new Map();
  let next = 258;
  let size = 9;
  emit(clear, size);
  let prefix = pixels[0];
  for (let i = 1; i < pixels.length; i++) {
    const k = pixels[i];
    const id = (prefix << 8) | k;
    const known = table.get(id);
    if (known !== undefined) {
      prefix = known;
      continue;
    }
    emit(prefix, size);
    if (next < 4096) {
      table.set(id, next++);
      if (next > 1 << size && size < 12) size++;
    } else {
      emit(clear, size);
      table = new Map();
      next = 258;
      size = 9;
    }
    prefix = k;
  }
  emit(prefix, size);
  emit(end, size);
  if (bits > 0) block.push(acc & 0xff);
  if (block.length) out.push(block.length, ...block);
  out.push(0);
}

/**
 * Encodes frames of one size as a looping GIF.
 * @param {Frame[]} frames at least one
 * @param {{ delay?: number, lastDelay?: number }} [options] centiseconds per frame, and for the last
 * @returns {Uint8Array<ArrayBuffer>}
 */
export function encodeGif(frames, { delay = 100, lastDelay = 300 } = {}) {
  const { width, height } = frames[0];
  const colors = palette([frames[0], frames[frames.length - 1]]);
  const cache = new Int16Array(1 << 15).fill(-1);
  const out = new Bytes();
  out.ascii('GIF89a');
  out.u16(width);
  out.u16(height);
  out.push(0xf7, 0, 0); // a global table of 256 colours
  out.push(...colors);
  out.push(0x21, 0xff, 11);
  out.ascii('NETSCAPE2.0');
  out.push(3, 1, 0, 0, 0); // loop for ever
  /** @type {Uint8Array | null} */
  let previous = null;
  frames.forEach((frame, n) => {
    const pixels = indexed(frame, colors, cache);
    // The rectangle that differs from the previous frame (the whole picture at first).
    let [x0, y0, x1, y1] = [0, 0, width - 1, height - 1];
    if (previous) {
      [x0, y0, x1, y1] = [width, height, -1, -1];
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          if (pixels[y * width + x] !== previous[y * width + x]) {
            if (x < x0) x0 = x;
            if (x > x1) x1 = x;
            if (y < y0) y0 = y;
            if (y > y1) y1 = y;
          }
        }
      }
      if (x1 < 0) [x0, y0, x1, y1] = [0, 0, 0, 0]; // nothing changed: one pixel, as it was
    }
    const w = x1 - x0 + 1;
    const h = y1 - y0 + 1;
    const part = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) part.set(pixels.subarray((y0 + y) * width + x0, (y0 + y) * width + x0 + w), y * w);
    out.push(0x21, 0xf9, 4, 0x04); // graphic control: keep the frame under the next one
    out.u16(n === frames.length - 1 ? lastDelay : delay);
    out.push(0, 0);
    out.push(0x2c);
    out.u16(x0);
    out.u16(y0);
    out.u16(w);
    out.u16(h);
    out.push(0);
    lzw(part, out);
    previous = pixels;
  });
  out.push(0x3b);
  return out.result();
}
