//! DhtmlXQ, the UBB blocks of dpxq.com's board viewer, pasted into forums and pages:
//! `[DhtmlXQ]` (or `[DhtmlXQiFrame]`) around one tag per field.
//!
//! * `DhtmlXQ_binit`: 64 digits, two per piece (file 0-8 from Red's left, row 0-9 from the top)
//!   in the order rooks, horses, elephants, advisors, king, advisors, elephants, horses, rooks,
//!   cannons, five pawns, Red's 16 then Black's; `99` (or anything not two digits) is off the
//!   board. `DhtmlXQ_fen`, when present, is used instead.
//! * `DhtmlXQ_movelist`: four digits per move, from and to in the same coordinates.
//! * `DhtmlXQ_move_P_S_N`: branch `N`, whose first move replaces ply `S` (counted from 1 at the
//!   start) of branch `P` (0 is the main line).
//! * `DhtmlXQ_commentS` (main line) and `DhtmlXQ_commentN_S` (branch `N`): the comment after
//!   ply `S`; `comment0` comes before the first move. `||` is a line break.
//! * `title`, `event`, `date`, `place`, `round`, `red`, `redteam`, `black`, `blackteam`,
//!   `result` (红胜, 黑胜, 和棋 or 1-0...), `open` become the tags `Title`, `Event`, `Date`,
//!   `Site`, `Round`, `Red`, `RedTeam`, `Black`, `BlackTeam`, `Result`, `Opening`.
//!
//! The reader takes blocks inside HTML (`<br />` between tags, entities such as `&nbsp;`),
//! a closing tag that does not match its opening one (the content ends at the next tag),
//! any number of blocks in one text. The side to move is the colour of the first moved piece.
//!
//! As the sites write it: dpxq.com's movelist of records (`77479EZK0000`..., the whole tree in
//! one field, see `dhtmlxq_records`), branches written before the branch they hang from, a
//! backslash before a closing tag (a block kept in a script string), a comment on a ply the
//! line never reaches (left out). The result is kept as written in the tag `ResultText`
//! ([`RESULT_TEXT_TAG`]) beside `Result`, the PGN marker it means (`*` when it means none);
//! without a result field, a dpxq title's `胜`/`负`/`和` between the names gives `Result`.

use super::dhtmlxq_records as records;
use super::tree::{check_comment, Failure, Tree};
use super::{parse_result, Format, Line, Location, RecordError, RecordErrorKind, MAX_TREE_MOVES};
use crate::pgn::PgnGame;
use crate::{Color, Move, Piece, PieceKind, Position, Setup, Square};
use std::collections::HashMap;

/// Piece kinds of the 16 slots of each side in `DhtmlXQ_binit`.
const SLOTS: [PieceKind; 16] = {
    use PieceKind::*;
    [Rook, Horse, Elephant, Advisor, King, Advisor, Elephant, Horse, Rook, Cannon, Cannon, Pawn, Pawn, Pawn, Pawn, Pawn]
};

/// DhtmlXQ field names and the tags they become: PGN's where PGN has one, the others named
/// after the field (dpxq.com's pages write all of them).
const TAGS: [(&str, &str); 31] = [
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("red", "Red"),
    ("redteam", "RedTeam"),
    ("black", "Black"),
    ("blackteam", "BlackTeam"),
    ("result", "Result"),
    ("open", "Opening"),
    ("ecco", "ECCO"),
    ("type", "Type"),
    ("gametype", "GameType"),
    ("class", "Class"),
    ("group", "Group"),
    ("table", "Table"),
    ("timerule", "TimeControl"),
    ("redname", "RedName"),
    ("blackname", "BlackName"),
    ("redrating", "RedElo"),
    ("blackrating", "BlackElo"),
    ("redtime", "RedTime"),
    ("blacktime", "BlackTime"),
    ("endtype", "Termination"),
    ("endscore", "EndScore"),
    ("judge", "Judge"),
    ("record", "Recorder"),
    ("remark", "Annotator"),
    ("author", "Author"),
    ("owner", "Owner"),
];

