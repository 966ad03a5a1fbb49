#!/usr/bin/env bash
# Installs Debian packages for the tests: `scripts/apt-install.sh PACKAGE...`.
# A machine whose last install was killed half-way (dpkg "interrupted") is repaired first, so
# the test command still passes there; packages' own services are never started.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 PACKAGE..." >&2; exit 2; }

sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
export DEBIAN_FRONTEND=noninteractive
# Wait for another apt or dpkg run to let go of the lock rather than fail at once.
apt=(apt-get -y -qq -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)

# Installing must not start the packages' services (they would take the default ports).
policy=/usr/sbin/policy-rc.d
made_policy=false
if [ ! -e "$policy" ] && [ -z "$sudo" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && made_policy=true
fi
trap 'if $made_policy; then rm -f "$policy"; fi' EXIT

repair() {
    # Finishes what an interrupted run left unpacked or half-configured.
    $sudo dpkg --force-confdef --force-confold --configure -a >/dev/null || true
    $sudo "${apt[@]}" -f install >/dev/null || true
}
if [ -n "$($sudo dpkg --audit 2>/dev/null)" ]; then
    echo "dpkg was left half-way by an earlier run: finishing it first"
    repair
fi

$sudo "${apt[@]}" update
if ! $sudo "${apt[@]}" install --no-install-recommends "$@" >/dev/null; then
    echo "apt-get install $* failed once: repairing dpkg and trying again"
    repair
    $sudo "${apt[@]}" install --no-install-recommends "$@" >/dev/null
fi
