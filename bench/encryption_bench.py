#!/usr/bin/env python3
"""S3 GET throughput of a 256 MB SSE-KMS object vs the same bytes stored
unencrypted, in one script (issue 11 target: SSE-KMS >= 0.8x plaintext).

Starts streamtables-server on ephemeral ports in a temporary data dir and
makes two objects of --size-mb random bytes:
  plaintext: written straight into the local object store under a table
             made with st_s3_table_fixture (a legacy object from before
             encryption; the endpoint serves it with sendfile(2));
  sse-kms:   uploaded with boto3 (multipart, s3transfer) into a table of a
             table bucket whose encryption is aws:kms with a key of the
             built-in KMS: stored in the segmented AES-256-GCM envelope.
Then alternates single-stream SigV4 GETs of each (s3_get_bench.read_s3_raw:
one keep-alive connection, 8 MiB readinto) --runs times, with the page
cache warm, and prints the median MB/s of each and the ratio.

  .venv/bin/python bench/encryption_bench.py --build-dir build [--size-mb 256] [--runs 7]
"""

import argparse
import http.client
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

import boto3
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
from botocore.credentials import Credentials

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from s3_get_bench import CHUNK, read_s3_raw, start_server  # noqa: E402

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--size-mb", type=int, default=256)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    build_dir = pathlib.Path(args.build_dir).resolve()
    size = args.size_mb * 1024 * 1024

    with tempfile.TemporaryDirectory(prefix="st-enc-bench-") as tmp:
        tmp = pathlib.Path(tmp)
        data_dir = tmp / "data"
        proc, api_url, s3_url = start_server(build_dir, data_dir, tmp / "server.log")
        try:
            keys = json.loads((data_dir / "keys" / "admin.json").read_text())
            account = (data_dir / "account-id").read_text().strip()
            creds = Credentials(keys["access_key_id"], keys["secret_access_key"])
            session = dict(region_name="us-east-1", aws_access_key_id=creds.access_key,
                           aws_secret_access_key=creds.secret_key)
            # Plaintext: a legacy object under a fixture table.
            out = subprocess.run(
                [str(build_dir / "tests/unit/api/s3/st_s3_table_fixture"),
                 str(data_dir / "catalog/catalog.db"), account, "bench", "ns", "plain"],
                capture_output=True, text=True, check=True)
            plain_bucket = urllib.parse.urlparse(json.loads(out.stdout)["warehouse_location"]).netloc
            source = tmp / "source.bin"
            block = os.urandom(CHUNK)
            with open(source, "wb") as f:
                for _ in range(size // CHUNK):
                    f.write(block)
                f.write(block[:size % CHUNK])
            key = "data/big.parquet"
            plain_path = data_dir / "objects" / plain_bucket / key
            plain_path.parent.mkdir(parents=True)
            plain_path.write_bytes(source.read_bytes())

            # SSE-KMS: a KMS key, a bucket encrypted with it, a table, an upload.
            kms = boto3.client("kms", endpoint_url=api_url + "/kms", **session)
            key_arn = kms.create_key(Description="bench")["KeyMetadata"]["Arn"]
            s3t = boto3.client("s3tables", endpoint_url=api_url, **session)
            bucket_arn = s3t.create_table_bucket(name="bench-kms")["arn"]
            s3t.put_table_bucket_encryption(
                tableBucketARN=bucket_arn,
                encryptionConfiguration={"sseAlgorithm": "aws:kms", "kmsKeyArn": key_arn})
            s3t.create_namespace(tableBucketARN=bucket_arn, namespace=["ns"])
            s3t.create_table(tableBucketARN=bucket_arn, namespace="ns", name="enc",
                             format="ICEBERG")
            location = s3t.get_table(tableBucketARN=bucket_arn, namespace="ns",
                                     name="enc")["warehouseLocation"]
            kms_bucket = urllib.parse.urlparse(location).netloc
            s3 = boto3.client("s3", endpoint_url=s3_url, config=Config(
                signature_version="s3v4", s3={"addressing_style": "path"}), **session)
            s3.upload_file(str(source), kms_bucket, key, Config=TransferConfig(
                multipart_threshold=64 * 1024 * 1024, multipart_chunksize=64 * 1024 * 1024))
            head = s3.head_object(Bucket=kms_bucket, Key=key)
            assert head["ServerSideEncryption"] == "aws:kms" and head["ContentLength"] == size
            assert s3.head_object(Bucket=plain_bucket, Key=key).get("ServerSideEncryption") is None

            netloc = urllib.parse.urlparse(s3_url).netloc
            conn = http.client.HTTPConnection(netloc, timeout=300)
            buffer = memoryview(bytearray(CHUNK))
            paths = {"plaintext": f"/{plain_bucket}/{key}", "sse-kms": f"/{kms_bucket}/{key}"}
            times = {name: [] for name in paths}
            for name, path in paths.items():  # Warm-up (page cache, key cache).
                assert read_s3_raw(conn, netloc, path, creds, buffer) == size
            for _ in range(args.runs):
                for name, path in paths.items():
                    started = time.perf_counter()
                    got = read_s3_raw(conn, netloc, path, creds, buffer)
                    times[name].append(time.perf_counter() - started)
                    assert got == size, (name, got)
            mbs = {name: size / 1e6 / statistics.median(t) for name, t in times.items()}
            ratio = mbs["sse-kms"] / mbs["plaintext"]
            load = os.getloadavg()
            print(f"size {args.size_mb} MiB, {args.runs} runs each, alternating, warm page cache; "
                  f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
            for name, value in mbs.items():
                print(f"  {name:10s} median {value:8.1f} MB/s  "
                      f"(min {size / 1e6 / max(times[name]):.1f}, "
                      f"max {size / 1e6 / min(times[name]):.1f})")
            print(f"  ratio sse-kms / plaintext: {ratio:.2f}x (target >= 0.8x)")
            if args.json:
                pathlib.Path(args.json).write_text(json.dumps(
                    {"mb_per_s": mbs, "ratio": ratio, "runs": args.runs,
                     "size_mb": args.size_mb, "load": load}, indent=2))
        finally:
            proc.terminate()
            proc.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