/// The tag that keeps a result as it was written (`红先胜`, `黑方胜`, `未知`...), beside
/// `Result`, which holds the PGN marker that text means.
pub const RESULT_TEXT_TAG: &str = "ResultText";

/// Whether `text` holds DhtmlXQ tags.
pub fn looks_like(text: &str) -> bool {
    find_ci(text, "[dhtmlxq", 0).is_some()
}

/// Finds `needle` (lower-case ASCII) in `hay` from `from`, ignoring ASCII case.
fn find_ci(hay: &str, needle: &str, from: usize) -> Option<usize> {
    let h = hay.as_bytes();
    let n = needle.as_bytes();
    (from..=h.len().checked_sub(n.len())?).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

/// Splits a text into its blocks, as byte ranges. A block runs from its opening tag to its
/// closing tag, or to the next opening tag.
fn blocks(text: &str) -> Vec<core::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut openings = Openings::new(text);
    let mut at = 0;
    while let Some(start) = openings.next(at) {
        let body = start + text[start..].find(']').map_or(0, |i| i + 1);
        let next = openings.next(body).unwrap_or(text.len());
        let close = [find_ci(&text[..next], "[/dhtmlxq]", body), find_ci(&text[..next], "[/dhtmlxqiframe]", body)]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(next);
        out.push(body..close);
        at = next;
    }
    out
}

/// The next `[DhtmlXQ` or `[/DhtmlXQ` tag from `from`, in one pass.
fn next_tag(text: &str, from: usize) -> Option<usize> {
    let b = text.as_bytes();
    (from..b.len()).find(|&i| {
        b[i] == b'[' && {
            let rest = &b[i + 1..];
            let rest = rest.strip_prefix(b"/").unwrap_or(rest);
            rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"dhtmlxq")
        }
    })
}

/// The opening tags `[DhtmlXQ]` and `[DhtmlXQiFrame]` of a text, found in order. Each kind's
/// next place is remembered, so the text is searched once for each: searched afresh from every
/// block, a text without one of the two kinds was read to its end once per block (100,000
/// blocks of 6 MB took minutes).
struct Openings<'a> {
    text: &'a str,
    /// Per kind, the last place found (`None`: none from there on) and where the search began.
    found: [Option<(Option<usize>, usize)>; 2],
}

impl<'a> Openings<'a> {
    const TAGS: [&'static str; 2] = ["[dhtmlxq]", "[dhtmlxqiframe]"];

    fn new(text: &'a str) -> Self {
        Openings { text, found: [None, None] }
    }

    /// The first opening tag at or after `from`; `from` never goes back.
    fn next(&mut self, from: usize) -> Option<usize> {
        let text = self.text;
        let mut first = None;
        for (slot, tag) in self.found.iter_mut().zip(Self::TAGS) {
            let place = match *slot {
                Some((None, began)) if began <= from => None,
                Some((Some(p), began)) if began <= from && p >= from => Some(p),
                _ => {
                    let p = find_ci(text, tag, from);
                    *slot = Some((p, from));
                    p
                }
            };
            first = match (first, place) {
                (Some(a), Some(b)) => Some(usize::min(a, b)),
                (a, b) => a.or(b),
            };
        }
        first
    }
}

/// The fields of a block: lower-case name, raw content, byte offset of the tag.
fn fields(block: &str) -> Vec<(String, &str, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(start) = find_ci(block, "[dhtmlxq_", at) {
        let name_start = start + 9;
        let Some(close) = block.as_bytes()[name_start..].iter().take(48).position(|&c| c == b']') else {
            at = name_start;
            continue;
        };
        let name = &block[name_start..name_start + close];
        let body = name_start + close + 1;
        if name.len() > 40 || name.contains('[') {
            at = name_start;
            continue;
        }
        // The content ends at the next tag, whatever closing tag it is. Pages that hold the
        // block in a script string escape the closing tag's `[` with a backslash (`红胜\[/`).
        let end = next_tag(block, body).unwrap_or(block.len());
        let content = &block[body..end];
        out.push((name.to_ascii_lowercase(), content.strip_suffix('\\').unwrap_or(content), start));
        at = end;
    }
    out
}

/// Field text with HTML removed: `<br>` becomes a line break, other tags go, entities and a
/// script's `\uXXXX` escapes are decoded, `||` becomes a line break.
fn clean(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(i) = rest.find(['<', '&', '\\']) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if let Some(hex) = rest.strip_prefix("\\u").and_then(|r| r.get(..4)) {
            // A script's escape (`\u9ED1\u80DC`, 黑胜), as dpxq writes some fields.
            match u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
                Some(c) if hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                    out.push(c);
                    rest = &rest[6..];
                }
                _ => {
                    out.push('\\');
                    rest = &rest[1..];
                }
            }
        } else if rest.starts_with('\\') {
            out.push('\\');
            rest = &rest[1..];
        } else if rest.starts_with('<') {
            let end = bounded_find(rest, b'>', 200);
            let is_tag = rest[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '/');
            match end {
                Some(e) if is_tag => {
                    if rest[1..e].trim_start_matches('/').to_ascii_lowercase().starts_with("br") {
                        out.push('\n');
                    }
                    rest = &rest[e + 1..];
                }
                _ => {
                    out.push('<');
                    rest = &rest[1..];
                }
            }
        } else {
            let end = bounded_find(rest, b';', 12);
            let decoded = end.and_then(|e| entity(&rest[1..e]).map(|c| (c, e)));
            match decoded {
                Some((c, e)) => {
                    out.push(c);
                    rest = &rest[e + 1..];
                }
                None => {
                    out.push('&');
                    rest = &rest[1..];
                }
            }
        }
    }
    out.push_str(rest);
    out.replace("||", "\n")
}

