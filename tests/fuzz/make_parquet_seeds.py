#!/usr/bin/env python3
"""Writes the seed corpus of parquet_reader_fuzz: small pyarrow files covering
data page v1/v2, dictionary and PLAIN, the DELTA_* and BYTE_STREAM_SPLIT
encodings, every codec, nested struct/list/map and nulls (each under 8 KB so
the fuzzer mutates structure, not bulk values). Files are named by SHA-1 as
libFuzzer names corpus entries.

    .venv/bin/python tests/fuzz/make_parquet_seeds.py [DIR]   (default: the committed corpus)
"""

import decimal
import hashlib
import io
import pathlib
import sys

import pyarrow as pa
import pyarrow.parquet as pq

REPO = pathlib.Path(__file__).resolve().parents[2]


def table():
    n = 40
    return pa.table({
        "b": pa.array([None if i % 3 == 0 else i % 2 == 0 for i in range(n)]),
        "i": pa.array(range(n), pa.int32()),
        "l": pa.array([None if i % 5 == 0 else i * 1000003 for i in range(n)], pa.int64()),
        "d": pa.array([i / 3 for i in range(n)], pa.float64()),
        "dec": pa.array([None] + [decimal.Decimal(i).scaleb(-2) for i in range(1, n)],
                        pa.decimal128(12, 2)),
        "ts": pa.array(range(n), pa.int64()).cast(pa.timestamp("us", tz="UTC")),
        "s": pa.array([None if i % 4 == 0 else f"s{i % 6}" for i in range(n)]),
        "fx": pa.array([bytes([i, i]) for i in range(n)], pa.binary(2)),
        "st": pa.array([{"x": i, "y": None if i % 2 else "y"} for i in range(n)]),
        "tags": pa.array([[f"t{k}" for k in range(i % 3)] for i in range(n)]),
        "m": pa.array([[("k", i)] if i % 2 else [] for i in range(n)],
                      pa.map_(pa.string(), pa.int32())),
    })


def variants():
    yield dict(data_page_version="1.0", compression="none")
    yield dict(data_page_version="2.0", compression="none", use_dictionary=False)
    yield dict(data_page_version="1.0", compression="snappy")
    yield dict(data_page_version="2.0", compression="zstd")
    yield dict(data_page_version="1.0", compression="gzip", use_dictionary=False)
    yield dict(data_page_version="2.0", compression="lz4")  # LZ4_RAW
    yield dict(data_page_version="2.0", compression="none", use_dictionary=False,
               column_encoding={"i": "DELTA_BINARY_PACKED", "s": "DELTA_LENGTH_BYTE_ARRAY",
                                "tags.list.element": "DELTA_BYTE_ARRAY",
                                "d": "BYTE_STREAM_SPLIT"})


def main():
    out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else (
        REPO / "tests" / "fuzz" / "corpus" / "parquet_reader")
    out.mkdir(parents=True, exist_ok=True)
    t = table()
    for options in variants():
        buf = io.BytesIO()
        pq.write_table(t, buf, row_group_size=25, store_schema=False, **options)
        data = buf.getvalue()
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
        print(len(data), options)


if __name__ == "__main__":
    main()
