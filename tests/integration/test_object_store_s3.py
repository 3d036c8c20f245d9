"""Table data in an S3-compatible object store (issue 13 item 2): the server
runs with `--object-store s3://bucket/prefix?endpoint=...` against a real
s3proxy (filesystem-nio2). Tables are created with boto3 s3tables, written
with PyIceberg and a Kafka channel, read back with PyIceberg, DuckDB and
Spark through our S3 endpoint (which now serves from s3proxy), ranged GETs
return the right bytes, and the objects really are in s3proxy's bucket
(as encrypted envelopes: SSE-S3 is the default)."""

import json
import time
import uuid

import pyarrow as pa
import pytest
from botocore.config import Config

from harness.channels import ChannelSetup
from harness.s3proxy import S3Proxy
from harness.server import StreamtablesServer
from iceberg_rest_clients import new_bucket, pyiceberg_catalog
from test_delivery import SCHEMA as DELIVERY_SCHEMA, produce, record as delivery_record
from test_iceberg_rest_engines import duckdb_attach, spark_catalog

SCHEMA = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])
ENVELOPE_MAGIC = b"\x89STE\r\n\x1a\n"
PREFIX = "tables"


@pytest.fixture(scope="module")
def s3proxy(tmp_path_factory):
    proxy = S3Proxy(tmp_path_factory.mktemp("s3proxy")).start()
    yield proxy
    proxy.stop()


@pytest.fixture(scope="module")
def s3_server(tmp_path_factory, build_dir, s3proxy):
    srv = StreamtablesServer(tmp_path_factory.mktemp("server-s3"), build_dir, name="server-s3",
                             extra_args=["--object-store", s3proxy.object_store_url(PREFIX)],
                             env=s3proxy.credentials_env())
    srv.start()
    yield srv
    srv.stop()


def our_s3(server):
    return server.boto3_client("s3", config=Config(s3={"addressing_style": "path"},
                                                   retries={"max_attempts": 1}))


def warehouse_of(table) -> str:
    return table.metadata.location.removeprefix("s3://").rstrip("/")


