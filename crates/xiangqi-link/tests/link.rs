//! Share links: golden links (frozen: they must always decode to these games), every game of
//! the games file through both formats, random games and random text.

use proptest::prelude::*;
use xiangqi::{Move, Position, Setup};
use xiangqi_link::{self as link, compact, seed, train, LinkError, LinkFormat};

fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace().map(|m| m.parse().unwrap()).collect()
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// (value of g, start FEN, moves). Version 1 (`B`): never change these.
const GOLDEN_V1: &[(&str, &str, &str)] = &[
    ("BBB", START, ""),
    ("BQV", START, "h2e2"),
    ("BGezKv-kf7W_H7tcGmGXN3lVVgsn20VVNhu7E-lqko", START, "g0e2 b9c7 g3g4 c6c5 h0g2 c7d5 b0a2 h7e7 f0e1 h9g7 g2h4 e7e3 b2d2 b7b4 h4g6 i9h9 a0b0 a9b9 g4g5 c9e7 i0g0 h9h3 h2f2 h3f3 a3a4 b4b2 g0g2 f3i3 g2g0 i3f3 g0g2 f3h3 g2g0 h3f3 g0g2 e3e4 d2d4 b2b6 d4d2 b6b2 d2d4 b2b6 d4d2 b6g6 b0b9 g6g2 b9d9 e9e8 d9d5 f3g3 a2b4 g2g5 b4a6 e8e9 d2b2 g3g0 f2f0 g5i5 a6c7 f9e8 b2b9 e9f9 c7d9 e7c9 d9f8"),
    ("BE2Gs5EKD6WcG_qjM8h9ZLwcYfQsWT7MIuUfWe6G4zbjm0SnklXr1hyanZbHa", START, "g0e2 g6g5 b0a2 h9g7 a0a1 g9e7 a1g1 b9a7 g3g4 g5g4 g1g4 h7h9 a3a4 h9g9 g4h4 a9a8 i0i1 a8f8 i1f1 i9i8 a2b4 b7d7 b4d5 f8f1 h0f1 i8f8 h4f4 f8f4 d5f4 a7c8 b2c2 c8d6 c2c6 e6e5 c3c4 d6f5 f4d5 f9e8 d5b6 d7b7 h2h7 g9f9 f1d2 f9f6 c6i6 f6e6 i6i9 e9f9 c4c5 e6e3 d0e1 e3d3 c5d5 e5e4 e2g4 b7c7 i9i4 f5g3 e1f2 g7e6 h7h5 e6g5 i4h4 d3i3 d5e5 e4e3 d2c4 e7c5 e5f5 g5f7 f5f6 f7d6 b6d5 d6f5 d5c7 f5h4 c4e5 i3i0 f0e1 h4g2 e5g6 f9e9 c7d5 g2h0 e1f0 h0f1 e0e1 i0i1 e1e0 i1i0 e0e1 i0i1 e1e0 g3h1 g6i7 f1d2 e0d0 d2b1 d0e0 h1f2 e0e1 f2h1 e1e0 h1f2 e0e1 f2h1 e1e0 b1d2 e0d0 i1i0 d0d1 h1f0 d1e1 e9f9 h5f5 e8f7 i7g8 f9f8 d5c7 d2c0 e1f1 f0h1 f6e6"),
    ("BAjEaCgTPw", "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", "e1d1"),
    ("BAHD3vP_BgQ", "2bak4/4a4/4b4/9/9/9/9/4C4/4p4/3K5 b - - 0 1", ""),
    ("BAfGMeGx538Fv1Oi4HTwFuaaTlg", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1", "h7e7"),
];

#[test]
fn golden_compact_links_v1() {
    for &(value, fen, text) in GOLDEN_V1 {
        let start: Position = fen.parse().unwrap();
        let game = link::decode(&format!("https://example.org/xq?g={value}")).unwrap();
        assert_eq!(game.format, LinkFormat::Compact);
        assert_eq!(game.start, start, "{value}");
        assert_eq!(game.moves, moves(text), "{value}");
        // Version 1 is still what we write.
        assert_eq!(link::encode_compact(&start, &moves(text)), value);
    }
}

#[test]
fn version_2_carries_the_move_counters_and_only_games_that_need_it_use_it() {
    let golden_v2 = [
        ("CAjEaCgTQXn8us", "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 119 80", "e1d1"),
        ("C3pdU", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 3 7", "h2e2"),
    ];
    for (value, fen, text) in golden_v2 {
        let start: Position = fen.parse().unwrap();
        assert_eq!(link::encode_compact(&start, &moves(text)), value);
        let game = link::decode(&format!("g={value}")).unwrap();
        assert_eq!((game.start.fen(), game.moves), (fen.to_string(), moves(text)));
        // The seed format cannot say it, so it refuses rather than drop the counters.
        let refused = link::encode_seed(&start, &moves(text)).unwrap_err();
        assert!(matches!(refused, LinkError::Unrepresentable(_)), "{refused}");
        assert!(refused.to_string().contains("move counters"), "{refused}");
    }
    // The same board at `0 1` keeps its version 1 value (in GOLDEN_V1).
    let plain: Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1".parse().unwrap();
    assert_eq!(link::encode_compact(&plain, &moves("e1d1")), "BAjEaCgTPw");
    // Counters past u32 in a hand-made stream are an error, not a wrap.
    assert!(link::decode("g=CAAAAAAAAAB").is_err());
}

#[test]
fn encode_query_is_checked_and_share_query_falls_back_to_the_seed_format() {
    let late: Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 119 80".parse().unwrap();
    assert_eq!(link::share_query(&late, &moves("e1d1")).unwrap(), "g=CAjEaCgTQXn8us");
    assert!(link::encode_query(LinkFormat::Seed, &late, &[]).is_err());
    let start = Position::startpos();
    let query = link::encode_query(LinkFormat::Seed, &start, &moves("h2e2 h9g7")).unwrap();
    assert!(query.starts_with("p="), "{query}");
    assert!(matches!(link::share_query(&start, &moves("h2e2 h2e2")), Err(LinkError::IllegalMove { ply: 2, .. })));
}

#[test]
fn seed_example_link() {
    let url = "game.hullqin.cn/xq?p=gSQCL5P5oIDhCFJCIBJ4eQCAkX8&r=86pU6-4nbSh38OCojLarcupWOb1rXw&s=1";
    let game = link::decode(url).unwrap();
    assert_eq!(game.format, LinkFormat::Seed);
    assert_eq!(game.start, Position::startpos());
    assert_eq!(game.moves.len(), 20);
    assert_eq!(game.s.as_deref(), Some("1"));
    let mut pos = Position::startpos();
    for &m in &game.moves {
        pos.play(m).unwrap();
    }
    let back = link::encode_seed(&game.start, &game.moves).unwrap();
    assert_eq!(back.p, "gSQCL5P5oIDhCFJCIBJ4eQCAkX8");
    assert_eq!(back.r, "86pU6-4nbSh38OCojLarcupWOb1rXw");
    assert_eq!(back.query(), "p=gSQCL5P5oIDhCFJCIBJ4eQCAkX8&r=86pU6-4nbSh38OCojLarcupWOb1rXw&s=1");
}

#[test]
fn every_game_round_trips_through_both_formats() {
    let games = train::parse_games(include_str!("../../xiangqi/tests/data/games.tsv")).unwrap();
    assert_eq!(games.len(), 2401);
    // A digest of every game's compact value: version 1 must never change (FNV-1a 64).
    let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
    for g in &games {
        let value = link::encode_compact(&g.start, &g.moves);
        for b in value.bytes().chain([b'\n']) {
            digest = (digest ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        let back = link::decode(&format!("g={value}")).unwrap();
        assert_eq!((&back.start, &back.moves), (&g.start, &g.moves), "{}", g.id);
        let s = link::encode_seed(&g.start, &g.moves).unwrap();
        let back = link::decode(&s.query()).unwrap();
        assert_eq!((&back.start, &back.moves), (&g.start, &g.moves), "{}", g.id);
    }
    assert_eq!(digest, 0xcb43_16b2_0ef5_042e, "digest {digest:#x}");
}

#[test]
fn errors_name_the_problem() {
    assert!(matches!(link::decode(""), Err(LinkError::Empty)));
    assert!(matches!(link::decode("g=Z"), Err(LinkError::UnknownVersion('Z'))));
    assert!(matches!(link::decode("g=BQ*g"), Err(LinkError::BadCharacter { position: 2, .. })));
    assert!(matches!(link::decode("p=gSQCL5P5oIDhCF"), Err(LinkError::Truncated { field: "p" })));
    assert!(matches!(
        compact::try_encode(&Position::startpos(), &moves("h2e2 h2e2")),
        Err(LinkError::IllegalMove { ply: 2, .. })
    ));
    assert!(matches!(seed::encode(&Position::startpos(), &moves("a0a4")), Err(LinkError::IllegalMove { ply: 1, .. })));
    // Extra data after the end of a game.
    let long = format!("g={}AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB", link::encode_compact(&Position::startpos(), &[]));
    assert!(link::decode(&long).is_err());
    for e in [LinkError::Truncated { field: "r" }, LinkError::IllegalMove { ply: 3, mv: "a0a2".into() }] {
        assert!(!e.to_string().is_empty());
    }
}

/// A random legal game of up to `len` plies from `start`.
fn random_game(start: &Position, seed: u64, len: usize) -> Vec<Move> {
    let mut rng = seed | 1;
    let mut pos = start.clone();
    let mut out = Vec::new();
    for _ in 0..len {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let m = legal[(rng % legal.len() as u64) as usize];
        pos.play_unchecked(m);
        out.push(m);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_games_round_trip(seed in any::<u64>(), len in 0usize..160, skip in 0usize..40) {
        // Start either from the standard position or from one reached by random play (with the
        // move counters that play gave it).
        let standard = Position::startpos();
        let mut start = standard.clone();
        for m in random_game(&standard, seed ^ 0x5555, skip) {
            start.play_unchecked(m);
        }
        let game = random_game(&start, seed, len);
        let value = link::encode_compact(&start, &game);
        let back = link::decode(&format!("g={value}")).unwrap();
        prop_assert_eq!(back.start.fen(), start.fen());
        prop_assert_eq!(&back.moves, &game);
        // The seed format has no counters: it refuses them, and holds any position reached
        // from the standard one when they are reset.
        let counted = (start.halfmoves(), start.fullmoves()) != (0, 1);
        prop_assert_eq!(link::encode_seed(&start, &game).is_err(), counted);
        let reset = Position::from_setup(&Setup { halfmoves: 0, fullmoves: 1, ..start.to_setup() }).unwrap();
        let s = link::encode_seed(&reset, &game).unwrap();
        let back = link::decode(&s.query()).unwrap();
        prop_assert_eq!(back.start.fen(), reset.fen());
        prop_assert_eq!(&back.moves, &game);
    }

    #[test]
    fn random_text_never_panics(text in "[A-Za-z0-9_=&?.:/-]{0,80}") {
        let _ = link::decode(&text);
        let _ = link::decode(&format!("g=B{text}"));
        let _ = link::decode(&format!("p={text}"));
        let _ = link::decode(&format!("p=gSQCL5P5oIDhCFJCIBJ4eQCAkX8&r={text}"));
    }

    /// Valid links with one character changed, cut or extended: a game or an error.
    #[test]
    fn mutated_links_never_panic(seed in any::<u64>(), len in 0usize..120, at in any::<usize>(), c in 0u8..64, cut in any::<bool>()) {
        const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let start = Position::startpos();
        let game = random_game(&start, seed, len);
        let half = (len / 2).min(game.len());
        let mut custom = start.clone();
        for &m in &game[..half] {
            custom.play_unchecked(m);
        }
        for text in [
            link::encode_compact(&start, &game),
            link::encode_compact(&custom, &game[half..]),
            link::encode_seed(&start, &game).unwrap().p,
            link::encode_seed(&start, &game).unwrap().r,
        ] {
            let mut bytes = text.into_bytes();
            if bytes.is_empty() {
                continue;
            }
            let i = at % bytes.len();
            if cut {
                bytes.truncate(i);
            } else {
                bytes[i] = B64[c as usize];
            }
            let text = String::from_utf8(bytes).unwrap();
            let _ = link::decode(&format!("g={text}"));
            let _ = link::decode(&format!("p={text}"));
            let _ = link::decode(&format!("p=gSQCL5P5oIDhCFJCIBJ4eQCAkX8&r={text}"));
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..60)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = link::decode(&text);
        let _ = link::decode(&format!("g=B{text}"));
    }
}
