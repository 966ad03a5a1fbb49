//! `qi record show|convert|image` end to end, on real XQF files and made-up DhtmlXQ, PGN and
//! text records.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn qi(args: &[&str]) -> (bool, Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qi")).args(args).output().expect("qi runs");
    (out.status.success(), out.stdout, String::from_utf8(out.stderr).unwrap())
}

fn data(name: &str) -> String {
    format!("{}/../xiangqi/tests/data/records/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn show_json(path: &str) -> Value {
    let (ok, out, err) = qi(&["record", "show", "--json", path]);
    assert!(ok, "{err}");
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 1, "exactly one object");
    serde_json::from_str(&text).unwrap()
}

const DHTMLXQ: &str = "[DhtmlXQ]\n[DhtmlXQ_title]测试[/DhtmlXQ_title]\n[DhtmlXQ_red]甲[/DhtmlXQ_red]\n\
    [DhtmlXQ_result]黑胜[/DhtmlXQ_result]\n[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist]\n\
    [DhtmlXQ_move_0_1_1]1747[/DhtmlXQ_move_0_1_1]\n[DhtmlXQ_comment1]中炮[/DhtmlXQ_comment1]\n[/DhtmlXQ]\n";

fn temp(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> String {
    let p: PathBuf = dir.path().join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn show_json_in_every_format() {
    let v = show_json(&data("variations-v18.xqf"));
    assert_eq!(v["format"], "xqf");
    let g = &v["games"][0];
    assert_eq!(g["start_fen"], "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert_eq!(g["moves"].as_array().unwrap().len(), 8);
    assert_eq!(g["moves"][0], "h2e2");
    assert_eq!(g["variations"], 5);
    assert_eq!(g["result"], "*");
    assert_eq!(g["headers"]["Title"], "中炮对屏风马");

    let v = show_json(&data("endgame-v16.xqf"));
    assert_eq!(v["games"][0]["result"], "1-0");
    assert_eq!(v["games"][0]["start_fen"], "2b1kabn1/4aR3/3R2N2/4p1p2/5P3/4P4/3N2Pr1/4C1n2/3pAr3/4K3c w - - 0 1");

    let dir = tempfile::tempdir().unwrap();
    let v = show_json(&temp(&dir, "a.txt", DHTMLXQ.as_bytes()));
    assert_eq!(v["format"], "dhtmlxq");
    assert_eq!((v["games"][0]["variations"].as_u64(), v["games"][0]["result"].as_str()), (Some(1), Some("0-1")));
    assert_eq!(v["games"][0]["headers"]["Red"], "甲");
    let v = show_json(&temp(&dir, "b.txt", "1. 炮二平五 马８进７ 2. 马二进三 和棋".as_bytes()));
    assert_eq!((v["format"].as_str(), v["games"][0]["result"].as_str()), (Some("text"), Some("1/2-1/2")));
    assert_eq!(v["games"][0]["moves"], serde_json::json!(["h2e2", "h9g7", "h0g2"]));
    let v = show_json(&temp(&dir, "c.pgn", b"[Red \"x\"]\n1. h2e2 (1. b2e2) h9g7 1-0\n\n[Red \"y\"]\n1. h2e2 *\n"));
    assert_eq!((v["format"].as_str(), v["games"].as_array().unwrap().len()), (Some("pgn"), 2));
    assert_eq!(v["games"][1]["headers"]["Red"], "y");
}

#[test]
fn show_text_and_errors() {
    let (ok, out, _) = qi(&["record", "show", &data("game-v10.xqf")]);
    assert!(ok);
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("format: xqf") && out.contains("Red: 柳大华") && out.contains("1. "), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let mut bad = std::fs::read(data("variations-v18.xqf")).unwrap();
    bad.truncate(1030);
    let (ok, _, err) = qi(&["record", "show", "--json", &temp(&dir, "bad.xqf", &bad)]);
    assert!(!ok);
    assert!(err.contains("offset"), "{err}");
    let (ok, _, err) = qi(&["record", "show", &temp(&dir, "bad.txt", "1. 炮二平五 马８进７\n2. 车九进九".as_bytes())]);
    assert!(!ok);
    assert!(err.contains("line 2") && err.contains("move 2"), "{err}");
}

#[test]
fn convert_keeps_what_the_target_holds_and_says_what_it_drops() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("v.pgn");
    let xqf = dir.path().join("v.xqf");
    let dht = dir.path().join("v.dhtml");
    let src = data("variations-v18.xqf");
    let (ok, _, err) = qi(&["record", "convert", &src, "--to", "pgn", "--out", pgn.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(!err.contains("dropped"), "{err}");
    let (ok, _, err) = qi(&["record", "convert", pgn.to_str().unwrap(), "--to", "xqf", "--out", xqf.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (ok, _, err) =
        qi(&["record", "convert", xqf.to_str().unwrap(), "--to", "dhtmlxq", "--out", dht.to_str().unwrap()]);
    assert!(ok, "{err}");
    let a = show_json(&src);
    for p in [&pgn, &xqf, &dht] {
        let b = show_json(p.to_str().unwrap());
        assert_eq!(a["games"][0]["moves"], b["games"][0]["moves"], "{}", p.display());
        assert_eq!(a["games"][0]["variations"], b["games"][0]["variations"], "{}", p.display());
        assert_eq!(a["games"][0]["headers"]["Red"], b["games"][0]["headers"]["Red"]);
    }
    // Text holds neither variations nor comments.
    let (ok, out, err) = qi(&["record", "convert", &src, "--to", "text"]);
    assert!(ok);
    assert!(err.contains("dropped: 5 of 5 variations"), "{err}");
    let out = String::from_utf8(out).unwrap();
    assert!(out.starts_with("标题：中炮对屏风马\n") && out.contains("\n1. 炮二平五"), "{out}");
    assert!(!err.contains("header Red"), "{err}");
    let (ok, _, err) = qi(&["record", "convert", &data("game-v12.xqf"), "--to", "text"]);
    assert!(ok);
    assert!(err.contains("comments"), "{err}");
    // XQF has no field for a PGN tag such as Round, and holds one game.
    let two = dir.path().join("two.pgn");
    std::fs::write(&two, "[Round \"3\"]\n1. h2e2 *\n\n1. b2e2 *\n").unwrap();
    let (ok, out, err) = qi(&["record", "convert", two.to_str().unwrap(), "--to", "xqf"]);
    assert!(ok);
    assert!(out.starts_with(b"XQ"));
    assert!(err.contains("header Round") && err.contains("games 2 to 2"), "{err}");
}

#[test]
fn pictures() {
    let dir = tempfile::tempdir().unwrap();
    let src = data("endgame-v16.xqf");
    let png_path = dir.path().join("x.png");
    let (ok, _, err) = qi(&["record", "image", &src, "--ply", "3", "--out", png_path.to_str().unwrap()]);
    assert!(ok, "{err}");
    let decoder = png::Decoder::new(std::fs::File::open(&png_path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (480, 528));

    let svg_path = dir.path().join("x.svg");
    let (ok, _, _) =
        qi(&["record", "image", &src, "--ply", "0", "--no-coordinates", "--out", svg_path.to_str().unwrap()]);
    assert!(ok);
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));

    let gif_path = dir.path().join("x.gif");
    let (ok, _, err) =
        qi(&["record", "image", &src, "--ply", "6", "--cell", "20", "--out", gif_path.to_str().unwrap()]);
    assert!(ok, "{err}");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(std::fs::File::open(&gif_path).unwrap()).unwrap();
    assert_eq!((decoder.width(), decoder.height()), (200, 220));
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, 7, "plies + 1 frames");

    let (ok, _, err) = qi(&["record", "image", &src, "--ply", "999", "--out", gif_path.to_str().unwrap()]);
    assert!(!ok && err.contains("no ply 999"), "{err}");
}

/// `qi` with `args` under a limit of `mib` MiB of address space (`ulimit -v`): what a command
/// holds, not how long it takes.
fn qi_within(mib: u64, args: &[&str]) -> (bool, Vec<u8>, String) {
    let script = format!("ulimit -v {}; exec \"$0\" \"$@\"", mib * 1024);
    let out = Command::new("sh").args(["-c", &script, env!("CARGO_BIN_EXE_qi")]).args(args).output().expect("sh runs");
    (out.status.success(), out.stdout, String::from_utf8(out.stderr).unwrap())
}

#[test]
fn a_large_collection_is_read_game_by_game_up_to_the_games_bound() {
    use xiangqi::record::MAX_RECORD_GAMES;
    // 100,000 small games (3.7 MB) took 487 MB in `show --json`, 300,000 took 1.45 GB: every
    // game and its JSON were kept to the end. Read and printed one at a time, the command
    // holds the file and one game, and reads at most MAX_RECORD_GAMES of them.
    let dir = tempfile::tempdir().unwrap();
    let one = "[Event \"game\"]\n1. h2e2 h9g7 h0g2 *\n\n";
    let file = temp(&dir, "many.pgn", one.repeat(MAX_RECORD_GAMES + 1).as_bytes());
    let (ok, out, err) = qi_within(128, &["record", "show", "--json", &file]);
    assert!(!ok);
    assert!(err.contains("more than 100000 games (the limit)"), "{err}");
    assert!(err.contains("only the first 100000 games were read"), "{err}");
    let v: Value = serde_json::from_slice(&out).expect("one JSON object");
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), MAX_RECORD_GAMES);
    assert_eq!(games[MAX_RECORD_GAMES - 1]["moves"], serde_json::json!(["h2e2", "h9g7", "h0g2"]));
    assert_eq!(games[0]["headers"]["Event"], "game");

    // Converting holds the input, the output and one game too.
    let out_file = dir.path().join("out.pgn");
    let (ok, _, err) =
        qi_within(128, &["record", "convert", &file, "--to", "pgn", "--out", out_file.to_str().unwrap()]);
    assert!(!ok && err.contains("only the first 100000 games were read"), "{err}");
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(written.matches("[Event \"game\"]").count(), MAX_RECORD_GAMES);
    assert!(!err.contains("dropped"), "{err}");
}

fn match_games() -> String {
    format!("{}/tests/data/match-games.pgn", env!("CARGO_MANIFEST_DIR"))
}

/// A folder of real records: four XQF files, a PGN of 16 games (15 and a tag pair alone at its
/// end), and what is not read (a file
/// of another kind, a subfolder).
fn collection() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["game-v10.xqf", "game-v12.xqf", "variations-v18.xqf", "endgame-v16.xqf"] {
        std::fs::copy(data(name), dir.path().join(name)).unwrap();
    }
    std::fs::copy(match_games(), dir.path().join("b-match.PGN")).unwrap();
    std::fs::write(dir.path().join("notes.md"), "not a record").unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::copy(data("game-v10.xqf"), dir.path().join("sub/again.xqf")).unwrap();
    dir
}

fn list_json(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["record", "show", "--list", "--json"];
    all.extend_from_slice(args);
    let (ok, out, err) = qi(&all);
    assert!(ok, "{err}");
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 1, "one array");
    serde_json::from_str::<Value>(&text).unwrap().as_array().unwrap().clone()
}

