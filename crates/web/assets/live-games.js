// @ts-check
// The lobby's "Games being played" (loaded when the lobby opens, so that a first visit does
// not pay for it): the public games on every server, from the lobby socket's `games` frames,
// with the players' names, the clocks (the running one ticks here) and the spectators, each
// with a link that opens the room as a spectator.

import { htmlEl as el } from './dom.js';
import { t } from './i18n.js';

/** @param {number} ms */
function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The list and how to show a `games` frame in it. */
export function gamesList() {
  const list = el('ul', { id: 'lobby-games', class: 'lobby-seeks' });
  const section = el('section', { id: 'lobby-live' },
    el('h3', { 'data-i18n': 'lobby.games', text: t('lobby.games') }), list);
  /** @type {{span: HTMLElement, ms: number}[]} */
  let running = [];
  let since = performance.now();
  const tick = () => {
    const gone = performance.now() - since;
    for (const r of running) r.span.textContent = clockText(r.ms - gone);
  };
  const timer = setInterval(() => (list.isConnected ? tick() : null), 500);
  /** @param {any[]} games */
  const show = (games) => {
    since = performance.now();
    running = [];
    list.replaceChildren(...games.map((g) => {
      const names = `${g.names.red || t('online.red')} – ${g.names.black || t('online.black')}`;
      const parts = [el('span', { class: 'game-names', text: names })];
      if (g.clock) {
        for (const side of ['red', 'black']) {
          const span = el('span', { class: `game-clock ${side}${g.clock.running === side ? ' running' : ''}`, 'data-clock': side, text: clockText(g.clock[`${side}_ms`]) });
          if (g.clock.running === side) running.push({ span, ms: g.clock[`${side}_ms`] });
          parts.push(' ', span);
        }
      }
      parts.push(' · ', el('span', { class: 'game-spectators', text: t('online.spectators', { n: g.spectators }) }));
      const watch = el('a', { class: 'button game-watch', href: g.link, 'data-i18n': 'lobby.watch', text: t('lobby.watch') });
      return el('li', { class: 'seek live-game', 'data-room': g.room }, el('span', { class: 'seek-text' }, ...parts), ' ', watch);
    }));
    if (!games.length) list.append(el('li', { class: 'online-note', 'data-i18n': 'lobby.noGames', text: t('lobby.noGames') }));
  };
  return { section, show, stop: () => clearInterval(timer) };
}