/// The first `byte` within the first `limit` bytes of `text`.
fn bounded_find(text: &str, byte: u8, limit: usize) -> Option<usize> {
    text.as_bytes().iter().take(limit).position(|&c| c == byte)
}

fn entity(name: &str) -> Option<char> {
    Some(match name {
        "nbsp" => ' ',
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        _ => {
            let n = name.strip_prefix('#')?;
            let code = match n.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => n.parse().ok()?,
            };
            char::from_u32(code)?
        }
    })
}

/// Reads every DhtmlXQ block of a text, in order; one that does not read is an error that says
/// on which line, and does not stop the others. At most [`super::MAX_RECORD_GAMES`] blocks are
/// read: past them comes one [`RecordErrorKind::TooManyGames`].
///
/// ```
/// let page = "<p>[DhtmlXQ]<br />[DhtmlXQ_red]许银川[/DhtmlXQ_red]<br />\
///     [DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]<br />\
///     [DhtmlXQ_move_0_1_1]17477062[/DhtmlXQ_move_0_1_1]<br />\
///     [DhtmlXQ_comment1]中炮&nbsp;开局[/DhtmlXQ_comment1][/DhtmlXQ]</p>";
/// let games = xiangqi::record::dhtmlxq::read_all(page);
/// let game = games[0].as_ref().unwrap();
/// assert_eq!(game.tag("Red"), Some("许银川"));
/// let moves: Vec<String> = game.main_line().iter().map(|m| m.to_string()).collect();
/// assert_eq!(moves, ["h2e2", "h9g7"]);
/// assert_eq!(game.line.moves[0].comment.as_deref(), Some("中炮 开局"));
/// assert_eq!(game.line.moves[0].variations[0].moves[0].mv.to_string(), "b2e2");
/// ```
pub fn read_all(text: &str) -> Vec<Result<PgnGame, RecordError>> {
    let mut blocks = Blocks::new(text);
    std::iter::from_fn(|| blocks.next(text)).collect()
}

/// The blocks of a text read one at a time (by [`read_all`] and the importer), so that a
/// caller that does not keep the games holds one at a time. Like the PGN lexer it keeps
/// offsets rather than borrowing the text, which may live beside it.
pub(super) struct Blocks {
    /// Each block's byte range, in order.
    ranges: Vec<core::ops::Range<usize>>,
    /// Blocks given so far.
    given: usize,
    /// The line of `counted`, counted once from the text's start as the blocks go on.
    line: usize,
    counted: usize,
}

