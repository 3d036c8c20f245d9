#!/usr/bin/env python3
"""Concurrent catalog reads on the PostgreSQL catalog: the connection pool
(`--catalog-connections`, issue 13 item 1) against one connection.

For each pool size a fresh `streamtables server --catalog postgresql://...`
runs on its own database of one throwaway PostgreSQL 15 cluster
(tools/pg_cluster.sh), with --threads 8. It gets a table bucket, namespace
and table. Then --clients processes (not threads: the client must not be
the bottleneck) each send SigV4-signed Iceberg REST loadTable requests over
a keep-alive connection for --seconds. Every request reads the caller's
access key, its policies and the table from the catalog. Reported: total
requests/s, p50 / p99 latency, and the ratio to pool size 1 in the same
script.

  .venv/bin/python bench/catalog_pool_bench.py --build-dir build [--pools 1,4] \\
      [--clients 6] [--seconds 10]
"""

import argparse
import json
import multiprocessing
import pathlib
import statistics
import sys
import tempfile
import time
import urllib.parse
import uuid

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "integration"))
from harness.postgres import PostgresCluster  # noqa: E402
from harness.server import StreamtablesServer  # noqa: E402


def client(url, access_key, secret_key, region, seconds, out):
    import requests
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    creds = Credentials(access_key, secret_key)
    session = requests.Session()
    latencies = []
    deadline = time.perf_counter() + seconds
    try:
        while time.perf_counter() < deadline:
            request = AWSRequest(method="GET", url=url)
            SigV4Auth(creds, "s3tables", region).add_auth(request)
            start = time.perf_counter()
            response = session.get(url, headers=dict(request.headers.items()))
            _ = response.content
            latencies.append(time.perf_counter() - start)
            if response.status_code != 200:
                raise RuntimeError(f"HTTP {response.status_code}: {response.text}")
    except Exception as e:  # the parent must hear of it, or it waits forever
        out.put(e)
        return
    out.put(latencies)


def run(build_dir, cluster, pool: int, clients: int, seconds: float) -> dict:
    url = cluster.create_database(f"pool_{uuid.uuid4().hex[:8]}")
    with tempfile.TemporaryDirectory(prefix="st-pool-bench-") as work:
        server = StreamtablesServer(pathlib.Path(work), build_dir, name=f"pool-{pool}",
                                    extra_args=["--catalog", url, "--catalog-connections",
                                                str(pool), "--threads", "8",
                                                "--log-level", "warn"])
        server.start()
        try:
            s3tables = server.boto3_client("s3tables")
            arn = s3tables.create_table_bucket(name="pool")["arn"]
            s3tables.create_namespace(tableBucketARN=arn, namespace=["ns"])
            s3tables.create_table(tableBucketARN=arn, namespace="ns", name="t", format="ICEBERG",
                                  metadata={"iceberg": {"schema": {"fields": [
                                      {"name": "id", "type": "long", "required": True}]}}})
            target = (f"{server.iceberg_url}/v1/{urllib.parse.quote(arn, safe='')}"
                      "/namespaces/ns/tables/t")
            creds = server.admin_credentials
            out = multiprocessing.Queue()
            procs = [multiprocessing.Process(target=client, args=(
                target, creds.access_key, creds.secret_key, server.region, seconds, out))
                for _ in range(clients)]
            for p in procs:
                p.start()
            results = [out.get() for _ in procs]
            for p in procs:
                p.join()
            for result in results:
                if isinstance(result, Exception):
                    raise result
            latencies = [x for result in results for x in result]
        finally:
            server.stop()
    latencies.sort()
    return {"pool": pool, "clients": clients, "requests": len(latencies),
            "requests_per_s": round(len(latencies) / seconds, 1),
            "p50_ms": round(statistics.median(latencies) * 1000, 3),
            "p99_ms": round(latencies[int(0.99 * (len(latencies) - 1))] * 1000, 3)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--pools", default="1,4")
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=1,
                        help="alternate the pool sizes this many times")
    args = parser.parse_args()
    cluster = PostgresCluster().start()
    rows = []
    try:
        for _ in range(args.rounds):
            for pool in (int(p) for p in args.pools.split(",")):
                row = run(pathlib.Path(args.build_dir), cluster, pool, args.clients, args.seconds)
                rows.append(row)
                print(json.dumps(row), flush=True)
    finally:
        cluster.stop()
    pools = sorted({r["pool"] for r in rows})
    median = {p: statistics.median(r["requests_per_s"] for r in rows if r["pool"] == p)
              for p in pools}
    print(json.dumps({f"pool_{p}_vs_pool_{pools[0]}": round(median[p] / median[pools[0]], 2)
                      for p in pools}), flush=True)


if __name__ == "__main__":
    main()
