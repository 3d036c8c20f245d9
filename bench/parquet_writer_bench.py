#!/usr/bin/env python3
"""Parquet writer benchmark driver: our writer vs pyarrow vs zstd, same rows.

Runs build/bench/parquet_writer_bench to generate the clickstream rows and dump
them as raw column files (untimed), loads those into an Arrow table (untimed:
pyarrow gets its best case, a table already in memory), then times, for each
codec, our writer (C++ columnar batch API, which is the comparison; the
one-value-per-call API; WriteRow on a subset), pq.write_table
with the same codec, level and rows per row group, and single-thread `zstd -1`
/ `-3` over the same raw value bytes. Prints a markdown table of medians.

  .venv/bin/python bench/parquet_writer_bench.py --build-dir build --rows 1200000 --runs 3
"""

import argparse
import json
import os
import pathlib
import resource
import statistics
import subprocess
import time

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

STRING_COLUMNS = ["session_id", "event_type", "page_url", "referrer_url", "user_agent",
                  "ip_address", "country", "city", "device_type", "os", "browser", "locale"]


def validity(d, name, n):
    """The <name>.valid bytes (one per row) as an Arrow validity bitmap, or None."""
    path = d / f"{name}.valid"
    if not path.exists():
        return None
    flags = pa.Array.from_buffers(pa.uint8(), n, [None, pa.py_buffer(path.read_bytes())])
    return pc.not_equal(flags, 0).buffers()[1]


def load_strings(d, name, n):
    offsets = pa.py_buffer((d / f"{name}.offsets").read_bytes())
    data = pa.py_buffer((d / f"{name}.data").read_bytes())
    return pa.Array.from_buffers(pa.large_string(), n, [validity(d, name, n), offsets,
                                                        data]).cast(pa.string())


def load_fixed(d, name, n, arrow_type):
    data = pa.py_buffer((d / f"{name}.bin").read_bytes())
    assert len(data) == n * arrow_type.bit_width // 8
    return pa.Array.from_buffers(arrow_type, n, [validity(d, name, n), data])


def load_table(d, n):
    """The dumped rows as an Arrow table whose schema matches ours (nullability, tz, ids)."""
    cols, fields = [], []

    def add(name, array, nullable, field_id):
        cols.append(array)
        fields.append(pa.field(name, array.type, nullable=nullable,
                               metadata={"PARQUET:field_id": str(field_id)}))

    add("event_id", load_fixed(d, "event_id", n, pa.int64()), False, 1)
    add("event_time", load_fixed(d, "event_time", n, pa.int64()).cast(
        pa.timestamp("us", tz="UTC")), False, 2)
    add("user_id", load_fixed(d, "user_id", n, pa.int64()), True, 3)
    for i, name in enumerate(STRING_COLUMNS):
        add(name, load_strings(d, name, n), name == "referrer_url", 4 + i)
    add("screen_width", load_fixed(d, "screen_width", n, pa.int32()), False, 16)
    add("screen_height", load_fixed(d, "screen_height", n, pa.int32()), False, 17)
    add("duration_ms", load_fixed(d, "duration_ms", n, pa.int32()), False, 18)
    add("is_bounce", pc.not_equal(load_fixed(d, "is_bounce", n, pa.uint8()), 0), False, 19)
    children = [load_strings(d, "context.campaign", n), load_strings(d, "context.source", n),
                load_strings(d, "context.medium", n),
                load_fixed(d, "context.experiment_id", n, pa.int32())]
    child_fields = [pa.field(nm, a.type, nullable=(nm == "campaign"),
                             metadata={"PARQUET:field_id": str(fid)})
                    for nm, a, fid in zip(["campaign", "source", "medium", "experiment_id"],
                                          children, [21, 22, 23, 24])]
    context_valid = pa.Array.from_buffers(pa.bool_(), n, [None, validity(d, "context", n)])
    context = pa.StructArray.from_arrays(children, fields=child_fields,
                                         mask=pc.invert(context_valid))
    add("context", context, True, 20)
    return pa.Table.from_arrays(cols, schema=pa.schema(fields))


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_ours(tool, rows, codec, level, runs, out, api, batch_rows=4096):
    proc = subprocess.run([str(tool), "--rows", str(rows), "--codec", codec, "--level", str(level),
                           "--runs", str(runs), "--api", api, "--batch-rows", str(batch_rows),
                           "--out", str(out)],
                          check=True, capture_output=True, text=True)
    results = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    return {"wall": statistics.median(r["seconds"] for r in results),
            "cpu": statistics.median(r["cpu_seconds"] for r in results),
            "raw": results[0]["raw_bytes"], "rows": rows, "size": results[0]["file_bytes"],
            "row_groups": results[0]["row_groups"]}


def run_pyarrow(table, codec, level, runs, out, row_group_rows, raw):
    walls, cpus = [], []
    for _ in range(runs):
        c0, t0 = time.process_time(), time.perf_counter()
        pq.write_table(table, out, compression=codec,
                       compression_level=level if codec == "zstd" else None,
                       row_group_size=row_group_rows)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus), "raw": raw,
            "rows": table.num_rows, "size": os.path.getsize(out)}


