"""The catalog on PostgreSQL (`streamtables server --catalog postgresql://...`)
against a real PostgreSQL 15 server: table buckets, namespaces and tables
created through boto3 s3tables, a PyIceberg append read back through the
Iceberg REST catalog, and a Kafka channel whose records arrive exactly once
per (partition, offset). The rows in PostgreSQL are checked too, so the test
cannot pass on the SQLite file by mistake.
"""

import json
import uuid

import pyarrow as pa
from pyiceberg.catalog import load_catalog

from harness.channels import ChannelSetup
from harness.exactly_once import record_value, verify_exactly_once

SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {"id": {"type": "integer"}, "ts": {"type": "string", "format": "date-time"},
                   "payload": {"type": "string"}},
    "required": ["id", "ts"],
}


def _catalog(server, bucket_arn):
    creds = server.admin_credentials
    return load_catalog(f"pg-{uuid.uuid4().hex[:6]}", **{
        "type": "rest", "uri": server.iceberg_url, "warehouse": bucket_arn,
        "rest.sigv4-enabled": "true", "rest.signing-name": "s3tables",
        "rest.signing-region": server.region, "client.access-key-id": creds.access_key,
        "client.secret-access-key": creds.secret_key, "client.region": server.region})


def test_tables_appends_and_exactly_once_delivery_on_postgresql(postgres, fresh_server, kafka,
                                                                topic_name):
    url = postgres.create_database(f"catalog_{uuid.uuid4().hex[:8]}")
    server = fresh_server(extra_args=["--catalog", url])

    s3tables = server.boto3_client("s3tables")
    bucket_arn = s3tables.create_table_bucket(name="pg-bucket")["arn"]
    s3tables.create_namespace(tableBucketARN=bucket_arn, namespace=["sales"])
    s3tables.create_table(tableBucketARN=bucket_arn, namespace="sales", name="orders",
                          format="ICEBERG")
    listed = s3tables.list_tables(tableBucketARN=bucket_arn, namespace="sales")["tables"]
    assert [t["name"] for t in listed] == ["orders"]
    assert postgres.psql(f"SELECT name FROM tables WHERE bucket_arn = '{bucket_arn}'",
                         url).split() == ["orders"]

    # PyIceberg through the Iceberg REST catalog: create, append, read back.
    catalog = _catalog(server, bucket_arn)
    schema = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])
    table = catalog.create_table("sales.items", schema=schema)
    table.append(pa.table({"id": [1, 2, 3], "name": ["a", "b", "c"]}, schema=schema))
    back = catalog.load_table("sales.items").scan().to_arrow().sort_by("id")
    assert back.column("id").to_pylist() == [1, 2, 3]
    assert back.column("name").to_pylist() == ["a", "b", "c"]
    location = postgres.psql("SELECT metadata_location FROM tables WHERE name = 'items'",
                             url).strip()
    assert location == catalog.load_table("sales.items").metadata_location

    # A channel: records produced after it is ACTIVE arrive exactly once.
    kafka.create_topic(topic_name, partitions=3)
    channel = ChannelSetup.create(server, kafka, topic_name, schema=SCHEMA, freshness=1)
    channel.wait_status("ACTIVE")
    count = 600
    kafka.produce(topic_name, [record_value(n) for n in range(count)],
                  keys=[f"k{n}".encode() for n in range(count)])
    data = channel.wait_rows(count)
    data = channel.read_arrow()
    print(verify_exactly_once(data, kafka.end_offsets(topic_name)))
    assert data.num_rows == count
    ids = sorted(json.loads(record_value(n))["id"] for n in range(count))
    assert sorted(data.column("id").to_pylist()) == ids
    offsets = postgres.psql("SELECT sum(next_offset) FROM channel_offsets WHERE channel_arn = "
                            f"'{channel.channel_arn}'", url).strip()
    assert int(offsets) == count