impl Blocks {
    pub(super) fn new(text: &str) -> Blocks {
        let mut ranges = blocks(text);
        if ranges.is_empty() && looks_like(text) {
            ranges.push(0..text.len());
        }
        Blocks { ranges, given: 0, line: 1, counted: 0 }
    }

    /// The line of `offset`, which is never before the last one asked for.
    fn line_at(&mut self, text: &str, offset: usize) -> usize {
        let offset = offset.min(text.len()).max(self.counted);
        self.line += text.as_bytes()[self.counted..offset].iter().filter(|&&b| b == b'\n').count();
        self.counted = offset;
        self.line
    }

    /// The next block of `text` (the same text on every call) as a game.
    pub(super) fn next(&mut self, text: &str) -> Option<Result<PgnGame, RecordError>> {
        let range = self.ranges.get(self.given)?.clone();
        self.given += 1;
        let game = self.given;
        let error = |location, kind| RecordError { format: Format::DhtmlXq, game, location, kind };
        if game > super::MAX_RECORD_GAMES {
            self.ranges.clear();
            let line = self.line_at(text, range.start);
            return Some(Err(error(Location::Line(line), RecordErrorKind::TooManyGames)));
        }
        // Blocks come in order and an error lies inside its block, so lines are counted
        // once over the text (a line counted from the start for each error made many bad
        // blocks quadratic).
        Some(
            read_block(&text[range.clone()])
                .map_err(|(at, kind)| error(Location::Line(self.line_at(text, range.start + at)), kind)),
        )
    }
}

/// Reads the first DhtmlXQ block of a text.
///
/// # Errors
///
/// A [`RecordError`] with the line: no block, a bad start position, a move that is not legal,
/// a branch that hangs from nothing, a tree or comment over the bounds.
pub fn read(text: &str) -> Result<PgnGame, RecordError> {
    read_all(text).into_iter().next().unwrap_or(Err(RecordError {
        format: Format::DhtmlXq,
        game: 1,
        location: Location::Input,
        kind: RecordErrorKind::Empty,
    }))
}

fn digits(raw: &str) -> String {
    clean(raw).chars().filter(|c| !c.is_whitespace()).collect()
}

/// A square from DhtmlXQ's coordinates (`y` counted from the top).
fn square(x: u8, y: u8) -> Option<Square> {
    (y <= 9).then(|| Square::new(x, 9 - y)).flatten()
}

/// The moves of a movelist or a branch, four digits each.
fn parse_moves(raw: &str, at: usize, first_ply: usize) -> Result<Vec<Move>, Failure> {
    let d = digits(raw);
    if d.len() / 4 > MAX_TREE_MOVES {
        return Err((at, RecordErrorKind::TooManyMoves));
    }
    let b = d.as_bytes();
    let mut out = Vec::with_capacity(b.len() / 4);
    for (i, chunk) in b.chunks(4).enumerate() {
        let bad = || RecordErrorKind::BadMove {
            ply: first_ply + i,
            number: (first_ply + i).div_ceil(2) as u32,
            text: String::from_utf8_lossy(chunk).into_owned(),
            error: None,
        };
        if chunk.len() < 4 || !chunk.iter().all(u8::is_ascii_digit) {
            return Err((at, bad()));
        }
        let n: Vec<u8> = chunk.iter().map(|c| c - b'0').collect();
        let (Some(from), Some(to)) = (square(n[0], n[1]), square(n[2], n[3])) else { return Err((at, bad())) };
        out.push(Move::new(from, to));
    }
    Ok(out)
}

/// A branch field: parent branch, the ply its first move replaces, its number, its moves, and
/// where it was read.
type Branch = (usize, usize, usize, String, usize);

