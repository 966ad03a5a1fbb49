//! The index: every position a collection's games pass through in their first
//! [`DEPTH`](crate::DEPTH) plies, by the rules' position hash, with the move each game played
//! there.

use crate::codec::{self, RawGame};
use crate::GameResult;
use core::fmt;
use xiangqi::{Move, Position};

/// One game of a collection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Its name in the collection (`wk-Hu_Ronghua-0001`).
    pub id: String,
    /// The start position.
    pub start: Position,
    /// Every move, all legal.
    pub moves: Vec<Move>,
    /// Who won.
    pub result: GameResult,
}

/// What the games played from one position: a move and its count, results and first game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveStats {
    /// The move.
    pub mv: Move,
    /// How many games played it here.
    pub games: u32,
    /// How many of them Red won.
    pub red: u32,
    /// How many were drawn.
    pub draw: u32,
    /// How many Black won.
    pub black: u32,
    /// The first of them in the collection's order: its index for [`Explorer::game`].
    pub typical: usize,
    /// The ply at which the typical game played it (0 for its first move).
    pub typical_ply: usize,
}

/// A game that cannot be added: a move that is not legal, or an index that does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerError(pub String);

impl fmt::Display for ExplorerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ExplorerError {}

/// One visit: a position (by hash), the move a game played from it, the game and the ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Visit {
    key: u64,
    game: u32,
    mv: Move,
    ply: u16,
}

/// A game as the explorer keeps it: the moves the index covers, and the rest still packed
/// (one byte a ply), read only when the game is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Stored {
    id: String,
    start: Position,
    /// The first [`DEPTH`](crate::DEPTH) moves.
    head: Vec<Move>,
    /// The moves after them, packed ([`codec`]).
    tail: Vec<u8>,
    result: GameResult,
}

/// A collection of games and its index of positions. Visits are kept in one vector sorted by
/// position hash (16 bytes each), so a look-up is a binary search and the counts are summed
/// when asked: nothing per position is stored twice. The visits are sorted after every change.
/// Each game's moves past the index's depth stay packed until the game is asked for: reading
/// the master games then costs a third of decoding them all.
#[derive(Clone, Debug, Default)]
pub struct Explorer {
    games: Vec<Stored>,
    visits: Vec<Visit>,
}

impl Explorer {
    /// An explorer with no games.
    pub fn new() -> Explorer {
        Explorer::default()
    }

    /// Reads games packed by [`Explorer::pack`] (or the build script, for the master games),
    /// checking every move.
    ///
    /// # Errors
    /// Bytes that are not packed games, with where they stop making sense.
    pub fn from_packed(bytes: &[u8]) -> Result<Explorer, ExplorerError> {
        Explorer::read(bytes, true)
    }

    /// Reads packed games; with `check_tails` false the moves past the depth are not decoded
    /// (for the built-in games, which a test reads in full).
    pub(crate) fn read(bytes: &[u8], check_tails: bool) -> Result<Explorer, ExplorerError> {
        let mut explorer = Explorer::new();
        for raw in codec::decode_raw(bytes).map_err(ExplorerError)? {
            let depth = raw.plies.len().min(crate::DEPTH);
            let mut pos = raw.start.clone();
            let head =
                codec::moves_of(&mut pos, &raw.plies[..depth]).map_err(|i| ExplorerError(codec::bad_ply(&raw, i)))?;
            if check_tails {
                codec::moves_of(&mut pos, &raw.plies[depth..])
                    .map_err(|i| ExplorerError(codec::bad_ply(&raw, depth + i)))?;
            }
            let RawGame { id, result, start, plies } = raw;
            explorer.push(Stored {
                id,
                start,
                head,
                tail: plies[depth..].to_vec(),
                result: GameResult::from_byte(result),
            });
        }
        explorer.visits.sort_unstable();
        Ok(explorer)
    }

