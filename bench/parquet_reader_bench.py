#!/usr/bin/env python3
"""Parquet reader benchmark: our reader vs pyarrow pq.read_table, same file.

Writes one clickstream-like file with pyarrow (int64 ids, an optional user id,
timestamptz, a 32-char session id, dictionary-encoded low-cardinality strings,
~70-byte URLs with a few thousand distinct values, an optional referrer, ints
and an optional double; zstd, pyarrow's defaults otherwise: dictionary on,
1 MiB pages, data page v1), untimed. Then, alternating in the same script:

  ours     `streamtables dev parquet-cat FILE --decode-only --repeat R --threads T`:
           reads the file into memory, opens it and decodes every column chunk
           of every row group into ColumnBatch (levels + dense values; strings
           as views into the decompressed pages or the dictionary), timed
           inside the process (wall clock, process start not counted)
  pyarrow  pq.read_table(FILE, use_threads=T>1) into an Arrow table, wall clock

MB/s are of the file's bytes (compressed) and, in brackets, of its decoded
page bytes (the footer's total_uncompressed_size). Medians of --runs runs.

  .venv/bin/python bench/parquet_reader_bench.py --build-dir build --rows 3000000 --runs 7
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import tempfile
import time

import pyarrow as pa
import pyarrow.parquet as pq

EVENT_TYPES = ["page_view", "click", "scroll", "add_to_cart", "purchase", "search", "login",
               "logout", "share", "video_play"]
COUNTRIES = [f"C{i:02d}" for i in range(60)]
DEVICES = ["desktop", "mobile", "tablet", "tv"]


def make_table(n):
    def lcg(i, k):
        return (i * 6364136223846793005 + k * 1442695040888963407) % (1 << 64)

    ts0 = 1_735_689_600_000_000
    cols = {
        "event_id": pa.array(range(n), pa.int64()),
        "user_id": pa.array([None if i % 10 == 0 else lcg(i, 1) % 5_000_000 for i in range(n)],
                            pa.int64()),
        "ts": pa.array([ts0 + i * 37 + lcg(i, 2) % 1000 for i in range(n)],
                       pa.int64()).cast(pa.timestamp("us", tz="UTC")),
        "session_id": pa.array([f"{lcg(i // 20, 3):016x}{lcg(i // 20, 4):016x}" for i in range(n)]),
        "event_type": pa.array([EVENT_TYPES[lcg(i, 5) % len(EVENT_TYPES)] for i in range(n)]),
        "page_url": pa.array([f"https://shop.example.com/c/{lcg(i, 6) % 40}/p/{lcg(i, 7) % 3000}"
                              f"?ref=nav&utm_source=s{lcg(i, 8) % 9}" for i in range(n)]),
        "referrer": pa.array([None if lcg(i, 9) % 3 == 0 else
                              f"https://search.example.org/q?k={lcg(i, 10) % 800}"
                              for i in range(n)]),
        "country": pa.array([COUNTRIES[lcg(i, 11) % len(COUNTRIES)] for i in range(n)]),
        "device": pa.array([DEVICES[lcg(i, 12) % len(DEVICES)] for i in range(n)]),
        "duration_ms": pa.array([lcg(i, 13) % 60_000 for i in range(n)], pa.int32()),
        "price": pa.array([None if lcg(i, 14) % 4 else (lcg(i, 15) % 100_000) / 100
                           for i in range(n)], pa.float64()),
    }
    return pa.table(cols)


def run_ours(binary, path, threads, repeat):
    out = subprocess.run([str(binary), "dev", "parquet-cat", str(path), "--decode-only",
                          "--repeat", str(repeat), "--threads", str(threads)],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(line)["seconds"] for line in out.splitlines()]


def run_pyarrow(path, threads):
    start = time.perf_counter()
    t = pq.read_table(path, use_threads=threads > 1)
    seconds = time.perf_counter() - start
    assert t.num_rows > 0
    return seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--rows", type=int, default=3_000_000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--codec", default="zstd")
    ap.add_argument("--file", help="reuse this file instead of writing one")
    args = ap.parse_args()
    binary = pathlib.Path(args.build_dir) / "src" / "cli" / "streamtables"
    tmp = tempfile.TemporaryDirectory()
    if args.file:
        path = pathlib.Path(args.file)
    else:
        path = pathlib.Path(tmp.name) / "clickstream.parquet"
        pq.write_table(make_table(args.rows), path, compression=args.codec)
    meta = pq.ParquetFile(path).metadata
    file_mb = path.stat().st_size / 1e6
    decoded_mb = sum(meta.row_group(g).column(c).total_uncompressed_size
                     for g in range(meta.num_row_groups) for c in range(meta.num_columns)) / 1e6
    print(f"file: {file_mb:.1f} MB ({decoded_mb:.1f} MB decoded pages), {meta.num_rows} rows, "
          f"{meta.num_row_groups} row groups, {meta.num_columns} columns, codec {args.codec}, "
          f"pyarrow {pa.__version__}")
    # Correctness guard: our reader must agree on the values before we time it.
    sample = subprocess.run([str(binary), "dev", "parquet-cat", str(path), "--decode-only"],
                            check=True, capture_output=True, text=True).stdout
    assert json.loads(sample)["rows"] == meta.num_rows

    results = {}
    for threads in (1, 2):
        ours, theirs = [], []
        for _ in range(args.runs):  # Alternate so load changes hit both alike.
            ours += run_ours(binary, path, threads, 1)
            theirs.append(run_pyarrow(path, threads))
        results[threads] = (statistics.median(ours), statistics.median(theirs))

    print()
    print("| reader | threads | median s | file MB/s | decoded MB/s | vs pyarrow |")
    print("|---|---|---|---|---|---|")
    for threads, (ours, theirs) in results.items():
        for name, s in (("streamtables FileReader (ColumnBatch)", ours),
                        (f"pyarrow {pa.__version__} read_table", theirs)):
            print(f"| {name} | {threads} | {s:.3f} | {file_mb / s:.0f} | {decoded_mb / s:.0f} | "
                  f"{theirs / s:.2f}x |")


if __name__ == "__main__":
    main()