fn read_block(block: &str) -> Result<PgnGame, Failure> {
    let fields = fields(block);
    let mut game = PgnGame::new(Position::startpos(), &[]);
    let mut binit: Option<(&str, usize)> = None;
    let mut fen: Option<(String, usize)> = None;
    let mut movelist: Option<(&str, usize)> = None;
    let mut branches: Vec<Branch> = Vec::new();
    let mut comments: Vec<(usize, usize, String, usize)> = Vec::new();
    for (name, raw, at) in &fields {
        let at = *at;
        if name == "binit" {
            binit = Some((raw, at));
        } else if name == "fen" {
            fen = Some((clean(raw).trim().to_string(), at));
        } else if name == "movelist" {
            movelist = Some((raw, at));
        } else if let Some(id) = name.strip_prefix("move_") {
            let n: Vec<usize> = id.split('_').filter_map(|p| p.parse().ok()).collect();
            if let [p, s, n] = n[..] {
                branches.push((p, s, n, raw.to_string(), at));
            }
        } else if let Some(id) = name.strip_prefix("comment") {
            let n: Vec<usize> = id.split('_').filter_map(|p| p.parse().ok()).collect();
            let (b, s) = match n[..] {
                [s] => (0, s),
                [b, s] => (b, s),
                _ => continue,
            };
            if let Some(c) = check_comment(clean(raw), at)? {
                comments.push((b, s, c, at));
            }
        } else if let Some((_, tag)) = TAGS.iter().find(|(n, _)| n == name) {
            let value = clean(raw).trim().to_string();
            if value.is_empty() {
                continue;
            }
            if *tag == "Result" {
                let r = parse_result(&value).unwrap_or("*");
                game.result = Some(r.to_string());
                game.set_tag("Result", r);
                game.set_tag(RESULT_TEXT_TAG, &value);
            } else {
                game.set_tag(tag, &value);
            }
        }
    }
    if movelist.is_none() && binit.is_none() && fen.is_none() && branches.is_empty() {
        return Err((0, RecordErrorKind::Empty));
    }
    if game.result.is_none() {
        // No result field: dpxq.com's titles say it ("红方 胜 黑方", "红方 先和 黑方").
        if let Some(r) = game.tag("Title").and_then(result_of_title) {
            game.result = Some(r.to_string());
            game.set_tag("Result", r);
        }
    }

    // A movelist of records holds the whole tree: the viewer reads it so when no branch
    // field holds moves of four digits.
    let (mut list, list_at) = movelist.map_or((String::new(), 0), |(l, at)| (l.to_string(), at));
    let letters: String = clean(&list).chars().filter(char::is_ascii_alphanumeric).collect();
    if records::is_records(&letters) && !branches.iter().any(|b| digits(&b.3).len() >= 4) {
        // A record takes at least seven characters.
        if letters.len() / 7 > MAX_TREE_MOVES {
            return Err((list_at, RecordErrorKind::TooManyMoves));
        }
        let read = records::read(&letters).map_err(|(i, text)| {
            let bad = RecordErrorKind::BadMove { ply: i + 1, number: (i + 1).div_ceil(2) as u32, text, error: None };
            (list_at, bad)
        })?;
        list = read.main;
        branches = read.branches.into_iter().map(|(p, s, n, m)| (p, s, n, m, list_at)).collect();
        for c in &mut comments {
            // `commentN` is the comment after record N - 1, wherever that record went.
            if let Some(&place) = (c.0 == 0 && c.1 > 0).then(|| read.places.get(c.1 - 1)).flatten() {
                (c.0, c.1) = place;
            }
        }
    }

    // The tree, before the position: the first move tells who moves first.
    let mut tree = Tree::new(0);
    // (branch, ply) -> the node before that ply of that branch.
    let mut before: HashMap<(usize, usize), usize> = HashMap::new();
    before.insert((0, 1), 0);
    let mut node = 0;
    for (i, mv) in parse_moves(&list, list_at, 1)?.into_iter().enumerate() {
        node = tree.add(node, mv, list_at)?;
        before.insert((0, i + 2), node);
    }
    // A branch hangs from its parent branch, which editors do not always number or write
    // before it: branches are placed from the main line down, each parent's by number; what
    // hangs from nothing comes last, and its first is the error below.
    branches.sort_by_key(|b| b.2);
    let mut by_parent: HashMap<usize, Vec<Branch>> = HashMap::new();
    for b in branches {
        by_parent.entry(b.0).or_default().push(b);
    }
    let mut ordered = Vec::new();
    let mut queue = std::collections::VecDeque::from([0]);
    while let Some(id) = queue.pop_front() {
        for b in by_parent.remove(&id).unwrap_or_default() {
            queue.push_back(b.2);
            ordered.push(b);
        }
    }
    let mut detached: Vec<_> = by_parent.into_values().flatten().collect();
    detached.sort_by_key(|b| b.2);
    ordered.extend(detached);
    for (p, s, n, raw, at) in ordered {
        let Some(&parent) = before.get(&(p, s)).or_else(|| before.get(&(n, s))) else {
            return Err((at, RecordErrorKind::DetachedBranch(format!("{p}_{s}_{n}"))));
        };
        // The branch's own first ply hangs where its parent does (so that a variation of a
        // branch's first move finds its place).
        before.entry((n, s)).or_insert(parent);
        let mut node = parent;
        for (i, mv) in parse_moves(&raw, at, s)?.into_iter().enumerate() {
            node = tree.add(node, mv, at)?;
            before.insert((n, s + i + 1), node);
        }
    }
    for (b, s, c, _) in comments {
        // The comment after ply `s` belongs to the node before ply `s + 1`. One on a ply the
        // line never reaches (a movelist cut short after its comments were written) is left
        // out, as the viewer leaves it: it belongs to no move.
        let target = if s == 0 { Some(0) } else { before.get(&(b, s + 1)).copied() };
        if let Some(t) = target {
            tree.nodes[t].comment = Some(c);
        }
    }

    let start = match fen {
        Some((f, at)) if !f.is_empty() => Position::from_fen(&f).map_err(|e| (at, RecordErrorKind::BadFen(e)))?,
        _ => match binit {
            Some((raw, at)) => start_from_binit(&digits(raw), &tree, at)?,
            None => {
                let first = tree.nodes[0].children.first().and_then(|&c| tree.nodes[c].mv);
                let mut setup = Position::startpos().to_setup();
                if let Some(p) = first.and_then(|m| setup.board[m.from().index()]) {
                    setup.turn = p.color;
                }
                Position::from_setup(&setup).map_err(|e| (0, RecordErrorKind::BadPosition(e)))?
            }
        },
    };
    game.start = start.clone();
    game.line = tree.to_line(&start)?;
    Ok(game)
}

