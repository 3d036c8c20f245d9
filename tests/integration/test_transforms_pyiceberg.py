"""Our partition transforms agree with PyIceberg's on random inputs.

Drives the test-only tool iceberg_transform_tool (tests/unit/iceberg) with
thousands of random values per source type and compares, for every transform
that accepts the type, the transformed value and its human string with
pyiceberg.transforms. Value encoding on the wire is documented in
tests/unit/iceberg/iceberg_transform_tool.cc.
"""

import datetime
import decimal
import json
import random
import uuid

import pytest

from pyiceberg import transforms as T
from pyiceberg import types as pt

# decimal(38,10) needs more than the default 28 digits of context precision.
decimal.getcontext().prec = 80

N = 2000
SEED = 20250101
EPOCH = datetime.datetime(1970, 1, 1)
# PyIceberg goes through Python datetimes for year/month and human strings,
# which cover years 1..9999.
MIN_MICROS = int((datetime.datetime(1, 1, 1) - EPOCH).total_seconds()) * 1_000_000
MAX_MICROS = int((datetime.datetime(9999, 12, 31, 23, 59, 59) - EPOCH).total_seconds()) * 1_000_000
MIN_DAYS, MAX_DAYS = MIN_MICROS // 86_400_000_000, MAX_MICROS // 86_400_000_000

BUCKETS = ["bucket[1]", "bucket[7]", "bucket[16]", "bucket[1000]", "bucket[2147483647]"]
TRUNCATES = ["truncate[1]", "truncate[3]", "truncate[10]", "truncate[1000]"]


def rand_int(rng):
    return rng.choice([rng.randint(-(2**31), 2**31 - 1), rng.randint(-1000, 1000), 0, -1, 2**31 - 1, -(2**31) + 1000])


def rand_long(rng):
    return rng.choice([rng.randint(-(2**63), 2**63 - 1), rng.randint(-10**6, 10**6), -1, 2**63 - 1 - 10**6])


def rand_micros(rng):
    # Mostly near 1970 (both sides), plus the far past and far future.
    return rng.choice([
        rng.randint(-86_400_000_000 * 3, 86_400_000_000 * 3),
        rng.randint(MIN_MICROS, MAX_MICROS),
        rng.randint(-2 * 10**15, 2 * 10**15),
        rng.randint(-3_600_000_000, 0),
    ])


def rand_decimal(rng, precision, scale):
    digits = rng.randint(1, precision)
    unscaled = rng.randint(-(10**digits) + 1, 10**digits - 1)
    return unscaled


UNICODE_POOL = (
    [chr(c) for c in range(0x20, 0x7F)]
    + ["é", "ß", "Ω", "中", "文", "\u0301", "\u200b", "€"]
    + [chr(c) for c in (0x1F600, 0x1F9D1, 0x10348, 0x1D11E, 0x10FFFF - 2)]  # surrogate pairs in UTF-16
)


def rand_string(rng):
    return "".join(rng.choice(UNICODE_POOL) for _ in range(rng.randint(0, 12)))


def rand_bytes(rng, n=None):
    return bytes(rng.getrandbits(8) for _ in range(n if n is not None else rng.randint(0, 20)))


