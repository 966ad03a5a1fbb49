// @ts-check
// The PGN headers: "Red – Black", the event and date above the move list, and the fields
// that edit them (the seven standard tags, then any others the game came with).

import { $ } from '../dom.js';
import { t } from '../i18n.js';

const HEADER_KEYS = ['Event', 'Site', 'Date', 'Round', 'Red', 'Black', 'Result'];
/** Tags the record itself writes: never edited by hand. */
const OWN_KEYS = ['FEN', 'Format', 'Game'];

/** @param {import('./game.js').Game} game */
export function renderHeaders(game) {
  /** @param {string} k */
  const tag = (k) => game.tag(k) || '';
  const node = $('headers');
  const players = tag('Red') || tag('Black') ? `${tag('Red') || '?'} – ${tag('Black') || '?'}` : '';
  const rest = [tag('Event'), tag('Date'), tag('Result')].filter((v) => v && v !== '?' && v !== '*');
  node.replaceChildren();
  if (players) node.appendChild(Object.assign(document.createElement('strong'), { textContent: players }));
  if (rest.length) node.appendChild(Object.assign(document.createElement('span'), { textContent: rest.join(' · ') }));
  node.hidden = !players && !rest.length;
  renderFields(game);
}

/** @param {import('./game.js').Game} game */
function renderFields(game) {
  const box = $('header-fields');
  if (box.contains(document.activeElement)) return; // the user is typing there
  const keys = [...HEADER_KEYS, ...game.tags.map(([k]) => k).filter((k) => !HEADER_KEYS.includes(k) && !OWN_KEYS.includes(k))];
  box.replaceChildren();
  for (const key of keys) {
    const label = document.createElement('label');
    const name = document.createElement('span');
    name.textContent = t(`tag.${key}`) === `tag.${key}` ? key : t(`tag.${key}`);
    const input = document.createElement('input');
    input.value = game.tag(key) || '';
    input.dataset.tag = key;
    input.addEventListener('input', () => {
      game.setTag(key, input.value);
      renderHeaders(game);
    });
    label.append(name, input);
    box.appendChild(label);
  }
}