/// The result a dpxq.com title states between the two sides' names: `胜`, `负`, `和`, or
/// `先胜`, `先负`, `先和` (Red first), each a word of its own.
fn result_of_title(title: &str) -> Option<&'static str> {
    let words: Vec<&str> = title.split_whitespace().collect();
    // The first and last words are names; only a word between them is a result.
    let inner = words.get(1..words.len().saturating_sub(1))?;
    let mut found = inner.iter().filter_map(|w| match w.strip_prefix('先').unwrap_or(w) {
        "胜" | "勝" => Some("1-0"),
        "负" | "負" => Some("0-1"),
        "和" => Some("1/2-1/2"),
        _ => None,
    });
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

fn start_from_binit(d: &str, tree: &Tree, at: usize) -> Result<Position, Failure> {
    let mut setup = Setup::empty();
    for (i, pair) in d.as_bytes().chunks(2).take(32).enumerate() {
        if pair.len() == 2 && pair.iter().all(u8::is_ascii_digit) {
            if let Some(sq) = square(pair[0] - b'0', pair[1] - b'0') {
                let color = if i < 16 { Color::Red } else { Color::Black };
                setup.board[sq.index()] = Some(Piece::new(color, SLOTS[i % 16]));
            }
        }
    }
    let first = tree.nodes[0].children.first().and_then(|&c| tree.nodes[c].mv);
    match first.and_then(|m| setup.board[m.from().index()]) {
        Some(p) => setup.turn = p.color,
        None => {
            // No move to tell: Red, unless only Black to move is legal.
            if Position::from_setup(&setup).is_err() {
                setup.turn = Color::Black;
                if Position::from_setup(&setup).is_err() {
                    setup.turn = Color::Red;
                }
            }
        }
    }
    Position::from_setup(&setup).map_err(|e| (at, RecordErrorKind::BadPosition(e)))
}

