//! Prepares the site at build time: every file under `assets/` (`assets/qi` is the JavaScript
//! package `packages/qi`, linked there) gets a content hash, a name with that hash for
//! caching forever, and gzip and brotli versions; every page gets the hashed addresses and an
//! import map, so that modules importing `./board.js` load `board.<hash>.js`; a service
//! worker lists them all for offline use. `src/site.rs` reads the table written here.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// A file of the site.
struct File {
    /// `/assets/board.js`.
    url: String,
    /// `/assets/board.0123456789.js`.
    hashed: String,
    bytes: Vec<u8>,
    hash: u64,
}

/// 64-bit FNV-1a: only a cache key (the server checks nothing with it).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn walk(dir: &Path, prefix: &str, skip: &[&str], out: &mut Vec<(String, PathBuf)>) {
    let mut entries: Vec<_> =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if skip.contains(&name.as_str()) || name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            walk(&path, &format!("{prefix}{name}/"), skip, out);
        } else {
            out.push((format!("{prefix}{name}"), path));
        }
    }
}

fn hashed_name(url: &str, hash: u64) -> String {
    let tag = format!("{:010x}", hash >> 24);
    match url.rsplit_once('.') {
        Some((stem, ext)) if !stem.ends_with('/') => format!("{stem}.{tag}.{ext}"),
        _ => format!("{url}.{tag}"),
    }
}

