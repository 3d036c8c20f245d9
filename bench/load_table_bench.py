#!/usr/bin/env python3
"""Iceberg REST loadTable latency over SigV4 (issue 3 target: p99 <= 5 ms).

Starts `streamtables server` on ephemeral ports in a temporary data dir,
creates a table bucket, namespace and table through boto3 `s3tables`, then
sends N loadTable requests (GET /iceberg/v1/{prefix}/namespaces/ns/tables/t)
over one keep-alive connection (requests.Session). Every request is signed
with botocore's SigV4Auth (service s3tables), as pyiceberg does; signing is
done up front and not timed, so the numbers are the server's time plus one
loopback round trip and Python's HTTP overhead. The same script measures a
baseline of N unauthenticated GET /health on the same kind of connection:
the floor of this client on this machine. The server's access log (info
level) gives the time spent inside the server for each request too.

  .venv/bin/python bench/load_table_bench.py --build-dir build-s3 [--requests 10000]
"""

import argparse
import json
import os
import pathlib
import statistics
import sys
import tempfile
import time
import urllib.parse

import requests
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "integration"))
from harness.server import StreamtablesServer  # noqa: E402


def percentiles(seconds: list) -> dict:
    ordered = sorted(seconds)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 3)

    return {"n": len(ordered), "p50_ms": at(0.50), "p90_ms": at(0.90), "p99_ms": at(0.99),
            "p999_ms": at(0.999), "max_ms": round(ordered[-1] * 1000, 3),
            "mean_ms": round(statistics.mean(ordered) * 1000, 3)}


def signed_headers(url: str, creds: Credentials, region: str) -> dict:
    request = AWSRequest(method="GET", url=url)
    SigV4Auth(creds, "s3tables", region).add_auth(request)
    return dict(request.headers.items())


def timed(session: requests.Session, url: str, headers_list: list) -> list:
    seconds = []
    for headers in headers_list:
        start = time.perf_counter()
        response = session.get(url, headers=headers)
        body = response.content
        seconds.append(time.perf_counter() - start)
        if response.status_code != 200:
            sys.exit(f"GET {url}: {response.status_code} {body[:300]!r}")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--requests", type=int, default=10000)
    parser.add_argument("--batch", type=int, default=1000,
                        help="requests signed per batch (signatures stay within the skew)")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    build_dir = pathlib.Path(args.build_dir).resolve()

    with tempfile.TemporaryDirectory(prefix="st-load-table-bench-") as tmp:
        server = StreamtablesServer(pathlib.Path(tmp), build_dir, name="bench",
                                    extra_args=["--log-level", "info"])
        server.start()
        try:
            s3tables = server.boto3_client("s3tables")
            bucket_arn = s3tables.create_table_bucket(name="bench")["arn"]
            s3tables.create_namespace(tableBucketARN=bucket_arn, namespace=["ns"])
            s3tables.create_table(
                tableBucketARN=bucket_arn, namespace="ns", name="t", format="ICEBERG",
                metadata={"iceberg": {"schema": {"fields": [
                    {"name": "id", "type": "long", "required": True},
                    {"name": "payload", "type": "string"}]}}})
            prefix = urllib.parse.quote(bucket_arn, safe="")
            url = f"{server.iceberg_url}/v1/{prefix}/namespaces/ns/tables/t"
            health = f"{server.api_url}/health"
            creds = Credentials(server.access_key, server.secret_key)

            session = requests.Session()
            loaded = session.get(url, headers=signed_headers(url, creds, server.region)).json()
            assert "metadata" in loaded and "metadata-location" in loaded, loaded
            for _ in range(200):  # Warm-up: connection, caches, allocator.
                session.get(url, headers=signed_headers(url, creds, server.region)).content
                session.get(health).content

            load_seconds, health_seconds = [], []
            remaining = args.requests
            while remaining > 0:
                n = min(args.batch, remaining)
                batch = [signed_headers(url, creds, server.region) for _ in range(n)]
                load_seconds += timed(session, url, batch)
                health_seconds += timed(session, health, [{}] * n)
                remaining -= n
        finally:
            server.stop()
        # The server's own time per request (access log "ms": from the parsed
        # request to the response written), to tell it apart from the client.
        server_ms = {"loadTable": [], "health": []}
        for line in server.log_path.read_text(errors="replace").splitlines():
            if not line.startswith("{"):
                continue
            entry = json.loads(line)
            if entry.get("event") != "request" or entry.get("status") != 200:
                continue
            if entry.get("path", "").endswith("/namespaces/ns/tables/t"):
                server_ms["loadTable"].append(entry["ms"] / 1000)
            elif entry.get("path") == "/health":
                server_ms["health"].append(entry["ms"] / 1000)

    result = {"requests": args.requests, "load_average": round(os.getloadavg()[0], 2),
              "loadTable (SigV4)": percentiles(load_seconds),
              "GET /health (no auth)": percentiles(health_seconds)}
    result["server-side loadTable (access log)"] = percentiles(server_ms["loadTable"])
    result["server-side health (access log)"] = percentiles(server_ms["health"])
    result["loadTable p99 minus health p99 (ms)"] = round(
        result["loadTable (SigV4)"]["p99_ms"] - result["GET /health (no auth)"]["p99_ms"], 3)
    print(json.dumps(result, indent=2))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
