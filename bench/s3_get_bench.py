#!/usr/bin/env python3
"""S3 GET throughput of a 256 MB object from our S3 endpoint vs reading the
same file from local disk, in one script (issue 3 target: S3 >= 0.8x local).

Starts streamtables-server on ephemeral ports in a temporary data dir, creates
a table with st_s3_table_fixture, writes the object straight into the local
object store (where the server reads it), then alternates runs:
  local: read the object's file in 8 MiB readinto() calls;
  s3-raw: a SigV4-signed GET (botocore's signer) read with readinto() into the
          same kind of buffer over one keep-alive connection;
  local-ranged: the file read by --range-streams threads in --range-part-mb
          pieces (preadv), the local counterpart of s3-ranged;
  s3-ranged: parallel ranged GETs, the access pattern AWS recommends for large
          objects: --range-streams keep-alive connections (default 4), each
          fetching --range-part-mb (default 64) with a signed Range GET;
  boto3: s3.get_object(...)["Body"].read(8 MiB) until the end (for reference);
  boto3-transfer: s3.download_fileobj (s3transfer, as `aws s3 cp` does);
  loopback-sendfile: no server at all, the file sent by a thread of this script
          with blocking sendfile(2) over one loopback TCP connection and read
          with recv_into: the single-stream ceiling of any HTTP server here.
Two passes: "warm" (the file sits in the page cache, so local reads are
memcpy speed and the comparison is the endpoint's whole overhead) and
"cold" (the file's pages are dropped with posix_fadvise(DONTNEED) before
every read, local or S3, so both read from the disk). Reports the median MB/s
of each and the ratios to the local read of the same pass.

  .venv/bin/python bench/s3_get_bench.py --build-dir build [--size-mb 256] [--runs 7]
      [--range-streams 4] [--range-part-mb 64] [--json out.json]
"""

import argparse
import hashlib
import http.client
import json
import os
import pathlib
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

import boto3
from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials

CHUNK = 8 * 1024 * 1024
LISTENING = re.compile(r"streamtables: listening api=(http://\S+) s3=(http://\S+)")


def start_server(build_dir: pathlib.Path, data_dir: pathlib.Path, log_path: pathlib.Path):
    """Starts the server on free ports; returns (process, API URL, S3 URL)."""
    log = open(log_path, "wb")
    proc = subprocess.Popen(
        [str(build_dir / "src/server/streamtables-server"), "--data-dir", str(data_dir),
         "--listen", "127.0.0.1:0", "--s3-listen", "127.0.0.1:0", "--metrics-listen", "off",
         "--log-level", "warn"],
        stdout=subprocess.PIPE, stderr=log, text=True)
    lines = []

    def read():
        for line in proc.stdout:
            lines.append(line)
            if LISTENING.search(line):
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(60)
    match = LISTENING.search("".join(lines))
    if not match:
        proc.kill()
        sys.exit(f"server did not start: {lines!r}; see {log_path}")
    return proc, match.group(1), match.group(2)


def drop_cache(path: pathlib.Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def read_local(path: pathlib.Path, buffer: memoryview) -> int:
    total = 0
    with open(path, "rb", buffering=0) as f:
        while True:
            n = f.readinto(buffer)
            if not n:
                return total
            total += n


def read_s3_raw(conn: http.client.HTTPConnection, netloc: str, path: str, creds: Credentials,
                buffer: memoryview) -> int:
    request = AWSRequest(method="GET", url=f"http://{netloc}{path}")
    request.headers["x-amz-content-sha256"] = hashlib.sha256(b"").hexdigest()
    S3SigV4Auth(creds, "s3", "us-east-1").add_auth(request)
    conn.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
    conn.putheader("Host", netloc)  # Signed by botocore, but not added by it.
    for name, value in request.headers.items():
        conn.putheader(name, value)
    conn.endheaders()
    response = conn.getresponse()
    if response.status != 200:
        sys.exit(f"GET {path}: {response.status} {response.read()[:500]!r}")
    total = 0
    while True:
        n = response.readinto(buffer)
        if not n:
            return total
        total += n


class _Discard:
    """A write-only file object that counts bytes (download_fileobj's sink)."""

    def __init__(self):
        self.total = 0
        self._lock = threading.Lock()

    def write(self, data) -> int:
        with self._lock:
            self.total += len(data)
        return len(data)


def read_boto3_transfer(s3, bucket: str, key: str) -> int:
    """What `aws s3 cp` and boto3's download_file do for a large object:
    parallel ranged GETs (s3transfer: 8 MiB parts, 10 threads)."""
    sink = _Discard()
    s3.download_fileobj(bucket, key, sink)
    return sink.total


def read_loopback_sendfile(path: pathlib.Path, buffer: memoryview) -> int:
    """The kernel's ceiling for the S3 path: the same file pushed through one
    loopback TCP connection with blocking sendfile(2) from a thread of this
    process and read with recv_into, with no HTTP, no auth and no server."""
    size = path.stat().st_size
    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname())
    server, _ = listener.accept()
    listener.close()

    def send() -> None:
        with open(path, "rb", buffering=0) as f:
            os.posix_fadvise(f.fileno(), 0, size, os.POSIX_FADV_SEQUENTIAL)
            offset = 0
            while offset < size:
                offset += os.sendfile(server.fileno(), f.fileno(), offset,
                                      min(CHUNK, size - offset))

    sender = threading.Thread(target=send)
    sender.start()
    total = 0
    while total < size:
        n = client.recv_into(buffer)
        if not n:
            break
        total += n
    sender.join()
    server.close()
    client.close()
    return total




