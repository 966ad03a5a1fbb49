// @ts-check
// A short vibration on the opponent's move, where the device has a vibration motor (phones;
// the Vibration API) and the player has not switched it off ("Vibrate on the opponent's move",
// kept in localStorage, on by default). Every vibration asked is announced as a `qi-vibrate`
// event on the document (the browser tests listen to it; desktops have no motor to feel).

const KEY = 'qi-vibrate';

/** Whether this browser can vibrate at all. */
export function available() {
  return typeof navigator.vibrate === 'function';
}

/** Whether the player wants vibrations. */
export function isOn() {
  return localStorage.getItem(KEY) !== '0';
}

/** @param {boolean} on */
export function setOn(on) {
  localStorage.setItem(KEY, on ? '1' : '0');
}

/**
 * Vibrates for `pattern` (milliseconds, as navigator.vibrate takes them) when switched on.
 * @param {number | number[]} pattern
 */
export function buzz(pattern) {
  if (!isOn() || !available()) return;
  // A page the user has not yet touched may not vibrate: the browser refuses quietly.
  const done = navigator.vibrate(pattern);
  document.dispatchEvent(new CustomEvent('qi-vibrate', { detail: { pattern, done } }));
}
