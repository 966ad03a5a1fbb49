//! Game records with variations and comments, for the page's move tree:
//! `/xq/record/import` reads a game of a record (the first, or the one asked for: a PGN text, a
//! DhtmlXQ block or text pasted from a forum; or a file's bytes in base64, which may also be
//! XQF) into a tree of moves (each with its three notations, its comment and its alternatives)
//! plus the tags, and lists every game of a record that holds more than one;
//! `/xq/record/export` writes such a tree back as PGN in a chosen notation.
//!
//! A tree is a list of nodes, the first being the main line's move; each node's `children`
//! continue it the same way (the first child is the main continuation, the others variations).

use crate::game::{replay, status_of};
use crate::pgn::{notation_or_chinese, record_game};
use crate::ApiError;
use serde::{Deserialize, Serialize};
use xiangqi::notation::{format, Notation};
use xiangqi::pgn::{Line, PgnGame, PgnMove};
use xiangqi::{Move, Position};

/// More moves than any annotated game has; bounds one request's work.
const MAX_NODES: usize = 5000;
/// Variations inside variations; the PGN reader stops at 100.
const MAX_NESTING: usize = 64;
/// A comment is a few sentences.
const MAX_COMMENT_CHARS: usize = 2000;

/// A move of a record's tree.
#[derive(Serialize, Deserialize, Debug, Clone, Default)]
pub struct Node {
    /// The move in ICCS.
    pub iccs: String,
    /// The move in the other notations (filled in by the server; ignored on export).
    #[serde(default, skip_deserializing)]
    pub wxf: String,
    /// The move in Chinese notation (filled in by the server; ignored on export).
    #[serde(default, skip_deserializing)]
    pub chinese: String,
    /// The move in Chinese notation in traditional characters (filled in by the server).
    #[serde(default, skip_deserializing)]
    pub traditional: String,
    /// The move in Vietnamese notation (filled in by the server).
    #[serde(default, skip_deserializing)]
    pub vietnamese: String,
    /// The comment after the move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The moves after this one: the main continuation first, then the variations.
    #[serde(default)]
    pub children: Vec<Node>,
}

/// The largest record file `/xq/record/import` reads (decoded): an XQF game is a few
/// kilobytes, a PGN collection of a thousand games about a megabyte.
pub const MAX_RECORD_BYTES: usize = 2 * 1024 * 1024;

/// A record to read: exactly one of `pgn` and `bytes`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// A record as text (PGN, DhtmlXQ, plain text); its first game is read.
    #[serde(default)]
    pub pgn: Option<String>,
    /// A record file's bytes in base64 (XQF, or any text format in UTF-8 or GBK), at most
    /// [`MAX_RECORD_BYTES`] once decoded; its format is told by its content, not its name.
    #[serde(default)]
    pub bytes: Option<String>,
    /// Which game of the record to read, from 1 (counting games that do not read), as
    /// [`GameSummary::index`]; the first by default.
    #[serde(default)]
    pub game: Option<usize>,
}

/// One game of a record's list: what a collection's games are told apart and picked by.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game's number in the record, from 1: what [`ImportRequest::game`] takes.
    pub index: usize,
    /// The red player, empty when the record names none.
    pub red: String,
    /// The black player.
    pub black: String,
    /// The event.
    pub event: String,
    /// The date, as the record writes it.
    pub date: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
    /// Plies in the main line.
    pub moves: usize,
    /// The start position's FEN when it is not the standard one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The main line in ICCS, space-separated, when the record holds at most
    /// [`LIST_LINES_MAX_GAMES`](crate::pgn::LIST_LINES_MAX_GAMES) games (else absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
}

