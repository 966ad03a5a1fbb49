//! `Board`: a position and the game that led to it, for JavaScript.

use qi_api::game::StatusView;
use wasm_bindgen::prelude::*;
use xiangqi::notation::{self, Notation};
use xiangqi::outcome::{Game, Rules};
use xiangqi::{Move, MoveList, PieceKind, Position, Setup, Square, Undo};

/// A Xiangqi position and the moves played from its start (for the repetition rulings and
/// `undo`). Moves are numbers: `from | to << 7`, a square being `file + 9 * rank` (`a0` = 0).
///
/// wasm-bindgen frees a `Board` when JavaScript collects it (weak references); `free()` frees
/// it at once.
#[wasm_bindgen]
pub struct Board {
    start: Position,
    position: Position,
    /// Each move played, what undoes it, and the legal moves before it (if they were asked for).
    played: Vec<(Move, Undo, Option<MoveList>)>,
    /// The legal moves of `position` once asked for: `play` checks a move against them (a
    /// scan of some 40 numbers) instead of testing its legality again, and `undo` brings them
    /// back, so a JavaScript perft generates each node's moves once.
    legal: Option<MoveList>,
}

fn move_of(m: u16) -> Result<Move, JsError> {
    Move::from_u16(m).ok_or_else(|| JsError::new(&format!("{m} is not a move number")))
}

#[wasm_bindgen]
impl Board {
    /// The position of `fen`, or the standard start when none is given.
    ///
    /// # Errors
    /// A FEN that does not read, or describes an impossible position (the message says why).
    #[wasm_bindgen(constructor)]
    pub fn new(fen: Option<String>) -> Result<Board, JsError> {
        let start = match fen.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
            None => Position::startpos(),
            Some(f) => Position::from_fen(f).map_err(|e| JsError::new(&format!("bad FEN: {e}")))?,
        };
        Ok(Board { position: start.clone(), start, played: Vec::new(), legal: None })
    }

    /// The current position as FEN.
    pub fn fen(&self) -> String {
        self.position.fen()
    }

    /// The start position as FEN.
    #[wasm_bindgen(js_name = startFen)]
    pub fn start_fen(&self) -> String {
        self.start.fen()
    }

    /// `"red"` or `"black"`, to move.
    pub fn turn(&self) -> String {
        self.position.turn().name().to_string()
    }

    /// The legal moves, as move numbers (a `Uint16Array`).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&mut self) -> Vec<u16> {
        let legal = self.legal.get_or_insert_with(|| self.position.legal_moves());
        legal.iter().map(|m| m.to_u16()).collect()
    }

    /// Writes the legal moves as move numbers into `buffer` (a `Uint16Array` the caller keeps
    /// and reuses: 128 entries hold any position's moves) and returns how many there are; when
    /// there are more than `buffer` holds, only the first `buffer.length` are written. No array
    /// is made for JavaScript's collector, which is what a perft spends most of its time on.
    #[wasm_bindgen(js_name = legalMovesInto)]
    pub fn legal_moves_into(&mut self, buffer: &mut [u16]) -> usize {
        let legal = self.legal.get_or_insert_with(|| self.position.legal_moves());
        for (slot, m) in buffer.iter_mut().zip(legal.iter()) {
            *slot = m.to_u16();
        }
        legal.len()
    }

    /// How many legal moves there are (without building the list).
    #[wasm_bindgen(js_name = countLegalMoves)]
    pub fn count_legal_moves(&self) -> usize {
        self.position.count_legal_moves()
    }

    /// Where the side *not* to move may premove (a move queued while the opponent thinks), as
    /// move numbers: its legal moves in this position as if it were its turn, and the moves
    /// onto each of its own pieces (not the king) as if an opponent's rook, horse or cannon
    /// stood there (a recapture; the first of the three that any piece can take is used).
    /// Whether a premove is legal once the opponent has moved is judged again then; a position
    /// that cannot be set up with the turn passed (the side to move in check, ...) adds nothing.
    #[wasm_bindgen(js_name = premoveMoves)]
    pub fn premove_moves(&self) -> Vec<u16> {
        let mine = self.position.turn().other();
        let mut setup = self.position.to_setup();
        setup.turn = mine;
        let mut found: Vec<Move> = Vec::new();
        let mut collect = |setup: &Setup, onto: Option<Square>| {
            let Ok(position) = Position::from_setup(setup) else { return false };
            let before = found.len();
            for &m in position.legal_moves().iter() {
                if onto.is_none_or(|sq| m.to() == sq) && !found.contains(&m) {
                    found.push(m);
                }
            }
            found.len() > before
        };
        collect(&setup, None);
        for sq in Square::all() {
            match setup.board[sq.index()] {
                Some(p) if p.color == mine && p.kind != PieceKind::King => {}
                _ => continue,
            }
            for kind in [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon] {
                let mut swapped = setup.clone();
                swapped.board[sq.index()] = Some(xiangqi::Piece::new(mine.other(), kind));
                if collect(&swapped, Some(sq)) {
                    break;
                }
            }
        }
        found.into_iter().map(Move::to_u16).collect()
    }

    /// Whether move number `m` is legal here.
    #[wasm_bindgen(js_name = isLegal)]
    pub fn is_legal(&self, m: u16) -> bool {
        Move::from_u16(m).is_some_and(|m| self.position.is_legal(m))
    }

    /// Plays move number `m`.
    ///
    /// # Errors
    /// An illegal move, with the rule it breaks; the board is unchanged.
    pub fn play(&mut self, m: u16) -> Result<(), JsError> {
        let mv = move_of(m)?;
        let legal = match &self.legal {
            Some(list) => list.contains(&mv),
            None => self.position.is_legal(mv),
        };
        if !legal {
            let why = self.position.why_illegal(mv).map_or_else(String::new, |r| format!(": {r}"));
            return Err(JsError::new(&format!("{mv} is illegal{why}")));
        }
        let undo = self.position.play_unchecked(mv);
        self.played.push((mv, undo, self.legal.take()));
        Ok(())
    }

    /// Takes back the last move; `false` at the start.
    pub fn undo(&mut self) -> bool {
        match self.played.pop() {
            Some((m, undo, legal)) => {
                self.position.undo(m, undo);
                self.legal = legal;
                true
            }
            None => false,
        }
    }

    /// The moves played from the start, as move numbers.
    pub fn moves(&self) -> Vec<u16> {
        self.played.iter().map(|(m, ..)| m.to_u16()).collect()
    }

    /// Whether the side to move is in check.
    #[wasm_bindgen(js_name = isCheck)]
    pub fn is_check(&self) -> bool {
        self.position.is_check()
    }

    /// Why move number `m` cannot be played here (`"the path is blocked"`, ...); `undefined`
    /// when it can.
    #[wasm_bindgen(js_name = whyIllegal)]
    pub fn why_illegal(&self, m: u16) -> Option<String> {
        let m = Move::from_u16(m)?;
        self.position.why_illegal(m).map(|r| r.to_string())
    }

    /// The game-end verdict as JSON: `{"over", "winner"?, "reason"?}` (checkmate, stalemate,
    /// perpetual check or chase, repetition, move limit, no attackers).
    pub fn status(&self) -> String {
        let moves: Vec<Move> = self.played.iter().map(|(m, ..)| *m).collect();
        let status = Game::from_moves(self.start.clone(), &moves, Rules::default())
            .map_or_else(|_| Game::new(self.position.clone()).status(), |g| g.status());
        serde_json::to_string(&StatusView::from(status)).unwrap_or_default()
    }

    /// Move number `m` in `notation`: `iccs`, `wxf`, `chinese` (or `zh-Hans`), `traditional`
    /// (or `zh-Hant`), `vietnamese` (or `vi`).
    ///
    /// # Errors
    /// An unknown notation, or a move that is not legal here.
    pub fn notate(&self, m: u16, notation: &str) -> Result<String, JsError> {
        let notation: Notation = notation.parse().map_err(|e| JsError::new(&format!("{e}")))?;
        let m = move_of(m)?;
        if !self.position.is_legal(m) {
            return Err(JsError::new(&format!("{m} is not legal here")));
        }
        Ok(notation::format(&self.position, m, notation))
    }

    /// Reads a move written in any notation (`炮二平五`, `C2.5`, `P2-5`, `h2e2`) as a move number.
    ///
    /// # Errors
    /// A text that does not read, fits several moves, or names an illegal move.
    #[wasm_bindgen(js_name = parseMove)]
    pub fn parse_move(&self, text: &str) -> Result<u16, JsError> {
        notation::parse(&self.position, text).map(Move::to_u16).map_err(|e| JsError::new(&format!("{text:?}: {e}")))
    }

    /// The number of move paths `depth` plies deep (bulk counting at the last ply), as a
    /// `Number` (exact below 2^53).
    pub fn perft(&self, depth: u32) -> f64 {
        xiangqi::perft(&self.position, depth) as f64
    }
}

