// @ts-check
// The players' chat: lines as plain text (never HTML), a switch that hides it (remembered),
// a form for the players only (spectators read).

import { t } from '../i18n.js';
import { htmlEl as el } from '../dom.js';

// The server's limit on a chat line, and the lines the page keeps (the server sends its last 50).
const CHAT_MAX_CHARS = 200;
const CHAT_KEPT = 200;

export class Chat {
  /**
   * @param {{ send: (message: object) => boolean, who: (colour: string) => string }} hooks
   *   `send` sends a message (false when the socket is down), `who` names a colour as shown.
   */
  constructor({ send, who }) {
    this.who = who;
    /** A new socket sends the room's recent history again: it replaces what was shown. */
    this.fresh = false;
    this.lines = el('ol', { id: 'chat-lines', class: 'chat-lines', 'aria-live': 'polite' });
    const input = el('input', { id: 'chat-input', maxlength: String(CHAT_MAX_CHARS), autocomplete: 'off', 'data-i18n-placeholder': 'online.chatPlaceholder', placeholder: t('online.chatPlaceholder') });
    this.error = el('p', { id: 'chat-error', class: 'online-note error' });
    this.form = el('form', { id: 'chat-form', class: 'row' }, input,
      el('button', { type: 'submit', id: 'chat-send', 'data-i18n': 'online.send', text: t('online.send') }));
    this.readOnly = el('p', { id: 'chat-readonly', class: 'online-note', 'data-i18n': 'online.chatReadOnly', text: t('online.chatReadOnly'), hidden: '' });
    const body = el('div', { id: 'chat-body' }, this.lines, this.form, this.readOnly, this.error);
    const hide = el('input', { type: 'checkbox', id: 'chat-hide' });
    hide.checked = localStorage.getItem('qi-chat-hidden') === '1';
    body.hidden = hide.checked;
    hide.addEventListener('change', () => {
      body.hidden = hide.checked;
      localStorage.setItem('qi-chat-hidden', hide.checked ? '1' : '0');
    });
    this.form.addEventListener('submit', (/** @type {Event} */ e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      if (send({ type: 'chat', text })) {
        input.value = '';
        this.error.textContent = '';
      }
    });
    this.section = el('section', { id: 'online-chat' },
      el('div', { class: 'moves-head' }, el('h2', { 'data-i18n': 'online.chat', text: t('online.chat') }),
        el('label', {}, hide, ' ', el('span', { 'data-i18n': 'online.hideChat', text: t('online.hideChat') }))),
      body);
    // The server's operator may turn the chat off (`qi serve --chat off` marks the page).
    this.section.hidden = document.documentElement.dataset.chat === 'off';
  }

  /**
   * A chat line from the server: `from` is a colour, `text` plain text, `at` wall-clock ms.
   * @param {{ from: string, text: string, at: number }} msg
   */
  add(msg) {
    if (this.fresh) {
      this.lines.replaceChildren();
      this.fresh = false;
    }
    const from = msg.from === 'red' || msg.from === 'black' ? msg.from : 'red';
    const time = new Date(msg.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    this.lines.append(el('li', { class: `chat-line ${from}`, 'data-from': from },
      el('time', { class: 'chat-at', text: time }), ' ',
      el('span', { class: 'chat-from', text: `${this.who(from)}:` }), ' ',
      el('span', { class: 'chat-text', text: String(msg.text) })));
    while (this.lines.children.length > CHAT_KEPT) this.lines.firstChild.remove();
    this.lines.scrollTop = this.lines.scrollHeight;
  }

  /**
   * A state came: the history follows a socket's first state (none at all: the room has none);
   * the form is for the players.
   * @param {string | null} you
   */
  seat(you) {
    if (this.fresh) {
      this.lines.replaceChildren();
      this.fresh = false;
    }
    this.form.hidden = !you;
    this.readOnly.hidden = Boolean(you);
  }
}
