#!/usr/bin/env bash
# Runs the main job on embedded defaults: a local Kafka broker and
# `streamtables server` (SQLite catalog, local object store) under
# ./data/quickstart, a table bucket, a JSON schema in the built-in Glue
# registry and a delivery channel; produces sample clickstream events, waits
# until they are visible and reads them back with PyIceberg and DuckDB
# through the Iceberg REST catalog (tools/quickstart_channel.py).
set -euo pipefail
cd "$(dirname "$0")"

./tools/install.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build -j"${ST_JOBS:-2}" streamtables

# The same virtualenv install.sh made (ST_VENV_DIR, default ./.venv).
"${ST_VENV_DIR:-.venv}/bin/python" tools/quickstart_channel.py
