"""Spark SQL and DuckDB through the Iceberg REST catalog at /iceberg with
SigV4 (signing name s3tables), next to PyIceberg: all three list and read the
same table (docs/api-contract-notes.md §2.2 client configurations, §3.8 what each calls).

Spark uses the session fixture and a REST catalog of its own per test
(spark.sql.catalog.<name>.* set at run time; catalogs load on first use).
DuckDB attaches with the generic SigV4 form (ENDPOINT + AUTHORIZATION_TYPE
sigv4), which is what ENDPOINT_TYPE s3_tables expands to except for the host:
DuckDB 1.5.5's s3_tables mode overwrites ENDPOINT with
https://s3tables.<region>.amazonaws.com/iceberg. That mode itself is shown in
test_duckdb_endpoint_type_s3_tables_reads, routed to us through an HTTP proxy
(harness/aws_host_proxy.py), the only knob DuckDB leaves for it.
"""

import uuid

import pyarrow as pa
import pytest

from harness import aws_host_proxy, duckdb_engine
from iceberg_rest_clients import new_bucket, pyiceberg_catalog, s3_writes_available

SCHEMA = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])


def spark_catalog(spark, server, warehouse: str, creds=None) -> str:
    """Registers a SparkCatalog over our REST endpoint; returns its name."""
    creds = creds or server.admin_credentials
    name = f"st_{uuid.uuid4().hex[:10]}"
    settings = {
        "": "org.apache.iceberg.spark.SparkCatalog",
        "type": "rest",
        "uri": server.iceberg_url,
        "warehouse": warehouse,
        "rest.sigv4-enabled": "true",
        "rest.signing-name": "s3tables",
        "rest.signing-region": server.region,
        "rest.access-key-id": creds.access_key,
        "rest.secret-access-key": creds.secret_key,
        "io-impl": "org.apache.iceberg.aws.s3.S3FileIO",
        "s3.endpoint": server.s3_url,
        "s3.path-style-access": "true",
        "client.region": server.region,
        "s3.access-key-id": creds.access_key,
        "s3.secret-access-key": creds.secret_key,
    }
    for key, value in settings.items():
        spark.conf.set(f"spark.sql.catalog.{name}" + (f".{key}" if key else ""), value)
    return name


def duckdb_attach(conn, server, warehouse: str, alias: str = "st", creds=None) -> None:
    creds = creds or server.admin_credentials
    conn.execute(f"CREATE OR REPLACE SECRET {alias}_secret (TYPE s3, KEY_ID '{creds.access_key}', "
                 f"SECRET '{creds.secret_key}', REGION '{server.region}')")
    conn.execute(f"ATTACH '{warehouse}' AS {alias} (TYPE iceberg, ENDPOINT '{server.iceberg_url}', "
                 f"AUTHORIZATION_TYPE 'sigv4', SECRET {alias}_secret, SIGV4_SERVICE 's3tables', "
                 f"SIGV4_REGION '{server.region}')")


@pytest.fixture
def duck():
    conn = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
    yield conn
    conn.close()


def sorted_rows(rows):
    return sorted(rows, key=lambda r: r["id"])


def test_spark_and_duckdb_list_and_read_a_pyiceberg_table(server, spark, duck):
    arn = new_bucket(server)
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("sales")
    cat.create_table("sales.orders", schema=SCHEMA)

    name = spark_catalog(spark, server, arn)
    assert [r[0] for r in spark.sql(f"SHOW NAMESPACES IN {name}").collect()] == ["sales"]
    assert [r.tableName for r in spark.sql(f"SHOW TABLES IN {name}.sales").collect()] == ["orders"]
    assert spark.sql(f"SELECT count(*) FROM {name}.sales.orders").collect()[0][0] == 0
    assert spark.table(f"{name}.sales.orders").columns == ["id", "name"]

    duckdb_attach(duck, server, arn)
    tables = duck.execute("SELECT database, schema, name FROM (SHOW ALL TABLES)").fetchall()
    assert tables == [("st", "sales", "orders")]
    assert duck.execute("SELECT count(*) FROM st.sales.orders").fetchone()[0] == 0


@pytest.fixture
def writable(server):
    # A failure, not a skip: PutObject on table buckets is part of the product.
    assert s3_writes_available(server), "the S3 endpoint refuses PutObject on a table bucket"
    return server


def table_with_rows(server, namespace: str, count: int, tag: str):
    """A new bucket with <namespace>.t holding `count` rows appended by
    PyIceberg; returns (bucket ARN, PyIceberg catalog, table, rows)."""
    arn = new_bucket(server)
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace(namespace)
    table = cat.create_table(f"{namespace}.t", schema=SCHEMA)
    rows = [{"id": i, "name": f"{tag}-{i}"} for i in range(count)]
    table.append(pa.Table.from_pylist(rows, schema=SCHEMA))
    return arn, cat, table, rows


