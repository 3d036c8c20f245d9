"""Tables written by `streamtables dev write-table`, and the expected values
and metrics computed in Python from its `--dump-rows` output.

Values are compared in one canonical, hashable form per Iceberg type (see
typed() and canon()): ints for date (days), time and timestamps (µs, UTC),
unscaled ints for decimals, bytes for uuid/fixed/binary, repr() for floats
(so NaN == NaN and -0.0 != 0.0), tuples for structs/lists and sorted pair
tuples for maps. Engines' Python values are mapped onto the same form.
"""

import base64
import datetime
import decimal
import json
import math
import pathlib
import struct
import uuid as uuidlib
from typing import Any, Optional

from pyiceberg.types import (BinaryType, BooleanType, DateType, DecimalType, DoubleType, FixedType,
                             FloatType, IntegerType, ListType, LongType, MapType, StringType,
                             StructType, TimestampType, TimestamptzType, TimeType, UUIDType)

EPOCH_DATE = datetime.date(1970, 1, 1)
EPOCH = datetime.datetime(1970, 1, 1)
TRUNCATE = 16


# ---------------------------------------------------------------- running the CLI
def write_table(st_bin, warehouse: pathlib.Path, schema: str, rows: int, seed: int = 1,
                commits: int = 1, partition_by: Optional[str] = None, codec: Optional[str] = None,
                row_group_bytes: Optional[int] = None, page_bytes: Optional[int] = None,
                target_file_bytes: Optional[int] = None, table: str = "t",
                namespace: str = "db") -> tuple[str, list[dict]]:
    """Runs the CLI; returns (metadata location, dumped rows as parsed JSON)."""
    dump = pathlib.Path(warehouse) / f"{namespace}.{table}.rows.jsonl"
    args = ["dev", "write-table", "--warehouse", str(warehouse), "--schema", schema,
            "--rows", str(rows), "--seed", str(seed), "--commits", str(commits),
            "--namespace", namespace, "--table", table, "--dump-rows", str(dump)]
    for flag, value in (("--partition-by", partition_by), ("--codec", codec),
                        ("--row-group-bytes", row_group_bytes), ("--page-bytes", page_bytes),
                        ("--target-file-bytes", target_file_bytes)):
        if value is not None:
            args += [flag, str(value)]
    result = st_bin.run("streamtables", *args, timeout_s=600)
    location = result.stdout.strip().splitlines()[-1]
    rows_json = [json.loads(line) for line in dump.read_text(encoding="utf-8").split("\n") if line]
    return location, rows_json


# ---------------------------------------------------------------- typed values
def decimal_unscaled(value: decimal.Decimal, scale: int) -> int:
    """Exact unscaled integer (no context rounding, unlike scaleb at 28 digits)."""
    sign, digits, exponent = value.as_tuple()
    n = int("".join(map(str, digits)) or "0")
    shift = exponent + scale
    n = n * 10 ** shift if shift >= 0 else n // 10 ** (-shift)
    return -n if sign else n


def _float(v) -> float:
    if isinstance(v, str):
        return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[v]
    return float(v)


def from_dump(t, v) -> Any:
    """A --dump-rows JSON value as the typed Python value (see module doc)."""
    if v is None:
        return None
    if isinstance(t, (FloatType, DoubleType)):
        return _float(v)
    if isinstance(t, DecimalType):
        return decimal_unscaled(decimal.Decimal(v), t.scale)
    if isinstance(t, UUIDType):
        return uuidlib.UUID(v).bytes
    if isinstance(t, (FixedType, BinaryType)):
        return base64.b64decode(v)
    if isinstance(t, StructType):
        return {f.name: from_dump(f.field_type, v.get(f.name)) for f in t.fields}
    if isinstance(t, ListType):
        return [from_dump(t.element_type, e) for e in v]
    if isinstance(t, MapType):
        return [(from_dump(t.key_type, k), from_dump(t.value_type, x)) for k, x in v]
    return v  # bool, int, long, date/time/timestamp ints, string


