// @ts-check
// The two clocks: the server's times run down on the page between its states, the low-time
// mark and the one warning sound under 10 s.

import { t } from '../i18n.js';
import * as sound from '../sound.js';

export const LOW_TIME_MS = 10000;

/**
 * A clock's text: whole seconds rounded down (as lichess), tenths under 10 s.
 * @param {number} ms
 */
export function formatClock(ms) {
  const left = Math.max(0, ms);
  const total = Math.floor(left / 1000);
  const m = Math.floor(total / 60);
  const sec = String(total % 60).padStart(2, '0');
  return left < LOW_TIME_MS ? `${m}:${sec}.${Math.floor((left % 1000) / 100)}` : `${m}:${sec}`;
}

/**
 * The time `colour` has left now: the state's, less the time since it came if that clock runs.
 * @param {import('./controller.js').Room} room
 * @param {string} colour
 */
export function clockLeft(room, colour) {
  const s = room.state;
  const elapsed = performance.now() - room.receivedAt;
  return Math.max(0, s.clock[`${colour}_ms`] - (s.clock.running === colour ? elapsed : 0));
}

/** @param {import('./controller.js').Room} room */
export function renderClocks(room) {
  const s = room.state;
  const { clockTop, clockBottom } = room.ui;
  const bottomColour = room.flippedNow() ? 'black' : 'red';
  const topColour = bottomColour === 'red' ? 'black' : 'red';
  if (!s || !s.clock) {
    clockTop.hidden = clockBottom.hidden = true;
    return;
  }
  for (const [node, c] of [[clockTop, topColour], [clockBottom, bottomColour]]) {
    const left = clockLeft(room, c);
    node.hidden = false;
    node.dataset.colour = c;
    node.dataset.clock = c;
    node.dataset.ms = String(Math.round(left));
    node.classList.toggle('running', s.clock.running === c);
    node.classList.toggle('low', left < LOW_TIME_MS);
    node.textContent = `${t(`online.${c}`)} ${formatClock(left)}`;
  }
  // One warning when my own clock runs under 10 s.
  if (s.you && s.clock.running === s.you && s.status.outcome === 'ongoing' && !room.lowTimeWarned
      && clockLeft(room, s.you) < LOW_TIME_MS && s.clock.initial_s * 1000 > LOW_TIME_MS) {
    room.lowTimeWarned = true;
    sound.play('lowtime');
  }
}
