//! Private Redis and PostgreSQL servers for tests and `qi bench rooms --instances`: Debian's
//! `redis-server` and `postgresql` binaries, started on free loopback ports in temporary
//! folders, stopped and removed when dropped. PostgreSQL refuses to run as root, so under
//! root it runs as the `postgres` user the package creates.

use anyhow::{bail, Context, Result};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a server may take to accept connections.
const READY_WITHIN: Duration = Duration::from_secs(30);

fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn wait_for_port(port: u16, child: &mut Child, name: &str) -> Result<()> {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Some(status) = child.try_wait()? {
            bail!("{name} exited at start-up ({status})");
        }
        if start.elapsed() > READY_WITHIN {
            bail!("{name} did not listen on port {port} within {READY_WITHIN:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok(())
}

/// A fresh folder under the temporary directory, removed by [`Folder`]'s drop.
struct Folder(PathBuf);

impl Folder {
    fn new(prefix: &str) -> Result<Folder> {
        let mut bytes = [0u8; 8];
        std::fs::File::open("/dev/urandom").and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes))?;
        let name = format!("{prefix}-{}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>());
        let path = std::env::temp_dir().join(name);
        std::fs::create_dir_all(&path).with_context(|| format!("creating {}", path.display()))?;
        Ok(Folder(path))
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn stop(child: &mut Child) {
    // SIGTERM first: both servers shut down cleanly on it.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        if matches!(child.try_wait(), Ok(Some(_))) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
}

fn find_program(name: &str, also: &[&str]) -> Result<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(also.iter().map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .with_context(|| format!("{name} is not installed (the test script installs Debian's packages)"))
}

/// A private `redis-server` with no persistence.
pub struct RedisServer {
    child: Option<Child>,
    /// Its port on 127.0.0.1.
    pub port: u16,
    program: PathBuf,
    folder: Folder,
}

impl RedisServer {
    /// Starts one on a free port.
    ///
    /// # Errors
    /// When `redis-server` is missing or does not start.
    pub fn start() -> Result<RedisServer> {
        let program = find_program("redis-server", &["/usr/bin", "/usr/sbin"])?;
        let mut server = RedisServer { child: None, port: free_port()?, program, folder: Folder::new("qi-redis")? };
        server.launch()?;
        Ok(server)
    }

    fn launch(&mut self) -> Result<()> {
        let mut child = Command::new(&self.program)
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string(), "--save", "", "--appendonly", "no"])
            .args(["--protected-mode", "no", "--daemonize", "no"])
            .arg("--dir")
            .arg(&self.folder.0)
            .stdout(Stdio::null())
            .spawn()
            .context("starting redis-server")?;
        wait_for_port(self.port, &mut child, "redis-server")?;
        self.child = Some(child);
        Ok(())
    }

    /// `redis://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills it (SIGKILL: everything it held is gone) and starts it again on the same port.
    ///
    /// # Errors
    /// When it does not start again.
    pub fn restart(&mut self, down_for: Duration) -> Result<()> {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        std::thread::sleep(down_for);
        self.launch()
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            stop(child);
        }
    }
}

/// A private PostgreSQL cluster with a `qi` superuser and trust authentication on loopback.
pub struct PostgresServer {
    child: Child,
    /// Its port on 127.0.0.1.
    pub port: u16,
    bin: PathBuf,
    account: Option<(u32, u32)>,
    _folder: Folder,
}

/// Runs `command` as the `postgres` account when there is one to run as.
fn as_account(command: &mut Command, account: Option<(u32, u32)>) {
    if let Some((uid, gid)) = account {
        command.uid(uid).gid(gid);
    }
}

