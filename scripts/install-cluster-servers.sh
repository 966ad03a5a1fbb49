#!/usr/bin/env bash
# Installs Debian's redis-server and postgresql when missing: the several-instance tests
# (crates/qi/tests/cluster.rs) start private servers of their own on loopback ports in
# temporary folders and stop them at the end; nothing here starts a service.
set -euo pipefail

missing=()
command -v redis-server >/dev/null || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing Debian's ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
# Installing must not start the packages' own services (they would take the default ports).
policy=/usr/sbin/policy-rc.d
made_policy=false
if [ ! -e "$policy" ] && [ -z "$sudo" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && made_policy=true
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
$made_policy && rm -f "$policy"
# Services the install started anyway are stopped: the tests use their own servers.
$sudo service redis-server stop >/dev/null 2>&1 || true
$sudo service postgresql stop >/dev/null 2>&1 || true