#[test]
fn a_folder_is_every_record_file_in_it_by_name() {
    let dir = collection();
    let path = dir.path().to_str().unwrap();
    let v = show_json(path);
    assert_eq!(v["format"], "folder");
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 4 + 16, "not notes.md, not the subfolder");
    let files: Vec<&str> = games.iter().map(|g| g["file"].as_str().unwrap().rsplit('/').next().unwrap()).collect();
    assert_eq!(files[0], "b-match.PGN");
    assert_eq!(&files[16..], ["endgame-v16.xqf", "game-v10.xqf", "game-v12.xqf", "variations-v18.xqf"]);
    assert_eq!((games[15]["index"].as_u64(), games[15]["format"].as_str()), (Some(16), Some("pgn")));
    assert_eq!(games[17]["headers"]["Red"], "柳大华");
    assert_eq!(games[17]["moves"], show_json(&data("game-v10.xqf"))["games"][0]["moves"]);
    let (ok, out, _) = qi(&["record", "show", path]);
    assert!(ok);
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.starts_with("format: folder\n") && out.contains("game 20\n") && out.contains("game-v10.xqf (xqf, game 1)")
    );

    let empty = tempfile::tempdir().unwrap();
    let (ok, _, err) = qi(&["record", "show", empty.path().to_str().unwrap()]);
    assert!(!ok && err.contains("holds no record file"), "{err}");
}

