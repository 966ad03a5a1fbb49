// @ts-check
// What the Huarong Dao page says around the board: the message line, the steps, the title,
// the timer, the status (solved, minimum steps), the best and solved count, which buttons
// work now, the solution's controls, the share link with its QR code, and the address bar.

import { $ } from '../dom.js';
import { t } from '../i18n.js';
import { showQr } from '../qr.js';
import { store, elapsed } from './state.js';

/** @typedef {import('./state.js').HrState} HrState */
/** @typedef {import('./state.js').Words} Words */

/**
 * The message line; kept in the state so that a language change says it again.
 * @param {HrState} state
 * @param {(Words & { error?: any }) | null} message
 * @param {string} [kind] 'info' or 'error'
 */
export function say(state, message, kind = 'info') {
  state.message = message ? { ...message, kind } : null;
  const m = state.message;
  $('message').textContent = !m ? '' : m.text ?? t(m.key, m.vars);
  $('message').className = m ? m.kind : '';
}

/** @param {number} ms */
export function clock(ms) {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** @param {HrState} state */
export function renderTimer(state) {
  $('timer').textContent = clock(elapsed(state));
}

/** @param {Words | null} name */
function title(name) {
  return !name ? '' : name.text ?? t(name.key, name.vars);
}

/** @param {HrState} state */
export function renderStatus(state) {
  const view = state.view;
  const board = $('hr-board');
  board.dataset.layout = view.layout;
  board.dataset.steps = String(state.steps);
  board.dataset.solved = String(view.solved);
  board.dataset.solvedBy = view.solved ? (state.assisted ? 'computer' : 'player') : '';
  $('steps').textContent = String(state.steps);
  $('layout-name').textContent = title(state.name);
  $('layout-text').value = view.layout;
  renderTimer(state);
  const status = $('status');
  if (view.solved && state.steps > 0) {
    if (state.assisted) {
      status.textContent = t('hr.computerSolved', { steps: state.steps });
      status.className = '';
    } else {
      status.textContent = state.minimum === null
        ? t('hr.youSolvedPlain', { steps: state.steps })
        : t('hr.youSolved', { steps: state.steps, min: state.minimum });
      status.className = 'over';
    }
  } else if (state.solution && state.solution.steps !== null && !view.solved) {
    status.textContent = t('hr.minimum', { steps: state.solution.steps - state.solution.index });
    status.className = '';
  } else {
    status.textContent = '';
    status.className = '';
  }
  const best = store.get(`qi-hr-best:${state.startCode}`, null);
  $('best').textContent = best ? t('hr.best', { steps: best.steps, time: clock(best.ms) }) : '';
  $('solved-count').textContent = t('hr.solvedCount', { count: store.get('qi-hr-solved', []).length });
  const editing = !!state.editing;
  $('undo').disabled = state.history.length === 0 || !!state.playing || editing;
  $('redo').disabled = state.redo.length === 0 || !!state.playing || editing;
  $('hint').disabled = view.solved || !!state.playing || editing;
  $('solve').disabled = editing;
  $('reset').disabled = editing;
  $('edit').disabled = editing;
  $('solve').textContent = t(state.playing ? 'hr.stop' : 'hr.solve');
  const sol = state.solution;
  // The replay controls belong to watching the solution, not to playing by hand.
  $('solution-controls').hidden = !(sol && sol.steps) || Boolean(sol.byHand && !state.playing);
  if (sol) {
    $('sol-back').disabled = sol.index === 0 || editing;
    $('sol-forward').disabled = sol.index >= sol.path.length || editing;
    $('sol-play').textContent = t(state.playing ? 'hr.pause' : 'hr.play');
    $('sol-play').disabled = (sol.index >= sol.path.length && !state.playing) || editing;
  }
  const params = new URLSearchParams({ l: view.code });
  if (!state.keepAddress) history.replaceState(null, '', `/huarong?${params}`);
  $('share-link').value = `${location.origin}/huarong?${params}`;
  showQr($('share-qr'), $('share-link').value, t('share.qr'));
  $('classic').value = state.classic;
}

/** The difficulty slider's name. */
export function renderDifficulty() {
  $('difficulty-name').textContent = t(`hr.level.${$('difficulty').value}`);
}

/**
 * The editor's palette: the shape being placed is pressed.
 * @param {string} shape
 */
export function renderPalette(shape) {
  for (const b of $('palette').querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.shape === shape));
}
