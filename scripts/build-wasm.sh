#!/usr/bin/env bash
# Builds the WebAssembly package packages/qi (crates/wasm through wasm-bindgen) that the site
# and the JavaScript package use, and its explorer module packages/qi/explorer
# (crates/wasm-explorer: the opening explorer and names, loaded by the page on first use). The built files are committed, so `qi serve` needs none of
# this; `--check` builds into a temporary folder and fails when the committed files differ.
# Installs what it needs: the wasm32 target (rustup) and wasm-bindgen's CLI at the version the
# crate pins (into target/tools, not the user's cargo bin).
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
[ "${1:-}" = "--check" ] && check=true

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
fi

version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' crates/wasm/Cargo.toml)
[ -n "$version" ] || { echo "crates/wasm/Cargo.toml pins no wasm-bindgen version" >&2; exit 1; }
tools="$PWD/target/tools"
bindgen="$tools/bin/wasm-bindgen"
# One already on the PATH at that version will do.
if command -v wasm-bindgen >/dev/null && [ "$(wasm-bindgen --version)" = "wasm-bindgen $version" ]; then
    bindgen=$(command -v wasm-bindgen)
fi
if [ ! -x "$bindgen" ] || [ "$("$bindgen" --version)" != "wasm-bindgen $version" ]; then
    echo "installing wasm-bindgen-cli $version into $tools"
    cargo install --quiet --root "$tools" wasm-bindgen-cli --version "$version"
fi

# Paths in the binary (panic locations) are written relative to the workspace and to cargo's
# home (the dependencies' sources), so a build in any folder, by any user, gives the same bytes. The `wasm` profile (Cargo.toml) builds for size: the first
# load of /xq carries this file. `simd128` lets the compiler vectorise the net's kernels (every
# browser since 2021-2023 and Node 16.4 run it).
cargo_home=${CARGO_HOME:-$HOME/.cargo}
RUSTFLAGS="--remap-path-prefix=$PWD=. --remap-path-prefix=$cargo_home=/cargo -C target-feature=+simd128" \
    cargo build --quiet --profile wasm -p qi-wasm -p qi-wasm-explorer --target wasm32-unknown-unknown
built=${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/wasm

status=0
# crate file, package folder, module name.
for module in "qi_wasm packages/qi qi_wasm" "qi_wasm_explorer packages/qi/explorer qi_explorer"; do
    read -r crate folder name <<<"$module"
    out=$folder
    $check && out=$(mktemp -d)
    # Without the function-name and producers sections: the names only label a stack trace (a
    # panic's message and place stay), and they were 33 KB of the first load's 500 after brotli.
    "$bindgen" --target web --out-dir "$out" --out-name "$name" --remove-name-section --remove-producers-section \
        "$built/$crate.wasm"
    if $check; then
        for f in "$name.js" "$name.d.ts" "${name}_bg.wasm" "${name}_bg.wasm.d.ts"; do
            if ! cmp -s "$out/$f" "$folder/$f"; then
                echo "$folder/$f differs from a fresh build: run scripts/build-wasm.sh and commit" >&2
                status=1
            fi
        done
        rm -rf "$out"
    else
        ls -l "$out/$name"*
    fi
done
exit $status
