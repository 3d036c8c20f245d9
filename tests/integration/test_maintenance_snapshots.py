"""Snapshot expiration (icebergSnapshotManagement) run by the server's
maintenance service, read back by PyIceberg and DuckDB through the REST
catalog and the S3 endpoint.

Time is injected: the server restarts with --test-only-clock-offset-hours so
maintenance sees the snapshots as old (SigV4 and commits keep real time).
The scheduler is off (--maintenance-interval-seconds 0) except where a test
proves it runs by itself; jobs run through POST /admin/maintenance/run and the
`streamtables table maintenance run|status` CLI.
"""

import collections
import json
import time

import pyarrow as pa
import pytest
from pyiceberg.exceptions import CommitFailedException, ValidationException

from harness import duckdb_engine
from harness.backends import StoredObjects
from iceberg_rest_clients import new_bucket, pyiceberg_catalog, s3_writes_available

SCHEMA = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])
OFFSET = ["--allow-test-only-options", "yes", "--test-only-clock-offset-hours"]
NO_SCHEDULER = ["--maintenance-interval-seconds", "0"]


def rows(first: int, count: int, tag: str) -> pa.Table:
    return pa.Table.from_pylist([{"id": i, "name": f"{tag}-{i}"}
                                 for i in range(first, first + count)], schema=SCHEMA)


def multiset(records) -> collections.Counter:
    return collections.Counter((r["id"], r["name"]) for r in records)


def table_with_appends(server, appends: int, per_append: int = 5):
    """A PyIceberg table ns.t with `appends` snapshots; returns (bucket ARN, catalog, table)."""
    assert s3_writes_available(server), "the S3 endpoint refuses PutObject on a table bucket"
    arn = new_bucket(server, prefix="maint")
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    table = cat.create_table("ns.t", schema=SCHEMA)
    for n in range(appends):
        table.append(rows(n * per_append, per_append, f"a{n}"))
    return arn, cat, cat.load_table("ns.t")


def stored(server) -> StoredObjects:
    """The server's objects as stored, on either backend (harness/backends.py)."""
    return StoredObjects(server)


def object_bytes(server, uri: str) -> bytes:
    """An s3:// object's bytes as a client reads them, through the S3 endpoint
    (on disk it is encrypted)."""
    bucket, _, key = uri.removeprefix("s3://").partition("/")
    return server.boto3_client("s3").get_object(Bucket=bucket, Key=key)["Body"].read()


def run_job(server, arn: str, job: str = "icebergSnapshotManagement") -> dict:
    out = server.cli("table", "maintenance", "run", "--bucket", arn, "--namespace", "ns", "t",
                     "--job", job, "--json")
    return json.loads(out.stdout)


def put_snapshot_rules(server, arn: str, keep: int, hours: int) -> None:
    server.boto3_client("s3tables").put_table_maintenance_configuration(
        tableBucketARN=arn, namespace="ns", name="t", type="icebergSnapshotManagement",
        value={"status": "enabled", "settings": {"icebergSnapshotManagement": {
            "minSnapshotsToKeep": keep, "maxSnapshotAgeHours": hours}}})


def restart_with(server, *args: str):
    server.extra_args = [*NO_SCHEDULER, *args]
    return server.restart()


def duckdb_rows(server, arn: str) -> list[dict]:
    return [dict(zip(("id", "name"), row))
            for row in duckdb_rows_sql(server, arn, "SELECT id, name FROM st.ns.t")]


def duckdb_rows_sql(server, arn: str, sql: str) -> list[tuple]:
    """`sql` over the bucket ATTACHed as `st` through our REST catalog."""
    conn = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    try:
        creds = server.admin_credentials
        conn.execute(f"CREATE OR REPLACE SECRET st_secret (TYPE s3, KEY_ID '{creds.access_key}', "
                     f"SECRET '{creds.secret_key}', REGION '{server.region}')")
        conn.execute(f"ATTACH '{arn}' AS st (TYPE iceberg, ENDPOINT '{server.iceberg_url}', "
                     f"AUTHORIZATION_TYPE 'sigv4', SECRET st_secret, SIGV4_SERVICE 's3tables', "
                     f"SIGV4_REGION '{server.region}')")
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def referenced_files(table) -> set:
    """Every file the table's current metadata reaches: manifest lists,
    manifests and data files of every remaining snapshot."""
    out = set()
    io = table.io
    for snapshot in table.metadata.snapshots:
        out.add(snapshot.manifest_list)
        for manifest in snapshot.manifests(io):
            out.add(manifest.manifest_path)
            for entry in manifest.fetch_manifest_entry(io, discard_deleted=True):
                out.add(entry.data_file.file_path)
    return out


