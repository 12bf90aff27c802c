#!/usr/bin/env bash
# Installs nats-server 2.10.x from Debian 13 (trixie) into a cache folder, for the cluster tests,
# the cluster bench and scripts/start-cluster.sh. Idempotent: prints the binary's path and exits
# at once when it is already there.
#
# Why not Debian 12's own package: nats-server 2.9.10 lost acknowledged messages after a SIGKILL
# and restart (no fsync-before-ack setting), and svc refuses servers older than 2.10.23. Debian
# 13's build runs on Debian 12 (glibc >= 2.34). It is fetched with apt itself from a private apt
# state (its own sources list, lists, cache and status) that names Debian 13's main suite on the
# same mirror as the system's sources; the system's sources and installed packages stay untouched.
#
# Usage: install-nats-server.sh [SUITE]   (default trixie; the cluster tests also fetch bookworm's
# 2.9.10 to check that svc refuses it). Output: the path of the binary on stdout (last line).
# Env: SVC_NATS_CACHE, the cache folder (default ~/.cache/svc/nats-server), one subfolder per suite.
set -euo pipefail

suite="${1:-trixie}"
cache="${SVC_NATS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/svc/nats-server}/$suite"
bin="$cache/root/usr/sbin/nats-server"

if [ -x "$bin" ]; then echo "$bin"; exit 0; fi

# The mirror the system's own sources use for Debian (deb822 .sources or one-line .list files).
mirror=$(grep -hoE '(URIs:|^deb)[[:space:]]+[a-z]+://[^[:space:]]+/debian/?([[:space:]]|$)' \
  /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
  | awk '{print $2}' | grep -v security | head -n1 || true)
mirror="${mirror:-http://deb.debian.org/debian}"
mirror="${mirror%/}"

state="$cache/apt"
mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/etc/preferences.d" "$state/etc/sources.list.d" "$cache/debs"
: > "$state/status"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || { echo "install-nats-server: $keyring is missing (apt-get install debian-archive-keyring)" >&2; exit 1; }
cat > "$state/etc/sources.list" <<SOURCES
deb [signed-by=$keyring] $mirror $suite main
SOURCES
opts=(
  -o "Dir::State=$state" -o "Dir::State::Lists=$state/lists" -o "Dir::State::status=$state/status"
  -o "Dir::Cache=$state/cache" -o "Dir::Etc::SourceList=$state/etc/sources.list"
  -o "Dir::Etc::SourceParts=$state/etc/sources.list.d" -o "Dir::Etc::Preferences=$state/etc/preferences"
  -o "Dir::Etc::PreferencesParts=$state/etc/preferences.d" -o "APT::Architecture=$(dpkg --print-architecture)"
  -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root"
)
echo "install-nats-server: fetching nats-server from Debian $suite ($mirror) with a private apt state in $state" >&2
apt-get "${opts[@]}" -qq update >&2
(cd "$cache/debs" && rm -f nats-server_*.deb && apt-get "${opts[@]}" -qq download nats-server >&2)
deb=$(ls "$cache/debs"/nats-server_*.deb | head -n1)
rm -rf "$cache/root.tmp"
dpkg -x "$deb" "$cache/root.tmp"
rm -rf "$cache/root"
mv "$cache/root.tmp" "$cache/root"
"$bin" --version >&2
echo "$bin"
