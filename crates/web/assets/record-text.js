// @ts-check
// A record that does not read, told in the user's language (the words are in lang/): the
// format, where (a line, or a byte offset in a binary XQF file) and why, from the API's `bad_record` error and its values.

import { t } from './i18n.js';

/**
 * A `bad_record` error's values as a sentence: "The XQF record cannot be read (byte 1190): it
 * ends too early." A reason this page does not know keeps the reader's own (English) words.
 * @param {Record<string, string>} v
 */
export function recordErrorText(v) {
  const format = t(`record.format.${v.format}`);
  const where = t(`record.at.${v.at}`, v);
  const key = `record.why.${v.reason}`;
  const why = t(key, v) === key ? v.detail || v.reason : t(key, v);
  return t('err.bad_record', { format, where, why });
}
