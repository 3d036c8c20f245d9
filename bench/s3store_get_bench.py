#!/usr/bin/env python3
"""S3 GET throughput through our S3 endpoint when table data lives in an
S3-compatible store (s3proxy), vs a GET straight from that store, in one
script (issue 13 target: ours >= 0.8x direct).

Starts s3proxy (filesystem-nio2) and `streamtables server --object-store
s3://...` on it, PUTs one --size-mb object into a table's warehouse through
our endpoint (stored SSE-S3: an envelope in s3proxy), then alternates:
  direct: a SigV4-signed GET of the stored object from s3proxy, read with
          readinto() into an 8 MiB buffer over one keep-alive connection;
  ours:   the same kind of GET of the object from our S3 endpoint, which
          streams it from s3proxy and decrypts it on the way.
Both sides read the same number of bytes (ours returns the plaintext, 1/4096
shorter than the envelope). Reports median MB/s and ours/direct, and the CPU
seconds per GB of each process (s3proxy, our server, the client) on each
path, from /proc: on 2 cores the proxy hop's extra work shows there.

  .venv/bin/python bench/s3store_get_bench.py --build-dir build [--size-mb 256] [--runs 5]
"""

import argparse
import http.client
import io
import json
import os
import pathlib
import statistics
import sys
import tempfile
import time
import urllib.parse

from boto3.s3.transfer import TransferConfig
from botocore.credentials import Credentials

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "integration"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from harness.s3proxy import ACCESS_KEY, SECRET_KEY, S3Proxy  # noqa: E402
from harness.server import StreamtablesServer  # noqa: E402
from s3_get_bench import CHUNK, print_report, read_s3_raw  # noqa: E402


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """utime + stime of every thread of `pid` so far."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--size-mb", type=int, default=256)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    size = args.size_mb * 1024 * 1024
    with tempfile.TemporaryDirectory(prefix="st-s3store-bench-") as tmp:
        tmp = pathlib.Path(tmp)
        proxy = S3Proxy(tmp / "s3proxy", heap="1g").start()
        server = StreamtablesServer(tmp / "server", pathlib.Path(args.build_dir).resolve(),
                                    extra_args=["--object-store", proxy.object_store_url("t"),
                                                "--log-level", "warn"],
                                    env=proxy.credentials_env())
        try:
            server.start()
            tables = server.boto3_client("s3tables")
            arn = tables.create_table_bucket(name="bench")["arn"]
            tables.create_namespace(tableBucketARN=arn, namespace=["ns"])
            tables.create_table(tableBucketARN=arn, namespace="ns", name="big", format="ICEBERG")
            warehouse = tables.get_table(tableBucketARN=arn, namespace="ns",
                                         name="big")["warehouseLocation"]
            bucket = urllib.parse.urlparse(warehouse).netloc
            key = "data/big.bin"
            payload = os.urandom(CHUNK) * (size // CHUNK) + os.urandom(size % CHUNK)
            # In 32 MiB parts: the endpoint holds one request body in memory.
            server.boto3_client("s3").upload_fileobj(
                io.BytesIO(payload), bucket, key,
                Config=TransferConfig(multipart_threshold=32 << 20, multipart_chunksize=32 << 20))
            del payload
            stored = [k for k in proxy.keys("t/") if k == f"t/{bucket}/{key}"]
            assert len(stored) == 1, stored

            ours_netloc = urllib.parse.urlparse(server.s3_url).netloc
            direct_netloc = urllib.parse.urlparse(proxy.endpoint).netloc
            ours_creds = Credentials(server.access_key, server.secret_key)
            direct_creds = Credentials(ACCESS_KEY, SECRET_KEY)
            ours_conn = http.client.HTTPConnection(ours_netloc, timeout=300)
            direct_conn = http.client.HTTPConnection(direct_netloc, timeout=300)
            buffer = memoryview(bytearray(CHUNK))
            quote = urllib.parse.quote
            readers = {
                "direct": lambda: read_s3_raw(direct_conn, direct_netloc,
                                              f"/{proxy.bucket}/{quote(stored[0])}",
                                              direct_creds, buffer),
                "ours": lambda: read_s3_raw(ours_conn, ours_netloc, f"/{bucket}/{key}",
                                            ours_creds, buffer),
            }
            sizes = {name: read() for name, read in readers.items()}  # Warm up.
            assert sizes["ours"] == size, sizes
            seconds = {}
            pids = {"s3proxy": proxy.process.pid, "server": server.proc.pid}
            cpu = {name: {who: 0.0 for who in (*pids, "client")} for name in readers}
            for _ in range(args.runs):
                for name, read in readers.items():
                    before = {who: cpu_seconds(pid) for who, pid in pids.items()}
                    client_before = sum(os.times()[:2])
                    start = time.perf_counter()
                    got = read()
                    seconds.setdefault(name, []).append(time.perf_counter() - start)
                    for who, pid in pids.items():
                        cpu[name][who] += cpu_seconds(pid) - before[who]
                    cpu[name]["client"] += sum(os.times()[:2]) - client_before
                    assert got == sizes[name]
        finally:
            server.stop()
            proxy.stop()

    result = {"size_bytes": size, "runs": args.runs, "load_average": os.getloadavg()[0]}
    for name, values in seconds.items():
        mb = sizes[name] / 1e6
        result[name] = {"median_mb_s": round(mb / statistics.median(values), 1),
                        "best_mb_s": round(mb / min(values), 1),
                        "seconds": [round(v, 3) for v in values],
                        "cpu_s_per_gb": {who: round(c / (sizes[name] * len(values) / 1e9), 3)
                                         for who, c in cpu[name].items()},
                        "cores_busy": round(sum(cpu[name].values()) / sum(values), 2)}
    result["ours_vs_direct"] = round(result["ours"]["median_mb_s"] /
                                     result["direct"]["median_mb_s"], 2)
    return print_report(result, args.json)


if __name__ == "__main__":
    sys.exit(main())