def spark_rows(spark, server, arn: str, suffix: str = "") -> collections.Counter:
    """ns.t read by Spark through our REST catalog (a fresh catalog name: the
    server's ports change on restart); `suffix` e.g. "VERSION AS OF 123"."""
    from test_iceberg_rest_engines import spark_catalog
    name = spark_catalog(spark, server, arn)
    return multiset(r.asDict() for r in
                    spark.sql(f"SELECT id, name FROM {name}.ns.t {suffix}").collect())


def test_expiration_keeps_rows_and_kept_snapshots_and_deletes_only_unreachable_files(
        fresh_server, spark):
    server = fresh_server(extra_args=NO_SCHEDULER)
    arn, cat, table = table_with_appends(server, appends=6)
    before_rows = multiset(table.scan().to_arrow().to_pylist())
    assert sum(before_rows.values()) == 30
    assert spark_rows(spark, server, arn) == before_rows
    snapshots = [s.snapshot_id for s in table.metadata.snapshots]
    assert len(snapshots) == 6
    old_lists = {s.snapshot_id: s.manifest_list for s in table.metadata.snapshots}
    put_snapshot_rules(server, arn, keep=2, hours=1)

    # Young snapshots: the age rule keeps them all, whatever min-to-keep says.
    result = run_job(server, arn)
    assert result["status"] == "Successful", result
    assert len(cat.load_table("ns.t").metadata.snapshots) == 6

    # Two hours later (for maintenance only): all but the 2 newest expire.
    restart_with(server, *OFFSET, "2")
    result = run_job(server, arn)
    assert result["status"] == "Successful", result
    cat = pyiceberg_catalog(server, arn)  # The restart picked new ports.
    after = cat.load_table("ns.t")
    kept = [s.snapshot_id for s in after.metadata.snapshots]
    assert kept == snapshots[-2:]

    # Same rows for PyIceberg and DuckDB, before and after.
    assert multiset(after.scan().to_arrow().to_pylist()) == before_rows
    assert multiset(duckdb_rows(server, arn)) == before_rows
    assert spark_rows(spark, server, arn) == before_rows
    # Time travel: the kept older snapshot has the first 5 appends' rows...
    at_kept = after.scan(snapshot_id=kept[0]).to_arrow().to_pylist()
    first_five = collections.Counter()
    for n in range(5):
        first_five += multiset(rows(n * 5, 5, f"a{n}").to_pylist())
    assert multiset(at_kept) == first_five
    assert spark_rows(spark, server, arn, f"VERSION AS OF {kept[0]}") == first_five
    # ...and an expired snapshot is gone, for PyIceberg and Spark.
    assert after.metadata.snapshot_by_id(snapshots[0]) is None
    with pytest.raises(Exception):
        after.scan(snapshot_id=snapshots[0]).to_arrow()
    with pytest.raises(Exception, match=f"Cannot find snapshot with ID {snapshots[0]}"):
        spark_rows(spark, server, arn, f"VERSION AS OF {snapshots[0]}")

    # Storage: every file the metadata reaches exists; expired manifest lists are deleted.
    store = stored(server)
    for uri in referenced_files(after):
        assert store.exists(uri), f"referenced file missing: {uri}"
    for snapshot_id, manifest_list in old_lists.items():
        assert store.exists(manifest_list) == (snapshot_id in kept), manifest_list