fn compress(bytes: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(bytes).expect("in memory");
    let gz = gz.finish().expect("in memory");
    let mut br = Vec::new();
    let params = brotli::enc::BrotliEncoderParams { quality: 11, lgwin: 22, ..Default::default() };
    brotli::BrotliCompress(&mut &bytes[..], &mut br, &params).expect("in memory");
    (gz, br)
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    let assets = manifest.join("assets");
    let package = manifest.join("../../packages/qi");
    println!("cargo:rerun-if-changed={}", assets.display());
    println!("cargo:rerun-if-changed={}", package.display());

    let mut sources = Vec::new();
    // The package's own tests, benchmarks and notes are not part of the site.
    walk(
        &assets,
        "/assets/",
        &["test", "bench", "node_modules", "package.json", "README.md", "tsconfig.json"],
        &mut sources,
    );
    // The engine's net, fetched by the browser's engine on its first search (never part of the
    // first load, nor precached: the service worker keeps it once it has been fetched).
    let net = manifest.join("../engine/nets/default.nnue");
    println!("cargo:rerun-if-changed={}", net.display());
    sources.push(("/assets/nets/default.nnue".to_string(), net));
    // The Xiangqi puzzles (`qi puzzle generate`), fetched by the puzzle page on first use.
    let puzzles = manifest.join("../puzzle/data/puzzles.tsv");
    println!("cargo:rerun-if-changed={}", puzzles.display());
    sources.push(("/assets/puzzles/xiangqi.tsv".to_string(), puzzles));
    // The endgame track (`qi puzzle endgames`), fetched by the puzzle page's Endgames tab.
    let endgames = manifest.join("../puzzle/data/endgames.tsv");
    println!("cargo:rerun-if-changed={}", endgames.display());
    sources.push(("/assets/puzzles/endgames.tsv".to_string(), endgames));
    let (pages, others): (Vec<_>, Vec<_>) =
        sources.into_iter().partition(|(url, _)| url.ends_with(".html") && url.matches('/').count() == 2);

    let mut files: Vec<File> = others
        .into_iter()
        .filter(|(url, _)| !url.ends_with(".d.ts"))
        .map(|(url, path)| {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let hash = fnv1a(&bytes);
            File { hashed: hashed_name(&url, hash), url, bytes, hash }
        })
        .collect();
    // Stylesheets name fonts, and the web app manifest its icons, by address: point them at the
    // hashed names (then hash them).
    let renames: Vec<(String, String)> = files.iter().map(|f| (f.url.clone(), f.hashed.clone())).collect();
    for file in files.iter_mut().filter(|f| f.url.ends_with(".css") || f.url.ends_with(".webmanifest")) {
        let mut text = String::from_utf8(std::mem::take(&mut file.bytes)).expect("CSS and the manifest are UTF-8");
        for (from, to) in &renames {
            text = text.replace(&format!("\"{from}\""), &format!("\"{to}\""));
        }
        file.bytes = text.into_bytes();
        file.hash = fnv1a(&file.bytes);
        file.hashed = hashed_name(&file.url, file.hash);
    }
    let renames: Vec<(String, String)> = files.iter().map(|f| (f.url.clone(), f.hashed.clone())).collect();

    // The import map: every script, and the WebAssembly, styles, net and puzzles that scripts
    // load by address (found with import.meta.resolve).
    let mut imports = String::from("{\"imports\":{");
    for (i, (from, to)) in renames
        .iter()
        .filter(|(u, _)| [".js", ".wasm", ".css", ".nnue", ".tsv"].iter().any(|ext| u.ends_with(ext)))
        .enumerate()
    {
        if i > 0 {
            imports.push(',');
        }
        write!(imports, "\"{from}\":\"{to}\"").unwrap();
    }
    imports.push_str("}}");
    let import_map = format!("<script type=\"importmap\">{imports}</script>");

    let mut page_files = Vec::new();
    for (url, path) in pages {
        let mut text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for (from, to) in &renames {
            text = text.replace(&format!("\"{from}\""), &format!("\"{to}\""));
        }
        // Before any module script: an import map must come first.
        let at = text.find("<script").or_else(|| text.find("</head>")).expect("a page has a head");
        text.insert_str(at, &format!("{import_map}\n  "));
        let name = url.trim_start_matches("/assets/").to_string();
        page_files.push((name, text.into_bytes()));
    }

    // The service worker: its cache name changes with any file, so a new build replaces it.
    let version = files.iter().fold(fnv1a(imports.as_bytes()), |h, f| h.rotate_left(7) ^ f.hash);
    let precache: Vec<String> = files
        .iter()
        .filter(|f| !f.url.ends_with(".txt") && !f.url.ends_with(".md") && !f.url.ends_with(".nnue"))
        .map(|f| format!("\"{}\"", f.hashed))
        .collect();
    let worker = std::fs::read_to_string(manifest.join("src/sw.js")).expect("src/sw.js");
    println!("cargo:rerun-if-changed={}", manifest.join("src/sw.js").display());
    // Browsers ask `/favicon.ico` on their own: the worker answers it with the kept icon.
    let favicon = files.iter().find(|f| f.url == "/assets/favicon.ico").map_or("", |f| f.hashed.as_str());
    let worker = worker
        .replace("__VERSION__", &format!("{version:016x}"))
        .replace("\"__PRECACHE__\"", &precache.join(","))
        .replace("__FAVICON__", favicon);

    // The table src/site.rs includes: (url, hashed url or "", bytes, gzip, brotli).
    let mut table = String::from("&[\n");
    let mut emit = |name: &str, url: &str, hashed: &str, bytes: &[u8]| {
        // Named by the file (pages have no plain address of their own).
        let stem = format!("{:016x}", fnv1a(name.as_bytes()));
        let (gz, br) = compress(bytes);
        for (ext, data) in [("raw", bytes), ("gz", &gz[..]), ("br", &br[..])] {
            std::fs::write(out.join(format!("{stem}.{ext}")), data).expect("OUT_DIR is writable");
        }
        let etag = format!("\"{:016x}\"", fnv1a(bytes));
        writeln!(
            table,
            "    SiteFile {{ name: {name:?}, url: {url:?}, hashed: {hashed:?}, etag: {etag:?}, \
             raw: include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{stem}.raw\")), \
             gzip: include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{stem}.gz\")), \
             brotli: include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{stem}.br\")) }},"
        )
        .unwrap();
    };
    for file in &files {
        emit(file.url.trim_start_matches('/'), &file.url, &file.hashed, &file.bytes);
    }
    for (name, bytes) in &page_files {
        emit(name, "", "", bytes);
    }
    emit("sw.js", "/sw.js", "", worker.as_bytes());
    table.push(']');
    std::fs::write(out.join("site_files.rs"), table).expect("OUT_DIR is writable");
}