/// A record as a tree.
#[derive(Serialize, Debug)]
pub struct ImportedRecord {
    /// The start position, as FEN.
    pub start_fen: String,
    /// The tag pairs, in order.
    pub tags: Vec<(String, String)>,
    /// The comment before the first move.
    pub comment: Option<String>,
    /// The first moves: the main line's, then its variations.
    pub tree: Vec<Node>,
    /// The result as the record gives it.
    pub result: Option<String>,
    /// Games found in the text.
    pub games: usize,
    /// The number of the game read, from 1.
    pub game: usize,
    /// Every game that reads, when the record holds more than one (else empty).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub list: Vec<GameSummary>,
    /// The format the record was read as: `xqf`, `dhtmlxq`, `pgn` or `text`.
    pub format: &'static str,
}

/// Reads a game of a record (the first unless `game` says) as a tree, with the list of the
/// record's games when it holds several.
///
/// # Errors
/// Neither or both of `pgn` and `bytes` (`bad_request`), bytes that are not base64 or too many
/// (`bad_base64`, `too_large`); no game, or no game of that number (`no_game`), or a game
/// asked for that does not read:
/// `bad_pgn` with its line for PGN, `bad_record` with where and why for the other formats.
pub fn import(req: &ImportRequest) -> Result<ImportedRecord, ApiError> {
    let decoded;
    let bytes = match (&req.pgn, &req.bytes) {
        (Some(text), None) => text.as_bytes(),
        (None, Some(coded)) => {
            decoded = crate::base64::decode(coded, MAX_RECORD_BYTES)?;
            &decoded
        }
        _ => return Err(ApiError::bad_request("send either `pgn` (a text) or `bytes` (base64), not both")),
    };
    let n = req.game.unwrap_or(1);
    let (format, game, count, list) = record_game(bytes, n)?;
    let list = if count > 1 {
        list.into_iter()
            .map(|(index, s, listed)| GameSummary {
                index,
                fen: listed.as_ref().and_then(|l| l.fen.clone()),
                line: listed.map(|l| l.line),
                red: s.red,
                black: s.black,
                event: s.event,
                date: s.date,
                result: s.result,
                moves: s.moves,
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(ImportedRecord {
        format: format.name(),
        start_fen: game.start.fen(),
        tree: line_to_nodes(&game.start, &game.line),
        comment: game.line.comment,
        tags: game.tags,
        result: game.result,
        games: count,
        game: n,
        list,
    })
}

/// A PGN line as tree nodes: each move becomes a node whose first child is the next move and
/// whose further children are the variations of that next move.
fn line_to_nodes(start: &Position, line: &Line) -> Vec<Node> {
    let mut pos = start.clone();
    // Built from the end, so the main line needs no recursion (only variations recurse).
    let mut positions = Vec::with_capacity(line.moves.len());
    for m in &line.moves {
        positions.push(pos.clone());
        pos.play_unchecked(m.mv);
    }
    let mut next: Vec<Node> = Vec::new();
    for (m, before) in line.moves.iter().zip(positions).rev() {
        let node = Node {
            iccs: m.mv.to_string(),
            wxf: format(&before, m.mv, Notation::Wxf),
            chinese: format(&before, m.mv, Notation::Chinese),
            traditional: format(&before, m.mv, Notation::Traditional),
            vietnamese: format(&before, m.mv, Notation::Vietnamese),
            comment: m.comment.clone(),
            children: next,
        };
        let mut here = vec![node];
        for variation in &m.variations {
            here.extend(line_to_nodes(&before, variation));
        }
        next = here;
    }
    next
}

/// A record to write as PGN.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportRequest {
    /// The start position; the standard one when absent.
    #[serde(default)]
    pub fen: Option<String>,
    /// Tag pairs (a Result tag is kept when it is a real result).
    #[serde(default)]
    pub tags: Vec<(String, String)>,
    /// The comment before the first move.
    #[serde(default)]
    pub comment: Option<String>,
    /// The moves, as [`ImportedRecord::tree`].
    #[serde(default)]
    pub tree: Vec<Node>,
    /// `chinese` (default), `traditional`, `vietnamese`, `wxf` or `iccs`.
    #[serde(default)]
    pub notation: Option<String>,
}

/// A record as PGN.
#[derive(Serialize, Debug)]
pub struct ExportedRecord {
    /// The PGN text.
    pub pgn: String,
}

/// Writes the record of `req` as PGN, every move checked.
///
/// # Errors
/// An unknown notation, a bad FEN, an illegal move, a bad tag name, too many or too deeply
/// nested moves, a comment too long.
pub fn export(req: &ExportRequest) -> Result<ExportedRecord, ApiError> {
    let notation = notation_or_chinese(req.notation.as_deref())?;
    let (start, _) = replay(req.fen.as_deref(), &[])?;
    let mut budget = MAX_NODES;
    let mut line = nodes_to_line(&start, &req.tree, 0, &mut budget)?;
    line.comment = clean_comment(req.comment.as_deref())?;
    let main: Vec<Move> = line.moves.iter().map(|m| m.mv).collect();
    let mut game = PgnGame::new(start.clone(), &[]);
    game.line = line;
    for (k, v) in &req.tags {
        if k.is_empty() || k.len() > 64 || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(ApiError::bad_request(format!("bad tag name {k:?}")).with_code("bad_tag", [("tag", k.clone())]));
        }
        if k != "Result" && !v.is_empty() {
            game.set_tag(k, v);
        }
    }
    let judged = status_of(&start, &main).outcome.pgn_result();
    // The user's Result tag wins over the rules' verdict (a resignation, an agreed draw).
    let given = req.tags.iter().find(|(k, _)| k == "Result").map(|(_, v)| v.as_str());
    let result = given.filter(|r| ["1-0", "0-1", "1/2-1/2"].contains(r)).unwrap_or(judged);
    game.result = Some(result.to_string());
    Ok(ExportedRecord { pgn: game.write(notation) })
}

fn clean_comment(comment: Option<&str>) -> Result<Option<String>, ApiError> {
    match comment.map(str::trim).filter(|c| !c.is_empty()) {
        None => Ok(None),
        Some(c) if c.chars().count() > MAX_COMMENT_CHARS => {
            Err(ApiError::bad_request(format!("a comment is at most {MAX_COMMENT_CHARS} characters")))
        }
        // Braces would end the PGN comment early.
        Some(c) => Ok(Some(c.replace('{', "(").replace('}', ")"))),
    }
}

/// Tree nodes (alternatives from `pos`) as a PGN line: the first node's main line, with the
/// others as its variations; checks every move.
fn nodes_to_line(pos: &Position, nodes: &[Node], nesting: usize, budget: &mut usize) -> Result<Line, ApiError> {
    if nesting > MAX_NESTING {
        return Err(ApiError::bad_request(format!("variations nested deeper than {MAX_NESTING}")));
    }
    let mut line = Line::default();
    let mut pos = pos.clone();
    let mut alternatives = nodes;
    while let Some((first, others)) = alternatives.split_first() {
        *budget = budget.checked_sub(1).ok_or_else(|| ApiError::bad_request(format!("more than {MAX_NODES} moves")))?;
        let m = parse_move(&pos, &first.iccs)?;
        let mut variations = Vec::with_capacity(others.len());
        for other in others {
            variations.push(nodes_to_line(&pos, std::slice::from_ref(other), nesting + 1, budget)?);
        }
        line.moves.push(PgnMove { mv: m, comment: clean_comment(first.comment.as_deref())?, variations });
        pos.play_unchecked(m);
        alternatives = &first.children;
    }
    Ok(line)
}

fn parse_move(pos: &Position, text: &str) -> Result<Move, ApiError> {
    let m: Move = text.parse().map_err(|e| ApiError::bad_request(format!("move {text:?}: {e}")))?;
    if !pos.is_legal(m) {
        return Err(crate::error::illegal_move(pos, None, m));
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi::pgn;

    const PGN: &str = "[Game \"Chinese Chess\"]\n[Red \"Hu Ronghua\"]\n[Event \"Test\"]\n\n\
        {before} 1. 炮二平五 {central} 马8进7 (1... 炮8平5 {same}) 2. 马二进三 (2. 兵七进一 卒7进1) 车9平8 1-0\n";

    #[test]
    fn a_record_with_variations_and_comments_goes_round() {
        let games = pgn::read_games(PGN);
        let game = games[0].as_ref().unwrap();
        let tree = line_to_nodes(&game.start, &game.line);
        assert_eq!(tree.len(), 1);
        assert_eq!(tree[0].chinese, "炮二平五");
        assert_eq!(tree[0].comment.as_deref(), Some("central"));
        let replies = &tree[0].children;
        assert_eq!(replies.iter().map(|n| n.iccs.as_str()).collect::<Vec<_>>(), ["h9g7", "h7e7"]);
        assert_eq!(replies[1].comment.as_deref(), Some("same"));
        assert_eq!(replies[0].children.len(), 2, "2. 马二进三 and the variation 2. 兵七进一");
        assert_eq!(replies[0].children[1].children[0].chinese, "卒7进1");

        let req = ExportRequest {
            fen: None,
            tags: game.tags.clone(),
            comment: Some("before".into()),
            tree,
            notation: Some("chinese".into()),
        };
        let out = export(&req).unwrap().pgn;
        assert!(out.contains("[Red \"Hu Ronghua\"]"), "{out}");
        assert!(out.contains("(1... 炮8平5 {same})"), "{out}");
        assert!(out.contains("{central}"), "{out}");
        let again = pgn::read_games(&out);
        let again = again[0].as_ref().unwrap();
        assert_eq!(again.line, game.line, "{out}");
        assert_eq!(again.result.as_deref(), Some("*"), "no Result tag given: the rules say the game goes on");
    }

    #[test]
    fn an_illegal_tree_move_is_refused() {
        let node = Node {
            iccs: "h2e2".into(),
            children: vec![Node { iccs: "h2e2".into(), ..Node::default() }],
            ..Node::default()
        };
        let req = ExportRequest { fen: None, tags: vec![], comment: None, tree: vec![node], notation: None };
        let e = export(&req).unwrap_err();
        assert_eq!(e.code, Some("illegal_move"));
    }

    fn base64(bytes: &[u8]) -> String {
        const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
            for i in 0..=chunk.len() {
                out.push(char::from(ABC[(n >> (18 - 6 * i) & 63) as usize]));
            }
        }
        while !out.len().is_multiple_of(4) {
            out.push('=');
        }
        out
    }

    fn count(nodes: &[Node]) -> (usize, usize) {
        nodes.iter().fold((nodes.len(), 0), |(moves, comments), n| {
            let (m, c) = count(&n.children);
            (moves + m, comments + c + usize::from(n.comment.is_some()))
        })
    }

    #[test]
    fn an_xqf_file_opens_from_its_bytes_with_its_tree() {
        let bytes =
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../xiangqi/tests/data/records/variations-v18.xqf"))
                .unwrap();
        let want = xiangqi::record::xqf::read(&bytes).unwrap();
        let got = import(&ImportRequest { pgn: None, bytes: Some(base64(&bytes)), game: None }).unwrap();
        assert_eq!(got.format, "xqf");
        assert_eq!(got.start_fen, want.start.fen());
        let main: Vec<String> =
            std::iter::successors(got.tree.first(), |n| n.children.first()).map(|n| n.iccs.clone()).collect();
        assert_eq!(main, want.main_line().iter().map(ToString::to_string).collect::<Vec<_>>());
        let (moves, comments) = count(&got.tree);
        assert!(moves_in_variations(&want.line) > 0, "the file has variations");
        assert_eq!(moves - main.len(), moves_in_variations(&want.line));
        assert_eq!(comments + usize::from(got.comment.is_some()), xiangqi::record::count_comments(&want.line));
    }

    /// Moves off the main line, in every variation.
    fn moves_in_variations(line: &Line) -> usize {
        fn all(line: &Line) -> usize {
            line.moves.iter().map(|m| 1 + m.variations.iter().map(all).sum::<usize>()).sum()
        }
        all(line) - line.moves.len()
    }

    #[test]
    fn a_bad_record_says_where_and_why() {
        let bytes =
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../xiangqi/tests/data/records/game-v10.xqf")).unwrap();
        let cut = &bytes[..bytes.len() - 7];
        let e = import(&ImportRequest { pgn: None, bytes: Some(base64(cut)), game: None }).unwrap_err();
        let vars: std::collections::HashMap<_, _> = e.vars.iter().cloned().collect();
        assert_eq!(e.code, Some("bad_record"), "{}", e.message);
        assert_eq!((vars["format"].as_str(), vars["at"].as_str()), ("xqf", "offset"), "{:?}", e.vars);
        assert!(vars["n"].parse::<usize>().unwrap() <= cut.len(), "{:?}", e.vars);
        assert_eq!(vars["reason"], "truncated", "{:?}", e.vars);

        let block = "[DhtmlXQ]\n[DhtmlXQ_movelist]77471010[/DhtmlXQ_movelist]\n[/DhtmlXQ]";
        let e = import(&ImportRequest { pgn: Some(block.into()), bytes: None, game: None }).unwrap_err();
        let vars: std::collections::HashMap<_, _> = e.vars.iter().cloned().collect();
        assert_eq!(
            (e.code, vars["format"].as_str(), vars["reason"].as_str()),
            (Some("bad_record"), "dhtmlxq", "bad_move"),
            "{:?}",
            e.vars
        );
        assert_eq!((vars["at"].as_str(), vars["ply"].as_str()), ("line", "2"), "{:?}", e.vars);

        let both = ImportRequest { pgn: Some("h2e2".into()), bytes: Some(base64(b"h2e2")), game: None };
        assert_eq!(import(&both).unwrap_err().status, 400);
        assert_eq!(
            import(&ImportRequest { pgn: None, bytes: Some("@@".into()), game: None }).unwrap_err().code,
            Some("bad_base64")
        );
    }

    #[test]
    fn a_collection_lists_its_games_and_opens_the_one_asked_for() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../qi/tests/data/match-games.pgn")).unwrap();
        let all = pgn::read_games(&text);
        let first = import(&ImportRequest { pgn: Some(text.clone()), bytes: None, game: None }).unwrap();
        // 15 games and, at the end, a tag pair alone: a 16th game without moves.
        assert_eq!((first.games, first.game, first.list.len()), (16, 1, 16));
        let third = import(&ImportRequest { pgn: Some(text.clone()), bytes: None, game: Some(3) }).unwrap();
        let want = all[2].as_ref().unwrap();
        let main: Vec<String> =
            std::iter::successors(third.tree.first(), |n| n.children.first()).map(|n| n.iccs.clone()).collect();
        assert_eq!(main, want.main_line().iter().map(ToString::to_string).collect::<Vec<_>>());
        assert_eq!(third.list, first.list, "the same list whichever game is open");
        let row = &first.list[2];
        assert_eq!((row.index, row.moves, row.red.as_str()), (3, want.main_line().len(), want.tag("Red").unwrap()));
        assert_eq!(row.event, "qi match");
        // The main line, for the page's opening names and explorer.
        assert_eq!(row.line.as_deref(), Some(main.join(" ").as_str()));
        assert_eq!(row.fen, None);
        let e = import(&ImportRequest { pgn: Some(text), bytes: None, game: Some(17) }).unwrap_err();
        assert_eq!(e.code, Some("no_game"));
        // One game: no list.
        let one = import(&ImportRequest { pgn: Some("h2e2 h9g7".into()), bytes: None, game: None }).unwrap();
        assert!(one.list.is_empty() && one.games == 1);
    }
}
