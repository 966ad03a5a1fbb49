//! PGN: every game of tests/data/games.tsv written in each notation reads back to the same
//! moves; many games per file, errors located by game and line, GBK, comments, variations.

use xiangqi::notation::Notation;
use xiangqi::pgn::{decode, read_games, PgnError, PgnErrorKind, PgnGame};
use xiangqi::{Move, Position};

const GAMES: &str = include_str!("data/games.tsv");

fn games() -> Vec<PgnGame> {
    GAMES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let start: Position = cols[1].parse().unwrap();
            let moves: Vec<Move> = cols[2].split_whitespace().map(|m| m.parse().unwrap()).collect();
            let mut g = PgnGame::new(start, &moves);
            g.set_tag("Event", cols[0]);
            g.result = Some(cols[3].to_string()).filter(|r| ["1-0", "0-1", "1/2-1/2", "*"].contains(&r.as_str()));
            g
        })
        .collect()
}

#[test]
fn all_games_round_trip_in_every_notation() {
    let games = games();
    for n in Notation::ALL {
        let file: String = games.iter().map(|g| g.write(n) + "\n").collect();
        let back = read_games(&file);
        assert_eq!(back.len(), games.len(), "{n}");
        for (g, b) in games.iter().zip(&back) {
            let b = b.as_ref().unwrap_or_else(|e| panic!("{n}: {e}"));
            assert_eq!(b.main_line(), g.main_line(), "{n} {:?}", g.tag("Event"));
            // Traditional glyphs are Chinese notation to other programs.
            let format = if n == Notation::Traditional { Notation::Chinese } else { n };
            assert_eq!(b.tag("Format"), Some(format.name()));
            assert_eq!(b.result, g.result);
        }
    }
}

const SAMPLE: &str = r#"[Game "Chinese Chess"]
[Event "Test"]
[Red "Hu Ronghua"]
[Black "Yang Guanlin"]
[Result "1-0"]
[Format "Chinese"]

{Opening} 1. 炮二平五 马8进7 {Screen horse} 2. 马二进三 (2. 兵七进一 卒7进1 (2... 车9平8)) 2... 车9平8
3. 车一平二 $1 1-0

[Game "Chinese Chess"]
[Event "Broken"]

1. h2e2 h9g7 2. zz9 *

[Game "Chinese Chess"]
[FEN "4k4/9/9/9/9/9/9/9/4R4/5K3 b - - 0 30"]
30... e9d9 31. R5.6 *
"#;

#[test]
fn wrapped_lines_keep_each_move_number_with_its_move() {
    for g in games().iter().take(50) {
        for n in Notation::ALL {
            let text = g.write(n);
            let movetext = text.lines().skip_while(|l| !l.is_empty());
            for line in movetext {
                let last = line.split(' ').next_back().unwrap_or("");
                assert!(!last.ends_with('.'), "{n}: a line ends with the move number {last:?}:\n{text}");
                assert!(line.chars().count() <= 80, "{n}: line longer than 80 characters: {line}");
            }
        }
    }
}

#[test]
fn many_games_comments_variations_and_errors() {
    let games = read_games(SAMPLE);
    assert_eq!(games.len(), 3);
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.tag("Red"), Some("Hu Ronghua"));
    assert_eq!(g.line.comment.as_deref(), Some("Opening"));
    assert_eq!(
        g.main_line().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]
    );
    assert_eq!(g.line.moves[1].comment.as_deref(), Some("Screen horse"));
    let var = &g.line.moves[2].variations[0];
    assert_eq!(var.moves.len(), 2);
    assert_eq!(var.moves[1].variations[0].moves[0].mv.to_string(), "i9h9");
    assert_eq!(g.result.as_deref(), Some("1-0"));
    let e = games[1].as_ref().unwrap_err();
    assert_eq!((e.game, e.line), (2, 14));
    assert!(matches!(&e.kind, PgnErrorKind::BadMove { number: 2, text, .. } if text == "zz9"));
    let g = games[2].as_ref().unwrap();
    assert_eq!(g.main_line().iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["e9d9", "e1d1"]);

    // Written again, the variations and comments survive and read back the same.
    for n in Notation::ALL {
        let text = games[0].as_ref().unwrap().write(n);
        let again = read_games(&text);
        let again = again[0].as_ref().unwrap();
        assert_eq!(again.line, games[0].as_ref().unwrap().line, "{n}:\n{text}");
    }
    let wxf = games[0].as_ref().unwrap().write(Notation::Wxf).replace('\n', " ");
    assert!(
        wxf.contains("{Opening} 1. C2.5 H8+7 {Screen horse} 2. H2+3 (2. P7+1 P7+1 (2... R9.8)) 2... R9.8"),
        "{wxf}"
    );
    let black_first = games[2].as_ref().unwrap().write(Notation::Chinese);
    assert!(black_first.contains("30... 将5平4 31. 车五平六 *"), "{black_first}");
}