    /// Packs the games (one byte a move), for [`Explorer::from_packed`].
    pub fn pack(&self) -> Vec<u8> {
        let raw: Vec<RawGame> = self
            .games
            .iter()
            .map(|g| {
                // The head was checked when the game was added or read, so it packs.
                let mut plies = codec::plies_of(&mut g.start.clone(), &g.head).unwrap_or_default();
                plies.extend_from_slice(&g.tail);
                RawGame { id: g.id.clone(), result: g.result.byte(), start: g.start.clone(), plies }
            })
            .collect();
        codec::encode_raw(raw.iter())
    }

    /// Adds games, each after the last; a game's index for [`Explorer::game`] is the number of
    /// games before it. The index is sorted once for the batch: add a collection in one call.
    ///
    /// # Errors
    /// A move that is not legal where it is played, naming the game and the ply: nothing of
    /// the batch is added.
    pub fn add_games(&mut self, games: impl IntoIterator<Item = Game>) -> Result<usize, ExplorerError> {
        let games: Vec<Game> = games.into_iter().collect();
        let mut stored = Vec::with_capacity(games.len());
        for game in games {
            let mut pos = game.start.clone();
            for (ply, &m) in game.moves.iter().enumerate().take(crate::DEPTH) {
                pos.play(m)
                    .map_err(|_| ExplorerError(format!("game {}: move {} ({m}) is not legal", game.id, ply + 1)))?;
            }
            let depth = game.moves.len().min(crate::DEPTH);
            let tail = codec::plies_of(&mut pos, &game.moves[depth..]).map_err(|i| {
                let (ply, m) = (depth + i + 1, game.moves[depth + i]);
                ExplorerError(format!("game {}: move {ply} ({m}) is not legal", game.id))
            })?;
            let Game { id, start, mut moves, result } = game;
            moves.truncate(depth);
            stored.push(Stored { id, start, head: moves, tail, result });
        }
        let added = stored.len();
        for game in stored {
            self.push(game);
        }
        self.visits.sort_unstable();
        Ok(added)
    }