/// Writes a game as one `[DhtmlXQ]` block: the tags DhtmlXQ has fields for, `binit` (and
/// `fen` for a start that is not the standard one), the main line, every variation as a
/// branch, every comment. `[` and `]` in text become their full-width forms (a bracket would
/// end the field).
pub fn write(game: &PgnGame) -> String {
    let mut out = String::from("[DhtmlXQ]\n[DhtmlXQ_ver]www_dpxq_com[/DhtmlXQ_ver]\n");
    let field = |out: &mut String, name: &str, value: &str| {
        out.push_str(&format!("[DhtmlXQ_{name}]{}[/DhtmlXQ_{name}]\n", escape(value)));
    };
    for (name, tag) in TAGS {
        if tag == "Result" {
            let r = game.result.as_deref().or_else(|| game.tag("Result")).and_then(parse_result).unwrap_or("*");
            // The form it was read in (`红先负`, `未知`...) when that form means the same result.
            let written = game.tag(RESULT_TEXT_TAG).filter(|w| parse_result(w).unwrap_or("*") == r);
            let text = match r {
                "1-0" => "红胜",
                "0-1" => "黑胜",
                "1/2-1/2" => "和棋",
                _ => match written {
                    Some(w) => w,
                    None => continue,
                },
            };
            field(&mut out, name, written.unwrap_or(text));
        } else if let Some(v) = game.tag(tag) {
            field(&mut out, name, v);
        }
    }
    let mut binit = String::new();
    let mut slots = [None::<Square>; 32];
    for (sq, piece) in game.start.pieces() {
        let base = if piece.color == Color::Red { 0 } else { 16 };
        if let Some(i) = (0..16).find(|&i| SLOTS[i] == piece.kind && slots[base + i].is_none()) {
            slots[base + i] = Some(sq);
        }
    }
    for s in slots {
        match s {
            Some(sq) => binit.push_str(&format!("{}{}", sq.file(), 9 - sq.rank())),
            None => binit.push_str("99"),
        }
    }
    field(&mut out, "binit", &binit);
    if game.start != Position::startpos() {
        field(&mut out, "fen", &game.start.fen());
    }
    // Branches: (parent branch, first ply, id, line); the main line is branch 0 from ply 1.
    let mut queue: Vec<(usize, usize, usize, &Line)> = vec![(0, 1, 0, &game.line)];
    let mut parents: Vec<(usize, usize)> = vec![(0, 1)];
    let mut comments = String::new();
    if let Some(c) = &game.line.comment {
        comments.push_str(&format!("[DhtmlXQ_comment0]{}[/DhtmlXQ_comment0]\n", escape(c)));
    }
    let mut i = 0;
    while i < queue.len() {
        let (parent, first, id, line) = queue[i];
        i += 1;
        let moves: String = line.moves.iter().map(|m| coords(m.mv)).collect();
        if id == 0 {
            field(&mut out, "movelist", &moves);
        } else {
            field(&mut out, &format!("move_{parent}_{first}_{id}"), &moves);
        }
        for (k, m) in line.moves.iter().enumerate() {
            let ply = first + k;
            if let Some(c) = &m.comment {
                let key = if id == 0 { format!("comment{ply}") } else { format!("comment{id}_{ply}") };
                comments.push_str(&format!("[DhtmlXQ_{key}]{}[/DhtmlXQ_{key}]\n", escape(c)));
            }
            // A variation of a branch's first move hangs from the branch's own parent.
            let (hang, _) = if k == 0 && id != 0 { parents[id] } else { (id, ply) };
            for v in &m.variations {
                let vid = queue.len();
                queue.push((hang, ply, vid, v));
                parents.push((hang, ply));
            }
        }
    }
    out.push_str(&comments);
    out.push_str("[DhtmlXQ_generator]Qi[/DhtmlXQ_generator]\n[/DhtmlXQ]\n");
    out
}

fn coords(m: Move) -> String {
    format!("{}{}{}{}", m.from().file(), 9 - m.from().rank(), m.to().file(), 9 - m.to().rank())
}

fn escape(text: &str) -> String {
    text.replace('[', "［").replace(']', "］").replace("\r\n", "||").replace('\n', "||")
}
