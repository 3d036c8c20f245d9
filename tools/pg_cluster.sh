#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for tests (unit and integration).
#
#   tools/pg_cluster.sh start DIR   initdb into DIR/data, start on a free
#                                   loopback port, print the URL
#                                   postgresql://postgres@127.0.0.1:PORT/postgres
#   tools/pg_cluster.sh stop DIR    stop it (DIR stays; remove it yourself)
#   tools/pg_cluster.sh resume DIR  start a stopped cluster again on its port
#                                   (a database restart for fault tests)
#
# Trust authentication on 127.0.0.1 only, no Unix socket outside DIR. As root
# the server runs as the `postgres` OS user (PostgreSQL refuses root).
# Fails loudly when PostgreSQL is not installed (tools/install.sh installs it).
set -euo pipefail

PG_BIN="${ST_PG_BIN:-/usr/lib/postgresql/15/bin}"
cmd="${1:-}" dir="${2:-}"
[[ -n "$cmd" && -n "$dir" ]] || { echo "usage: $0 start|stop|resume DIR" >&2; exit 2; }
[[ -x "$PG_BIN/initdb" ]] || { echo "pg_cluster.sh: $PG_BIN/initdb missing; run tools/install.sh (apt postgresql)" >&2; exit 1; }

as_pg=()
if [[ "$(id -u)" == 0 ]]; then as_pg=(runuser -u postgres --); fi

case "$cmd" in
  start)
    mkdir -p "$dir"
    [[ ${#as_pg[@]} -eq 0 ]] || chown postgres "$dir"
    "${as_pg[@]}" test -w "$dir" || { echo "pg_cluster.sh: $dir is not reachable by the postgres user; use a directory directly under /tmp" >&2; exit 1; }
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    "${as_pg[@]}" "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust --locale=C -E UTF8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    echo "$port" >"$dir/port"
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  resume)
    port="$(cat "$dir/port")"
    "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    ;;
  stop)
    "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  *) echo "usage: $0 start|stop|resume DIR" >&2; exit 2 ;;
esac
