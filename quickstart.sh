#!/usr/bin/env bash
# Runs the main job on embedded defaults. Today that is the table engine:
# it writes a sample clickstream table (3 commits, partitioned by day(ts)) with
# our C++ writer into ./data/warehouse and reads it back with PyIceberg and
# DuckDB. The delivery issue turns this into Kafka → channel → table.
set -euo pipefail
cd "$(dirname "$0")"
REPO=$(pwd)

./tools/install.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build -j2 streamtables

WAREHOUSE="$REPO/data/warehouse"
rm -rf "$WAREHOUSE/demo/clicks"
echo "== writing a sample table with streamtables dev write-table"
METADATA=$(./build/src/cli/streamtables dev write-table --warehouse "$WAREHOUSE" \
  --namespace demo --table clicks --schema clickstream --rows 2000 --seed 7 \
  --partition-by 'day(ts)' --commits 3 | tail -n 1)
echo "metadata: $METADATA"

echo "== reading it back"
.venv/bin/python tools/quickstart_read.py "$METADATA"
