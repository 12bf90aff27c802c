#!/usr/bin/env bash
# Installs every peer the tests and benches need that npm does not bring, idempotently; `.ci/run`
# calls it before `npm install && npm test`, and a developer runs it once. A test whose peer is
# missing skips naming this script — outside CI only; with CI=true it fails.
#   - nats-server 2.10.x from Debian 13 (cluster tests, cluster bench), and Debian 12's 2.9.10,
#     which the cluster tests check svc refuses (scripts/install-nats-server.sh says why and how).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

bash "$here/install-nats-server.sh" trixie >/dev/null
bash "$here/install-nats-server.sh" bookworm >/dev/null
