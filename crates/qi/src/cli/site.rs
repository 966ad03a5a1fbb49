//! `qi site --out DIR`: the single-player site as static files, for any static file server.

use anyhow::{Context, Result};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The folder to write the site into (made if missing; files in it are overwritten).
    #[arg(long)]
    out: PathBuf,
    /// Print one JSON object (`{"out", "files"}`) instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let files = qi_web::site::write_static_site(&args.out)
        .with_context(|| format!("cannot write the site into {}", args.out.display()))?;
    if args.json {
        super::print_json(&serde_json::json!({ "out": args.out.display().to_string(), "files": files }));
    } else {
        println!(
            "wrote {files} files into {dir}; serve the folder with any static server, e.g. \
             `python3 -m http.server -d {dir}`, and open /xq",
            dir = args.out.display()
        );
    }
    Ok(())
}