/// The ICCS text of move number `m` (`h2e2`).
///
/// # Errors
/// A number that is not a move.
#[wasm_bindgen(js_name = moveToIccs)]
pub fn move_to_iccs(m: u16) -> Result<String, JsError> {
    Ok(move_of(m)?.to_string())
}

/// The move number of an ICCS text (`h2e2`), legal or not.
///
/// # Errors
/// A text that is not an ICCS move.
#[wasm_bindgen(js_name = iccsToMove)]
pub fn iccs_to_move(text: &str) -> Result<u16, JsError> {
    text.trim().parse::<Move>().map(Move::to_u16).map_err(|e| JsError::new(&format!("{text:?}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_undoes_and_judges() {
        let mut board = Board::new(None).unwrap();
        assert_eq!(board.legal_moves().len(), 44);
        let m = board.parse_move("炮二平五").unwrap();
        assert_eq!(board.notate(m, "wxf").unwrap(), "C2.5");
        assert_eq!(board.notate(m, "vi").unwrap(), "P2-5");
        assert_eq!(board.parse_move("P2-5").unwrap(), m);
        board.play(m).unwrap();
        let horse = board.parse_move("M8.7").unwrap();
        assert_eq!(board.notate(horse, "zh-Hant").unwrap(), "馬８進７");
        assert_eq!(board.turn(), "black");
        assert!(board.why_illegal(Move::new("a9".parse().unwrap(), "a5".parse().unwrap()).to_u16()).is_some());
        assert!(board.undo());
        assert!(!board.undo());
        assert_eq!(board.fen(), Position::startpos().fen());
        assert_eq!(board.perft(2), 1920.0);
        // Black (a rook down) to move: Red's premoves are Red's moves as if it were Red's turn
        // and the recapture of its own pawn on a3 by the rook on a0 (a black rook stands in
        // for the pawn); no move of Black's.
        let after =
            Board::new(Some("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1".into())).unwrap();
        let pre: Vec<String> = after.premove_moves().into_iter().map(|m| move_to_iccs(m).unwrap()).collect();
        for want in ["h2e2", "h0g2", "a0a3"] {
            assert!(pre.iter().any(|m| m == want), "{want} in {pre:?}");
        }
        assert!(!pre.iter().any(|m| m == "a0a4" || m == "i9i8"), "{pre:?}");
        assert_eq!(after.turn(), "black", "the board is unchanged");
        let mated = Board::new(Some("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1".into())).unwrap();
        assert!(mated.status().contains("\"winner\":\"red\""), "{}", mated.status());
    }
}
