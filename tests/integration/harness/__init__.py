"""Test harness for the streamtables integration tests.

Real engines, started directly (no Docker): an Apache Kafka 4.x broker in KRaft
mode (kafka.py), a local Spark session with the Iceberg runtime (spark_engine.py),
DuckDB with its iceberg extension loaded offline (duckdb_engine.py), read-back
helpers that give the same rows from every engine (readers.py), and a runner
for our own binaries (binaries.py). tools/install.sh fetches what they need;
tests/integration/conftest.py turns them into pytest fixtures.
"""
