#!/usr/bin/env bash
# Installs the peers the tests and benchmarks talk to, when they are missing (idempotent: a peer
# already there costs one `command -v`). `.ci/run` calls it before `npm install && npm test`.
#   ingest:  influxd + influx CLI 1.6.7 (differential and client tests, HTTP ingest bench),
#            python3-influxdb (client test), prometheus + promtool (remote write/read, /metrics),
#            victoria-metrics (HTTP ingest bench peer).
#   cluster: nats-server 2.10.x from Debian 13 (cluster tests and bench), and Debian 12's 2.9.10,
#            which the cluster tests check svc refuses (scripts/install-nats-server.sh: a private apt
#            state, apt-get download + dpkg -x into a cache folder; the system's sources untouched).
# Daemons are never left running: Debian's maintainer scripts would start them, so a policy-rc.d
# that refuses every start is in place while apt-get runs (tests start their own on loopback).
set -euo pipefail

need=()
command -v influxd >/dev/null || need+=(influxdb)
command -v influx >/dev/null || need+=(influxdb-client)
# Debian's python3 (a pyenv python3 may come first on PATH): the tests run /usr/bin/python3.
/usr/bin/python3 -c 'import influxdb' 2>/dev/null || need+=(python3-influxdb)
command -v prometheus >/dev/null || need+=(prometheus)
command -v promtool >/dev/null || need+=(prometheus)
command -v victoria-metrics >/dev/null || need+=(victoria-metrics)

if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-test-peers: missing ${need[*]}; run this script as root (apt-get)" >&2
    exit 1
  fi
  policy=/usr/sbin/policy-rc.d
  own_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && own_policy=1
  fi
  trap 'if [ "$own_policy" = 1 ]; then rm -f "$policy"; fi' EXIT
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
here="$(cd "$(dirname "$0")" && pwd)"
nats=$(bash "$here/install-nats-server.sh" trixie)
bash "$here/install-nats-server.sh" bookworm >/dev/null
echo "install-test-peers: influxd $(influxd version 2>/dev/null | head -1 | awk '{print $2}'), prometheus $(prometheus --version 2>&1 | head -1 | awk '{print $3}'), victoria-metrics present: $(command -v victoria-metrics >/dev/null && echo yes), $nats"