    /// Indexes a game whose moves are known to be legal (the caller sorts the visits after).
    fn push(&mut self, game: Stored) {
        let index = self.games.len() as u32;
        let mut pos = game.start.clone();
        for (ply, &m) in game.head.iter().enumerate() {
            self.visits.push(Visit { key: pos.hash(), game: index, mv: m, ply: ply as u16 });
            pos.play_unchecked(m);
        }
        self.games.push(game);
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The number of visits indexed (positions and moves of the first [`DEPTH`](crate::DEPTH)
    /// plies of every game).
    pub fn visits(&self) -> usize {
        self.visits.len()
    }

    /// The game at `index` (see [`MoveStats::typical`]), its packed moves read.
    pub fn game(&self, index: usize) -> Option<Game> {
        let g = self.games.get(index)?;
        let mut pos = g.start.clone();
        g.head.iter().for_each(|&m| {
            pos.play_unchecked(m);
        });
        let mut moves = g.head.clone();
        // Checked when read or added (the built-in games by a test).
        moves.extend(codec::moves_of(&mut pos, &g.tail).ok()?);
        Some(Game { id: g.id.clone(), start: g.start.clone(), moves, result: g.result })
    }

    /// The result of the game at `index`.
    pub fn result(&self, index: usize) -> Option<GameResult> {
        self.games.get(index).map(|g| g.result)
    }

    /// The moves the games played from `pos`, most played first (then by move number). A game
    /// that was in `pos` twice within the depth counts once for each move it played there.
    pub fn moves(&self, pos: &Position) -> Vec<MoveStats> {
        let key = pos.hash();
        let first = self.visits.partition_point(|v| v.key < key);
        let mut stats: Vec<MoveStats> = Vec::new();
        let mut last: Option<(u32, Move)> = None;
        for v in self.visits[first..].iter().take_while(|v| v.key == key) {
            // A game back in the same position with the same move counts once; a hash that
            // two positions share would show as a move illegal here.
            if last == Some((v.game, v.mv)) || !pos.is_legal(v.mv) {
                continue;
            }
            last = Some((v.game, v.mv));
            let s = match stats.iter_mut().find(|s| s.mv == v.mv) {
                Some(s) => s,
                None => {
                    let typical = v.game as usize;
                    stats.push(MoveStats {
                        mv: v.mv,
                        games: 0,
                        red: 0,
                        draw: 0,
                        black: 0,
                        typical,
                        typical_ply: usize::from(v.ply),
                    });
                    stats.last_mut().expect("just pushed")
                }
            };
            s.games += 1;
            match self.games[v.game as usize].result {
                GameResult::RedWins => s.red += 1,
                GameResult::Draw => s.draw += 1,
                GameResult::BlackWins => s.black += 1,
                GameResult::Unknown => {}
            }
        }
        stats.sort_by(|a, b| b.games.cmp(&a.games).then(a.mv.cmp(&b.mv)));
        stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, moves: &str, result: GameResult) -> Game {
        let moves = moves.split_whitespace().map(|m| m.parse().unwrap()).collect();
        Game { id: id.to_string(), start: Position::startpos(), moves, result }
    }

    #[test]
    fn a_collection_counts_its_games_and_packs_back_to_the_same() {
        let mut ex = Explorer::new();
        let added = ex
            .add_games([
                game("a", "h2e2 h9g7 h0g2", GameResult::RedWins),
                game("b", "h2e2 b9c7", GameResult::BlackWins),
                game("c", "c3c4", GameResult::Draw),
                game("d", "h2e2 h9g7 b0c2", GameResult::Unknown),
            ])
            .unwrap();
        assert_eq!(added, 4);
        let start = ex.moves(&Position::startpos());
        assert_eq!((start[0].mv.to_string(), start[0].games, start[0].red, start[0].black), ("h2e2".into(), 3, 1, 1));
        assert_eq!(
            (start[1].mv.to_string(), start[1].games, start[1].draw, start[1].typical),
            ("c3c4".into(), 1, 1, 2)
        );
        let mut pos = Position::startpos();
        pos.play("h2e2".parse().unwrap()).unwrap();
        pos.play("h9g7".parse().unwrap()).unwrap();
        let after = ex.moves(&pos);
        assert_eq!(after.len(), 2);
        assert!(after.iter().all(|s| s.games == 1 && s.typical_ply == 2));
        let again = Explorer::from_packed(&ex.pack()).unwrap();
        assert_eq!(again.games, ex.games);
        assert_eq!(again.visits, ex.visits);
    }

    #[test]
    fn an_illegal_move_adds_nothing_and_bad_bytes_say_why() {
        let mut ex = Explorer::new();
        let err = ex
            .add_games([game("ok", "h2e2", GameResult::Draw), game("bad", "h2e2 h2e2", GameResult::Draw)])
            .unwrap_err();
        assert_eq!(err.0, "game bad: move 2 (h2e2) is not legal");
        assert!(ex.is_empty() && ex.visits() == 0);
        assert!(Explorer::from_packed(b"nope").unwrap_err().0.contains("QIX1"));
        let mut packed = Explorer::new();
        packed.add_games([game("x", "h2e2 h9g7", GameResult::RedWins)]).unwrap();
        let bytes = packed.pack();
        assert!(Explorer::from_packed(&bytes[..bytes.len() - 1]).unwrap_err().0.contains("stops"));
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(Explorer::from_packed(&extra).unwrap_err().0.contains("left over"));
        let mut wrong = bytes;
        *wrong.last_mut().unwrap() = 200;
        assert!(Explorer::from_packed(&wrong).unwrap_err().0.contains("not there"));
    }

    #[test]
    fn a_game_past_the_depth_is_indexed_only_to_it() {
        let moves = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 ".to_string() + &"h0h1 h9h8 h1h0 h8h9 ".repeat(8);
        let mut ex = Explorer::new();
        ex.add_games([game("long", &moves, GameResult::Unknown)]).unwrap();
        assert_eq!(ex.game(0).unwrap().moves.len(), 38);
        assert_eq!(ex.visits(), crate::DEPTH);
        // The rooks dance back to the same position: each move there counts once.
        let mut pos = Position::startpos();
        for m in ex.game(0).unwrap().moves[..6].iter().copied() {
            pos.play(m).unwrap();
        }
        let there = ex.moves(&pos);
        assert_eq!(there.len(), 1);
        assert_eq!(there[0].games, 1);
        assert_eq!(there[0].typical_ply, 6);
    }
}
