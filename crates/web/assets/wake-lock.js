// @ts-check
// Keeps the screen on while a game is being played (the Screen Wake Lock API): a phone that
// dims and locks mid-game costs the player time on the clock. The browser lets go of the lock
// when the page is hidden; it is asked again when the page shows while still wanted, and given
// back when the game ends. `<html data-wake-lock>` says where it stands: `held`, `released`,
// or `unavailable` where the browser has no wake lock (the browser tests read it).

/** @type {WakeLockSentinel | null} */
let sentinel = null;
let wanted = false;

/** @param {string} state */
function mark(state) {
  document.documentElement.dataset.wakeLock = state;
}

async function take() {
  if (!('wakeLock' in navigator)) {
    mark('unavailable');
    return;
  }
  if (sentinel && !sentinel.released) return;
  try {
    const lock = await navigator.wakeLock.request('screen');
    // The game may have ended while the request was pending.
    if (!wanted || document.visibilityState !== 'visible') {
      await lock.release();
      return;
    }
    sentinel = lock;
    lock.addEventListener('release', () => {
      if (sentinel === lock) sentinel = null;
      mark('released');
    });
    mark('held');
  } catch {
    // Refused (battery saver, no permission): the game goes on without it.
    mark('released');
  }
}

/**
 * Holds the screen on (`on`) or lets it go.
 * @param {boolean} on
 */
export function keepScreenOn(on) {
  if (on === wanted) return;
  wanted = on;
  if (!on) drop();
  else if (document.visibilityState === 'visible') take();
}

/** Gives the lock back, still wanting it (the page is hidden) or not (the game ended). */
function drop() {
  const lock = sentinel;
  sentinel = null;
  if (lock) lock.release().catch(() => {});
  mark('released');
}

// Hidden, the browser drops the lock itself; dropping it here too keeps the mark true everywhere.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState !== 'visible') drop();
  else if (wanted) take();
});