def from_engine(t, v) -> Any:
    """An engine's Python value (pyarrow/DuckDB/Spark) as the typed Python value."""
    if v is None:
        return None
    if isinstance(t, (FloatType, DoubleType)):
        return float(v)
    if isinstance(t, DecimalType):
        return decimal_unscaled(v if isinstance(v, decimal.Decimal) else decimal.Decimal(v), t.scale)
    if isinstance(t, DateType):
        return v if isinstance(v, int) else (v - EPOCH_DATE).days
    if isinstance(t, TimeType):
        if isinstance(v, int):
            return v
        return ((v.hour * 60 + v.minute) * 60 + v.second) * 1_000_000 + v.microsecond
    if isinstance(t, (TimestampType, TimestamptzType)):
        if isinstance(v, int):
            return v
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return (v - EPOCH) // datetime.timedelta(microseconds=1)
    if isinstance(t, UUIDType):
        if isinstance(v, uuidlib.UUID):
            return v.bytes
        if isinstance(v, str):
            return uuidlib.UUID(v).bytes
        return bytes(v)
    if isinstance(t, (FixedType, BinaryType)):
        return bytes(v)
    if isinstance(t, StructType):
        if hasattr(v, "asDict"):
            v = v.asDict(recursive=False)
        return {f.name: from_engine(f.field_type, v.get(f.name)) for f in t.fields}
    if isinstance(t, ListType):
        return [from_engine(t.element_type, e) for e in v]
    if isinstance(t, MapType):
        if isinstance(v, dict):
            if set(v.keys()) == {"key", "value"} and isinstance(v["key"], list):
                pairs = list(zip(v["key"], v["value"]))
            else:
                pairs = list(v.items())
        else:
            pairs = [(p["key"], p["value"]) if isinstance(p, dict) else tuple(p) for p in v]
        return [(from_engine(t.key_type, k), from_engine(t.value_type, x)) for k, x in pairs]
    return v


def canon(t, v) -> Any:
    """Hashable, exactly comparable form of a typed value."""
    if v is None:
        return None
    if isinstance(t, (FloatType, DoubleType)):
        return repr(float(v))
    if isinstance(t, StructType):
        return tuple((f.name, canon(f.field_type, v[f.name])) for f in t.fields)
    if isinstance(t, ListType):
        return tuple(canon(t.element_type, e) for e in v)
    if isinstance(t, MapType):
        return tuple(sorted(((canon(t.key_type, k), canon(t.value_type, x)) for k, x in v), key=repr))
    return v


def canon_rows(schema, rows: list[dict], source: str, adjust=None) -> dict[int, tuple]:
    """{id: canonical row}; `source` is "dump" or "engine"; `adjust(type,
    typed value)` rewrites each top-level typed value first (known reader bugs)."""
    conv = from_dump if source == "dump" else from_engine
    struct_type = schema.as_struct()
    out = {}
    for row in rows:
        if hasattr(row, "asDict"):
            row = row.asDict(recursive=False)
        typed = {f.name: conv(f.field_type, row.get(f.name)) for f in struct_type.fields}
        if adjust is not None:
            typed = {f.name: adjust(f.field_type, typed[f.name]) for f in struct_type.fields}
        out[typed["id"]] = canon(struct_type, typed)
    return out


def diff_rows(expected: dict, actual: dict, limit: int = 5) -> list[str]:
    """Readable differences between two {id: canonical row} maps."""
    problems = []
    if set(expected) != set(actual):
        missing = sorted(set(expected) - set(actual))[:limit]
        extra = sorted(set(actual) - set(expected))[:limit]
        problems.append(f"row ids differ: missing {missing}, unexpected {extra} "
                        f"({len(expected)} expected, {len(actual)} read)")
    for key in sorted(set(expected) & set(actual)):
        if expected[key] != actual[key]:
            for (name, e), (_, a) in zip(expected[key], actual[key]):
                if e != a:
                    problems.append(f"id {key} column {name}: expected {e!r}, read {a!r}")
            if len(problems) >= limit:
                break
    return problems


# ---------------------------------------------------------------- metrics
def leaf_entries(t, value, repeated: bool, out: list) -> None:
    """Appends (field_id, typed value or None, repeated) for every Parquet leaf
    entry of `value` (a struct's fields), as Parquet levels define entries:
    a null or empty list/map contributes one null entry to each leaf below it."""
    for f in t.fields:
        _field_entries(f.field_id, f.field_type, None if value is None else value[f.name],
                       repeated, out)


def _field_entries(field_id, t, v, repeated, out):
    if isinstance(t, StructType):
        leaf_entries(t, v, repeated, out)
    elif isinstance(t, ListType):
        if not v:
            _field_entries(t.element_id, t.element_type, None, True, out)
        for e in v or []:
            _field_entries(t.element_id, t.element_type, e, True, out)
    elif isinstance(t, MapType):
        if not v:
            _field_entries(t.key_id, t.key_type, None, True, out)
            _field_entries(t.value_id, t.value_type, None, True, out)
        for k, x in v or []:
            _field_entries(t.key_id, t.key_type, k, True, out)
            _field_entries(t.value_id, t.value_type, x, True, out)
    else:
        out.append((field_id, v, repeated))


