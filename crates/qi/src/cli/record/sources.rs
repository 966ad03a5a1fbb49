//! The records a command reads: one file, standard input (`-`), or every record file of a
//! folder, and their games one at a time, bounded across the folder as within one file.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use xiangqi::pgn::PgnGame;
use xiangqi::record::{import_each, Format, RecordError, RecordErrorKind, MAX_RECORD_GAMES};

/// The most record files read from one folder; past it the command refuses the folder
/// (10,000 files of a few KB each is a large collection kept as one file per game).
pub const MAX_FOLDER_FILES: usize = 10_000;

/// The names a folder's record files end with (case-insensitive); other files are skipped.
const EXTENSIONS: &[&str] = &["xqf", "pgn", "txt", "dhtml", "dhtmlxq", "htm", "html", "cbr", "cbl"];

/// Reads `file` whole (`-`: standard input).
pub fn read_input(file: &Path) -> Result<Vec<u8>> {
    if file.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))
    }
}

/// Whether `input` names a folder (standard input never does).
pub fn is_folder(input: &Path) -> bool {
    input.as_os_str() != "-" && input.is_dir()
}

/// The files `input` stands for: itself, or a folder's record files sorted by name (not its
/// subfolders).
pub fn files(input: &Path) -> Result<Vec<PathBuf>> {
    if !is_folder(input) {
        return Ok(vec![input.to_path_buf()]);
    }
    let mut out = Vec::new();
    for entry in std::fs::read_dir(input).with_context(|| format!("cannot read the folder {}", input.display()))? {
        let entry = entry.with_context(|| format!("cannot read the folder {}", input.display()))?;
        let path = entry.path();
        let known = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| EXTENSIONS.iter().any(|k| k.eq_ignore_ascii_case(e)));
        if !known || !path.is_file() {
            continue;
        }
        if out.len() == MAX_FOLDER_FILES {
            bail!("{} holds more than {MAX_FOLDER_FILES} record files (the limit)", input.display());
        }
        out.push(path);
    }
    if out.is_empty() {
        bail!("{} holds no record file (.{})", input.display(), EXTENSIONS.join(", ."));
    }
    out.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    Ok(out)
}

/// One game as it is read: where it came from and its number in its file (from 1).
pub struct Found<'a> {
    /// The file it is in.
    pub file: &'a Path,
    /// The file's format.
    pub format: Format,
    /// Its number in the file, counting the games that did not read.
    pub number: usize,
    /// The game.
    pub game: PgnGame,
}

/// Reads every game of `input` (a file or a folder) in order and gives each one that reads
/// to `each`; those that do not are reported on stderr and counted. At most
/// [`MAX_RECORD_GAMES`] games are read in all, whether from one file or many. Only one file
/// and one game are held at a time.
pub fn for_each_game(input: &Path, mut each: impl FnMut(Found<'_>) -> Result<()>) -> Result<Tally> {
    let mut tally = Tally::default();
    for file in files(input)? {
        if tally.cut {
            break;
        }
        let bytes = match read_input(&file) {
            Ok(b) => b,
            Err(e) if is_folder(input) => {
                eprintln!("{e:#}");
                tally.bad += 1;
                continue;
            }
            Err(e) => return Err(e),
        };
        let games = import_each(&bytes);
        let format = games.format();
        for (i, game) in games.enumerate() {
            if tally.good + tally.bad == MAX_RECORD_GAMES
                && !matches!(&game, Err(e) if e.kind == RecordErrorKind::TooManyGames)
            {
                eprintln!("{}: more than {MAX_RECORD_GAMES} games (the limit): the rest are not read", input.display());
                tally.cut = true;
                break;
            }
            if let Some(game) = tally.take(&file, game) {
                each(Found { file: &file, format, number: i + 1, game })?;
            }
        }
    }
    Ok(tally)
}

/// What was read: each game that did not read was reported as it came, and the end says
/// what was missing.
#[derive(Default)]
pub struct Tally {
    /// Games read.
    pub good: usize,
    /// Games (or files of a folder) that did not read.
    pub bad: usize,
    /// Whether reading stopped at the games bound.
    pub cut: bool,
}

impl Tally {
    /// The game, or `None` after reporting why it did not read.
    pub fn take(&mut self, file: &Path, game: Result<PgnGame, RecordError>) -> Option<PgnGame> {
        match game {
            Ok(g) => {
                self.good += 1;
                Some(g)
            }
            Err(e) => {
                eprintln!("{}: {e}", file.display());
                if e.kind == RecordErrorKind::TooManyGames {
                    self.cut = true;
                } else {
                    self.bad += 1;
                }
                None
            }
        }
    }

    /// An error when a game did not read, or the input held more games than are read.
    pub fn finish(&self) -> Result<()> {
        if self.bad > 0 {
            bail!("{} of {} games could not be read", self.bad, self.good + self.bad);
        }
        if self.cut {
            bail!("only the first {MAX_RECORD_GAMES} games were read (the limit)");
        }
        Ok(())
    }
}
