#!/usr/bin/env python3
"""Compaction throughput: our icebergCompaction job vs pyarrow read_table +
write_table of the same files (issue 10 target: ours >= 1.5x pyarrow).

Starts `streamtables server` (test harness, scheduler off). Per run, untimed:
a new table in a new bucket gets --files PyIceberg appends of a
clickstream-like Arrow table (--rows-per-file rows each, one Parquet file per
append, zstd). Then, alternating in the same script:

  ours     `streamtables table maintenance run --job icebergCompaction`
           (binpack): the job's own duration and bytes read from /metrics
           (streamtables_maintenance_job_duration_seconds_total,
           ..._bytes_read_total): read every file, stream its column chunks
           into one zstd file, write it, commit one replace snapshot
  pyarrow  the same input files (from the server's data dir): pq.read_table
           each, pa.concat_tables, pq.write_table to one file, wall clock;
           zstd level 3 (the level our job writes: the table's
           write.parquet.compression-level default, Iceberg's), single-threaded
           (use_threads=False) like our job and with threads; and pyarrow's
           own default zstd level (1, less work per byte) for contrast

MB/s are of the input files' bytes. Medians of --runs runs.

Row groups of >= 65,536 rows in the output's codec are carried over still
encoded (decoded once to verify them and compute bounds, not re-encoded):
the default 100,000 rows per file takes that path; --rows-per-file 60000
measures the decode + re-encode path. The script prints the output's row
group count so the path taken is visible.

  ST_BUILD_DIR=build .venv/bin/python bench/compaction_bench.py --runs 3
"""

import argparse
import json
import pathlib
import re
import statistics
import sys
import tempfile
import time

import pyarrow as pa
import pyarrow.parquet as pq

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "integration"))
sys.path.insert(0, str(REPO / "bench"))

from harness.server import StreamtablesServer  # noqa: E402
from iceberg_rest_clients import new_bucket, pyiceberg_catalog  # noqa: E402
from parquet_reader_bench import make_table  # noqa: E402


def metric(text: str, family: str, table_arn: str) -> float:
    pattern = re.escape(f'{family}{{table="{table_arn}",job="icebergCompaction"}}') + r" (\S+)"
    found = re.search(pattern, text)
    return float(found.group(1)) if found else 0.0


def object_bytes(server, uri: str) -> bytes:
    """An s3:// object as a client reads it (on disk it is encrypted: SSE-S3 is
    the default)."""
    bucket, _, key = uri.removeprefix("s3://").partition("/")
    return server.boto3_client("s3").get_object(Bucket=bucket, Key=key)["Body"].read()


def make_input(server, data: pa.Table, files: int, work: pathlib.Path):
    arn = new_bucket(server, prefix="bench")
    cat = pyiceberg_catalog(server, arn)
    cat.create_namespace("ns")
    table = cat.create_table("ns.t", schema=data.schema)
    for _ in range(files):
        table.append(data)
    table = cat.load_table("ns.t")
    # pyarrow reads plaintext copies fetched through the S3 endpoint, untimed
    # (our job decrypts its inputs and encrypts its output inside its time).
    work.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, task in enumerate(table.scan().plan_files()):
        path = work / f"in-{i:03d}.parquet"
        path.write_bytes(object_bytes(server, task.file.file_path))
        paths.append(path)
    assert len(paths) == files, len(paths)
    table_arn = server.boto3_client("s3tables").get_table(
        tableBucketARN=arn, namespace="ns", name="t")["tableARN"]
    return arn, table_arn, paths


def run_ours(server, arn: str, table_arn: str) -> tuple[float, int, int]:
    out = server.cli("table", "maintenance", "run", "--bucket", arn, "--namespace", "ns", "t",
                     "--job", "icebergCompaction", "--json")
    assert json.loads(out.stdout)["status"] == "Successful", out.stdout
    text = server.metrics_text()
    seconds = metric(text, "streamtables_maintenance_job_duration_seconds_total", table_arn)
    read = metric(text, "streamtables_maintenance_bytes_read_total", table_arn)
    table = pyiceberg_catalog(server, arn).load_table("ns.t")
    groups = sum(pq.ParquetFile(pa.BufferReader(object_bytes(server, task.file.file_path)))
                 .metadata.num_row_groups for task in table.scan().plan_files())
    return seconds, int(read), groups


def run_pyarrow(paths, threads: bool, level=3) -> float:
    with tempfile.TemporaryDirectory(prefix="st-compact-bench-") as work:
        start = time.perf_counter()
        tables = [pq.read_table(p, use_threads=threads) for p in paths]
        pq.write_table(pa.concat_tables(tables), pathlib.Path(work) / "out.parquet",
                       compression="zstd", compression_level=level, use_dictionary=True)
        return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=16)
    ap.add_argument("--rows-per-file", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    data = make_table(args.rows_per_file)

    with tempfile.TemporaryDirectory(prefix="st-compact-bench-srv-") as work:
        server = StreamtablesServer(pathlib.Path(work), extra_args=[
            "--maintenance-interval-seconds", "0"])
        server.start()
        try:
            ours, single, threaded, level1 = [], [], [], []
            input_mb = 0.0
            output_groups = 0
            for _ in range(args.runs):
                arn, table_arn, paths = make_input(server, data, args.files,
                                                   pathlib.Path(work) / f"input-{len(ours)}")
                input_bytes = sum(p.stat().st_size for p in paths)
                input_mb = input_bytes / 1e6
                single.append(input_mb / run_pyarrow(paths, threads=False))
                threaded.append(input_mb / run_pyarrow(paths, threads=True))
                level1.append(input_mb / run_pyarrow(paths, threads=False, level=None))
                seconds, read, output_groups = run_ours(server, arn, table_arn)
                assert read == input_bytes, (read, input_bytes)
                ours.append(input_mb / seconds)
        finally:
            server.stop()

    print(f"input: {args.files} files x {args.rows_per_file} rows, {input_mb:.1f} MB, "
          f"{data.num_columns} columns, pyarrow {pa.__version__}; our output: "
          f"{output_groups} row groups")
    print()
    print("| run | median MB/s | runs (MB/s) |")
    print("|---|---|---|")
    for label, values in (("ours (icebergCompaction, binpack)", ours),
                          ("pyarrow read_table + write_table zstd(3), 1 thread", single),
                          ("pyarrow read_table + write_table zstd(3), threads", threaded),
                          ("pyarrow read_table + write_table zstd default (1), 1 thread",
                           level1)):
        print(f"| {label} | {statistics.median(values):.1f} | "
              f"{', '.join(f'{v:.1f}' for v in values)} |")
    print()
    mine = statistics.median(ours)
    print(f"ratio ours / pyarrow zstd(3) 1 thread: {mine / statistics.median(single):.2f}x; "
          f"/ zstd(3) threads: {mine / statistics.median(threaded):.2f}x; "
          f"/ zstd(1) 1 thread: {mine / statistics.median(level1):.2f}x")


if __name__ == "__main__":
    main()
