// @ts-check
// The words of record files and pictures on /xq (records.js, save-image.js), and a record that
// does not read told in the user's language: the format, where (a line, or a byte offset in a
// binary XQF file) and why, from the API's `bad_record` error and its values.

import { addText, t } from './i18n.js';

addText({
  en: {
    'btn.recordOpen': 'Open file…',
    'label.image': 'Picture',
    'image.png': 'PNG: this position', 'image.svg': 'SVG: this position', 'image.gif': 'GIF: the whole game',
    'label.imageFormat': 'Picture format', 'label.imageCoords': 'Coordinates', 'btn.saveImage': 'Save image',
    'msg.imageSaving': 'Drawing the picture…', 'msg.imageSaved': 'Picture saved ({name}).',
    'msg.dropHere': 'Drop a record file (XQF, PGN, DhtmlXQ, text) to open it.',
    'err.too_large': 'The file is too large (at most {limit} bytes).',
    'err.bad_base64': 'The file could not be sent to the reader.',
    'record.format.xqf': 'XQF', 'record.format.dhtmlxq': 'DhtmlXQ', 'record.format.text': 'text', 'record.format.pgn': 'PGN',
    'record.at.line': 'line {n}', 'record.at.offset': 'byte {n}', 'record.at.input': 'the file',
    'err.bad_record': 'The {format} record cannot be read ({where}): {why}.',
    'record.why.empty': 'there is no game in it',
    'record.why.truncated': 'it ends too early',
    'record.why.unknown_version': 'XQF version {version} is unknown',
    'record.why.bad_position': 'the start position is not a legal one',
    'record.why.bad_fen': 'the start position (FEN) does not read',
    'record.why.bad_square': 'square {square} is off the board',
    'record.why.bad_move': 'move {number} (ply {ply}) {text} is not legal',
    'record.why.comment_too_long': 'a comment is too long',
    'record.why.too_many_moves': 'there are too many moves',
    'record.why.too_deep': 'the variations are nested too deeply',
    'record.why.too_long': 'a line is too long',
    'record.why.detached_branch': 'a branch starts where its line has no move',
  },
  zh: {
    'btn.recordOpen': '打开文件…',
    'label.image': '图片',
    'image.png': 'PNG：当前局面', 'image.svg': 'SVG：当前局面', 'image.gif': 'GIF：整盘棋',
    'label.imageFormat': '图片格式', 'label.imageCoords': '坐标', 'btn.saveImage': '保存图片',
    'msg.imageSaving': '正在生成图片…', 'msg.imageSaved': '图片已保存（{name}）。',
    'msg.dropHere': '把棋谱文件（XQF、PGN、DhtmlXQ、文本）拖到这里打开。',
    'err.too_large': '文件太大（最多 {limit} 字节）。',
    'err.bad_base64': '文件无法交给读取程序。',
    'record.format.xqf': 'XQF', 'record.format.dhtmlxq': 'DhtmlXQ', 'record.format.text': '文本', 'record.format.pgn': 'PGN',
    'record.at.line': '第 {n} 行', 'record.at.offset': '第 {n} 字节', 'record.at.input': '文件',
    'err.bad_record': '无法读取{format}棋谱（{where}）：{why}。',
    'record.why.empty': '其中没有棋局',
    'record.why.truncated': '文件提前结束',
    'record.why.unknown_version': '未知的 XQF 版本 {version}',
    'record.why.bad_position': '起始局面不合规则',
    'record.why.bad_fen': '起始局面（FEN）无法读取',
    'record.why.bad_square': '位置 {square} 不在棋盘上',
    'record.why.bad_move': '第 {number} 回合（第 {ply} 步）{text} 不合规则',
    'record.why.comment_too_long': '注释太长',
    'record.why.too_many_moves': '着法太多',
    'record.why.too_deep': '变着嵌套太深',
    'record.why.too_long': '一条变化太长',
    'record.why.detached_branch': '有一个分支的起点没有着法',
  },
});

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
