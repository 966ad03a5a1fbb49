// @ts-check
// Record files on /xq: "Open file…" and a file dropped anywhere on the page open a game in any
// format the Qi library reads (XQF, PGN, DhtmlXQ, text pasted from a forum). The file's bytes
// go to the WebAssembly reader as base64 (`/api/xq/record/import` with `bytes`), which tells the
// format by its content: XQF is binary, and text comes in UTF-8 or GBK. The "Save image" button
// loads the drawing code (save-image.js) only when it is first used, so the page's first load
// does not carry it.

import { $ } from './dom.js';
import { t } from './i18n.js';
import { ApiError } from './api.js';
import { importRecord, showError } from './xq.js';
import './record-text.js';

/** What the reader takes (as `MAX_RECORD_BYTES` in crates/api/src/record.rs). */
const MAX_BYTES = 2 * 1024 * 1024;

/**
 * The bytes as base64, in slices (a spread of a whole file would overflow the call stack).
 * @param {Uint8Array} bytes
 */
export function toBase64(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * A text file as text for the record box: UTF-8, or GBK from older Chinese programs.
 * @param {Uint8Array} bytes
 */
function decodeText(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('gbk').decode(bytes);
  }
}

/**
 * Opens a record file; a text record also fills the record box, to be edited and imported again.
 * @param {File} file
 */
export async function openFile(file) {
  if (file.size > MAX_BYTES) {
    showError(new ApiError(`${file.name}: too large`, { code: 'too_large', vars: { limit: String(MAX_BYTES) } }));
    return null;
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const game = await importRecord({ bytes: toBase64(bytes) });
  if (game && game.format !== 'xqf') $('pgn').value = decodeText(bytes);
  return game;
}

$('pgn-file').addEventListener('change', async (e) => {
  const input = /** @type {HTMLInputElement} */ (e.target);
  const file = input.files?.[0];
  input.value = '';
  if (file) await openFile(file);
});

// Drag and drop: a file anywhere on the page opens it; dropped text is read as a pasted record.
/** @param {DragEvent} e */
const carries = (e) => !!e.dataTransfer && [...e.dataTransfer.types].some((type) => type === 'Files' || type === 'text/plain');
let depth = 0;
const dropping = (/** @type {boolean} */ on) => {
  document.body.classList.toggle('dropping', on);
  $('board').title = on ? t('msg.dropHere') : '';
};
document.addEventListener('dragenter', (e) => {
  if (!carries(e) || /** @type {Element} */ (e.target).closest?.('input, textarea')) return;
  depth += 1;
  dropping(true);
});
document.addEventListener('dragleave', () => {
  depth = Math.max(0, depth - 1);
  if (!depth) dropping(false);
});
document.addEventListener('dragover', (e) => {
  if (!carries(e) || /** @type {Element} */ (e.target).closest?.('input, textarea')) return;
  e.preventDefault(); // allows the drop
  if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
});
document.addEventListener('drop', async (e) => {
  if (!e.dataTransfer || /** @type {Element} */ (e.target).closest?.('input, textarea')) return;
  depth = 0;
  dropping(false);
  const file = e.dataTransfer.files[0];
  const text = file ? null : e.dataTransfer.getData('text/plain');
  if (!file && !text) return;
  e.preventDefault(); // the browser would otherwise open the file itself
  if (file) {
    await openFile(file);
  } else if (text) {
    $('pgn').value = text;
    await importRecord({ pgn: text });
  }
});

// "Save image": the drawing code comes with the first use.
$('image-box').hidden = false;
$('save-image').addEventListener('click', async () => {
  const button = /** @type {HTMLButtonElement} */ ($('save-image'));
  button.disabled = true;
  try {
    const { saveImage } = await import('./save-image.js');
    await saveImage(/** @type {'png' | 'svg' | 'gif'} */ ($('image-format').value), { coordinates: $('image-coords').checked });
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
});
