//! A `qi serve` child process on a free loopback port.

use anyhow::{bail, Context, Result};
use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running server program: started with `--addr 127.0.0.1:0` appended to its arguments,
/// its address read from the first line that names `http://`. Its standard output is read to
/// the end on a thread (a full pipe would block it); its standard error is inherited. Dropping
/// it kills the process and waits for it.
#[derive(Debug)]
pub struct ServerProcess {
    /// The process, for killing it early or reading its id.
    pub child: Child,
    /// `127.0.0.1:port`.
    pub addr: String,
}

impl ServerProcess {
    /// Starts `qi serve --data DATA` (the binary at `qi`) on a free port: one server on a
    /// SQLite data folder, as the restart, backup and stall tests run it.
    ///
    /// # Errors
    ///
    /// As [`ServerProcess::start`].
    pub fn serve_data(qi: &Path, data: &Path) -> Result<ServerProcess> {
        ServerProcess::start(qi, [OsStr::new("serve"), OsStr::new("--data"), data.as_os_str()])
    }

    /// Starts `program` with `args` (for `qi`: `serve` and its flags) on a free port.
    ///
    /// # Errors
    ///
    /// The program does not start, or ends before printing its address.
    pub fn start<I, S>(program: &Path, args: I) -> Result<ServerProcess>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let args: Vec<S> = args.into_iter().collect();
        // For messages: `qi serve`.
        let file = program.file_name().unwrap_or(program.as_os_str()).to_string_lossy();
        let name = match args.first() {
            Some(first) => format!("{file} {}", first.as_ref().to_string_lossy()),
            None => file.into_owned(),
        };
        let mut child = Command::new(program)
            .args(&args)
            .args(["--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("starting {name}"))?;
        let mut lines = BufReader::new(child.stdout.take().context("server stdout")?).lines();
        let addr = loop {
            let Some(line) = lines.next() else { bail!("{name} exited before printing its address") };
            if let Some(rest) = line?.split("http://").nth(1) {
                break rest.split('/').next().unwrap_or_default().to_string();
            }
        };
        std::thread::spawn(move || lines.for_each(drop));
        Ok(ServerProcess { child, addr })
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
