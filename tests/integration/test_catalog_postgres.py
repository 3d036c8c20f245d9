"""The server with its catalog on PostgreSQL (`--catalog postgresql://…`,
issue 13 item 1), against a real PostgreSQL 15 server and a real Kafka broker:
boto3 s3tables creates bucket, namespace and table; PyIceberg appends and
reads back through the Iceberg REST catalog; a delivery channel moves Kafka
records into a table; a restart keeps everything. The catalog rows are in
PostgreSQL (checked with psql), not in the data dir's SQLite file.
"""

import json
import sqlite3

import pyarrow as pa

from harness.channels import ChannelSetup
from harness.server import StreamtablesServer
from iceberg_rest_clients import pyiceberg_catalog

SCHEMA = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])
EVENT_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {"id": {"type": "integer"}, "ts": {"type": "string", "format": "date-time"}},
    "required": ["id", "ts"],
}


def rows(first: int, count: int, tag: str) -> pa.Table:
    return pa.Table.from_pylist([{"id": i, "name": f"{tag}-{i}"}
                                 for i in range(first, first + count)], schema=SCHEMA)


def test_server_on_postgresql_catalog_end_to_end(postgres, kafka, topic_name, tmp_path,
                                                 build_dir):
    url = postgres.database("catalog")
    db = url.rsplit("/", 1)[1]
    server = StreamtablesServer(tmp_path / "srv", build_dir, name="server-pg",
                                extra_args=["--catalog", url]).start()
    try:
        # ---- control plane: boto3 s3tables
        s3tables = server.boto3_client("s3tables")
        bucket_arn = s3tables.create_table_bucket(name="pg-bucket")["arn"]
        s3tables.create_namespace(tableBucketARN=bucket_arn, namespace=["ns"])
        made = s3tables.create_table(tableBucketARN=bucket_arn, namespace="ns", name="made",
                                     format="ICEBERG")
        assert s3tables.get_table(tableBucketARN=bucket_arn, namespace="ns",
                                  name="made")["tableARN"] == made["tableARN"]

        # ---- Iceberg REST: PyIceberg append + read
        cat = pyiceberg_catalog(server, bucket_arn)
        table = cat.create_table("ns.events", schema=SCHEMA)
        table.append(rows(0, 3, "a"))
        table.append(rows(3, 2, "b"))
        loaded = cat.load_table("ns.events")
        assert len(loaded.metadata.snapshots) == 2
        got = sorted(loaded.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
        assert got == rows(0, 3, "a").to_pylist() + rows(3, 2, "b").to_pylist()

        # ---- delivery: real Kafka → table, with the offset fence in PostgreSQL
        kafka.create_topic(topic_name, partitions=2)
        channel = ChannelSetup.create(server, kafka, topic_name, schema=EVENT_SCHEMA,
                                      freshness=1)
        channel.wait_status("ACTIVE")
        records = [{"id": i, "ts": f"2026-11-30T08:{i % 60:02d}:00Z"} for i in range(40)]
        kafka.produce(topic_name, [json.dumps(r).encode() for r in records],
                      keys=[f"k{i}".encode() for i in range(len(records))])
        data = channel.wait_rows(len(records))
        assert sorted(data.column("id").to_pylist()) == list(range(40))

        # The catalog is in PostgreSQL: tables, buckets, channel offsets.
        names = postgres.psql("SELECT name FROM tables ORDER BY name", database=db).split()
        assert {"made", "events", channel.table} <= set(names)
        offsets = postgres.psql("SELECT sum(next_offset) FROM channel_offsets", database=db)
        assert int(offsets.strip()) == 40
        # ...and not in the data dir's SQLite file (which holds KMS and registry tables only).
        local = sqlite3.connect(server.data_dir / "catalog" / "catalog.db")
        assert local.execute("SELECT count(*) FROM tables").fetchone()[0] == 0
        assert local.execute("SELECT count(*) FROM table_buckets").fetchone()[0] == 0
        local.close()

        # ---- restart: everything is still there, delivery resumes exactly once
        server.restart()  # new ports: new clients
        s3tables = server.boto3_client("s3tables")
        cat = pyiceberg_catalog(server, bucket_arn, name="after-restart")
        got = sorted(cat.load_table("ns.events").scan().to_arrow().to_pylist(),
                     key=lambda r: r["id"])
        assert got == rows(0, 3, "a").to_pylist() + rows(3, 2, "b").to_pylist()
        assert s3tables.get_table(tableBucketARN=bucket_arn, namespace="ns",
                                  name="made")["tableARN"] == made["tableARN"]
        listed = s3tables.list_tables(tableBucketARN=bucket_arn)["tables"]
        assert {t["name"] for t in listed} == {"made", "events"}
        channel.server = server
        channel.wait_status("ACTIVE")
        more = [{"id": 40 + i, "ts": "2026-11-30T09:00:00Z"} for i in range(10)]
        kafka.produce(topic_name, [json.dumps(r).encode() for r in more],
                      keys=[f"m{i}".encode() for i in range(len(more))])
        data = channel.wait_rows(50)
        assert sorted(data.column("id").to_pylist()) == list(range(50))
    finally:
        server.stop()


def test_catalog_flag_rejects_other_schemes(tmp_path, build_dir):
    server = StreamtablesServer(tmp_path / "srv", build_dir, name="server-bad-catalog",
                                extra_args=["--catalog", "mysql://x@localhost/db"])
    try:
        server.start(timeout_s=10)
        raise AssertionError("the server started with --catalog mysql://")
    except Exception as error:  # the process exits before listening
        assert "listening" in str(error) or "exited" in str(error).lower(), error
    assert "--catalog takes a PostgreSQL URI" in server.log_tail(20)
