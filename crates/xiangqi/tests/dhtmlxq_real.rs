//! DhtmlXQ as the sites write it: every block of the real forum posts in
//! `tests/data/records/dhtmlxq` (see `tests/data/records/SOURCE.md`) read and checked against
//! the block's own text, found here apart from the reader: the moves of `[DhtmlXQ_movelist]`,
//! the branches and comments, and the result as written.
//!
//! A game reads exactly when it reads, its main line has as many moves as its movelist, it has
//! a variation for every non-empty branch and a comment for every non-empty comment field, and
//! its result is kept as written (the `ResultText` tag) and as the PGN marker that text means.
//!
//! `cargo test -p xiangqi --test dhtmlxq_real -- --nocapture` prints the figure.

use xiangqi::record::{count_comments, count_variations, dhtmlxq, parse_result, PgnGame};

/// The pages: the committed ones, or those of the directory `QI_DHTMLXQ_PAGES` names (to
/// measure a larger set the same way).
fn dir() -> std::path::PathBuf {
    match std::env::var_os("QI_DHTMLXQ_PAGES") {
        Some(d) => d.into(),
        None => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records/dhtmlxq"),
    }
}

fn page(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap()
}

/// Every page of the directory, by name.
fn pages() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".html"))
        .collect();
    names.sort();
    names
}

/// The blocks of a page: from each opening tag to the next one.
fn blocks(text: &str) -> Vec<&str> {
    let lower = text.to_ascii_lowercase();
    let mut starts: Vec<usize> = ["[dhtmlxq]", "[dhtmlxqiframe]"]
        .iter()
        .flat_map(|tag| lower.match_indices(tag).map(|(i, _)| i).collect::<Vec<_>>())
        .collect();
    starts.sort();
    starts.iter().enumerate().map(|(k, &s)| &text[s..starts.get(k + 1).copied().unwrap_or(text.len())]).collect()
}

/// Where a field's text ends: at the next DhtmlXQ tag, opening or closing (the text itself
/// may hold brackets).
fn body_end(body: &str) -> usize {
    let lower = body.to_ascii_lowercase();
    [lower.find("[dhtmlxq"), lower.find("[/dhtmlxq")].into_iter().flatten().min().unwrap_or(body.len())
}

/// The raw contents of every field named `name` (ASCII case ignored), up to the next tag.
fn fields<'a>(block: &'a str, name: &str) -> Vec<&'a str> {
    let lower = block.to_ascii_lowercase();
    let open = format!("[dhtmlxq_{name}]");
    lower
        .match_indices(&open)
        .map(|(i, _)| {
            let body = &block[i + open.len()..];
            let body = &body[..body_end(body)];
            // Pages that hold the block in a script string escape the closing `[`.
            body.strip_suffix('\\').unwrap_or(body)
        })
        .collect()
}

/// The different fields whose name is `prefix` then digits and `_`, with non-empty text (a
/// field written twice is one).
fn numbered(block: &str, prefix: &str) -> usize {
    let lower = block.to_ascii_lowercase();
    let open = format!("[dhtmlxq_{prefix}");
    let names: std::collections::HashSet<&str> = lower
        .match_indices(&open)
        .filter_map(|(i, _)| {
            let rest = &block[i + open.len()..];
            let close = rest.find(']')?;
            let name = &rest[..close];
            let body = &rest[close + 1..];
            let text = strip(&body[..body_end(body)]);
            (name.starts_with(|c: char| c.is_ascii_digit())
                && name.chars().all(|c| c.is_ascii_digit() || c == '_')
                && !text.trim().is_empty())
            .then_some(name)
        })
        .collect();
    names.len()
}

/// The plies of the main line's comment fields (`commentN`, written once each, not empty).
fn comment_plies(block: &str) -> Vec<usize> {
    let lower = block.to_ascii_lowercase();
    let mut plies: Vec<usize> = lower
        .match_indices("[dhtmlxq_comment")
        .filter_map(|(i, _)| {
            let rest = &block[i + 16..];
            let name = &rest[..rest.find(']')?];
            let body = &rest[name.len() + 1..];
            let text = strip(&body[..body_end(body)]);
            (!text.trim().is_empty()).then(|| name.parse().ok()).flatten()
        })
        .collect();
    plies.sort();
    plies.dedup();
    plies
}

