#!/usr/bin/env bash
# Run a command against a throw-away Dask cluster and Redis server on loopback:
#
#   .ci/dask_smoke.sh novikoff falsify "d" --executor "$NOVIKOFF_EXECUTOR" --database "$NOVIKOFF_REDIS"
#
# (quote the command's $VARIABLES as above, in single quotes from an outer shell, or use
# `sh -c '...'`: they are set here, for the command). Starts a `dask scheduler`, two
# `dask worker` processes (one thread each) and a `redis-server` on free loopback ports,
# waits until the scheduler sees both workers and Redis answers, then runs the command with
#
#   NOVIKOFF_DASK=tcp://127.0.0.1:PORT       the scheduler's address
#   NOVIKOFF_EXECUTOR=dask://127.0.0.1:PORT  the same, spelled for --executor
#   NOVIKOFF_REDIS=redis://127.0.0.1:PORT/0  the shared example database, for --database
#
# and exits with the command's status. Everything started here is stopped on every exit
# path (trap): each server runs in its own process group, which gets SIGTERM, then SIGKILL.
# Needs dask (pip install "novikoff[dask]"), redis-server and the redis package on PATH.
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 COMMAND [ARG...]" >&2
    exit 2
fi
for tool in python dask redis-server setsid; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is not on PATH" >&2; exit 2; }
done

workdir=$(mktemp -d "${TMPDIR:-/tmp}/novikoff-dask-smoke.XXXXXX")
groups=()

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    local pgid
    for pgid in "${groups[@]}"; do kill -TERM -- "-$pgid" 2>/dev/null || true; done
    for _ in $(seq 50); do  # up to 5 s for a clean shutdown
        local alive=0
        for pgid in "${groups[@]}"; do kill -0 -- "-$pgid" 2>/dev/null && alive=1; done
        [ "$alive" -eq 0 ] && break
        sleep 0.1
    done
    for pgid in "${groups[@]}"; do kill -KILL -- "-$pgid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    if [ "$status" -ne 0 ]; then  # the servers' last words, for a failed CI run
        for log in "$workdir"/*.log; do
            [ -s "$log" ] && { echo "--- $log (last 20 lines)" >&2; tail -n 20 "$log" >&2; }
        done
    fi
    rm -rf "$workdir"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Start "$@" in its own process group (setsid execs in place: no job control here, so the
# background child is not a group leader and its pid is the new group's id).
start() {
    local log=$1
    shift
    setsid "$@" >"$workdir/$log" 2>&1 </dev/null &
    groups+=("$!")
}

free_port() {
    python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

sched_port=$(free_port)
redis_port=$(free_port)
scheduler="tcp://127.0.0.1:$sched_port"

start redis.log redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$workdir"
start scheduler.log dask scheduler --host 127.0.0.1 --port "$sched_port" --no-dashboard
for i in 1 2; do
    start "worker$i.log" dask worker "$scheduler" --host 127.0.0.1 --nthreads 1 --nworkers 1 \
        --no-dashboard --name "smoke-$i" --local-directory "$workdir/worker$i" --death-timeout 60
done

NOVIKOFF_DASK=$scheduler NOVIKOFF_REDIS="redis://127.0.0.1:$redis_port/0" python - <<'EOF'
import os, sys, time

import redis
from distributed import Client

url = os.environ["NOVIKOFF_REDIS"]
client = redis.Redis.from_url(url)
for _ in range(200):
    try:
        client.ping()
        break
    except redis.ConnectionError:
        time.sleep(0.05)
else:
    sys.exit(f"dask_smoke: redis-server does not answer at {url}")
try:
    with Client(os.environ["NOVIKOFF_DASK"], timeout=30, set_as_default=False) as dask_client:
        dask_client.wait_for_workers(2, timeout=60)
except (OSError, TimeoutError) as exc:
    sys.exit(f"dask_smoke: the cluster at {os.environ['NOVIKOFF_DASK']} is not up with 2 workers: {exc}")
EOF

export NOVIKOFF_DASK="$scheduler"
export NOVIKOFF_EXECUTOR="dask://127.0.0.1:$sched_port"
export NOVIKOFF_REDIS="redis://127.0.0.1:$redis_port/0"
echo "dask_smoke: scheduler $NOVIKOFF_DASK (2 workers), Redis $NOVIKOFF_REDIS" >&2
set +e
"$@"
status=$?
set -e
exit "$status"
