// @ts-check
// English and Chinese interface text. Elements carry data-i18n="key" (text) or
// data-i18n-title="key" (tooltip); t(key, vars) formats a message in the current language.

/** @type {Record<string, Record<string, string>>} */
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
    'share.qr': 'QR code: scan it with a phone to open the link', 'share.embed': 'Embed on a web page', 'btn.copyEmbed': 'Copy embed code',
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
    'index.title': 'Qi', 'notfound.title': 'Page not found',
    'notfound.lead': 'There is no page at this address.', 'notfound.home': 'Go to the home page',
    'index.example': 'Open a famous game', 'index.exampleText': 'A game opened from a share link: replay it move by move, analyse it with the engine.',
    'index.puzzle': 'Play the classic puzzle', 'index.puzzleText': '横刀立马 (“Cao Cao on a horse”), the best-known Huarong Dao layout, solved in 81 steps.',
    'btn.play': 'Play', 'label.moveInput': 'Type a move (炮二平五, C2.5 or h2e2)',
    'btn.hint': 'Hint', 'btn.edit': 'Set up position', 'label.editor': 'Set up a position',
    'editor.help': 'Drag pieces from the palette onto the board (or pick one and click points); drag a piece off the board or use ✕ to remove it.',
    'label.toMove': 'To move', 'side.red': 'Red', 'side.black': 'Black',
    'btn.clear': 'Clear', 'btn.startPos': 'Start position',
    'btn.editorPlay': 'Play from here', 'btn.editorAnalyse': 'Analyse', 'btn.cancel': 'Cancel',
    'editor.legal': 'A legal position.', 'editor.erase': 'Remove a piece',
    'label.analyse': 'Analyse', 'label.lines': 'Lines', 'btn.review': 'Review game',
    'analysis.depth': 'Depth {depth} · {nodes} positions', 'analysis.thinking': 'Analysing…',
    'analysis.noMoves': 'No legal move: the game is over.',
    'review.progress': 'Reviewing… {done} / {total} positions', 'review.done': 'Review done.',
    'review.graph': 'Evaluation over the game (Red up, Black down)',
    'judge.inaccuracy': 'Inaccuracy', 'judge.mistake': 'Mistake', 'judge.blunder': 'Blunder',
    'judge.inaccuracys': 'inaccuracies', 'judge.mistakes': 'mistakes', 'judge.blunders': 'blunders',
    'judge.better': 'better was {move}',
    'btn.promote': 'Promote variation', 'btn.deleteFrom': 'Delete from here', 'btn.copyRecord': 'Copy as text',
    'label.comment': 'Comment on this move', 'label.gameInfo': 'Game details (PGN headers)',
    'tag.Event': 'Event', 'tag.Site': 'Site', 'tag.Date': 'Date', 'tag.Round': 'Round', 'tag.Red': 'Red', 'tag.Black': 'Black', 'tag.Result': 'Result',
    'btn.pgnOpen': 'Open file…', 'btn.pgnDownload': 'Download .pgn',
    'label.settings': 'Look and sound', 'label.pieceSet': 'Pieces', 'set.chinese': 'Chinese characters', 'set.western': 'Western letters',
    'label.theme': 'Board', 'theme.wood': 'Wood', 'theme.jade': 'Jade', 'theme.paper': 'Paper (high contrast)', 'label.mute': 'Mute sounds',
    'msg.hint': 'Hint: {move}', 'msg.undoAtEnd': 'Go to the last move to take it back.',
    'msg.recordCopied': 'Move record copied.', 'msg.fenCopied': 'FEN copied.',
    'msg.linkProblem': 'The link could not be opened as given: {why}. Kept: {kept} moves.',
    'a11y.board': 'Xiangqi board', 'a11y.last': 'Last move: {move}.', 'a11y.empty': 'empty',
    'piece.king': 'king', 'piece.advisor': 'advisor', 'piece.elephant': 'elephant', 'piece.horse': 'horse',
    'piece.rook': 'rook', 'piece.cannon': 'cannon', 'piece.pawn': 'pawn',
    'err.illegal': 'Illegal move {move}', 'err.illegalAt': 'Move {ply} ({move}) is illegal',
    'why.no_piece': 'there is no piece there', 'why.not_your_turn': 'it is the other side’s piece',
    'why.own_piece': 'the {piece} cannot capture its own piece', 'why.null_move': 'the piece does not move',
    'why.wrong_shape': 'the {piece} does not move that way', 'why.leaves_palace': 'the {piece} cannot leave the palace',
    'why.crosses_river': 'the elephant cannot cross the river', 'why.pawn_backwards': 'a pawn never moves backwards',
    'why.pawn_sideways_before_river': 'a pawn moves sideways only after crossing the river',
    'why.horse_leg_blocked': 'the horse’s leg is blocked (on {square})', 'why.elephant_eye_blocked': 'the elephant’s eye is blocked (on {square})',
    'why.path_blocked': 'the {piece}’s path is blocked (on {square})', 'why.cannon_needs_screen': 'a cannon captures by jumping over exactly one piece',
    'why.facing_kings': 'the kings would face each other', 'why.pinned': 'the {piece} is pinned: the king would be in check from {square}',
    'why.still_in_check': 'the king is in check (from {square}) and stays in check', 'why.king_into_check': 'the king would be in check from {square}',
    'err.badMove.empty': 'Type a move first.', 'err.badMove.syntax': '“{text}” is not a move (try 炮二平五, C2.5 or h2e2)',
    'err.badMove.no_such_piece': '“{text}”: there is no such {piece} to move', 'err.badMove.ambiguous': '“{text}” fits more than one move',
    'err.badMove.illegal': '“{text}” cannot be played here', 'err.badMove.other': '“{text}” cannot be read',
    'err.badFen': 'Bad FEN', 'fen.empty': 'the FEN is empty', 'fen.row_count': 'the board has {found} rows instead of 10',
    'fen.row_length': 'row {row} does not have 9 points', 'fen.bad_char': 'row {row} has an unknown piece “{found}”',
    'fen.bad_turn': 'the side to move must be w or b', 'fen.bad_counter': 'a move counter is not a number', 'fen.too_many_fields': 'too many fields',
    'fen.missing_king': '{color} has no king', 'fen.too_many': '{color} has {count} × {piece}, at most {max}',
    'fen.king_outside_palace': 'the {color} king on {square} is outside its palace', 'fen.impossible_square': 'a {color} {piece} can never stand on {square}',
    'fen.facing_kings': 'the kings face each other on an open file', 'fen.opponent_in_check': 'the side not to move is in check', 'fen.other': 'not a legal position',
    'err.too_many_moves': 'Too many moves (at most {max}).', 'err.busy': 'The server is busy; try again in a moment.',
    'err.network': 'The server cannot be reached.', 'err.no_game': 'There is no game in this text.', 'err.bad_pgn': 'The PGN cannot be read (line {line}).',
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
    // Online play (online.js, room.js): the buttons on /xq and the home page need these before online.js loads.
    'online.play': 'Play a friend', 'lobby.play': 'Play someone',
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
    'share.qr': '二维码：用手机扫描即可打开链接', 'share.embed': '嵌入网页', 'btn.copyEmbed': '复制嵌入代码',
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
    'index.title': '棋', 'notfound.title': '找不到页面',
    'notfound.lead': '这个地址没有页面。', 'notfound.home': '返回首页',
    'index.example': '打开一盘名局', 'index.exampleText': '用分享链接打开的一盘棋：逐步回放，用引擎分析。',
    'index.puzzle': '玩经典布局', 'index.puzzleText': '横刀立马，最有名的华容道布局，最少 81 步。',
    'btn.play': '走棋', 'label.moveInput': '输入着法（炮二平五、C2.5 或 h2e2）',
    'btn.hint': '提示', 'btn.edit': '摆棋', 'label.editor': '摆放局面',
    'editor.help': '把棋子从棋盒拖到棋盘上（或先选棋子再点位置）；把棋子拖出棋盘或用 ✕ 移除。',
    'label.toMove': '走棋方', 'side.red': '红方', 'side.black': '黑方',
    'btn.clear': '清空', 'btn.startPos': '初始局面',
    'btn.editorPlay': '从此局面下棋', 'btn.editorAnalyse': '分析', 'btn.cancel': '取消',
    'editor.legal': '局面合法。', 'editor.erase': '移除棋子',
    'label.analyse': '分析', 'label.lines': '变例数', 'btn.review': '复盘',
    'analysis.depth': '深度 {depth} · {nodes} 个局面', 'analysis.thinking': '分析中…',
    'analysis.noMoves': '无着可走：对局已结束。',
    'review.progress': '复盘中… {done} / {total} 个局面', 'review.done': '复盘完成。',
    'review.graph': '全局形势曲线（上方红优，下方黑优）',
    'judge.inaccuracy': '缓着', 'judge.mistake': '错着', 'judge.blunder': '败着',
    'judge.inaccuracys': '缓着', 'judge.mistakes': '错着', 'judge.blunders': '败着',
    'judge.better': '应走 {move}',
    'btn.promote': '提升变例', 'btn.deleteFrom': '删除此后着法', 'btn.copyRecord': '复制棋谱文本',
    'label.comment': '本着注释', 'label.gameInfo': '对局信息（PGN 标签）',
    'tag.Event': '赛事', 'tag.Site': '地点', 'tag.Date': '日期', 'tag.Round': '轮次', 'tag.Red': '红方', 'tag.Black': '黑方', 'tag.Result': '结果',
    'btn.pgnOpen': '打开文件…', 'btn.pgnDownload': '下载 .pgn',
    'label.settings': '外观与声音', 'label.pieceSet': '棋子', 'set.chinese': '汉字', 'set.western': '西式字母',
    'label.theme': '棋盘', 'theme.wood': '木纹', 'theme.jade': '玉石', 'theme.paper': '纸面（高对比）', 'label.mute': '静音',
    'msg.hint': '提示：{move}', 'msg.undoAtEnd': '请先回到最后一着再悔棋。',
    'msg.recordCopied': '棋谱已复制。', 'msg.fenCopied': 'FEN 已复制。',
    'msg.linkProblem': '链接无法完整打开：{why}。已保留 {kept} 着。',
    'a11y.board': '象棋棋盘', 'a11y.last': '上一着：{move}。', 'a11y.empty': '空',
    'piece.king': '帅', 'piece.advisor': '仕', 'piece.elephant': '相', 'piece.horse': '马',
    'piece.rook': '车', 'piece.cannon': '炮', 'piece.pawn': '兵',
    'err.illegal': '不合规则的着法 {move}', 'err.illegalAt': '第 {ply} 着（{move}）不合规则',
    'why.no_piece': '那里没有棋子', 'why.not_your_turn': '那是对方的棋子',
    'why.own_piece': '{piece}不能吃自己的棋子', 'why.null_move': '棋子没有移动',
    'why.wrong_shape': '{piece}不能这样走', 'why.leaves_palace': '{piece}不能走出九宫',
    'why.crosses_river': '相（象）不能过河', 'why.pawn_backwards': '兵（卒）不能后退',
    'why.pawn_sideways_before_river': '兵（卒）过河后才能横走',
    'why.horse_leg_blocked': '蹩马腿（{square}）', 'why.elephant_eye_blocked': '塞象眼（{square}）',
    'why.path_blocked': '{piece}的路线被挡住（{square}）', 'why.cannon_needs_screen': '炮吃子必须隔一个棋子（炮架）',
    'why.facing_kings': '将帅不能照面', 'why.pinned': '{piece}被牵制：走后己方将帅会被 {square} 将军',
    'why.still_in_check': '正被将军（{square}），这步不能解将', 'why.king_into_check': '将帅会被 {square} 将军',
    'err.badMove.empty': '请先输入着法。', 'err.badMove.syntax': '“{text}”不是着法（例如 炮二平五、C2.5 或 h2e2）',
    'err.badMove.no_such_piece': '“{text}”：没有可走的{piece}', 'err.badMove.ambiguous': '“{text}”对应不止一种走法',
    'err.badMove.illegal': '“{text}”在此局面不能走', 'err.badMove.other': '无法识别“{text}”',
    'err.badFen': 'FEN 有误', 'fen.empty': 'FEN 为空', 'fen.row_count': '棋盘有 {found} 行，应为 10 行',
    'fen.row_length': '第 {row} 行不是 9 个点', 'fen.bad_char': '第 {row} 行有未知棋子“{found}”',
    'fen.bad_turn': '走棋方必须是 w 或 b', 'fen.bad_counter': '回合计数不是数字', 'fen.too_many_fields': '字段过多',
    'fen.missing_king': '{color}没有将帅', 'fen.too_many': '{color}有 {count} 个{piece}，最多 {max} 个',
    'fen.king_outside_palace': '{color}的将帅（{square}）在九宫之外', 'fen.impossible_square': '{color}的{piece}不可能在 {square}',
    'fen.facing_kings': '将帅在同一直线上照面', 'fen.opponent_in_check': '不该走棋的一方正被将军', 'fen.other': '局面不合法',
    'err.too_many_moves': '着法过多（最多 {max} 着）。', 'err.busy': '服务器忙，请稍后再试。',
    'err.network': '无法连接服务器。', 'err.no_game': '文本中没有棋局。', 'err.bad_pgn': '无法读取 PGN（第 {line} 行）。',
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
    // Online play (online.js, room.js): the buttons on /xq and the home page need these before online.js loads.
    'online.play': '约朋友下棋', 'lobby.play': '找人下棋',
  },
};