def test_job_status_shapes_and_metrics(fresh_server):
    server = fresh_server(extra_args=[*NO_SCHEDULER, *OFFSET, "200"])
    arn, cat, _ = table_with_appends(server, appends=3)
    s3t = server.boto3_client("s3tables")
    status = s3t.get_table_maintenance_job_status(tableBucketARN=arn, namespace="ns", name="t")
    assert status["status"]["icebergSnapshotManagement"] == {"status": "Not_Yet_Run"}

    result = run_job(server, arn)
    assert result["status"] == "Successful"
    assert len(cat.load_table("ns.t").metadata.snapshots) == 1  # Default: keep 1, 120 h.
    status = s3t.get_table_maintenance_job_status(tableBucketARN=arn, namespace="ns", name="t")
    snap = status["status"]["icebergSnapshotManagement"]
    assert snap["status"] == "Successful"
    assert "lastRunTimestamp" in snap and "failureMessage" not in snap
    assert status["status"]["icebergCompaction"] == {"status": "Not_Yet_Run"}
    assert status["status"]["icebergUnreferencedFileRemoval"] == {"status": "Not_Yet_Run"}

    # The CLI's status view agrees, and record expiration reports its own words.
    shown = json.loads(server.cli("table", "maintenance", "status", "--bucket", arn,
                                  "--namespace", "ns", "t", "--json").stdout)
    assert shown["status"]["icebergSnapshotManagement"]["status"] == "Successful"
    assert shown["recordExpiration"] == {"status": "Disabled"}

    # Disabled: the status says so and run-now refuses.
    s3t.put_table_maintenance_configuration(
        tableBucketARN=arn, namespace="ns", name="t", type="icebergSnapshotManagement",
        value={"status": "disabled"})
    status = s3t.get_table_maintenance_job_status(tableBucketARN=arn, namespace="ns", name="t")
    assert status["status"]["icebergSnapshotManagement"] == {"status": "Disabled"}
    refused = server.cli("table", "maintenance", "run", "--bucket", arn, "--namespace", "ns", "t",
                         "--job", "icebergSnapshotManagement", check=False)
    assert refused.returncode != 0
    assert "disabled" in (refused.stdout + refused.stderr)

    metrics = server.metrics_text().splitlines()

    def series(name: str) -> list[str]:
        # Label order is not part of the format (every series also has replica=).
        return [line for line in metrics if line.startswith(name + "{") and 'table="' in line]

    runs = series("streamtables_maintenance_job_runs_total")
    assert any('job="icebergSnapshotManagement"' in line and line.endswith("} 1")
               for line in runs), runs
    assert series("streamtables_table_snapshots")
    assert series("streamtables_table_metadata_file_bytes")


def test_scheduler_runs_jobs_by_itself_on_the_injected_clock(fresh_server):
    server = fresh_server(extra_args=["--maintenance-interval-seconds", "1", *OFFSET, "200"])
    arn, cat, _ = table_with_appends(server, appends=1)
    # The scheduler runs while the test appends: a pass between two appends can
    # compact and then expire the snapshot the writer's table object is based on
    # (the 200-hour offset makes every snapshot old), deleting its manifest list
    # before the next append reads it (or PyIceberg's own retry after the
    # compaction's commit finds its starting snapshot gone). A writer then
    # reloads the table and appends again, as after any failed commit
    # (nothing was committed).
    for n in range(1, 3):
        for attempt in range(5):
            try:
                cat.load_table("ns.t").append(rows(n * 5, 5, f"a{n}"))
                break
            except (FileNotFoundError, CommitFailedException, ValidationException):
                if attempt == 4:
                    raise
                time.sleep(0.2)
    s3t = server.boto3_client("s3tables")
    # A pass may already have run between the appends: wait for one after them.
    deadline = time.time() + 30
    while time.time() < deadline:
        status = s3t.get_table_maintenance_job_status(tableBucketARN=arn, namespace="ns", name="t")
        done = status["status"]["icebergSnapshotManagement"]["status"] == "Successful"
        if done and len(cat.load_table("ns.t").metadata.snapshots) == 1:
            break
        time.sleep(0.5)
    assert status["status"]["icebergSnapshotManagement"]["status"] == "Successful", status
    assert len(cat.load_table("ns.t").metadata.snapshots) == 1


def test_an_explicit_deny_for_the_maintenance_principal_fails_the_job(fresh_server):
    server = fresh_server(extra_args=[*NO_SCHEDULER, *OFFSET, "200"])
    arn, cat, _ = table_with_appends(server, appends=3)
    server.boto3_client("s3tables").put_table_bucket_policy(
        tableBucketARN=arn, resourcePolicy=json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Deny",
                           "Principal": {"Service": "maintenance.s3tables.amazonaws.com"},
                           "Action": "s3tables:*", "Resource": f"{arn}/*"}]}))
    result = run_job(server, arn)
    assert result["status"] == "Failed"
    assert "maintenance.s3tables.amazonaws.com" in result["failureMessage"]
    assert len(cat.load_table("ns.t").metadata.snapshots) == 3
    status = server.boto3_client("s3tables").get_table_maintenance_job_status(
        tableBucketARN=arn, namespace="ns", name="t")
    assert status["status"]["icebergSnapshotManagement"]["status"] == "Failed"
    assert "maintenance.s3tables.amazonaws.com" in \
        status["status"]["icebergSnapshotManagement"]["failureMessage"]


def test_test_only_clock_offset_is_refused_without_the_explicit_switch(st_bin, tmp_path):
    result = st_bin.run("streamtables-server", "--data-dir", str(tmp_path / "d"),
                        "--test-only-clock-offset-hours", "5", check=False, timeout_s=30)
    assert result.returncode == 2
    assert "--allow-test-only-options" in result.stderr
