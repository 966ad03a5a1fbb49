// @ts-check
// The room page (/xq?room=ID, with &seat=TOKEN for a player; served as room.html): starts the
// controller (room/controller.js), whose parts live in room/: the socket (connection.js), its
// messages (handlers.js), the DOM (views.js), the clocks, premoves, chat and notation.

import { applyBoardSize } from './board-size.js';
import { setupLangButton } from './i18n.js';
import { Room } from './room/controller.js';

export { formatClock } from './room/clock.js';
export { localNotation } from './room/notation.js';

setupLangButton();
applyBoardSize();
const params = new URLSearchParams(location.search);
if (params.has('room')) new Room(/** @type {string} */ (params.get('room')), params.get('seat') || null);
