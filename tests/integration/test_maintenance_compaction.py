"""Compaction (icebergCompaction) run by the server's maintenance service
through `streamtables table maintenance run`, read back by PyIceberg, DuckDB
and Spark through the REST catalog and the S3 endpoint.

The session server runs with its scheduler's hot pass off (harness), so only
the job runs started here rewrite files. Spark is the session fixture; each
test registers its own REST catalog on it.
"""

import collections
import json
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from iceberg_rest_clients import new_bucket, pyiceberg_catalog, s3_writes_available
from test_iceberg_rest_engines import spark_catalog
from test_maintenance_snapshots import duckdb_rows_sql, object_bytes, stored

SCHEMA = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])


def run_job(server, arn: str, ns: str, table: str) -> dict:
    out = server.cli("table", "maintenance", "run", "--bucket", arn, "--namespace", ns, table,
                     "--job", "icebergCompaction", "--json")
    return json.loads(out.stdout)


def put_strategy(server, arn: str, ns: str, table: str, strategy: str) -> None:
    server.boto3_client("s3tables").put_table_maintenance_configuration(
        tableBucketARN=arn, namespace=ns, name=table, type="icebergCompaction",
        value={"status": "enabled", "settings": {"icebergCompaction": {
            "targetFileSizeMB": 64, "strategy": strategy}}})


def live_files(table) -> list:
    return [task.file for task in table.scan().plan_files()]


@pytest.fixture
def writable(server):
    assert s3_writes_available(server), "the S3 endpoint refuses PutObject on a table bucket"
    return server


def test_binpack_merges_small_files_and_every_engine_reads_the_same_rows(writable, spark):
    server = writable
    arn = new_bucket(server, prefix="compact")
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    table = cat.create_table("ns.t", schema=SCHEMA)
    for n in range(12):
        table.append(pa.Table.from_pylist(
            [{"id": n * 10 + i, "name": None if i == 3 else f"r{n}-{i}"} for i in range(10)],
            schema=SCHEMA))
    table = cat.load_table("ns.t")
    assert len(live_files(table)) == 12
    before_snapshot = table.metadata.current_snapshot_id
    before = collections.Counter(map(lambda r: (r["id"], r["name"]),
                                     table.scan().to_arrow().to_pylist()))
    assert sum(before.values()) == 120

    result = run_job(server, arn, "ns", "t")
    assert result["status"] == "Successful", result

    after = cat.load_table("ns.t")
    assert len(live_files(after)) == 1
    snapshot = after.metadata.current_snapshot()
    assert snapshot.summary.operation.value == "replace"
    assert snapshot.parent_snapshot_id == before_snapshot
    rows = lambda records: collections.Counter((r["id"], r["name"]) for r in records)  # noqa: E731
    assert rows(after.scan().to_arrow().to_pylist()) == before
    duck = duckdb_rows_sql(server, arn, "SELECT id, name FROM st.ns.t")
    assert collections.Counter(duck) == before
    name = spark_catalog(spark, server, arn)
    assert rows(r.asDict() for r in spark.table(f"{name}.ns.t").collect()) == before
    # Time travel to the snapshot before compaction still reads its 12 files.
    old = after.scan(snapshot_id=before_snapshot)
    assert len(list(old.plan_files())) == 12
    assert rows(old.to_arrow().to_pylist()) == before
    spark_old = spark.sql(f"SELECT * FROM {name}.ns.t VERSION AS OF {before_snapshot}").collect()
    assert rows(r.asDict() for r in spark_old) == before

    # Job status and /metrics report the run.
    status = server.boto3_client("s3tables").get_table_maintenance_job_status(
        tableBucketARN=arn, namespace="ns", name="t")["status"]["icebergCompaction"]
    assert status["status"] == "Successful" and "lastRunTimestamp" in status, status
    metrics = server.metrics_text()
    # Label order is not part of the format (every series also has replica=).
    rewritten = [line for line in metrics.splitlines()
                 if line.startswith("streamtables_maintenance_files_rewritten_total{")
                 and f'table="{after_arn(server, arn)}"' in line
                 and 'job="icebergCompaction"' in line]
    assert len(rewritten) == 1 and rewritten[0].endswith("} 12"), metrics


