#!/usr/bin/env bash
# Starts a cluster on this machine for trying it out: 3 nats-servers (JetStream, R3 streams,
# sync_interval: always) and 3 svc_rest nodes, all on 127.0.0.1, in the foreground. One that dies
# or is killed (to try a failover) is reported and the others go on; Ctrl-C (or SIGTERM) stops
# all; the data stays in the cluster directory for the next start.
#   scripts/start-cluster.sh                 (after `npm install && npm run build`)
#   SVC_CLUSTER_DIR=./cluster-data           where the servers keep their data (default ./cluster-data)
#   SVC_CLUSTER_GROUPS=1                     table groups of a new cluster (?groups=N)
#   SVC_NATS_PORT=4222 SVC_REST_PORT=40080   first ports: NATS clients 4222-4224, routes 6222-6224,
#                                            monitoring 8222-8224, svc_rest 40080-40082
# nats-server comes from scripts/install-nats-server.sh (Debian 13's 2.10, fetched once into a
# cache folder; svc refuses servers older than 2.10.23).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
dir="${SVC_CLUSTER_DIR:-./cluster-data}"
groups="${SVC_CLUSTER_GROUPS:-1}"
nats_port="${SVC_NATS_PORT:-4222}"
rest_port="${SVC_REST_PORT:-40080}"
cli="$root/dist/server/cli.js"
[ -f "$cli" ] || { echo "start-cluster: $cli is missing: run npm install && npm run build first" >&2; exit 1; }

nats_server=$(bash "$here/install-nats-server.sh" trixie)
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
pids=()
stop() {
  trap - INT TERM EXIT
  echo "start-cluster: stopping" >&2
  # svc nodes first (they checkpoint nothing of their own, but finish in-flight requests), then NATS.
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  exit 0
}
trap stop INT TERM EXIT

routes=""
for i in 0 1 2; do routes="${routes:+$routes, }nats-route://127.0.0.1:$((nats_port + 2000 + i))"; done
servers=""
for i in 0 1 2; do
  n=$((i + 1))
  conf="$dir/nats$n.conf"
  cat > "$conf" <<CONF
server_name: nats$n
listen: 127.0.0.1:$((nats_port + i))
http: 127.0.0.1:$((nats_port + 4000 + i))
jetstream { store_dir: "$dir/nats$n", sync_interval: always }
cluster { name: svc, listen: 127.0.0.1:$((nats_port + 2000 + i)), routes: [$routes] }
CONF
  "$nats_server" -c "$conf" >"$dir/nats$n.log" 2>&1 &
  pids+=($!)
  servers="${servers:+$servers,}127.0.0.1:$((nats_port + i))"
done
# wait_ok URL SECONDS: until URL answers 2xx, at most SECONDS.
wait_ok() {
  for _ in $(seq 1 $(($2 * 5))); do
    curl -sf "$1" >/dev/null && return 0
    sleep 0.2
  done
  echo "start-cluster: $1 did not answer within $2 s" >&2
}
# js-server-only: the whole /healthz of 2.10.27 resets streams it finds skewed (a race just after
# a restart), so polling it could disturb the replicas it waits for.
for i in 0 1 2; do wait_ok "http://127.0.0.1:$((nats_port + 4000 + i))/healthz?js-server-only=true" 20; done
echo "start-cluster: nats-servers up: nats://$servers" >&2

for i in 0 1 2; do
  n=$((i + 1))
  node "$cli" --cluster "nats://$servers?groups=$groups" --node-id "node$n" --host 127.0.0.1 --port $((rest_port + i)) \
    --data-dir "$dir/node$n" --log-file "$dir/node$n.log" --assets-dir "$root/assets" >/dev/null 2>>"$dir/node$n.err" &
  pids+=($!)
done
for i in 0 1 2; do
  wait_ok "http://127.0.0.1:$((rest_port + i))/api/status/readiness" 60
  echo "start-cluster: node$((i + 1)) ready at http://127.0.0.1:$((rest_port + i))/" >&2
done
echo "start-cluster: every node serves every route; GET /api/cluster lists them. Ctrl-C stops all." >&2
# A server that dies (or is killed to try a failover) is reported; the others go on serving until
# Ctrl-C, so what the cluster does without it can be watched.
while [ -n "$(jobs -pr)" ]; do
  code=0
  wait -n || code=$?
  echo "start-cluster: a process exited (status $code); the others keep running; logs in $dir" >&2
done