/// Starts `postgres` on the cluster in `folder`/data and waits until it takes connections.
fn launch_postgres(bin: &Path, account: Option<(u32, u32)>, folder: &Path, port: u16) -> Result<Child> {
    let mut postgres = Command::new(bin.join("postgres"));
    postgres.arg("-D").arg(folder.join("data")).args(["-p", &port.to_string(), "-c", "listen_addresses=127.0.0.1"]);
    postgres.arg("-c").arg(format!("unix_socket_directories={}", folder.display()));
    // A test server: the rooms' durability is tested against killed qi processes, not a
    // killed PostgreSQL.
    postgres.args(["-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=50"]);
    postgres.stdout(Stdio::null()).stderr(Stdio::null()).current_dir(folder);
    as_account(&mut postgres, account);
    let mut child = postgres.spawn().context("starting postgres")?;
    wait_for_port(port, &mut child, "postgres")?;
    // The port opens before the server takes connections ("the database system is starting
    // up"): wait until pg_isready says it accepts them.
    let pg_isready = match bin.join("pg_isready") {
        p if p.is_file() => p,
        _ => find_program("pg_isready", &[])?,
    };
    let start = Instant::now();
    loop {
        let ready = Command::new(&pg_isready)
            .args(["-q", "-h", "127.0.0.1", "-p", &port.to_string(), "-U", "qi", "-d", "postgres"])
            .status()
            .context("running pg_isready")?;
        if ready.success() {
            return Ok(child);
        }
        if start.elapsed() > READY_WITHIN {
            stop(&mut child);
            bail!("postgres did not accept connections within {READY_WITHIN:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The newest PostgreSQL's binaries folder (Debian keeps them out of the PATH).
fn postgres_bin() -> Result<PathBuf> {
    if let Ok(initdb) = find_program("initdb", &[]) {
        return Ok(initdb.parent().unwrap_or(Path::new("/")).to_path_buf());
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .context("PostgreSQL is not installed (the test script installs Debian's postgresql)")?
        .filter_map(Result::ok)
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, bin)| bin.join("initdb").is_file())
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin).context("no initdb under /usr/lib/postgresql")
}

/// The `postgres` account's ids, when running as root (PostgreSQL refuses root).
fn postgres_account() -> Result<Option<(u32, u32)>> {
    if unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    let passwd = std::fs::read_to_string("/etc/passwd")?;
    let line = passwd
        .lines()
        .find(|l| l.starts_with("postgres:"))
        .context("running as root, and there is no postgres user to run PostgreSQL as")?;
    let fields: Vec<&str> = line.split(':').collect();
    Ok(Some((fields[2].parse()?, fields[3].parse()?)))
}

impl PostgresServer {
    /// Creates a cluster in a temporary folder and starts it on a free port.
    ///
    /// # Errors
    /// When PostgreSQL is missing or does not start.
    pub fn start() -> Result<PostgresServer> {
        let bin = postgres_bin()?;
        let account = postgres_account()?;
        let folder = Folder::new("qi-postgres")?;
        let data = folder.0.join("data");
        std::fs::create_dir(&data)?;
        if let Some((uid, gid)) = account {
            std::os::unix::fs::chown(&folder.0, Some(uid), Some(gid))?;
            std::os::unix::fs::chown(&data, Some(uid), Some(gid))?;
        }
        let mut initdb = Command::new(bin.join("initdb"));
        initdb.args(["-U", "qi", "-A", "trust", "-E", "UTF8", "--no-sync", "-D"]).arg(&data);
        initdb.stdout(Stdio::null()).stderr(Stdio::piped()).current_dir(&folder.0);
        as_account(&mut initdb, account);
        let out = initdb.output().context("running initdb")?;
        if !out.status.success() {
            bail!("initdb failed: {}", String::from_utf8_lossy(&out.stderr));
        }
        let port = free_port()?;
        let child = launch_postgres(&bin, account, &folder.0, port)?;
        Ok(PostgresServer { child, port, bin, account, _folder: folder })
    }

    /// Stops it (SIGINT, PostgreSQL's fast shutdown: every connection is closed) and starts it
    /// again on the same port with the same data, as a service restart does.
    ///
    /// # Errors
    /// When it does not start again.
    pub fn restart(&mut self, down_for: Duration) -> Result<()> {
        unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGINT) };
        let _ = self.child.wait();
        std::thread::sleep(down_for);
        self.child = launch_postgres(&self.bin, self.account, &self._folder.0, self.port)?;
        Ok(())
    }

    /// `postgres://qi@127.0.0.1:PORT/postgres`.
    pub fn url(&self) -> String {
        format!("postgres://qi@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for PostgresServer {
    fn drop(&mut self) {
        stop(&mut self.child);
    }
}