def after_arn(server, bucket_arn: str) -> str:
    table = server.boto3_client("s3tables").get_table(tableBucketARN=bucket_arn, namespace="ns",
                                                      name="t")
    return table["tableARN"]


def spark_sorted_table(spark, server, arn: str, order: str, rows: list[tuple], inserts: int):
    """A Spark table w.t (id bigint, x int, y int) WRITE ORDERED BY `order`,
    filled by `inserts` INSERTs of `rows` (shuffled) so each insert is a file."""
    name = spark_catalog(spark, server, arn)
    spark.sql(f"CREATE NAMESPACE {name}.w")
    # distribution-mode none: each INSERT's one task writes one (locally sorted) file.
    spark.sql(f"CREATE TABLE {name}.w.t (id bigint, x int, y int) USING iceberg "
              f"TBLPROPERTIES ('write.distribution-mode'='none')")
    spark.sql(f"ALTER TABLE {name}.w.t WRITE ORDERED BY {order}")
    per = len(rows) // inserts
    for n in range(inserts):
        chunk = rows[n * per:(n + 1) * per]
        values = ", ".join(f"({i}, {x}, {y})" for i, x, y in chunk)
        # One task per insert, so one data file.
        spark.sql(f"INSERT INTO {name}.w.t SELECT /*+ COALESCE(1) */ * FROM VALUES {values}")
    return name


def file_columns(server, uri: str, *columns: str) -> dict:
    data = pq.read_table(pa.BufferReader(object_bytes(server, uri)), columns=list(columns))
    return {c: data.column(c).to_pylist() for c in columns}


def set_small_target(spark, name: str, cat) -> None:
    """Lowers the target (write.target-file-size-bytes) so the inputs are
    small files and the output rolls into a few files."""
    largest = max(f.file_size_in_bytes for f in live_files(cat.load_table("w.t")))
    target = int(largest / 0.74) + 1
    spark.sql(f"ALTER TABLE {name}.w.t SET TBLPROPERTIES "
              f"('write.target-file-size-bytes'='{target}')")


