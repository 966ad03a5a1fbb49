#!/usr/bin/env bash
# Browser tests: Playwright (playwright-core) drives Debian's headless chromium against a
# `qi serve` started here on a free port. Installs chromium and the npm packages when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -x /usr/bin/chromium ]; then
    echo "installing Debian's chromium"
    # A CJK font so that the pieces' glyphs render (screenshots of failures stay readable).
    ./scripts/apt-install.sh chromium fonts-wqy-microhei
fi
# A Latin-only font for the test that checks the pieces on a machine without CJK fonts.
if [ ! -d /usr/share/fonts/truetype/dejavu ]; then
    ./scripts/apt-install.sh fonts-dejavu-core
fi
if [ ! -d tests/e2e/node_modules ]; then
    (cd tests/e2e && npm ci --no-audit --no-fund)
fi

echo "type checks: the scripts marked // @ts-check (tsc)"
(cd tests/e2e && npx tsc -p tsconfig.json)

# The qi that `cargo test --workspace` built (the test profile, the same features): asking for that
# build again is a no-op, where `cargo build --release -p qi` would be a second optimised build.
cargo test --workspace --no-run --quiet
export QI_BIN="$PWD/target/debug/qi"

# After the build: the explorer module's test compares its answers with the native `qi explore`.
echo "the JavaScript package under Node (packages/qi)"
(cd packages/qi && node --test test/)

log=$(mktemp)
data=$(mktemp -d)
"$QI_BIN" serve --addr 127.0.0.1:0 --data "$data" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$log" "$data"' EXIT

url=""
for _ in $(seq 1 100); do
    url=$(grep -o 'http://[0-9.]*:[0-9]*' "$log" | head -n 1 || true)
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || { cat "$log"; echo "qi serve exited" >&2; exit 1; }
    sleep 0.1
done
[ -n "$url" ] || { cat "$log"; echo "qi serve printed no address" >&2; exit 1; }
echo "qi serve is on $url"

cd tests/e2e
QI_URL="$url" node --test --test-concurrency=1 .