#[test]
fn the_list_of_a_collection_sorts_and_filters() {
    let pgn = match_games();
    let rows = list_json(&[&pgn]);
    assert_eq!(rows.len(), 16, "15 games and a tag pair alone at the end");
    let mut keys: Vec<&String> = rows[0].as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(keys, ["black", "date", "event", "file", "index", "moves", "red", "result"]);
    assert_eq!((rows[0]["index"].as_u64(), rows[15]["index"].as_u64()), (Some(1), Some(16)));
    assert_eq!((rows[15]["moves"].as_u64(), rows[15]["red"].as_str()), (Some(0), Some("")));
    assert_eq!(
        (rows[0]["red"].as_str(), rows[0]["black"].as_str()),
        (Some("Qi 0.1.0"), Some("Fairy-Stockfish 011226 LB"))
    );
    assert_eq!((rows[0]["moves"].as_u64(), rows[0]["result"].as_str()), (Some(248), Some("0-1")));
    // The plies agree with the games' own moves.
    let games = show_json(&pgn);
    for r in &rows {
        let i = r["index"].as_u64().unwrap() as usize - 1;
        assert_eq!(r["moves"].as_u64().unwrap() as usize, games["games"][i]["moves"].as_array().unwrap().len());
    }

    let by_moves = list_json(&[&pgn, "--sort", "moves"]);
    let moves: Vec<u64> = by_moves.iter().map(|r| r["moves"].as_u64().unwrap()).collect();
    assert!(moves.windows(2).all(|w| w[0] <= w[1]), "{moves:?}");
    assert_eq!(by_moves.len(), 16);
    let by_result = list_json(&[&pgn, "--sort", "result"]);
    let results: Vec<&str> = by_result.iter().map(|r| r["result"].as_str().unwrap()).collect();
    let first_black = results.iter().position(|&r| r == "0-1").unwrap();
    assert!(results[..first_black].iter().all(|&r| r == "1-0") && results[first_black..].iter().all(|&r| r != "1-0"));

    // Filters match the players and the event, in any case.
    let fairy_red = list_json(&[&pgn, "--filter", "fairy-stockfish", "--sort", "red"]);
    assert_eq!(fairy_red.len(), 15, "every game has Fairy-Stockfish on one side");
    assert!(fairy_red[0]["red"].as_str().unwrap().starts_with("Fairy"), "F sorts before Q");
    assert_eq!(list_json(&[&pgn, "--filter", "QI MATCH"]).len(), 15);
    assert!(list_json(&[&pgn, "--filter", "柳大华"]).is_empty());

    let dir = collection();
    let path = dir.path().to_str().unwrap();
    let rows = list_json(&[path, "--filter", "柳大华"]);
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0]["red"].as_str(), rows[0]["date"].as_str()), (Some("柳大华"), Some("1997年11月16日")));
    assert!(rows[0]["file"].as_str().unwrap().ends_with("game-v10.xqf"));
    // Games without a date come after those with one.
    let by_date = list_json(&[path, "--sort", "date"]);
    assert_eq!(by_date.len(), 20);
    assert_eq!(by_date[0]["date"], "1997年11月16日");
    assert_eq!(by_date[1]["date"], "2024年1月1日");
    assert_eq!(by_date[2]["date"], "");

    let (ok, out, _) = qi(&["record", "show", "--list", path, "--sort", "date"]);
    assert!(ok);
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "index\tred\tblack\tevent\tdate\tresult\tmoves\tfile");
    assert_eq!(lines.len(), 21);
    assert!(lines[1].starts_with("1\t柳大华\t吕  钦\t-\t1997年11月16日\t0-1\t110\t"), "{}", lines[1]);
    let (ok, _, err) = qi(&["record", "show", path, "--sort", "date"]);
    assert!(!ok && err.contains("--list"), "{err}");
}