def shuffled_grid(seed: int):
    import random
    cells = [(i, i % 64, i // 64) for i in range(4096)]  # x, y in a 64 x 64 grid.
    random.Random(seed).shuffle(cells)
    return cells


def test_sort_compaction_orders_files_by_the_sort_column(writable, spark):
    server = writable
    arn = new_bucket(server, prefix="compact")
    cells = shuffled_grid(1)
    name = spark_sorted_table(spark, server, arn, "id", cells, inserts=8)
    cat = pyiceberg_catalog(server, arn)
    set_small_target(spark, name, cat)
    before = collections.Counter(cells)
    put_strategy(server, arn, "w", "t", "sort")

    result = run_job(server, arn, "w", "t")
    assert result["status"] == "Successful", result
    after = cat.load_table("w.t")
    assert after.metadata.current_snapshot().summary.operation.value == "replace"
    files = live_files(after)
    assert len(files) >= 2, [f.file_size_in_bytes for f in files]
    ranges = []
    got = collections.Counter()
    for f in files:
        cols = file_columns(server, f.file_path, "id", "x", "y")
        assert cols["id"] == sorted(cols["id"]), f.file_path  # Ordered inside the file.
        ranges.append((min(cols["id"]), max(cols["id"])))
        got.update(zip(cols["id"], cols["x"], cols["y"]))
    ranges.sort()
    for a, b in zip(ranges, ranges[1:]):
        assert a[1] < b[0], ranges  # Consecutive files do not overlap.
    assert got == before
    rows = spark.sql(f"SELECT id, x, y FROM {name}.w.t").collect()
    assert collections.Counter(tuple(r) for r in rows) == before


def test_z_order_compaction_gives_each_file_a_smaller_box(writable, spark):
    server = writable
    arn = new_bucket(server, prefix="compact")
    cells = shuffled_grid(2)
    name = spark_sorted_table(spark, server, arn, "x, y", cells, inserts=8)
    cat = pyiceberg_catalog(server, arn)
    set_small_target(spark, name, cat)
    before = collections.Counter(cells)
    put_strategy(server, arn, "w", "t", "z-order")

    result = run_job(server, arn, "w", "t")
    assert result["status"] == "Successful", result
    files = live_files(cat.load_table("w.t"))
    assert len(files) >= 2, [f.file_size_in_bytes for f in files]
    table_area = (max(c[1] for c in before) - min(c[1] for c in before)) * \
        (max(c[2] for c in before) - min(c[2] for c in before))
    areas = []
    got = collections.Counter()
    for f in files:
        cols = file_columns(server, f.file_path, "id", "x", "y")
        areas.append((max(cols["x"]) - min(cols["x"])) * (max(cols["y"]) - min(cols["y"])))
        got.update(zip(cols["id"], cols["x"], cols["y"]))
    assert got == before
    assert all(a < table_area for a in areas), (areas, table_area)
    assert sum(areas) / len(areas) <= 0.75 * table_area, (areas, table_area)


def test_a_corrupt_data_file_fails_the_job_naming_it_and_changes_nothing(writable):
    server = writable
    arn = new_bucket(server, prefix="compact")
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    table = cat.create_table("ns.t", schema=SCHEMA)
    for n in range(3):
        table.append(pa.Table.from_pylist([{"id": n, "name": f"r{n}"}], schema=SCHEMA))
    table = cat.load_table("ns.t")
    before_snapshot = table.metadata.current_snapshot_id
    victim = sorted(f.file_path for f in live_files(table))[1]
    store = stored(server)
    store.write(victim, b"\0" * len(store.read(victim)))

    result = run_job(server, arn, "ns", "t")
    assert result["status"] == "Failed", result
    assert victim in result.get("failureMessage", ""), result
    assert cat.load_table("ns.t").metadata.current_snapshot_id == before_snapshot
    status = server.boto3_client("s3tables").get_table_maintenance_job_status(
        tableBucketARN=arn, namespace="ns", name="t")["status"]["icebergCompaction"]
    assert status["status"] == "Failed" and victim in status["failureMessage"], status


def test_the_hot_pass_compacts_a_partition_past_the_bound_by_itself(fresh_server):
    """--hot-compaction-interval-seconds 1: a table whose partition holds more
    than 8 small files is compacted by the scheduler without a run-now."""
    server = fresh_server(extra_args=["--hot-compaction-interval-seconds", "1"])
    assert s3_writes_available(server)
    arn = new_bucket(server, prefix="hot")
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    table = cat.create_table("ns.t", schema=SCHEMA)
    for n in range(8):
        table.append(pa.Table.from_pylist([{"id": n, "name": f"r{n}"}], schema=SCHEMA))
    # At the bound (8 small files) the pass leaves the partition alone.
    time.sleep(2.5)
    table = cat.load_table("ns.t")
    assert len(live_files(table)) == 8
    assert table.metadata.current_snapshot().summary.operation.value == "append"
    table.append(pa.Table.from_pylist([{"id": 8, "name": "r8"}], schema=SCHEMA))
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        table = cat.load_table("ns.t")
        if len(live_files(table)) == 1:
            break
        time.sleep(0.5)
    assert len(live_files(table)) == 1
    assert table.metadata.current_snapshot().summary.operation.value == "replace"
    assert sorted(r["id"] for r in table.scan().to_arrow().to_pylist()) == list(range(9))


def test_binpack_carries_large_row_groups_over_encoded_and_rows_and_metrics_stay(writable):
    """Row groups of >= 65,536 rows in the output's codec are appended still
    encoded; small files between them are re-encoded into a group of their
    own. Rows, per-file metrics (null and NaN counts, bounds) and readers
    must not notice the difference."""
    server = writable
    arn = new_bucket(server, prefix="compact")
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    schema = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string()),
                        pa.field("score", pa.float64()), pa.field("flag", pa.bool_())])
    table = cat.create_table("ns.t", schema=schema)

    def batch(start: int, n: int) -> pa.Table:
        return pa.Table.from_pylist([{
            "id": i, "name": None if i % 7 == 0 else f"n{i % 1000:04d}",
            "score": float("nan") if i % 11 == 0 else (None if i % 13 == 0 else i / 3),
            "flag": None if i % 5 == 0 else i % 2 == 0} for i in range(start, start + n)],
            schema=schema)

    sizes = [70_000, 10, 70_000, 10, 70_000]
    start = 0
    for n in sizes:
        table.append(batch(start, n))
        start += n
    total = start
    table = cat.load_table("ns.t")
    before = table.scan().to_arrow().sort_by("id")
    assert before.num_rows == total

    result = run_job(server, arn, "ns", "t")
    assert result["status"] == "Successful", result
    after = cat.load_table("ns.t")
    files = live_files(after)
    assert len(files) == 1
    got = after.scan().to_arrow().sort_by("id")
    # Equal including NaN positions (compared as text) and nulls.
    assert got.column("id").to_pylist() == before.column("id").to_pylist()
    for col in ("name", "flag"):
        assert got.column(col).to_pylist() == before.column(col).to_pylist(), col
    assert [repr(v) for v in got.column("score").to_pylist()] == \
        [repr(v) for v in before.column("score").to_pylist()]
    duck = duckdb_rows_sql(server, arn, "SELECT count(*), count(name), sum(id) FROM st.ns.t")
    assert duck == [(total, sum(1 for i in range(total) if i % 7 != 0), total * (total - 1) // 2)]

    meta = pq.ParquetFile(pa.BufferReader(object_bytes(server, files[0].file_path))).metadata
    # The three large groups carried over as they were; the small files'
    # rows re-encoded into groups of their own (flushed before the next
    # carried-over group, or at the end: the group's file order decides).
    counts = sorted(meta.row_group(g).num_rows for g in range(meta.num_row_groups))
    assert counts in ([20, 70_000, 70_000, 70_000], [10, 10, 70_000, 70_000, 70_000]), counts
    f = files[0]
    ids = {field.name: field.field_id for field in after.schema().fields}
    assert f.null_value_counts[ids["name"]] == sum(1 for i in range(total) if i % 7 == 0)
    assert f.nan_value_counts.get(ids["score"]) == sum(1 for i in range(total) if i % 11 == 0)
    assert f.null_value_counts[ids["score"]] == sum(
        1 for i in range(total) if i % 11 != 0 and i % 13 == 0)
    import struct
    assert struct.unpack("<q", f.lower_bounds[ids["id"]])[0] == 0
    assert struct.unpack("<q", f.upper_bounds[ids["id"]])[0] == total - 1
    assert f.lower_bounds[ids["name"]] == b"n0000"
    assert f.upper_bounds[ids["name"]] == b"n0999"
    # Chunk statistics of a carried-over group are ours, recomputed.
    bounds = sorted((meta.row_group(g).column(0).statistics.min,
                     meta.row_group(g).column(0).statistics.max)
                    for g in range(meta.num_row_groups) if meta.row_group(g).num_rows == 70_000)
    assert bounds == [(0, 69_999), (70_010, 140_009), (140_020, 210_019)], bounds


def vm_hwm_kb(pid: int) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def test_a_file_that_decodes_past_the_memory_budget_fails_the_job_and_memory_stays_bounded(
        fresh_server):
    """A data file of 20 million equal values is a few hundred KB on disk
    and 200 MB decoded: with --compaction-memory-budget-mb 32 the job fails
    naming it before decoding it, the table is unchanged and the server's
    peak RSS grows by far less than the file's decoded size."""
    server = fresh_server(extra_args=["--compaction-memory-budget-mb", "32"])
    assert s3_writes_available(server)
    arn = new_bucket(server, prefix="compact")
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    schema = pa.schema([pa.field("id", pa.int64())])
    # One row group for the whole file (PyIceberg's default is 1 Mi rows).
    table = cat.create_table("ns.t", schema=schema,
                             properties={"write.parquet.row-group-limit": "100000000"})
    table.append(pa.table({"id": pa.array([1, 2], pa.int64())}))
    hostile_rows = 20_000_000
    table.append(pa.table({"id": pa.repeat(pa.scalar(0, pa.int64()), hostile_rows)}))
    table = cat.load_table("ns.t")
    hostile = [f for f in live_files(table) if f.record_count == hostile_rows][0]
    assert hostile.file_size_in_bytes < 2_000_000, hostile.file_size_in_bytes
    before_snapshot = table.metadata.current_snapshot_id
    pid = server.proc.pid
    hwm_before = vm_hwm_kb(pid)

    result = run_job(server, arn, "ns", "t")
    assert result["status"] == "Failed", result
    message = result.get("failureMessage", "")
    assert "exceeds the compaction memory budget" in message, message
    assert hostile.file_path in message, message
    assert server.running
    assert cat.load_table("ns.t").metadata.current_snapshot_id == before_snapshot
    grown_mb = (vm_hwm_kb(pid) - hwm_before) / 1024
    # 160 MB of int64 values alone would be decoded without the budget.
    assert grown_mb < 80, grown_mb
    # The server still serves: the table reads back whole.
    assert len(cat.load_table("ns.t").scan().to_arrow()) == hostile_rows + 2


def test_a_corrupt_file_fails_compaction_while_the_channel_keeps_delivering(
        server, kafka, topic_name):
    """Delivery is unaffected by a compaction job that fails on a corrupt
    file: a channel producing throughout keeps committing during and after
    the failure, and every record (those produced after the failure too) is
    in the table exactly once once the file is repaired."""
    import threading

    from harness.channels import ChannelSetup
    from test_maintenance_records import ID_SCHEMA

    kafka.create_topic(topic_name, partitions=1)
    channel = ChannelSetup.create(server, kafka, topic_name, schema=ID_SCHEMA,
                                  partition_source=None, freshness=1)
    channel.wait_status("ACTIVE")
    producer = kafka.producer()
    produced = 0

    def produce(count: int) -> None:
        nonlocal produced
        for _ in range(count):
            producer.produce(topic_name, value=json.dumps({"id": produced}).encode())
            produced += 1
        assert producer.flush(30) == 0

    for _ in range(3):  # At least three commits, so three small files.
        produce(5)
        channel.wait_rows(produced)
    table = channel.load_table()
    files = sorted(f.file_path for f in live_files(table))
    assert len(files) >= 3, files
    victim = files[1]
    store = stored(server)
    original = store.read(victim)
    store.write(victim, b"\0" * len(original))

    stop = threading.Event()

    def keep_producing() -> None:
        while not stop.is_set():
            produce(3)
            time.sleep(0.2)

    feeder = threading.Thread(target=keep_producing)
    feeder.start()
    try:
        result = run_job(server, channel.bucket_arn, channel.namespace, channel.table)
        failed_at = produced
        assert result["status"] == "Failed", result
        assert victim in result.get("failureMessage", ""), result
        # Commits after the failure: the snapshot count keeps growing.
        snapshots_at_failure = len(channel.load_table().metadata.snapshots)
        deadline = time.monotonic() + 60
        while len(channel.load_table().metadata.snapshots) < snapshots_at_failure + 3:
            assert time.monotonic() < deadline, server.log_tail(40)
            time.sleep(0.3)
    finally:
        stop.set()
        feeder.join()
    after = channel.load_table()
    # Compaction replaced nothing: every snapshot is the channel's append,
    # and the corrupt file is still referenced.
    assert all(s.summary.operation.value == "append" for s in after.metadata.snapshots)
    assert victim in {f.file_path for f in live_files(after)}
    store.write(victim, original)
    data = channel.wait_rows(produced)
    ids = sorted(r["id"] for r in data.to_pylist())
    assert ids == list(range(produced)), (len(ids), produced)
    assert produced > failed_at + 6
