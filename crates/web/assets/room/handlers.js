// @ts-check
// What the page does with each message from the room's socket: a table keyed by the message's
// `type` (as lichess's round socket handlers); a type not in it is ignored.

import { t } from '../i18n.js';
import { playerName } from '../online.js';
import { $ } from '../dom.js';
import { buzz } from '../vibration.js';
import { keepScreenOn } from '../wake-lock.js';

/** @typedef {import('./controller.js').Room} Room */

/** @type {Record<string, (room: Room, msg: any) => void>} */
export const handlers = {
  pong(room) {
    if (room.connState !== 'connected' && room.state) room.setConn('connected');
  },

  chat(room, msg) {
    room.chat.add(msg);
  },

  error(room, msg) {
    if (msg.about === 'chat') {
      room.chat.error.textContent = msg.error;
      return;
    }
    if (room.pending) {
      room.pending = null;
      room.showMoves();
    }
    room.say(msg.error, 'error');
  },

  // The room's state, complete and versioned: an older one is ignored.
  state(room, msg) {
    if (room.state && msg.room === room.state.room && msg.v < room.state.v) return;
    const before = room.state;
    room.state = msg;
    room.receivedAt = performance.now();
    room.setConn('connected');
    if (room.pending && msg.moves.length !== room.pending.ply) {
      room.pending = null; // acknowledged, or overtaken (a takeback): the server's state wins
    } else if (room.pending && room.fresh) {
      room.sendPending(); // the move may have been lost with the old socket: send it again
    }
    room.fresh = false;
    room.chat.seat(msg.you);
    sendName(room, msg);
    if (msg.next && room.seatToken !== undefined) {
      const next = `/xq?room=${encodeURIComponent(msg.next)}${room.seatToken ? `&seat=${encodeURIComponent(room.seatToken)}` : ''}`;
      location.assign(next);
      return;
    }
    if (before && room.premove.move && (msg.room !== before.room || msg.moves.length < before.moves.length)) room.premove.drop(); // a takeback
    if (!before) room.say('');
    if (before && before.room === msg.room) noticeChanges(room, before, msg);
    if (!before || before.status.outcome === 'ongoing' || msg.moves.length !== before.moves.length) room.lowTimeWarned = false;
    const newMove = before && msg.moves.length === before.moves.length + 1 && msg.moves.length > 0 ? msg.moves.at(-1) : null;
    const mine = newMove && msg.you && msg.turn !== msg.you; // my own move, already heard when played
    const ended = before && before.status.outcome === 'ongoing' && msg.status.outcome !== 'ongoing';
    // A player's screen stays on while their game is on; the opponent's move is felt on a phone.
    keepScreenOn(Boolean(msg.you) && msg.status.outcome === 'ongoing');
    if (newMove && !mine && msg.you) buzz(ended ? [60, 80, 60] : 60);
    room.showMoves({ sound: ended ? 'end' : newMove && !mine ? 'move' : null });
  },
};

/**
 * A seat gives its stored name once, if the room has none for it; the form changes it.
 * @param {Room} room
 * @param {any} s
 */
function sendName(room, s) {
  const mine = s.you && s.names ? s.names[s.you] : null;
  room.ui.nameForm.hidden = !s.you;
  room.ui.publicLabel.hidden = !s.you;
  room.ui.publicBox.checked = Boolean(s.public);
  const input = $('online-name');
  if (s.you && !mine && !room.nameSent && playerName()) {
    room.nameSent = true;
    room.send({ type: 'name', name: playerName() });
  }
  if (mine && document.activeElement !== input) input.value = mine;
}

/**
 * Tells the player what the opponent did with their offer.
 * @param {Room} room
 * @param {any} before
 * @param {any} now
 */
function noticeChanges(room, before, now) {
  const you = now.you;
  if (!you) return;
  let text = '';
  const sameMoves = before.moves.length === now.moves.length && now.status.outcome === 'ongoing';
  if (before.offers.draw === you && now.offers.draw === null && sameMoves) text = t('online.declinedDraw');
  if (before.offers.takeback === you && now.offers.takeback === null && sameMoves) text = t('online.declinedTakeback');
  if (text) room.ui.notice.textContent = text;
  else if (now.v !== before.v && now.moves.length !== before.moves.length) room.ui.notice.textContent = '';
}