#[test]
fn convert_writes_every_game_of_a_folder_or_a_collection() {
    let dir = collection();
    let path = dir.path().to_str().unwrap();
    let out = tempfile::tempdir().unwrap();
    let all = out.path().join("all.pgn");
    let (ok, _, err) = qi(&["record", "convert", path, "--to", "pgn", "--out", all.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (a, b) = (show_json(path), show_json(all.to_str().unwrap()));
    assert_eq!(b["games"].as_array().unwrap().len(), 20);
    for (x, y) in a["games"].as_array().unwrap().iter().zip(b["games"].as_array().unwrap()) {
        assert_eq!((&x["moves"], &x["variations"]), (&y["moves"], &y["variations"]));
    }

    // XQF holds one game: a folder as --out gets one file per game.
    let xqf = out.path().join("xqf");
    std::fs::create_dir(&xqf).unwrap();
    let (ok, _, err) = qi(&["record", "convert", &match_games(), "--to", "xqf", "--out", xqf.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(err.contains("wrote 16 files"), "{err}");
    let rows = list_json(&[xqf.to_str().unwrap()]);
    assert_eq!(rows.len(), 16);
    let third = show_json(xqf.join("match-games-3.xqf").to_str().unwrap());
    assert_eq!(third["games"][0]["moves"], show_json(&match_games())["games"][2]["moves"]);
    // Without a folder, the first game only, and it says so.
    let (ok, bytes, err) = qi(&["record", "convert", &match_games(), "--to", "xqf"]);
    assert!(ok && bytes.starts_with(b"XQ"));
    assert!(err.contains("dropped: games 2 to 16") && err.contains("--out FOLDER"), "{err}");
}