/// Whether a block holds a game: a digit in its movelist or its start position (the others
/// are forum posts that show the format with words in place of moves, or a search link).
fn holds_a_game(block: &str) -> bool {
    ["movelist", "binit"].iter().any(|f| fields(block, f).iter().any(|t| t.bytes().any(|b| b.is_ascii_digit())))
}

/// Text without HTML tags, with the entities the pages use and `||` as a line break.
fn strip(raw: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in raw.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    // Numeric entities (`&#13;` in the pages' titles) as characters.
    let mut decoded = String::new();
    let mut rest = out.as_str();
    while let Some(i) = rest.find("&#") {
        decoded.push_str(&rest[..i]);
        let tail = &rest[i + 2..];
        let end = tail.find(';').filter(|&e| e > 0 && e < 8 && tail[..e].bytes().all(|b| b.is_ascii_digit()));
        match end.and_then(|e| char::from_u32(tail[..e].parse().ok()?).map(|c| (c, e))) {
            Some((c, e)) => {
                decoded.push(c);
                rest = &tail[e + 1..];
            }
            None => {
                decoded.push_str("&#");
                rest = tail;
            }
        }
    }
    decoded.push_str(rest);
    // A script's `\uXXXX` escapes as characters.
    let mut text = String::new();
    let mut rest = decoded.as_str();
    while let Some(i) = rest.find("\\u") {
        text.push_str(&rest[..i]);
        let code = rest.get(i + 2..i + 6).filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
        match code.and_then(|h| char::from_u32(u32::from_str_radix(h, 16).ok()?)) {
            Some(c) => {
                text.push(c);
                rest = &rest[i + 6..];
            }
            None => {
                text.push_str("\\u");
                rest = &rest[i + 2..];
            }
        }
    }
    text.push_str(rest);
    text.replace("&nbsp;", " ").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("||", "\n")
}

/// How many moves a movelist's main line holds, how many branches it starts and how many moves
/// it holds in all (the plies its `commentN` fields can follow): four digits
/// a move, or dpxq's records (`77479EZK0000`: the move, three characters ending in `X`, `Y` or
/// `Z`, one more, then a record's number: its own place while the line goes on, an earlier
/// one for an alternative to that record).
fn movelist_moves(raw: &str) -> (usize, usize, usize) {
    let text: String = strip(raw).chars().filter(char::is_ascii_alphanumeric).collect();
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return (text.len() / 4, 0, text.len() / 4);
    }
    let b = text.as_bytes();
    let mut starts = Vec::new();
    let mut j = 0;
    while j + 7 <= b.len() {
        if matches!(b[j + 6], b'X' | b'Y' | b'Z') {
            starts.push(j);
            j += 7;
        } else {
            j += 1;
        }
    }
    let numbers: Vec<usize> = starts
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            let end = starts.get(k + 1).copied().unwrap_or(text.len());
            text[s + 8..end].parse().unwrap()
        })
        .collect();
    let main = numbers.iter().enumerate().take_while(|(k, n)| k == *n).count();
    (main, numbers.iter().enumerate().filter(|(k, n)| k != *n).count(), numbers.len())
}

/// The result a title states between two names (`洪智 胜 徐天红`, `吴贵临 先和 陈富杰`).
fn title_result(block: &str) -> &'static str {
    let title = fields(block, "title").first().map(|t| strip(t)).unwrap_or_default();
    let words: Vec<&str> = title.split_whitespace().collect();
    let inner = if words.len() > 2 { &words[1..words.len() - 1] } else { &[][..] };
    let found: Vec<&str> = inner
        .iter()
        .filter_map(|w| match w.trim_start_matches('先') {
            "胜" => Some("1-0"),
            "负" => Some("0-1"),
            "和" => Some("1/2-1/2"),
            _ => None,
        })
        .collect();
    if found.len() == 1 {
        found[0]
    } else {
        "*"
    }
}

