// English and Chinese interface text. Elements carry data-i18n="key" (text) or
// data-i18n-title="key" (tooltip); t(key, vars) formats a message in the current language.

const TEXT = {
  en: {
    'nav.home': 'Qi', 'nav.xq': 'Xiangqi', 'nav.huarong': 'Huarong Dao', 'nav.lang': '中文',
    'xq.title': 'Xiangqi', 'huarong.title': 'Huarong Dao',
    'index.lead': 'Chinese board games in your browser, served by one binary.',
    'index.xq': 'Play, rotate, share and replay Xiangqi games by link.',
    'index.huarong': 'Play Huarong Dao layouts and watch the shortest solution.',
    'btn.new': 'New game', 'btn.undo': 'Undo', 'btn.flip': 'Rotate board',
    'btn.engine': 'Computer move', 'label.engineAuto': 'Computer answers my moves',
    'label.level': 'Computer level', 'level.beginner': 'Beginner', 'level.easy': 'Easy',
    'level.normal': 'Normal', 'level.strong': 'Strong',
    'msg.thinking': 'The computer is thinking…',
    'btn.first': 'First move', 'btn.prev': 'Previous move', 'btn.next': 'Next move', 'btn.last': 'Last move',
    'btn.copy': 'Copy link', 'btn.load': 'Load', 'btn.copyText': 'Copy',
    'btn.pgnImport': 'Import PGN', 'btn.pgnExport': 'Export PGN',
    'label.notation': 'Notation', 'label.moves': 'Moves', 'label.share': 'Share', 'label.fen': 'FEN', 'label.pgn': 'PGN',
    'notation.chinese': 'Chinese', 'notation.wxf': 'WXF', 'notation.iccs': 'ICCS',
    'turn.red': 'Red to move', 'turn.black': 'Black to move', 'check': 'Check!',
    'msg.copied': 'Link copied.', 'msg.copyFailed': 'Copy the link from the box.',
    'msg.illegal': 'Illegal move: {move}', 'msg.viewing': 'Move {ply} of {plies}',
    'msg.fenLoaded': 'Position loaded.', 'msg.pgnLoaded': 'Game loaded.',
    'msg.noMoves': 'No moves yet.', 'msg.start': 'Start',
    'end.red': 'Red wins', 'end.black': 'Black wins', 'end.draw': 'Draw',
    'reason.checkmate': 'checkmate', 'reason.stalemate': 'no legal move (stalemate)',
    'reason.perpetual_check': 'perpetual check', 'reason.perpetual_chase': 'perpetual chase',
    'reason.repetition': 'repetition', 'reason.move_limit': 'move limit (60 moves without a capture)',
    'reason.no_attackers': 'neither side can attack',
    'hr.layout': 'Layout', 'hr.steps': 'Steps', 'hr.solve': 'Solve', 'hr.stop': 'Stop', 'hr.reset': 'Reset',
    'hr.undo': 'Undo', 'hr.edit': 'Edit', 'hr.done': 'Done', 'hr.clear': 'Clear', 'hr.share': 'Share',
    'hr.solved': 'Solved in {steps} steps!', 'hr.minimum': 'Minimum from here: {steps} steps',
    'hr.unsolvable': 'This layout cannot be solved.', 'hr.solving': 'Solving…',
    'hr.editHelp': 'Pick a piece shape, then click a cell to place it; click a piece to remove it.',
    'hr.piece.C': 'Cao Cao 2×2', 'hr.piece.V': 'General 1×2', 'hr.piece.H': 'General 2×1', 'hr.piece.S': 'Soldier 1×1',
    'hr.text': 'Text', 'hr.goal': 'Move Cao Cao (the big block) to the exit at the bottom.',
    'hr.redo': 'Redo', 'hr.hint': 'Hint', 'hr.time': 'Time', 'hr.back': '◀', 'hr.forward': '▶', 'hr.play': 'Play',
    'hr.pause': 'Pause', 'hr.speed': 'Speed', 'hr.newPuzzle': 'New puzzle', 'hr.daily': 'Daily puzzle',
    'hr.difficulty': 'Difficulty', 'hr.pieces': 'Pieces', 'hr.anyPieces': 'any of the classic family',
    'hr.level.0': 'easy (10-30 steps)', 'hr.level.1': 'medium (31-60)', 'hr.level.2': 'hard (61-90)',
    'hr.level.3': 'expert (91-120)', 'hr.level.4': 'hardest (121-138)',
    'hr.youSolved': 'Solved in {steps} steps! (minimum {min})', 'hr.youSolvedPlain': 'Solved in {steps} steps!',
    'hr.computerSolved': 'The computer solved it in {steps} steps.', 'hr.hintMove': 'Hint: move {piece} (highlighted); {steps} steps to go.',
    'hr.hintSolved': 'Already solved.', 'hr.best': 'Your best here: {steps} steps in {time}.',
    'hr.solvedCount': 'Puzzles you have solved: {count}', 'hr.puzzle': '{steps}-step puzzle', 'hr.dailyName': 'Daily {date}',
    'hr.badLink': 'This link has no valid layout ({what}): {error}', 'hr.badName': 'No classic layout is called “{name}”.',
    'hr.emptyLink': 'The link has an empty layout (l=).', 'hr.finishEditing': 'Press Done (or choose a layout) to leave the editor first.',
    'hr.name.C': '曹操', 'hr.name.guan': '关羽', 'hr.name.zhang': '张飞', 'hr.name.zhao': '赵云', 'hr.name.ma': '马超',
    'hr.name.huang': '黄忠', 'hr.name.S': '兵',
  },
  zh: {
    'nav.home': '棋', 'nav.xq': '象棋', 'nav.huarong': '华容道', 'nav.lang': 'English',
    'xq.title': '象棋', 'huarong.title': '华容道',
    'index.lead': '在浏览器里下中国棋类游戏，一个程序即可运行。',
    'index.xq': '下象棋、翻转棋盘、用链接分享和回放棋局。',
    'index.huarong': '玩华容道，观看最短解法。',
    'btn.new': '新局', 'btn.undo': '悔棋', 'btn.flip': '翻转棋盘',
    'btn.engine': '电脑走棋', 'label.engineAuto': '电脑应对我的着法',
    'label.level': '电脑棋力', 'level.beginner': '入门', 'level.easy': '初级',
    'level.normal': '中级', 'level.strong': '高级',
    'msg.thinking': '电脑思考中…',
    'btn.first': '第一步', 'btn.prev': '上一步', 'btn.next': '下一步', 'btn.last': '最后一步',
    'btn.copy': '复制链接', 'btn.load': '载入', 'btn.copyText': '复制',
    'btn.pgnImport': '导入 PGN', 'btn.pgnExport': '导出 PGN',
    'label.notation': '记谱', 'label.moves': '着法', 'label.share': '分享', 'label.fen': 'FEN', 'label.pgn': 'PGN',
    'notation.chinese': '中文', 'notation.wxf': 'WXF', 'notation.iccs': 'ICCS',
    'turn.red': '红方走棋', 'turn.black': '黑方走棋', 'check': '将军！',
    'msg.copied': '链接已复制。', 'msg.copyFailed': '请从框中复制链接。',
    'msg.illegal': '不合规则的着法：{move}', 'msg.viewing': '第 {ply} 步，共 {plies} 步',
    'msg.fenLoaded': '局面已载入。', 'msg.pgnLoaded': '棋局已载入。',
    'msg.noMoves': '尚无着法。', 'msg.start': '开局',
    'end.red': '红胜', 'end.black': '黑胜', 'end.draw': '和棋',
    'reason.checkmate': '将死', 'reason.stalemate': '困毙', 'reason.perpetual_check': '长将',
    'reason.perpetual_chase': '长捉', 'reason.repetition': '重复局面', 'reason.move_limit': '六十回合无吃子',
    'reason.no_attackers': '双方均无进攻子力',
    'hr.layout': '布局', 'hr.steps': '步数', 'hr.solve': '求解', 'hr.stop': '停止', 'hr.reset': '重来',
    'hr.undo': '撤销', 'hr.edit': '编辑', 'hr.done': '完成', 'hr.clear': '清空', 'hr.share': '分享',
    'hr.solved': '{steps} 步完成！', 'hr.minimum': '从此局面最少需 {steps} 步',
    'hr.unsolvable': '此布局无解。', 'hr.solving': '求解中…',
    'hr.editHelp': '选择棋子形状，再点击格子放置；点击棋子可移除。',
    'hr.piece.C': '曹操 2×2', 'hr.piece.V': '竖将 1×2', 'hr.piece.H': '横将 2×1', 'hr.piece.S': '兵 1×1',
    'hr.text': '文本', 'hr.goal': '把曹操（大方块）移到下方出口。',
    'hr.redo': '重做', 'hr.hint': '提示', 'hr.time': '用时', 'hr.back': '◀', 'hr.forward': '▶', 'hr.play': '播放',
    'hr.pause': '暂停', 'hr.speed': '速度', 'hr.newPuzzle': '新题', 'hr.daily': '每日一题',
    'hr.difficulty': '难度', 'hr.pieces': '棋子', 'hr.anyPieces': '经典五将四兵（任意）',
    'hr.level.0': '简单（10-30 步）', 'hr.level.1': '中等（31-60 步）', 'hr.level.2': '困难（61-90 步）',
    'hr.level.3': '专家（91-120 步）', 'hr.level.4': '最难（121-138 步）',
    'hr.youSolved': '{steps} 步完成！（最少 {min} 步）', 'hr.youSolvedPlain': '{steps} 步完成！',
    'hr.computerSolved': '电脑用 {steps} 步解开。', 'hr.hintMove': '提示：移动{piece}（已高亮），还需 {steps} 步。',
    'hr.hintSolved': '已经解开。', 'hr.best': '此布局你的最好成绩：{steps} 步，用时 {time}。',
    'hr.solvedCount': '你已解开的题目：{count}', 'hr.puzzle': '{steps} 步题', 'hr.dailyName': '每日一题 {date}',
    'hr.badLink': '链接中的布局无效（{what}）：{error}', 'hr.badName': '没有名为“{name}”的经典布局。',
    'hr.emptyLink': '链接中的布局为空（l=）。', 'hr.finishEditing': '请先按“完成”（或选择布局）退出编辑。',
    'hr.name.C': '曹操', 'hr.name.guan': '关羽', 'hr.name.zhang': '张飞', 'hr.name.zhao': '赵云', 'hr.name.ma': '马超',
    'hr.name.huang': '黄忠', 'hr.name.S': '兵',
  },
};

const KEY = 'qi-lang';
let lang = localStorage.getItem(KEY) || ((navigator.language || 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en');
if (!(lang in TEXT)) lang = 'en';

const listeners = [];

export function currentLang() {
  return lang;
}

export function t(key, vars = {}) {
  const text = TEXT[lang][key] ?? TEXT.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

export function applyText(root = document) {
  document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-title]')) {
    node.title = t(node.dataset.i18nTitle);
    node.setAttribute('aria-label', node.title);
  }
}

// Lets a module bring its own strings ({ en: {...}, zh: {...} }); keys already here win.
export function addText(tables) {
  for (const [name, table] of Object.entries(tables)) if (TEXT[name]) TEXT[name] = { ...table, ...TEXT[name] };
}

export function onLangChange(fn) {
  listeners.push(fn);
}

export function setLang(next) {
  lang = next in TEXT ? next : 'en';
  localStorage.setItem(KEY, lang);
  applyText();
  for (const fn of listeners) fn(lang);
}

// Wires the language button found in every page's header.
export function setupLangButton() {
  const button = document.getElementById('lang');
  if (button) button.addEventListener('click', () => setLang(lang === 'en' ? 'zh' : 'en'));
  applyText();
}
