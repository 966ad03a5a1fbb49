//! `qi`: Xiangqi and Huarong Dao from the command line and the browser.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
