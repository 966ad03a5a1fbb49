//! The `qi` application's library side: the web app (router, JSON API, embedded assets).
//!
//! The binary (`src/main.rs`) holds the command line; it is the only part that prints.

pub mod web;
