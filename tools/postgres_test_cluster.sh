#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests, on a loopback port, trust auth.
#
#   tools/postgres_test_cluster.sh start <dir>   initdb a new cluster, start
#                                                it, print its URL on stdout
#   tools/postgres_test_cluster.sh stop <dir>    stop it (fast shutdown)
#
# PostgreSQL refuses to run as root, and CI runs as root: then the cluster
# runs as the unprivileged user Debian's postgresql package creates
# ('postgres'). The cluster lives in a fresh directory under $TMPDIR (or /tmp)
# that the server's user can reach whatever <dir>'s parents' modes are; <dir>
# records where (cluster_path) and keeps the logs; stop removes the cluster.
# fsync is off (tests only; ST_PG_FSYNC=on for benchmarks). The URL names database 'postgres' and user 'postgres'.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
[[ -n "$cmd" && -n "$dir" ]] || { echo "usage: $0 start|stop <dir>" >&2; exit 2; }

bindir=""
for candidate in /usr/lib/postgresql/*/bin; do
  [[ -x "$candidate/initdb" ]] && bindir=$candidate
done
[[ -n "$bindir" ]] || { echo "postgres_test_cluster: no initdb under /usr/lib/postgresql/*/bin (install the 'postgresql' package: tools/install.sh)" >&2; exit 1; }

as_owner=()
if [[ $(id -u) -eq 0 ]]; then
  id postgres >/dev/null 2>&1 || { echo "postgres_test_cluster: running as root and no 'postgres' user" >&2; exit 1; }
  as_owner=(runuser -u postgres --)
fi

case "$cmd" in
  start)
    mkdir -p "$dir"
    cluster=$(mktemp -d "${TMPDIR:-/tmp}/st-pg.XXXXXX")
    chmod 0755 "$cluster"
    echo "$cluster" >"$dir/cluster_path"
    if [[ ${#as_owner[@]} -gt 0 ]]; then chown postgres "$cluster"; fi
    "${as_owner[@]}" "$bindir/initdb" -D "$cluster/data" -U postgres --auth=trust \
      --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    # A free port: bind 0 and read back what the kernel chose.
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    "${as_owner[@]}" "$bindir/pg_ctl"  -D "$cluster/data" -l "$cluster/server.log" -w -t 60 \
      -o "-p $port -k $cluster -c listen_addresses=127.0.0.1 -c fsync=${ST_PG_FSYNC:-off} -c max_connections=200" \
      start >/dev/null || { cat "$cluster/server.log" >&2; exit 1; }
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    [[ -f "$dir/cluster_path" ]] || exit 0
    cluster=$(cat "$dir/cluster_path")
    if [[ -d "$cluster/data" ]]; then
      "${as_owner[@]}" "$bindir/pg_ctl" -D "$cluster/data" -m fast -w stop >/dev/null || true
      cp "$cluster/server.log" "$dir/server.log" 2>/dev/null || true
    fi
    rm -rf "$cluster" "$dir/cluster_path"
    ;;
  *) echo "usage: $0 start|stop <dir>" >&2; exit 2 ;;
esac
