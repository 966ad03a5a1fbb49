//! The web assets are embedded with `include_dir!`, which cargo cannot see: rebuild when they change.

fn main() {
    println!("cargo:rerun-if-changed=assets");
}
