#!/usr/bin/env bash
# Installs Debian's redis-server, postgresql and nginx when missing: the several-instance tests
# (crates/qi/tests/cluster.rs) and the reverse-proxy test (crates/qi/tests/behind_nginx.rs)
# start private servers of their own on loopback ports in temporary folders and stop them at
# the end; nothing here starts a service.
set -euo pipefail

missing=()
command -v redis-server >/dev/null || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing Debian's ${missing[*]}"
"$(dirname "$0")/apt-install.sh" "${missing[@]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
# Services an install started anyway are stopped: the tests use their own servers.
$sudo service redis-server stop >/dev/null 2>&1 || true
$sudo service postgresql stop >/dev/null 2>&1 || true
$sudo service nginx stop >/dev/null 2>&1 || true
