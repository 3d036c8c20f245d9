"""Unreferenced file removal (icebergUnreferencedFileRemoval, a table bucket
setting) run by the server's maintenance service: an orphan object planted
under a table's location goes only after unreferencedDays + nonCurrentDays
of injected time; every file the table references stays, and readers still
see every row.
"""

import pytest

from iceberg_rest_clients import pyiceberg_catalog
from test_maintenance_snapshots import (NO_SCHEDULER, OFFSET, duckdb_rows, multiset, stored,
                                        referenced_files, restart_with, run_job, spark_rows,
                                        table_with_appends)

JOB = "icebergUnreferencedFileRemoval"


def test_orphan_removed_only_after_the_configured_days_referenced_files_never(fresh_server, spark):
    server = fresh_server(extra_args=NO_SCHEDULER)
    arn, _, table = table_with_appends(server, appends=3)
    expected = multiset(table.scan().to_arrow().to_pylist())
    server.boto3_client("s3tables").put_table_bucket_maintenance_configuration(
        tableBucketARN=arn, type=JOB,
        value={"status": "enabled", "settings": {JOB: {"unreferencedDays": 2,
                                                       "nonCurrentDays": 3}}})
    store = stored(server)
    orphan = table.metadata.location + "/data/planted-orphan.parquet"
    store.write(orphan, b"not referenced by anything")
    referenced = referenced_files(table)

    def run_at(hours: int) -> dict:
        restart_with(server, *OFFSET, str(hours)) if hours else restart_with(server)
        result = run_job(server, arn, JOB)
        assert result["status"] == "Successful", result
        return result

    # Now, and 1 day on (younger than unreferencedDays): untouched.
    for hours in (0, 24):
        run_at(hours)
        assert store.exists(orphan)
    # 3 days: noncurrent (older than 2 days) but not yet 2 + 3 days old: kept.
    run_at(72)
    assert store.exists(orphan)
    # 6 days: deleted.
    result = run_at(144)
    assert not store.exists(orphan)
    assert result["removedFilesSize"] == len(b"not referenced by anything")

    after = pyiceberg_catalog(server, arn).load_table("ns.t")  # The restarts picked new ports.
    for uri in referenced | referenced_files(after):
        assert store.exists(uri), f"referenced file removed: {uri}"
    assert multiset(after.scan().to_arrow().to_pylist()) == expected
    assert multiset(duckdb_rows(server, arn)) == expected
    assert spark_rows(spark, server, arn) == expected
    status = server.boto3_client("s3tables").get_table_maintenance_job_status(
        tableBucketARN=arn, namespace="ns", name="t")
    assert status["status"][JOB]["status"] == "Successful"


def test_disabled_bucket_setting_reports_disabled_and_keeps_orphans(fresh_server):
    server = fresh_server(extra_args=[*NO_SCHEDULER, *OFFSET, str(24 * 30)])
    arn, _, table = table_with_appends(server, appends=1)
    s3t = server.boto3_client("s3tables")
    s3t.put_table_bucket_maintenance_configuration(tableBucketARN=arn, type=JOB,
                                                   value={"status": "disabled"})
    status = s3t.get_table_maintenance_job_status(tableBucketARN=arn, namespace="ns", name="t")
    assert status["status"][JOB] == {"status": "Disabled"}
    refused = server.cli("table", "maintenance", "run", "--bucket", arn, "--namespace", "ns", "t",
                         "--job", JOB, check=False)
    assert refused.returncode != 0
    assert "disabled" in refused.stdout + refused.stderr
