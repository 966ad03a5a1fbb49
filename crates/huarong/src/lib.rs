//! Huarong Dao (华容道, Klotski): layouts on the seed's 64-bit code and an optimal solver.
//!
//! A [`Layout`] is a 4x5 board packed as 3 bits of piece type per cell at each piece's
//! top-left cell (Blank 0, Cao Cao 1, vertical 2, horizontal 3, soldier 4; `type << 3*cell`,
//! cell = row * 4 + col). Same-shaped pieces are interchangeable. The puzzle is solved when
//! the 2x2 Cao Cao covers rows 3-4, columns 1-2 (the exit move is not counted).
//!
//! ```
//! use huarong::{catalog, solve, Convention, Layout};
//! // Parse the text form (rows top to bottom) or a share code, or pick a classic.
//! let start: Layout = "VCCV/VCCV/VHHV/VSSV/S..S".parse()?;
//! assert_eq!(catalog::find("横刀立马").unwrap().layout, start);
//! let solution = solve(start, Convention::Piece);
//! assert_eq!((solution.steps, solution.states), (Some(81), 25_955));
//! let first = solution.path[0];
//! println!("{} then {}", first.mv, first.layout);
//! # Ok::<(), huarong::LayoutError>(())
//! ```
//!
//! The [`survey`] module enumerates all 29,334,498 legal layouts and computes every layout's
//! distance to a solution into a one-byte-per-layout database.
//!
//! Speed: move generation works on the code itself (bit-parallel masks of empty cells and of
//! pieces touching them, a bit-parallel flood fill for the piece convention), the visited set
//! is an open-addressing table of codes, and a layout and its mirror image are searched as one
//! (the answers are unfolded back, so counts and paths are those of a plain search).

#![deny(missing_docs)]

pub mod board;
pub mod catalog;
mod codeset;
mod layout;
mod moves;
pub mod puzzle;
mod solve;
pub mod survey;

pub use layout::{BadPieceSet, Layout, LayoutError, Piece, PieceSet};
pub use moves::{Convention, Move, UnknownConvention};
pub use solve::{shortest, solve, Shortest, Solution, Step};