/// Why a block is not read exactly, or `None`.
fn check(block: &str, read: &Result<PgnGame, xiangqi::record::RecordError>) -> Option<String> {
    let game = match read {
        Ok(game) => game,
        Err(e) => return Some(format!("does not read: {e}")),
    };
    let (want, records, all) = fields(block, "movelist").first().map_or((0, 0, 0), |m| movelist_moves(m));
    let got = game.main_line().len();
    if got != want {
        return Some(format!("{got} moves read, the movelist has {want}"));
    }
    let branches = numbered(block, "move_") + records;
    if count_variations(&game.line) != branches {
        return Some(format!("{} variations read, {branches} branches", count_variations(&game.line)));
    }
    // A main-line comment after a ply the movelist never reaches belongs to no move.
    let stray = comment_plies(block).iter().filter(|&&n| n > all).count();
    let comments = numbered(block, "comment") - stray;
    if count_comments(&game.line) != comments {
        return Some(format!("{} comments read, {comments} comment fields", count_comments(&game.line)));
    }
    let written = fields(block, "result").first().map(|r| strip(r).trim().to_string()).unwrap_or_default();
    if game.tag("ResultText").unwrap_or("") != written {
        return Some(format!("result {:?} kept as {:?}", written, game.tag("ResultText")));
    }
    let marker = if written.is_empty() { title_result(block) } else { parse_result(&written).unwrap_or("*") };
    if game.result.as_deref().unwrap_or("*") != marker {
        return Some(format!("result {written:?} read as {:?}, not {marker}", game.result));
    }
    None
}

/// Every page: (pages, games, read exactly, the ones that are not with why).
fn measure() -> (usize, usize, usize, Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    let names = pages();
    let (mut games, mut exact, mut misses) = (0, 0, Vec::new());
    for name in &names {
        let text = page(name);
        let read = dhtmlxq::read_all(&text);
        let raw = blocks(&text);
        assert_eq!(read.len(), raw.len(), "{name}: blocks");
        for (k, (block, game)) in raw.iter().zip(&read).enumerate() {
            if !holds_a_game(block) {
                assert!(game.is_err(), "{name} game {}: not a game, yet read", k + 1);
                continue;
            }
            // A block quoted again in a reply is the same game: counted once.
            let key: String = ["binit", "movelist"].iter().flat_map(|f| fields(block, f)).collect();
            if !seen.insert((key, numbered(block, "move_"), fields(block, "title").concat())) {
                continue;
            }
            games += 1;
            match check(block, game) {
                None => exact += 1,
                Some(why) => misses.push(format!("{name} game {}: {why}", k + 1)),
            }
        }
    }
    (names.len(), games, exact, misses)
}

#[test]
fn at_least_99_percent_of_real_games_read_exactly() {
    let (pages, games, exact, misses) = measure();
    println!("{pages} pages, {games} different games, {exact} read exactly");
    for m in &misses {
        println!("  not exact: {m}");
    }
    assert!(games >= 150, "{games} games");
    assert!(exact * 100 >= games * 99, "{exact} of {games} read exactly: {misses:#?}");
}

/// The `k`th block (from 1) of a page, read.
fn game(name: &str, k: usize) -> PgnGame {
    dhtmlxq::read_all(&page(name)).swap_remove(k - 1).unwrap()
}

fn iccs(game: &PgnGame) -> Vec<String> {
    game.main_line().iter().map(ToString::to_string).collect()
}

