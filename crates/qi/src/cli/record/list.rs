//! `qi record show FILE|DIR --list [--sort KEY] [--filter TEXT] [--json]`: one line per game
//! (index in its file, red, black, event, date, result, plies of the main line, file), or one
//! JSON array of objects with those keys.

use super::sources::{for_each_game, Found};
use anyhow::Result;
use std::io::Write;
use std::path::Path;
use xiangqi::record::Summary;

/// The orders `--sort` takes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SortKey {
    /// By date, as written (games without one last).
    Date,
    /// By event (games without one last).
    Event,
    /// By the red player (games without one last).
    Red,
    /// By the black player (games without one last).
    Black,
    /// By result: 1-0, 0-1, 1/2-1/2, then *.
    Result,
    /// By the main line's plies, shortest first.
    Moves,
}

/// One row of the list: the game's number in its file and its summary. Only these strings
/// are kept, never the games.
struct Row {
    index: usize,
    file: String,
    summary: Summary,
}

/// Prints the list of `input`'s games (those matching `filter`), in `sort` order, else as read.
pub fn run(input: &Path, sort: Option<SortKey>, filter: Option<&str>, json: bool) -> Result<()> {
    let mut rows = Vec::new();
    let tally = for_each_game(input, |found: Found<'_>| {
        let summary = Summary::of(&found.game);
        if filter.is_none_or(|f| summary.matches(f)) {
            rows.push(Row { index: found.number, file: found.file.display().to_string(), summary });
        }
        Ok(())
    })?;
    if let Some(key) = sort {
        sort_rows(&mut rows, key);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if json {
        let list: Vec<serde_json::Value> = rows.iter().map(row_json).collect();
        serde_json::to_writer(&mut out, &list)?;
        out.write_all(b"\n")?;
    } else {
        writeln!(out, "index\tred\tblack\tevent\tdate\tresult\tmoves\tfile")?;
        for r in &rows {
            let s = &r.summary;
            let dash = |t: &str| if t.is_empty() { "-".to_string() } else { t.replace(['\t', '\n'], " ") };
            writeln!(
                out,
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                r.index,
                dash(&s.red),
                dash(&s.black),
                dash(&s.event),
                dash(&s.date),
                s.result,
                s.moves,
                r.file
            )?;
        }
    }
    out.flush()?;
    tally.finish()
}

fn row_json(r: &Row) -> serde_json::Value {
    let s = &r.summary;
    serde_json::json!({
        "index": r.index,
        "red": s.red,
        "black": s.black,
        "event": s.event,
        "date": s.date,
        "result": s.result,
        "moves": s.moves,
        "file": r.file,
    })
}

/// Sorts stably, so that games equal under `key` stay in the order they were read.
fn sort_rows(rows: &mut [Row], key: SortKey) {
    match key {
        SortKey::Moves => rows.sort_by_key(|r| r.summary.moves),
        SortKey::Result => {
            rows.sort_by_key(|r| ["1-0", "0-1", "1/2-1/2"].iter().position(|&m| m == r.summary.result).unwrap_or(3))
        }
        // Empty text sorts after any text: a game without a date is not the oldest.
        _ => rows.sort_by_cached_key(|r| {
            let t = text_of(&r.summary, key);
            (t.is_empty(), t.to_string())
        }),
    }
}

/// The text a key sorts by (empty for the numeric keys).
fn text_of(s: &Summary, key: SortKey) -> &str {
    match key {
        SortKey::Date => &s.date,
        SortKey::Event => &s.event,
        SortKey::Red => &s.red,
        SortKey::Black => &s.black,
        SortKey::Result | SortKey::Moves => "",
    }
}