def _truncate_upper_str(s: str) -> Optional[str]:
    if len(s) <= TRUNCATE:
        return s
    chars = list(s[:TRUNCATE])
    for i in range(TRUNCATE - 1, -1, -1):
        cp = ord(chars[i]) + 1
        if 0xD800 <= cp <= 0xDFFF:
            cp = 0xE000
        if cp <= 0x10FFFF:
            return "".join(chars[:i]) + chr(cp)
    return None


def _truncate_upper_bytes(b: bytes) -> Optional[bytes]:
    if len(b) <= TRUNCATE:
        return b
    for i in range(TRUNCATE - 1, -1, -1):
        if b[i] != 0xFF:
            return b[:i] + bytes([b[i] + 1])
    return None


def single_value_bytes(t, v) -> bytes:
    """Iceberg Appendix D serialization of a typed value."""
    if isinstance(t, BooleanType):
        return b"\x01" if v else b"\x00"
    if isinstance(t, (IntegerType, DateType)):
        return struct.pack("<i", v)
    if isinstance(t, (LongType, TimeType, TimestampType, TimestamptzType)):
        return struct.pack("<q", v)
    if isinstance(t, FloatType):
        return struct.pack("<f", v)
    if isinstance(t, DoubleType):
        return struct.pack("<d", v)
    if isinstance(t, DecimalType):
        n = 1
        while not (-(1 << (8 * n - 1)) <= v < (1 << (8 * n - 1))):
            n += 1
        return v.to_bytes(n, "big", signed=True)
    if isinstance(t, StringType):
        return v.encode("utf-8")
    return bytes(v)


def expected_metrics(schema, typed_rows: list[dict]) -> dict:
    """Iceberg metrics (as PyIceberg's inspect.files() reports them) of a data
    file holding `typed_rows`: value/null/NaN counts for every leaf, bounds
    (truncate(16)) for leaves outside lists and maps."""
    struct_type = schema.as_struct()
    entries = []
    for row in typed_rows:
        leaf_entries(struct_type, row, False, entries)
    types = {fid: schema.find_type(fid) for fid, _, _ in entries}
    values, nulls, nans, lows, highs, repeated = {}, {}, {}, {}, {}, {}
    for fid, v, rep in entries:
        values[fid] = values.get(fid, 0) + 1
        nulls.setdefault(fid, 0)
        repeated[fid] = rep
        t = types[fid]
        if isinstance(t, (FloatType, DoubleType)):
            nans.setdefault(fid, 0)
        if v is None:
            nulls[fid] += 1
            continue
        if isinstance(t, (FloatType, DoubleType)) and math.isnan(v):
            nans[fid] += 1
            continue
        if fid not in lows or v < lows[fid]:
            lows[fid] = v
        if fid not in highs or v > highs[fid]:
            highs[fid] = v
    lower, upper = {}, {}
    for fid in lows:
        if repeated[fid]:
            continue
        t, lo, hi = types[fid], lows[fid], highs[fid]
        if isinstance(t, (FloatType, DoubleType)):
            # Parquet's rule for zero bounds: -0.0 as min, +0.0 as max.
            lo = -0.0 if lo == 0 else lo
            hi = 0.0 if hi == 0 else hi
        if isinstance(t, StringType):
            lo, hi = lo[:TRUNCATE], _truncate_upper_str(hi)
        elif isinstance(t, BinaryType):
            lo, hi = lo[:TRUNCATE], _truncate_upper_bytes(hi)
        lower[fid] = single_value_bytes(t, lo)
        if hi is not None:
            upper[fid] = single_value_bytes(t, hi)
    return {"value_counts": values, "null_value_counts": nulls, "nan_value_counts": nans,
            "lower_bounds": lower, "upper_bounds": upper}


def arrow_map(value) -> dict:
    """A map as PyIceberg or pyarrow gives it (dict or list of pairs) as a dict."""
    return dict(value) if value is not None else {}


def null_struct_lists_as_empty(t, v):
    """PyIceberg 0.12 reads a null list<struct> as an empty list
    (apache/iceberg-python#251, #3833: the validity mask is dropped when it
    rebuilds the list array). Applied to expected values for that reader only."""
    if isinstance(t, StructType):
        if v is None:
            return None
        return {f.name: null_struct_lists_as_empty(f.field_type, v[f.name]) for f in t.fields}
    if isinstance(t, ListType):
        if v is None:
            return [] if isinstance(t.element_type, StructType) else None
        return [null_struct_lists_as_empty(t.element_type, e) for e in v]
    if isinstance(t, MapType):
        if v is None:
            return None
        return [(k, null_struct_lists_as_empty(t.value_type, x)) for k, x in v]
    return v
