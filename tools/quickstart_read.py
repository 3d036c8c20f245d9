"""Reads the quickstart table with PyIceberg and DuckDB (foreign engines)."""
import sys

from pyiceberg.table import StaticTable

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/tests/integration")
from harness.duckdb_engine import connect as duckdb_connect  # noqa: E402

metadata = sys.argv[1]
table = StaticTable.from_metadata(metadata)
arrow = table.scan().to_arrow()
print(f"PyIceberg: {arrow.num_rows} rows in {len(list(table.scan().plan_files()))} data files, "
      f"{len(table.snapshots())} snapshots")
for row in arrow.sort_by("ts").select(["ts", "user_id", "page", "country", "revenue"]).slice(0, 5).to_pylist():
    print("  ", row)

con = duckdb_connect()
print("DuckDB: events and revenue per country")
rows = con.execute(
    f"SELECT country, count(*) AS events, sum(revenue) AS revenue "
    f"FROM iceberg_scan('{metadata}') GROUP BY country ORDER BY events DESC").fetchall()
for r in rows:
    print("  ", r)