#[test]
fn gbk_and_bom() {
    let (gbk, _, _) = encoding_rs::GBK.encode("[Red \"胡荣华\"]\n1. 炮二平五 马8进7 *\n");
    let text = decode(&gbk);
    let games = read_games(&text);
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.tag("Red"), Some("胡荣华"));
    assert_eq!(g.main_line().len(), 2);
    let bom = "\u{feff}1. h2e2 *".as_bytes();
    assert_eq!(read_games(&decode(bom))[0].as_ref().unwrap().main_line().len(), 1);
}

#[test]
fn malformed_input_is_reported() {
    let cases = [
        ("[Red \"x\"\n1. h2e2 *", PgnErrorKind::BadTag("[Red \"x\"".into())),
        ("1. h2e2 ) *", PgnErrorKind::UnbalancedVariation),
        ("( h2e2 ) *", PgnErrorKind::UnbalancedVariation),
        ("1. h2e2 (1. b2e2 *", PgnErrorKind::ResultInVariation),
        ("1. h2e2 (1. b2e2", PgnErrorKind::UnbalancedVariation),
        ("1. h2e2 {open", PgnErrorKind::UnterminatedComment),
    ];
    for (text, kind) in cases {
        let games = read_games(text);
        assert_eq!(games[0].as_ref().unwrap_err().kind, kind, "{text}");
    }
    assert!(matches!(read_games("[FEN \"bad\"]\n*")[0].as_ref().unwrap_err().kind, PgnErrorKind::BadFen(_)));
}

#[test]
fn result_tag_that_is_not_a_marker() {
    // Found by the `pgn` fuzz target: the tag's value was taken as the result and written at
    // the end of the movetext, where it read back as a bad move.
    let games = read_games("[Result\"S\"]");
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.tag("Result"), Some("S"));
    assert_eq!(g.result, None);
    for n in Notation::ALL {
        let text = g.write(n);
        assert!(text.ends_with("\n\n*\n"), "{text}");
        let again = read_games(&text);
        assert_eq!(again[0].as_ref().unwrap().main_line(), g.main_line());
    }
    // A marker in the tag still counts; a result set by hand that is not one is written `*`.
    assert_eq!(read_games("[Result \"0-1\"]\n1. h2e2")[0].as_ref().unwrap().result.as_deref(), Some("0-1"));
    let mut g = g.clone();
    g.result = Some("ICCS".into());
    assert!(g.write(Notation::Iccs).ends_with("\n\n*\n"));
}

#[test]
fn deeply_nested_variations_are_an_error_not_a_stack_overflow() {
    use xiangqi::pgn::MAX_VARIATION_DEPTH;
    // 10,000 nested variations overflowed the stack of the recursive reader.
    let text = "h2e2 (".repeat(10_000);
    let err = read_games(&text)[0].as_ref().unwrap_err().clone();
    assert_eq!((err.line, err.kind), (1, PgnErrorKind::TooDeep));
    // As deep as allowed reads, and writes text that reads back the same.
    let ok = format!("{}{}", "h2e2 (".repeat(MAX_VARIATION_DEPTH), ")".repeat(MAX_VARIATION_DEPTH));
    let g = read_games(&ok)[0].clone().unwrap();
    assert_eq!(read_games(&g.write(Notation::Iccs))[0].as_ref().unwrap().line, g.line);
    let deeper = format!("{}{}", "h2e2 (".repeat(MAX_VARIATION_DEPTH + 1), ")".repeat(MAX_VARIATION_DEPTH + 1));
    assert_eq!(read_games(&deeper)[0].as_ref().unwrap_err().kind, PgnErrorKind::TooDeep);
}

#[test]
fn many_variations_write_in_linear_time() {
    // The writer glued parentheses by removing words from the middle of a vector: 100,000
    // variations took half a minute to write.
    let text = format!("h2e2 {}", "(b2e2) ".repeat(100_000));
    let g = read_games(&text)[0].clone().unwrap();
    assert_eq!(g.line.moves[0].variations.len(), 100_000);
    let out = g.write(Notation::Iccs);
    assert!(out.contains("1. H2-E2 (1. B2-E2) (1. B2-E2)"), "{}", &out[..200]);
    assert_eq!(read_games(&out)[0].as_ref().unwrap().line, g.line);
}

#[test]
fn a_line_longer_than_the_game_length_limit_is_an_error() {
    use xiangqi::{GameTooLong, MAX_GAME_PLIES};
    // Horses out and back: legal for ever, so only the limit stops it.
    let cycle = "h0g2 h9g7 g2h0 g7h9 ";
    let at_limit = cycle.repeat(MAX_GAME_PLIES / 4);
    assert_eq!(read_games(&at_limit)[0].as_ref().unwrap().main_line().len(), MAX_GAME_PLIES);
    let err = read_games(&format!("{at_limit}h0g2"))[0].as_ref().unwrap_err().clone();
    assert_eq!(err.kind, PgnErrorKind::TooLong(GameTooLong));
    assert_eq!(err.kind.to_string(), GameTooLong.to_string());
    // A variation counts from the start of the game: replacing the last move keeps the length.
    let variation = format!("{at_limit}(g7e8)");
    assert!(read_games(&variation)[0].is_ok());
    let too_long_variation = format!("{at_limit}(g7e8 h0g2)");
    assert_eq!(read_games(&too_long_variation)[0].as_ref().unwrap_err().kind, PgnErrorKind::TooLong(GameTooLong));
}

