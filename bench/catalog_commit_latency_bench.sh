#!/usr/bin/env bash
# Delivery-commit latency, PostgreSQL catalog vs SQLite catalog (RESULTS.md):
# starts a throwaway PostgreSQL with fsync on (as durable as SQLite's
# synchronous=FULL), runs build/bench/catalog_commit_latency_bench, stops it.
#   bench/catalog_commit_latency_bench.sh [build-dir] [commits]
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
commits=${2:-10000}
work=$(mktemp -d)
trap 'ST_PG_FSYNC=on "$repo/tools/postgres_test_cluster.sh" stop "$work/pg"; rm -rf "$work"' EXIT
url=$(ST_PG_FSYNC=on "$repo/tools/postgres_test_cluster.sh" start "$work/pg")
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/bench/catalog_commit_latency_bench" "$url" "$commits"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