def run_zstd(raw_file, level, runs, raw, rows):
    walls, cpus = [], []
    out = raw_file.with_suffix(f".zst{level}")
    for _ in range(runs):
        c0, t0 = child_cpu(), time.perf_counter()
        subprocess.run(["zstd", "-q", "-f", "-T1", f"-{level}", str(raw_file), "-o", str(out)],
                       check=True)
        walls.append(time.perf_counter() - t0)
        cpus.append(child_cpu() - c0)
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus), "raw": raw,
            "rows": rows, "size": os.path.getsize(out)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = pathlib.Path(__file__).resolve().parents[1]
    ap.add_argument("--build-dir", default=str(root / "build"))
    ap.add_argument("--rows", type=int, default=1_200_000, help="~1 GB of raw values by default")
    ap.add_argument("--row-api-rows", type=int, default=0,
                    help="rows for the WriteRow variant (default rows/4: Value rows cost memory)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--level", type=int, default=3, help="zstd level for both Parquet writers")
    ap.add_argument("--codecs", default="zstd,snappy")
    ap.add_argument("--batch-rows", type=int, default=4096,
                    help="rows per EndRows for the batch API (a delivery batch)")
    ap.add_argument("--skip-slow", action="store_true",
                    help="skip the one-value-per-call and WriteRow variants")
    ap.add_argument("--workdir", default="/tmp/parquet_writer_bench")
    args = ap.parse_args()

    tool = pathlib.Path(args.build_dir) / "bench" / "parquet_writer_bench"
    work = pathlib.Path(args.workdir)
    raw_dir = work / "raw"
    raw_dir.mkdir(parents=True, exist_ok=True)
    dumped = json.loads(subprocess.run([str(tool), "--rows", str(args.rows), "--dump", str(raw_dir)],
                                       check=True, capture_output=True, text=True).stdout)
    raw, rows = dumped["raw_bytes"], dumped["rows"]
    table = load_table(raw_dir, rows)
    raw_file = work / "raw_values.bin"
    with open(raw_file, "wb") as f:
        for p in sorted(raw_dir.glob("*.bin")) + sorted(raw_dir.glob("*.data")):
            f.write(p.read_bytes())
    assert os.path.getsize(raw_file) == raw, (os.path.getsize(raw_file), raw)
    row_api_rows = args.row_api_rows or rows // 4

    results = []
    for codec in args.codecs.split(","):
        ours = run_ours(tool, rows, codec, args.level, args.runs, work / "ours.parquet", "batch",
                        args.batch_rows)
        rg_rows = -(-rows // ours["row_groups"])
        arrow = run_pyarrow(table, codec, args.level, args.runs, work / "pyarrow.parquet", rg_rows,
                            raw)
        results.append((f"streamtables batch API ({args.batch_rows} rows/batch)", codec, ours,
                        arrow))
        # The input shape pyarrow gets: the whole table in one call per column.
        whole = run_ours(tool, rows, codec, args.level, args.runs, work / "ours_whole.parquet",
                         "batch", rows)
        results.append(("streamtables batch API (whole table, 1 batch)", codec, whole, arrow))
        if not args.skip_slow:
            leaf = run_ours(tool, rows, codec, args.level, args.runs, work / "ours_leaf.parquet",
                            "leaf")
            row = run_ours(tool, row_api_rows, codec, args.level, args.runs,
                           work / "ours_row.parquet", "row")
            results.append((f"streamtables one value per call", codec, leaf, arrow))
            results.append((f"streamtables WriteRow ({row_api_rows} rows)", codec, row, None))
        results.append((f"pyarrow {pa.__version__} write_table", codec, arrow, arrow))
    for level in (1, 3):
        results.append((f"zstd -{level} -T1 (raw bytes)", "-", run_zstd(raw_file, level, args.runs,
                                                                       raw, rows), None))

    print(f"rows={rows} raw={raw / 1e6:.0f} MB ({raw / rows:.0f} B/row), runs={args.runs} "
          f"(medians), zstd level {args.level}, {os.cpu_count()} cores, "
          f"load avg {os.getloadavg()[0]:.1f}\n")
    print("| writer | codec | wall MB/s | CPU MB/s | rows/s (wall) | file MB | "
          "throughput vs pyarrow (wall / CPU) | size vs pyarrow |")
    print("|---|---|---|---|---|---|---|---|")
    for name, codec, r, ref in results:
        wall_mbs, cpu_mbs = r["raw"] / r["wall"] / 1e6, r["raw"] / r["cpu"] / 1e6
        ratio = size_ratio = "-"
        if ref is not None:
            ratio = f"{ref['wall'] / r['wall']:.2f}x / {ref['cpu'] / r['cpu']:.2f}x"
            size_ratio = f"{r['size'] / ref['size']:.3f}"
        print(f"| {name} | {codec} | {wall_mbs:.0f} | {cpu_mbs:.0f} | {r['rows'] / r['wall']:,.0f} | "
              f"{r['size'] / 1e6:.1f} | {ratio} | {size_ratio} |")


if __name__ == "__main__":
    main()
