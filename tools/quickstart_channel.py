"""The quickstart's main job: Kafka topic → delivery channel → streaming table.

Starts a local single-node Kafka 4.1 broker (jars from tools/install.sh) and
`streamtables server` on embedded defaults (SQLite catalog, local object
store) under ./data/quickstart, then does what a user does, over the public
APIs: registers the cluster, creates a table bucket, a DLQ bucket, a service
role, a JSON schema in the built-in Glue registry and a channel (boto3
`kafka`, freshness 2 s, hourly partitions), produces sample clickstream
events with confluent-kafka, waits until they are visible, and prints rows
read through PyIceberg and an aggregate from DuckDB, both through the
Iceberg REST catalog with SigV4. Finally it prints how to point Spark and
boto3 at the server, and stops both processes.
"""

import json
import os
import pathlib
import shutil
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "integration"))

from harness import duckdb_engine  # noqa: E402
from harness.channels import ChannelSetup  # noqa: E402
from harness.kafka import KafkaBroker  # noqa: E402
from harness.server import StreamtablesServer  # noqa: E402

EVENTS = 5000
SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "ts": {"type": "string", "format": "date-time"},
        "user_id": {"type": "integer"},
        "page": {"type": "string"},
        "country": {"type": "string"},
        "revenue": {"type": "number", "multipleOf": 0.01},
        "device": {"type": "object", "properties": {"os": {"type": "string"}}},
    },
    "required": ["ts", "page"],
}


def event(n: int) -> dict:
    return {
        "ts": f"2026-11-30T{8 + n % 3:02d}:{n % 60:02d}:{(n * 7) % 60:02d}Z",
        "user_id": 1000 + n % 97,
        "page": ("/", "/search", "/product", "/cart", "/checkout")[n % 5],
        "country": ("US", "DE", "FR", "IN", "BR")[n % 5 if n % 7 else 0],
        "revenue": round((n % 40) * 2.5, 2) if n % 5 == 4 else 0.0,
        "device": {"os": ("android", "ios", "linux")[n % 3]},
    }


def main() -> None:
    work = REPO / "data" / "quickstart"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    print("== starting Kafka (KRaft, single node) and streamtables server", flush=True)
    broker = KafkaBroker(work / "kafka", name="kafka").start()
    build_dir = pathlib.Path(os.environ.get("ST_BUILD_DIR", REPO / "build"))
    server = StreamtablesServer(work / "server", build_dir=build_dir).start()
    try:
        print(f"   kafka {broker.bootstrap}; api {server.api_url}; s3 {server.s3_url}")
        topic = "clicks"
        broker.create_topic(topic, partitions=3)
        print("== registering the cluster, creating bucket, schema, role and channel")
        setup = ChannelSetup.create(server, broker, topic, schema=SCHEMA, freshness=2,
                                    bucket_name="analytics", namespace="web", table="clicks")
        setup.wait_status("ACTIVE")
        print(f"   channel {setup.channel_arn} is ACTIVE")

        print(f"== producing {EVENTS} clickstream events to topic {topic}")
        broker.produce(topic, [json.dumps(event(n)).encode() for n in range(EVENTS)])
        started = time.monotonic()
        data = setup.wait_rows(EVENTS, timeout_s=120)
        print(f"   all {EVENTS} visible after {time.monotonic() - started:.1f} s")

        table = setup.load_table()
        print(f"PyIceberg: {data.num_rows} rows in {len(list(table.scan().plan_files()))} "
              f"data files, {len(table.snapshots())} snapshots, partitioned by "
              f"{', '.join(str(f) for f in table.spec().fields)}")
        for row in data.sort_by("ts").select(["ts", "user_id", "page", "country",
                                               "revenue"]).slice(0, 5).to_pylist():
            print("  ", row)

        con = duckdb_engine.connect(extensions=("parquet", "avro", "httpfs", "iceberg"))
        creds = server.admin_credentials
        con.execute(f"CREATE SECRET st_secret (TYPE s3, KEY_ID '{creds.access_key}', "
                    f"SECRET '{creds.secret_key}', REGION '{server.region}')")
        con.execute(f"ATTACH '{setup.bucket_arn}' AS st (TYPE iceberg, "
                    f"ENDPOINT '{server.iceberg_url}', AUTHORIZATION_TYPE 'sigv4', "
                    f"SECRET st_secret, SIGV4_SERVICE 's3tables', "
                    f"SIGV4_REGION '{server.region}')")
        print("DuckDB: events and revenue per country")
        for r in con.execute("SELECT country, count(*) AS events, sum(revenue) AS revenue "
                             "FROM st.web.clicks GROUP BY country ORDER BY events DESC"
                             ).fetchall():
            print("  ", r)

        print(f"""
== try it yourself while a server runs (start one with:
     ./build/src/cli/streamtables server --data-dir ./data)
Spark SQL (iceberg-spark-runtime-3.5_2.12 + iceberg-aws-bundle on the classpath):
  --conf spark.sql.catalog.st=org.apache.iceberg.spark.SparkCatalog
  --conf spark.sql.catalog.st.type=rest --conf spark.sql.catalog.st.uri=<api>/iceberg
  --conf spark.sql.catalog.st.warehouse={setup.bucket_arn}
  --conf spark.sql.catalog.st.rest.sigv4-enabled=true
  --conf spark.sql.catalog.st.rest.signing-name=s3tables
  --conf spark.sql.catalog.st.io-impl=org.apache.iceberg.aws.s3.S3FileIO
  --conf spark.sql.catalog.st.s3.endpoint=<s3> --conf spark.sql.catalog.st.s3.path-style-access=true
boto3 (keys in <data-dir>/keys/admin.json):
  boto3.client("kafka", endpoint_url="<api>").list_channels(ClusterArn=...)
  boto3.client("s3tables", endpoint_url="<api>").list_tables(tableBucketARN=...)""")
    finally:
        server.stop()
        broker.stop()


if __name__ == "__main__":
    main()
