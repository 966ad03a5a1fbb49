//! `qi`: Xiangqi and Huarong Dao from the command line and the browser.

mod cli;

fn main() -> std::process::ExitCode {
    restore_default_sigpipe();
    cli::run()
}

/// Rust ignores SIGPIPE, so `qi ... | head` would panic on the closed pipe; a command-line tool
/// should simply stop, as the shell expects.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread exists; SIG_DFL is always valid.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