#[test]
fn errors_quote_a_short_excerpt_of_a_long_token() {
    let long = "x".repeat(60_000);
    let err = read_games(&format!("1. {long}"))[0].as_ref().unwrap_err().to_string();
    assert!(err.len() < 300, "{} bytes: {}", err.len(), &err[..200]);
    assert!(err.contains("(60000 bytes)"), "{err}");
}

#[test]
fn a_comment_over_the_record_bound_is_an_error() {
    use xiangqi::record::MAX_COMMENT_BYTES;
    // A 5 MB comment was read whole (19 MB of memory) and then failed to read back as DhtmlXQ
    // or text, whose readers keep the bound.
    let huge = format!("1. h2e2 {{{}}} h9g7 *", "x".repeat(5_000_000));
    let err = read_games(&huge)[0].as_ref().unwrap_err().clone();
    assert_eq!((err.line, &err.kind), (1, &PgnErrorKind::CommentTooLong(5_000_000)));
    assert_eq!(err.to_string(), "game 1, line 1: a comment of 5000000 bytes (the limit is 65536)");
    let line_comment = format!("1. h2e2 ;{}\nh9g7 *", "y".repeat(MAX_COMMENT_BYTES + 1));
    assert!(matches!(read_games(&line_comment)[0], Err(PgnError { kind: PgnErrorKind::CommentTooLong(_), .. })));
    // Comments in a row read as one, so they share the bound.
    let half = "z".repeat(MAX_COMMENT_BYTES / 2);
    let row = format!("1. h2e2 {{{half}}} {{{half}}} h9g7 *");
    assert!(matches!(read_games(&row)[0], Err(PgnError { kind: PgnErrorKind::CommentTooLong(65537), .. })));
    // At the bound, with spaces round it (dropped, as always), a comment reads, and what is
    // written reads back the same.
    let full = "中".repeat(MAX_COMMENT_BYTES / 3) + &"x".repeat(MAX_COMMENT_BYTES % 3);
    let game = read_games(&format!("1. h2e2 {{  {full} \n}} *"))[0].clone().unwrap();
    assert_eq!(game.line.moves[0].comment.as_deref(), Some(full.as_str()));
    let back = read_games(&game.write(Notation::Iccs))[0].clone().unwrap();
    assert_eq!(back.line, game.line);
}

#[test]
fn games_are_read_one_at_a_time_and_a_text_holds_at_most_the_games_bound() {
    use xiangqi::pgn::{games, MAX_RECORD_GAMES};
    // 100,000 small games took 487 MB when every game's tokens were held at once; read one at
    // a time, each is read as before and the count past the bound is one error, then the end.
    let one = "[Event \"e\"]\n1. h2e2 h9g7 *\n";
    let text = one.repeat(MAX_RECORD_GAMES + 5);
    let mut read = games(&text);
    let first = read.next().unwrap().unwrap();
    assert_eq!((first.tag("Event"), first.main_line().len()), (Some("e"), 2));
    let rest: Vec<_> = read.collect();
    assert_eq!(rest.len(), MAX_RECORD_GAMES);
    assert!(rest[..MAX_RECORD_GAMES - 1].iter().all(|g| g.as_ref().is_ok_and(|g| g.main_line().len() == 2)));
    let err = rest.last().unwrap().as_ref().unwrap_err();
    assert_eq!(
        (err.game, err.line, &err.kind),
        (MAX_RECORD_GAMES + 1, 2 * MAX_RECORD_GAMES + 1, &PgnErrorKind::TooManyGames)
    );
    assert_eq!(err.kind.to_string(), "more than 100000 games (the limit): the rest are not read");
    assert_eq!(read_games(&text).len(), MAX_RECORD_GAMES + 1);
}

#[test]
fn a_game_of_more_tokens_than_the_bound_is_an_error_and_the_next_game_reads() {
    use xiangqi::pgn::MAX_GAME_TOKENS;
    // A game that never ends (no result, no new tag) was held whole as tokens, however long
    // its text. Past the bound the tokens are counted, not kept. Each variation of the first
    // move is three tokens: `(`, the move, `)`.
    let game = |variations: usize| format!("1. h2e2 {}*\n", "(1. b2e2) ".repeat(variations));
    let fits = (MAX_GAME_TOKENS - 2) / 3;
    let at_bound = read_games(&game(fits));
    assert_eq!(at_bound[0].as_ref().unwrap().line.moves[0].variations.len(), fits);
    let long = game(fits + 1) + "[Event \"next\"]\n1. b2e2 *\n";
    let games = read_games(&long);
    assert_eq!(games.len(), 2);
    let err = games[0].as_ref().unwrap_err();
    assert_eq!((err.game, err.line), (1, 1));
    assert_eq!(err.kind, PgnErrorKind::TooManyTokens(3 * fits + 5));
    assert!(err.to_string().contains("the limit is 400000"), "{err}");
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("next"));
}
