//! Subcommands: each lives in its own file and owns its arguments.

use clap::{Parser, Subcommand};

mod link;
mod perft;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "qi", version, about = "Xiangqi and Huarong Dao: rules, share links, solver, web app")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count legal move paths to a depth (move generator test and speed).
    Perft(perft::Args),
    /// Share links: encode, decode, measure, train the compact format's model.
    Link(link::Args),
}

/// Parses the command line, runs the subcommand and turns its error into exit code 1.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result: anyhow::Result<()> = match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Link(args) => link::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Prints one JSON object on its own line (the `--json` interface).
pub fn print_json(value: &serde_json::Value) {
    println!("{value}");
}