def test_server_without_credentials_refuses_an_s3_store(tmp_path, build_dir, s3proxy):
    env = {"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""}
    srv = StreamtablesServer(tmp_path, build_dir, name="server-nocreds",
                             extra_args=["--object-store", s3proxy.object_store_url(PREFIX)],
                             env=env)
    with pytest.raises(Exception):
        srv.start(timeout_s=15)
    srv.stop()
    assert "AWS_ACCESS_KEY_ID" in srv.log_path.read_text()


def test_pyiceberg_append_lands_in_s3proxy_and_reads_back_everywhere(s3_server, s3proxy, spark):
    arn = new_bucket(s3_server, "s3store")
    cat = pyiceberg_catalog(s3_server, arn)
    cat.create_namespace("ns")
    table = cat.create_table("ns.t", schema=SCHEMA)
    rows = [{"id": i, "name": f"row-{i}"} for i in range(500)]
    table.append(pa.Table.from_pylist(rows, schema=SCHEMA))
    table = cat.load_table("ns.t")
    assert sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"]) == rows

    # Every object of the table is in s3proxy's bucket under the prefix,
    # and none of it is plaintext.
    keys = s3proxy.keys(PREFIX + "/")
    assert any(k.endswith(".parquet") for k in keys), keys
    assert any(k.endswith(".metadata.json") for k in keys), keys
    direct = s3proxy.client()
    for key in keys:
        body = direct.get_object(Bucket=s3proxy.bucket, Key=key)["Body"].read()
        assert body.startswith(ENVELOPE_MAGIC), key
        assert b"row-1" not in body

    # Our S3 endpoint lists and serves the plaintext from s3proxy.
    client = our_s3(s3_server)
    bucket = warehouse_of(table)
    listed = [o["Key"] for o in client.list_objects_v2(Bucket=bucket)["Contents"]]
    data_key = next(k for k in listed if k.endswith(".parquet"))
    whole = client.get_object(Bucket=bucket, Key=data_key)["Body"].read()
    assert whole[:4] == b"PAR1" and whole[-4:] == b"PAR1"
    for first, last in [(0, 0), (3, 100), (len(whole) - 10, len(whole) - 1), (100, 70000)]:
        last = min(last, len(whole) - 1)
        got = client.get_object(Bucket=bucket, Key=data_key, Range=f"bytes={first}-{last}")
        assert got["ContentRange"] == f"bytes {first}-{last}/{len(whole)}"
        assert got["Body"].read() == whole[first:last + 1]

    # DuckDB and Spark read the table through the REST catalog and our S3 endpoint.
    import harness.duckdb_engine as duckdb_engine
    duck = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    try:
        duckdb_attach(duck, s3_server, arn)
        assert duck.execute("SELECT count(*), sum(id) FROM st.ns.t").fetchone() == (500, sum(range(500)))
    finally:
        duck.close()
    name = spark_catalog(spark, s3_server, arn)
    assert spark.sql(f"SELECT count(*), sum(id) FROM {name}.ns.t").collect()[0][:] == (500, sum(range(500)))


def test_large_object_through_our_endpoint_is_a_multipart_upload_in_s3proxy(s3_server, s3proxy):
    client = our_s3(s3_server)
    arn = new_bucket(s3_server, "s3big")
    cat = pyiceberg_catalog(s3_server, arn)
    cat.create_namespace("ns")
    table = cat.create_table("ns.big", schema=SCHEMA)
    bucket = warehouse_of(table)
    payload = uuid.uuid4().bytes * (40 * 1024 * 1024 // 16)  # 40 MiB > the 16 MiB threshold.
    client.put_object(Bucket=bucket, Key="data/blob.bin", Body=payload)
    head = client.head_object(Bucket=bucket, Key="data/blob.bin")
    assert head["ContentLength"] == len(payload)
    got = client.get_object(Bucket=bucket, Key="data/blob.bin", Range="bytes=20000000-20999999")
    assert got["Body"].read() == payload[20000000:21000000]
    assert client.get_object(Bucket=bucket, Key="data/blob.bin")["Body"].read() == payload
    # No multipart upload is left behind in s3proxy.
    assert s3proxy.client().list_multipart_uploads(Bucket=s3proxy.bucket).get("Uploads", []) == []
    client.delete_object(Bucket=bucket, Key="data/blob.bin")
    assert not [k for k in s3proxy.keys(PREFIX + "/") if k.endswith("data/blob.bin")]


def test_kafka_channel_delivers_exactly_once_into_s3proxy(s3_server, s3proxy, kafka, topic_name):
    kafka.create_topic(topic_name, partitions=2)
    channel = ChannelSetup.create(s3_server, kafka, topic_name, schema=DELIVERY_SCHEMA,
                                  freshness=1)
    channel.wait_status("ACTIVE")
    values = [json.dumps(delivery_record(i)).encode() for i in range(300)]
    produce(kafka, topic_name, values)
    channel.wait_rows(len(values))
    time.sleep(2.5)  # A second commit of the same offsets would show up as duplicates.
    data = channel.read_arrow()
    assert sorted(data.column("id").to_pylist()) == list(range(300))
    pairs = [(m["partition"], m["offset"]) for m in data.column("_kafka").to_pylist()]
    assert len(set(pairs)) == len(values)
    files = channel.load_table().inspect.files().column("file_path").to_pylist()
    stored = s3proxy.keys(PREFIX + "/")
    for path in files:
        name = path.rsplit("/", 1)[-1]
        assert any(k.endswith("/" + name) for k in stored), (path, stored)


def test_an_https_endpoint_is_verified_and_carries_the_table(tmp_path_factory, build_dir,
                                                             s3proxy):
    """endpoint=https://: s3proxy behind a TLS terminator whose throwaway
    certificate names localhost. With AWS_CA_BUNDLE naming it, a table is
    written and read back through TLS and its objects are in s3proxy; without
    it (the system's trust store only), CreateTable fails with the TLS reason
    and nothing lands."""
    from harness.tls_terminator import TlsTerminator
    tls = TlsTerminator(s3proxy.endpoint.removeprefix("http://"),
                        tmp_path_factory.mktemp("s3-tls-cert"))
    store = (f"s3://{s3proxy.bucket}/tls?endpoint=https://localhost:{tls.port}"
             f"&region=us-east-1")
    trusting = StreamtablesServer(tmp_path_factory.mktemp("server-s3-tls"), build_dir,
                                  name="server-s3-tls", extra_args=["--object-store", store],
                                  env={**s3proxy.credentials_env(),
                                       "AWS_CA_BUNDLE": tls.ca_cert_file})
    untrusting = StreamtablesServer(tmp_path_factory.mktemp("server-s3-notls"), build_dir,
                                    name="server-s3-notls",
                                    extra_args=["--object-store", store.replace("/tls?", "/no?")],
                                    env=s3proxy.credentials_env())
    try:
        trusting.start()
        cat = pyiceberg_catalog(trusting, new_bucket(trusting, "s3tls"))
        cat.create_namespace("ns")
        table = cat.create_table("ns.t", schema=SCHEMA)
        rows = [{"id": i, "name": f"tls-{i}"} for i in range(100)]
        table.append(pa.Table.from_pylist(rows, schema=SCHEMA))
        got = cat.load_table("ns.t").scan().to_arrow().to_pylist()
        assert sorted(got, key=lambda r: r["id"]) == rows
        assert any(k.endswith(".parquet") for k in s3proxy.keys("tls/")), s3proxy.keys("tls/")
        assert tls.served >= 1

        untrusting.start()
        other = pyiceberg_catalog(untrusting, new_bucket(untrusting, "s3notls"))
        other.create_namespace("ns")
        with pytest.raises(Exception) as refused:
            other.create_table("ns.t", schema=SCHEMA)
        assert "certificate verify failed (self-signed certificate)" in str(refused.value), \
            str(refused.value)
        # The operator's log names the cause of the 503 too (written once the
        # response is out, so it may trail the client's exception a little).
        def server_errors():
            return [json.loads(line) for line in untrusting.log_path.read_text().splitlines()
                    if '"event":"server_error"' in line]
        deadline = time.monotonic() + 15
        while not server_errors() and time.monotonic() < deadline:
            time.sleep(0.1)
        logged = server_errors()
        assert any(e["operation"] == "CreateTable" and e["status"] == 503 and
                   "certificate verify failed" in e["body"] for e in logged), logged
        assert s3proxy.keys("no/") == []
        assert tls.refused_handshakes >= 1
    finally:
        trusting.stop()
        untrusting.stop()
        tls.close()