def test_pyiceberg_spark_and_duckdb_see_the_same_rows(writable, spark, duck):
    server = writable
    arn, cat, _, expected = table_with_rows(server, "ns", 25, "row")

    got_pyiceberg = sorted_rows(cat.load_table("ns.t").scan().to_arrow().to_pylist())
    name = spark_catalog(spark, server, arn)
    got_spark = sorted_rows([r.asDict() for r in spark.table(f"{name}.ns.t").collect()])
    duckdb_attach(duck, server, arn)
    cursor = duck.execute("SELECT id, name FROM st.ns.t")
    got_duckdb = sorted_rows([dict(zip(("id", "name"), row)) for row in cursor.fetchall()])
    assert got_pyiceberg == got_spark == got_duckdb == expected


def test_spark_writes_a_regular_table_that_pyiceberg_and_duckdb_read(writable, spark, duck):
    server = writable
    arn = new_bucket(server)
    name = spark_catalog(spark, server, arn)
    # Iceberg Java signs POST bodies with a base64 x-amz-content-sha256 header
    # (and the hex hash as the payload); this write path proves we accept it.
    spark.sql(f"CREATE NAMESPACE {name}.w")
    spark.sql(f"CREATE TABLE {name}.w.t (id bigint, name string) USING iceberg")
    spark.sql(f"INSERT INTO {name}.w.t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    spark.sql(f"INSERT INTO {name}.w.t VALUES (4, 'd')")
    spark.sql(f"DELETE FROM {name}.w.t WHERE id = 2")
    expected = [{"id": 1, "name": "a"}, {"id": 3, "name": "c"}, {"id": 4, "name": "d"}]

    got_spark = sorted_rows([r.asDict() for r in spark.table(f"{name}.w.t").collect()])
    cat = pyiceberg_catalog(server, arn)
    got_pyiceberg = sorted_rows(cat.load_table("w.t").scan().to_arrow().to_pylist())
    duckdb_attach(duck, server, arn)
    cursor = duck.execute("SELECT id, name FROM st.w.t")
    got_duckdb = sorted_rows([dict(zip(("id", "name"), row)) for row in cursor.fetchall()])
    assert got_spark == got_pyiceberg == got_duckdb == expected


def test_duckdb_endpoint_type_s3_tables_reads(writable, duck, tmp_path):
    """DuckDB's own S3 Tables mode, used exactly as DuckDB documents it (an S3
    secret with key, secret and region; `ATTACH '<bucket ARN>' (TYPE iceberg,
    ENDPOINT_TYPE s3_tables)`), reads a table of ours. That mode calls
    https://s3tables.<region>.amazonaws.com/iceberg whatever ENDPOINT says and
    reads data from https://<bucket>.s3.<region>.amazonaws.com, so the
    session's http_proxy routes those names to our two ports, as DNS does for
    AWS (harness/aws_host_proxy.py). Every signature is DuckDB's own, checked
    by our server."""
    server = writable
    arn, _, table, expected = table_with_rows(server, "mode", 40, "s3t")

    proxy = aws_host_proxy.start(server, tmp_path)
    try:
        creds = server.admin_credentials
        duck.execute(f"SET http_proxy = '{proxy.address}'")
        duck.execute(f"SET ca_cert_file = '{proxy.ca_cert_file}'")
        duck.execute(f"CREATE OR REPLACE SECRET s3t_secret (TYPE s3, KEY_ID '{creds.access_key}', "
                     f"SECRET '{creds.secret_key}', REGION '{server.region}')")
        # ENDPOINT is given (as the wording has it) and DuckDB ignores it.
        duck.execute(f"ATTACH '{arn}' AS s3t (TYPE iceberg, ENDPOINT_TYPE s3_tables, "
                     f"ENDPOINT '{server.iceberg_url}')")
        tables = duck.execute("SELECT database, schema, name FROM (SHOW ALL TABLES)").fetchall()
        assert ("s3t", "mode", "t") in tables
        cursor = duck.execute("SELECT id, name FROM s3t.mode.t")
        got = sorted_rows([dict(zip(("id", "name"), row)) for row in cursor.fetchall()])
        assert got == expected
        # The catalog calls went to AWS's S3 Tables host (so this is the
        # s3_tables mode, not the ENDPOINT we passed), the data reads to the
        # table's warehouse bucket under AWS's S3 host, nothing elsewhere.
        warehouse = table.metadata.location.removeprefix("s3://").rstrip("/")
        assert f"s3tables.{server.region}.amazonaws.com:443" in proxy.connect_targets
        assert f"{warehouse}.s3.{server.region}.amazonaws.com:443" in proxy.connect_targets
        assert proxy.refused == []
    finally:
        proxy.close()