def signed_get(conn: http.client.HTTPConnection, netloc: str, path: str, creds: Credentials,
               headers: dict) -> http.client.HTTPResponse:
    request = AWSRequest(method="GET", url=f"http://{netloc}{path}", headers=headers)
    request.headers["x-amz-content-sha256"] = hashlib.sha256(b"").hexdigest()
    S3SigV4Auth(creds, "s3", "us-east-1").add_auth(request)
    conn.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
    conn.putheader("Host", netloc)
    for name, value in request.headers.items():
        conn.putheader(name, value)
    conn.endheaders()
    return conn.getresponse()


class RangedReader:
    """The access pattern AWS recommends for throughput on large objects, as
    native clients (AWS CRT, pyarrow, Spark S3A, DuckDB) use it: `streams`
    keep-alive connections, each fetching `part` bytes at a time with a
    signed `Range` GET, read with readinto straight into one buffer
    (recv_into releases the GIL, so the threads run in parallel)."""

    def __init__(self, netloc: str, path: str, creds: Credentials, size: int, streams: int,
                 part: int):
        self.netloc, self.path, self.creds, self.size = netloc, path, creds, size
        self.part = part
        self.conns = [http.client.HTTPConnection(netloc, timeout=120) for _ in range(streams)]
        self.target = memoryview(bytearray(size))

    def read(self) -> int:
        def fetch(conn: http.client.HTTPConnection, first: int, end: int) -> int:
            response = signed_get(conn, self.netloc, self.path, self.creds,
                                  {"Range": f"bytes={first}-{end - 1}"})
            if response.status != 206:
                sys.exit(f"ranged GET: {response.status} {response.read()[:300]!r}")
            view = self.target[first:end]
            while view:
                n = response.readinto(view)
                if not n:
                    sys.exit("ranged GET ended early")
                view = view[n:]
            return end - first

        return read_parts_in_parallel(
            self.size, self.part,
            [lambda first, end, c=c: fetch(c, first, end) for c in self.conns])