#[test]
fn a_tournament_game_in_records_with_every_header() {
    // 2007 广西大地杯, round 13: 黎德志 (Red) lost to 秦劲松, written `红先负`; 102 records.
    let g = game("gdchess-d_00089.html", 3);
    assert_eq!(g.tag("Red"), Some("广东 黎德志"));
    assert_eq!(g.tag("Black"), Some("广西 秦劲松"));
    assert_eq!(g.tag("Event"), Some("2007广西第3届大地杯象棋公开赛"));
    assert_eq!(g.tag("Round"), Some("第 13 轮"));
    assert_eq!(g.tag("Date"), Some("20070227"));
    assert_eq!(g.tag("Opening"), Some("中炮七兵过河车对屏风马平炮兑车"));
    assert_eq!(g.tag("Type"), Some("全局"));
    assert_eq!(g.tag("ResultText"), Some("红先负"));
    assert_eq!((g.result.as_deref(), g.tag("Result")), (Some("0-1"), Some("0-1")));
    assert_eq!(g.main_line().len(), 102);
    assert_eq!(iccs(&g)[..4], ["h2e2", "h9g7", "h0g2", "i9h9"]);
    assert!(g.line.comment.as_deref().unwrap().starts_with("棋局步数：102\n棋局结果：红负"));
    assert_eq!(g.line.moves[101].comment.as_deref(), Some("黑胜"));
    // Written back, the result keeps its form.
    assert!(dhtmlxq::write(&g).contains("[DhtmlXQ_result]红先负[/DhtmlXQ_result]"));
}

#[test]
fn records_numbered_back_are_variations() {
    // 黑进7卒 红巡河车: records 26, 34 and 60 name an earlier record (25, 11, 8), so each
    // starts a variation; the main line is the 26 records before the first of them.
    let g = game("gdchess-a_00345.html", 1);
    assert_eq!(g.tag("Title"), Some("黑进7卒 红巡河车"));
    assert_eq!(g.tag("ResultText"), Some("未知"));
    assert_eq!(g.result.as_deref(), Some("*"));
    assert_eq!(g.main_line().len(), 26);
    assert_eq!(count_variations(&g.line), 3);
    // Record 34 (`72719RYD0011`) is 炮8退1 in place of ply 12.
    assert_eq!(g.line.moves[11].variations[0].moves[0].mv.to_string(), "h7h8");
    // `comment9` follows record 8, the ninth move of the main line.
    assert_eq!(g.line.moves[8].comment.as_deref(), Some("正着"));
}

#[test]
fn a_dpxq_block_with_its_own_start_a_branch_and_comments() {
    let g = game("gdchess-4_00306.html", 3);
    assert_eq!(g.tag("Title"), Some("无标题"));
    assert_eq!(g.tag("Type"), Some("实战全局/开局"));
    assert_eq!(g.tag("ResultText"), Some("未知"));
    assert_eq!(g.main_line().len(), 12);
    assert_eq!(g.line.comment.as_deref(), Some("过早兑炮\n\n红赢棋困难"));
    assert_eq!(g.line.moves[4].comment.as_deref(), Some("应该走马八进九\n保留变化"));
    // `move_0_9_1`: ten moves in place of ply 9, with `comment1_18` after its last.
    let v = &g.line.moves[8].variations[0];
    assert_eq!(v.moves.len(), 10);
    assert_eq!(v.moves[9].comment.as_deref(), Some("黑也是可以下下"));
}

#[test]
fn every_real_game_written_back_reads_the_same() {
    // The same moves, variations, comments and result as written (brackets in a comment
    // become full-width: a bracket would end the field).
    for name in pages() {
        for game in dhtmlxq::read_all(&page(&name)).into_iter().flatten() {
            let again = dhtmlxq::read(&dhtmlxq::write(&game)).unwrap();
            assert_eq!((&again.start, again.main_line()), (&game.start, game.main_line()), "{name}");
            assert_eq!(count_variations(&again.line), count_variations(&game.line), "{name}");
            assert_eq!(count_comments(&again.line), count_comments(&game.line), "{name}");
            if game.tag("ResultText").is_some() {
                assert_eq!(again.tag("ResultText"), game.tag("ResultText"), "{name}");
            }
            assert_eq!(again.result.as_deref().unwrap_or("*"), game.result.as_deref().unwrap_or("*"), "{name}");
        }
    }
}