# source type string -> (pyiceberg type, generator of (wire value, pyiceberg value), transforms)
def cases(rng):
    dec92, dec3810 = pt.DecimalType(9, 2), pt.DecimalType(38, 10)

    def dec(t):
        def gen():
            u = rand_decimal(rng, t.precision, t.scale)
            return str(u), decimal.Decimal(u).scaleb(-t.scale)
        return gen

    time_t = ["year", "month", "day"]
    yield "int", pt.IntegerType(), lambda: (lambda v: (v, v))(rand_int(rng)), ["identity"] + BUCKETS + TRUNCATES
    yield "long", pt.LongType(), lambda: (lambda v: (v, v))(rand_long(rng)), ["identity"] + BUCKETS + TRUNCATES
    yield "decimal(9,2)", dec92, dec(dec92), ["identity"] + BUCKETS + TRUNCATES
    yield "decimal(38,10)", dec3810, dec(dec3810), ["identity"] + BUCKETS + TRUNCATES
    yield "date", pt.DateType(), lambda: (lambda v: (v, v))(rng.choice([rng.randint(MIN_DAYS, MAX_DAYS), rng.randint(-800, 800)])), ["identity"] + BUCKETS + time_t
    yield "time", pt.TimeType(), lambda: (lambda v: (v, v))(rng.randint(0, 86_400_000_000 - 1)), ["identity"] + BUCKETS
    yield "timestamp", pt.TimestampType(), lambda: (lambda v: (v, v))(rand_micros(rng)), ["identity"] + BUCKETS + time_t + ["hour"]
    yield "timestamptz", pt.TimestamptzType(), lambda: (lambda v: (v, v))(rand_micros(rng)), ["identity"] + BUCKETS + time_t + ["hour"]
    yield "string", pt.StringType(), lambda: (lambda v: (v, v))(rand_string(rng)), ["identity"] + BUCKETS + TRUNCATES
    yield "uuid", pt.UUIDType(), lambda: (lambda u: (u.bytes.hex(), u))(uuid.UUID(bytes=rand_bytes(rng, 16))), ["identity"] + BUCKETS
    yield "fixed[5]", pt.FixedType(5), lambda: (lambda b: (b.hex(), b))(rand_bytes(rng, 5)), ["identity"] + BUCKETS
    yield "binary", pt.BinaryType(), lambda: (lambda b: (b.hex(), b))(rand_bytes(rng)), ["identity"] + BUCKETS + TRUNCATES


def to_wire(result):
    if result is None:
        return None
    if isinstance(result, bool):
        return result
    if isinstance(result, int):
        return result
    if isinstance(result, decimal.Decimal):
        sign, digits, exponent = result.as_tuple()
        unscaled = int("".join(map(str, digits)) or "0")
        return str(-unscaled if sign else unscaled)
    if isinstance(result, (bytes, bytearray)):
        return bytes(result).hex()
    if isinstance(result, uuid.UUID):
        return result.bytes.hex()
    return result


def human_expected(transform, source_type, result):
    human = transform.to_human_string(source_type, result)
    return human


SOURCE_TYPES = [c[0] for c in cases(random.Random(0))]


@pytest.mark.parametrize("type_name", SOURCE_TYPES)
def test_transforms_match_pyiceberg(st_bin, type_name):
    rng = random.Random(f"{SEED}-{type_name}")
    (_, source_type, gen, transform_names), = [c for c in cases(rng) if c[0] == type_name]
    requests, expected = [], []
    for i in range(N):
        wire, py_value = gen()
        if i == 0:
            wire, py_value = None, None  # null in, null out
        for name in transform_names:
            transform = T.parse_transform(name)
            result = transform.transform(source_type)(py_value)
            requests.append({"type": type_name, "transform": name, "value": wire})
            expected.append((name, py_value, to_wire(result), human_expected(transform, source_type, result)))
    # ensure_ascii (the default) exercises \uXXXX surrogate-pair decoding.
    stdin = "".join(json.dumps(r) + "\n" for r in requests)
    out = st_bin.run("iceberg_transform_tool", input=stdin, timeout_s=300).stdout.splitlines()
    assert len(out) == len(requests)
    mismatches = []
    for line, req, (name, py_value, want, want_human) in zip(out, requests, expected):
        got = json.loads(line)
        if "error" in got:
            mismatches.append(f"{name}({py_value!r}): error {got['error']}")
        elif got["result"] != want or got["human"] != want_human:
            mismatches.append(
                f"{name}({py_value!r}) [{req['value']!r}]: ours {got['result']!r}/{got['human']!r}, "
                f"pyiceberg {want!r}/{want_human!r}")
    assert not mismatches, f"{len(mismatches)} mismatches, first: " + "\n".join(mismatches[:15])