def read_parts_in_parallel(size: int, part: int, readers: list) -> int:
    """Splits [0, size) into `part`-byte pieces taken in order by one thread
    per reader; reader(first, end) reads one piece and returns its length."""
    parts = list(range(0, size, part))
    lock = threading.Lock()
    totals = []

    def worker(reader) -> None:
        total = 0
        while True:
            with lock:
                if not parts:
                    break
                first = parts.pop(0)
            total += reader(first, min(first + part, size))
        totals.append(total)

    threads = [threading.Thread(target=worker, args=(r,)) for r in readers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(totals)


def read_local_parallel(path: pathlib.Path, target: memoryview, streams: int, part: int) -> int:
    """The local counterpart of RangedReader: `streams` threads preadv-ing
    `part`-byte pieces of the file into one buffer."""
    fd = os.open(path, os.O_RDONLY)
    try:
        return read_parts_in_parallel(
            path.stat().st_size, part,
            [lambda first, end: os.preadv(fd, [target[first:end]], first)] * streams)
    finally:
        os.close(fd)


def read_boto3(s3, bucket: str, key: str) -> int:
    body = s3.get_object(Bucket=bucket, Key=key)["Body"]
    total = 0
    while True:
        chunk = body.read(CHUNK)
        if not chunk:
            return total
        total += len(chunk)


def print_report(result: dict, json_path) -> int:
    """Prints `result` as JSON, also writes it to `json_path` when given; returns 0."""
    print(json.dumps(result, indent=2))
    if json_path:
        pathlib.Path(json_path).write_text(json.dumps(result, indent=2) + "\n")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--size-mb", type=int, default=256)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--range-streams", type=int, default=4,
                        help="connections of the ranged reader (s3-ranged, local-ranged)")
    parser.add_argument("--range-part-mb", type=int, default=64,
                        help="bytes per ranged GET, in MiB")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    build_dir = pathlib.Path(args.build_dir).resolve()
    size = args.size_mb * 1024 * 1024

    with tempfile.TemporaryDirectory(prefix="st-s3-bench-") as tmp:
        tmp = pathlib.Path(tmp)
        data_dir = tmp / "data"
        proc, _, s3_url = start_server(build_dir, data_dir, tmp / "server.log")
        try:
            keys = json.loads((data_dir / "keys" / "admin.json").read_text())
            account = (data_dir / "account-id").read_text().strip()
            out = subprocess.run(
                [str(build_dir / "tests/unit/api/s3/st_s3_table_fixture"),
                 str(data_dir / "catalog/catalog.db"), account, "bench", "ns", "big"],
                capture_output=True, text=True, check=True)
            bucket = urllib.parse.urlparse(json.loads(out.stdout)["warehouse_location"]).netloc
            key = "data/big.parquet"
            path = data_dir / "objects" / bucket / key
            path.parent.mkdir(parents=True)
            block = os.urandom(CHUNK)
            with open(path, "wb") as f:
                for _ in range(size // CHUNK):
                    f.write(block)
                f.write(block[:size % CHUNK])

            creds = Credentials(keys["access_key_id"], keys["secret_access_key"])
            netloc = urllib.parse.urlparse(s3_url).netloc
            s3 = boto3.client("s3", endpoint_url=s3_url, region_name="us-east-1",
                              aws_access_key_id=creds.access_key,
                              aws_secret_access_key=creds.secret_key,
                              config=Config(signature_version="s3v4",
                                            s3={"addressing_style": "path"}))
            conn = http.client.HTTPConnection(netloc, timeout=120)
            buffer = memoryview(bytearray(CHUNK))
            object_path = f"/{bucket}/{key}"
            part = args.range_part_mb * 1024 * 1024
            ranged = RangedReader(netloc, object_path, creds, size, args.range_streams, part)
            readers = {
                "local": lambda: read_local(path, buffer),
                "local-ranged": lambda: read_local_parallel(path, ranged.target,
                                                            args.range_streams, part),
                "s3-ranged": ranged.read,
                "s3-raw": lambda: read_s3_raw(conn, netloc, object_path, creds, buffer),
                "boto3": lambda: read_boto3(s3, bucket, key),
                "boto3-transfer": lambda: read_boto3_transfer(s3, bucket, key),
                "loopback-sendfile": lambda: read_loopback_sendfile(path, buffer),
            }
            for read in readers.values():  # Warm the page cache and the connection.
                assert read() == size
            seconds = {}
            for mode in ("warm", "cold"):
                for _ in range(args.runs):
                    for name, read in readers.items():
                        if mode == "cold":
                            drop_cache(path)
                        start = time.perf_counter()
                        got = read()
                        seconds.setdefault(f"{mode}/{name}", []).append(
                            time.perf_counter() - start)
                        assert got == size, (name, got)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)

    mb = size / 1e6
    result = {"size_bytes": size, "runs": args.runs,
              "load_average": os.getloadavg()[0]}
    for name, values in seconds.items():
        result[name] = {"median_mb_s": round(mb / statistics.median(values), 1),
                        "best_mb_s": round(mb / min(values), 1),
                        "seconds": [round(v, 3) for v in values]}
    for mode in ("warm", "cold"):
        local = result[f"{mode}/local"]["median_mb_s"]
        for name in ("local-ranged", "s3-raw", "s3-ranged", "boto3", "boto3-transfer",
                     "loopback-sendfile"):
            entry = result[f"{mode}/{name}"]
            entry["vs_local"] = round(entry["median_mb_s"] / local, 2)
    return print_report(result, args.json)


if __name__ == "__main__":
    sys.exit(main())
