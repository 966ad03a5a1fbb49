#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod confirm;
mod endgame;
pub mod endgames;
pub mod file;
mod generate;
mod kind;
mod puzzle;
pub mod rating;
mod scan;
mod settings;
mod theme;
mod verify;

pub use confirm::{confirm, confirm_set, Confirmed};
pub use endgame::{Endgame, Goal};
pub use generate::{generate, one_per_position, Progress};
pub use kind::Kind;
pub use puzzle::Puzzle;
pub use scan::{scan, Candidate, Game};
pub use settings::Settings;
pub use theme::{themes, Theme};
pub use verify::{verify, Rejection};
