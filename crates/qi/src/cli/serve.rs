//! `qi serve [--addr 127.0.0.1:8080] [--data DIR]`: the web app, from this one binary.

use anyhow::{Context, Result};
use std::io::Write;
use std::net::SocketAddr;

#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on; port 0 picks a free port (the real address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    #[command(flatten)]
    rooms: super::serve_rooms::RoomArgs,
}

pub fn run(args: Args) -> Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let opened = args.rooms.open()?;
        let listener = qi::web::bind(args.addr).await.with_context(|| format!("cannot listen on {}", args.addr))?;
        let addr = listener.local_addr()?;
        println!(
            "Rooms are kept in {} (down for {} ms before this start)",
            args.rooms.folder().display(),
            opened.downtime_ms
        );
        // Tests read this line to find the port; flush so it is not stuck in a pipe buffer.
        println!("Qi is serving on http://{addr}/  (Xiangqi: http://{addr}/xq, Huarong Dao: http://{addr}/huarong)");
        std::io::stdout().flush()?;
        qi::web::serve(listener, opened.rooms, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("serving")
    })
}
