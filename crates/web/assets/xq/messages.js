// @ts-check
// The message line under the status: what just happened, or why something was refused, in the
// user's language (an API error's code is translated, with the move in the notation on view).

import { ApiError } from '../api.js';
import { $ } from '../dom.js';
import { t } from '../i18n.js';
import { recordErrorText } from '../record-text.js';

/**
 * A message: a text key with values, an error to explain, or a text as is; `kind` styles it.
 * @typedef {{ key?: string, vars?: Record<string, any>, error?: any, text?: string, kind?: string }} Message
 */

export class Messages {
  /** @param {() => string} notation the user's notation (for the move an error names) */
  constructor(notation) {
    this.notation = notation;
    /** @type {Message | null} */
    this.message = null;
  }

  /**
   * Shows `message` (null clears the line).
   * @param {Message | null} message
   * @param {string} [kind] 'info' or 'error'
   */
  say(message, kind = 'info') {
    this.message = message ? { ...message, kind } : null;
    this.render();
  }

  /**
   * An error in the user's language: a code is translated, anything else shown as is.
   * @param {any} error
   * @param {{ bare?: boolean }} [options] bare: a FEN problem without the "Invalid FEN" lead
   */
  errorText(error, { bare = false } = {}) {
    if (!(error instanceof ApiError) || !error.code) return error.message;
    const v = error.vars || {};
    const piece = v.piece ? t(`piece.${v.piece}`) : '';
    const color = v.color ? t(`side.${v.color}`) : '';
    switch (error.code) {
      case 'illegal_move': {
        const move = v[this.notation()] || v.move;
        const why = v.reason ? t(`why.${v.reason}`, { piece, square: v.square || '' }) : '';
        const text = v.ply ? t('err.illegalAt', { ply: v.ply, move }) : t('err.illegal', { move });
        return why ? `${text}: ${why}` : text;
      }
      case 'bad_move':
        return t(`err.badMove.${v.reason}`, { text: v.text, ply: v.ply, piece });
      case 'bad_record':
        return recordErrorText(v);
      case 'bad_fen': {
        const why = t(`fen.${v.reason}`, { ...v, piece, color });
        return bare ? why.charAt(0).toUpperCase() + why.slice(1) : `${t('err.badFen')}: ${why}`;
      }
      default:
        return t(`err.${error.code}`, v) === `err.${error.code}` ? error.message : t(`err.${error.code}`, v);
    }
  }

  render() {
    const node = $('message');
    const m = this.message;
    node.textContent = !m ? '' : m.error ? this.errorText(m.error) : m.text ?? t(m.key, m.vars);
    node.className = m ? m.kind : '';
    node.hidden = !m;
  }
}
