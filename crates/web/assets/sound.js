// @ts-check
// Move sounds made with WebAudio (no sound files): a wooden click for a move, a heavier knock
// for a capture, two quick knocks for check, a short chord at the end of the game.
// The mute switch is kept in localStorage. Every sound played is announced as a `qi-sound`
// event on the document (the browser tests listen to it).

const KEY = 'qi-muted';
/** @type {AudioContext | null} */
let context = null;

/** Whether the user muted the sounds. */
export function isMuted() {
  return localStorage.getItem(KEY) === '1';
}

/** @param {boolean} muted */
export function setMuted(muted) {
  localStorage.setItem(KEY, muted ? '1' : '0');
}

/** The audio context, made on first use (null where the browser has none). */
function audio() {
  if (!context) {
    // Older Safari names it with a prefix.
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctx) return null;
    context = new Ctx();
  }
  if (context.state === 'suspended') context.resume().catch(() => {});
  return context;
}

// A knock: a short burst of filtered noise with a fast decay, plus a low body tone.
/**
 * @param {AudioContext} ctx
 * @param {number} at start time (the context's clock, seconds)
 * @param {{ pitch?: number, gain?: number, length?: number }} [tone] Hz, 0..1, seconds
 */
function knock(ctx, at, { pitch = 900, gain = 0.5, length = 0.09 } = {}) {
  const frames = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 4;
  const noise = ctx.createBufferSource();
  noise.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = pitch;
  filter.Q.value = 1.2;
  const level = ctx.createGain();
  level.gain.setValueAtTime(gain, at);
  level.gain.exponentialRampToValueAtTime(0.001, at + length);
  noise.connect(filter).connect(level).connect(ctx.destination);
  noise.start(at);
  const body = ctx.createOscillator();
  body.frequency.setValueAtTime(pitch / 4, at);
  body.frequency.exponentialRampToValueAtTime(pitch / 8, at + length);
  const bodyLevel = ctx.createGain();
  bodyLevel.gain.setValueAtTime(gain * 0.6, at);
  bodyLevel.gain.exponentialRampToValueAtTime(0.001, at + length);
  body.connect(bodyLevel).connect(ctx.destination);
  body.start(at);
  body.stop(at + length);
}

/**
 * Notes one after the other, ringing together.
 * @param {AudioContext} ctx
 * @param {number} at
 * @param {number[]} notes frequencies in Hz
 */
function chord(ctx, at, notes) {
  notes.forEach((freq, i) => {
    const osc = ctx.createOscillator();
    osc.type = 'triangle';
    osc.frequency.value = freq;
    const level = ctx.createGain();
    const start = at + i * 0.09;
    level.gain.setValueAtTime(0.0001, start);
    level.gain.exponentialRampToValueAtTime(0.25, start + 0.02);
    level.gain.exponentialRampToValueAtTime(0.0001, start + 0.6);
    osc.connect(level).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + 0.65);
  });
}

/** @type {Record<string, (ctx: AudioContext, at: number) => void>} */
const SOUNDS = {
  move: (ctx, t) => knock(ctx, t),
  capture: (ctx, t) => knock(ctx, t, { pitch: 600, gain: 0.9, length: 0.14 }),
  check: (ctx, t) => {
    knock(ctx, t, { pitch: 1200, gain: 0.7 });
    knock(ctx, t + 0.12, { pitch: 1400, gain: 0.7 });
  },
  end: (ctx, t) => chord(ctx, t, [523.25, 659.25, 783.99]),
  lowtime: (ctx, t) => chord(ctx, t, [880, 880]),
};

/**
 * Plays `name` (move, capture, check, end, lowtime) unless muted.
 * @param {string} name
 */
export function play(name) {
  if (isMuted() || !SOUNDS[name]) return;
  document.dispatchEvent(new CustomEvent('qi-sound', { detail: name }));
  const ctx = audio();
  if (!ctx) return;
  try {
    SOUNDS[name](ctx, ctx.currentTime + 0.01);
  } catch {
    // a browser without some node type: silence is fine
  }
}