const KEY = 'qi-lang';
let lang = localStorage.getItem(KEY) || ((navigator.language || 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en');
if (!(lang in TEXT)) lang = 'en';

/** @type {((lang: string) => void)[]} */
const listeners = [];

/** The page's language: 'en' or 'zh'. */
export function currentLang() {
  return lang;
}

/**
 * The text of `key` in the page's language (English when it has none), `{name}` filled from `vars`.
 * @param {string} key
 * @param {Record<string, any>} [vars]
 * @returns {string}
 */
export function t(key, vars = {}) {
  const text = TEXT[lang][key] ?? TEXT.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? String(vars[name]) : `{${name}}`));
}

/**
 * Writes the texts of every marked element under `root`, and the page's title and language.
 * @param {Document | Element} [root]
 */
export function applyText(root = document) {
  document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
  // The page title follows the language: "象棋 · 棋".
  const titleKey = document.body?.dataset.title;
  if (titleKey) document.title = titleKey === 'index.title' ? t('nav.home') : `${t(titleKey)} · ${t('nav.home')}`;
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(/** @type {HTMLElement} */ (node).dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-placeholder]')) {
    const input = /** @type {HTMLInputElement} */ (node);
    input.placeholder = t(input.dataset.i18nPlaceholder);
  }
  for (const node of root.querySelectorAll('[data-i18n-label]')) node.setAttribute('aria-label', t(/** @type {HTMLElement} */ (node).dataset.i18nLabel));
  for (const el of root.querySelectorAll('[data-i18n-title]')) {
    const node = /** @type {HTMLElement} */ (el);
    node.title = t(node.dataset.i18nTitle);
    node.setAttribute('aria-label', node.title);
  }
}

/**
 * Lets a module bring its own strings ({ en: {...}, zh: {...} }); keys already here win.
 * @param {Record<string, Record<string, string>>} tables
 */
export function addText(tables) {
  for (const [name, table] of Object.entries(tables)) if (TEXT[name]) TEXT[name] = { ...table, ...TEXT[name] };
}

/**
 * Calls fn(lang) after each change of language.
 * @param {(lang: string) => void} fn
 */
export function onLangChange(fn) {
  listeners.push(fn);
}

/** @param {string} next 'en' or 'zh' */
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
