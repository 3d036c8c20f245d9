#!/usr/bin/env python3
"""Writes the raw seed inputs of every fuzz target into DIR/<target>/.

    tests/fuzz/make_seeds.py DIR [--build BUILD]

Sources: JSON string literals of the unit tests (by the test file they come
from), the golden Iceberg metadata, policy_cases.json, Avro container files
and Iceberg manifests/metadata written by the test tools of a gcc BUILD
(avro_golden_writer, st_manifest_scenario_tool; skipped when absent), and a
few hand-made inputs per target for the wire formats (HTTP, SigV4 and its
AWS documentation example, Range, aws-chunked signed with the key
aws_chunked_fuzz.cc uses, GSR frames). tests/fuzz/run.sh --seed merges them
into the committed corpora (tests/fuzz/corpus/<target>/) with -merge=1.
"""

import argparse
import hashlib
import hmac
import json
import pathlib
import re
import subprocess
import tempfile
import zlib

REPO = pathlib.Path(__file__).resolve().parents[2]
UNIT = REPO / "tests" / "unit"

# Which targets get the JSON literals of which unit test files.
LITERAL_SOURCES = {
    "policy": ["auth/policy_test.cc", "server/policy_matrix_test.cc"],
    "iceberg_metadata": ["iceberg/table_metadata_test.cc", "api/s3tables/initial_metadata_test.cc"],
    "iceberg_schema": ["iceberg/json_serde_test.cc", "api/iceberg_rest/surface_test.cc",
                       "api/s3tables/initial_metadata_test.cc"],
    "iceberg_table_update": ["iceberg/table_update_test.cc", "api/iceberg_rest/surface_test.cc"],
    "avro_schema": ["avro/schema_test.cc", "avro/encoding_test.cc", "avro/hostile_input_test.cc"],
    "json_shredder": ["decoding/json_decoding_test.cc", "decoding/partitioned_file_writer_test.cc"],
    "json_schema_mapping": ["registry/json_schema_mapping_test.cc",
                            "registry/sqlite_schema_registry_test.cc"],
}

RAW_STRING = re.compile(r'R"([A-Za-z_]*)\((.*?)\)\1"', re.S)


class Seeds:
    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.count = {}

    def add(self, target, data):
        if isinstance(data, str):
            data = data.encode()
        d = self.root / target
        d.mkdir(parents=True, exist_ok=True)
        (d / hashlib.sha1(data).hexdigest()).write_bytes(data)
        self.count[target] = self.count.get(target, 0) + 1


def json_literals(path):
    text = (UNIT / path).read_text()
    for match in RAW_STRING.finditer(text):
        body = match.group(2)
        try:
            json.loads(body)
        except ValueError:
            continue
        yield body


def sha256(data):
    return hashlib.sha256(data if isinstance(data, bytes) else data.encode()).hexdigest()


def hmac256(key, msg):
    return hmac.new(key, msg.encode(), hashlib.sha256).digest()


def http_seeds(seeds):
    seeds.add("http_request", "GET / HTTP/1.1\r\nHost: 127.0.0.1:9000\r\n\r\n")
    seeds.add("http_request",
              "PUT /buckets HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
              "Content-Length: 16\r\nx-amz-content-sha256: UNSIGNED-PAYLOAD\r\n\r\n"
              '{"name":"bkt-1"}')
    seeds.add("http_request",
              "GET /buckets/arn%3Aaws%3As3tables%3Aus-east-1%3A111122223333%3Abucket%2Fb/policy"
              "?maxBuckets=10&continuationToken=a%2Bb+c&tagKeys=k&tagKeys=j HTTP/1.1\r\n"
              "Host: h\r\nAuthorization: AWS4-HMAC-SHA256 Credential=AKID/20261201/us-east-1/"
              "s3tables/aws4_request, SignedHeaders=host;x-amz-date, Signature=00\r\n"
              "X-Amz-Date: 20261201T000000Z\r\n\r\n")
    seeds.add("http_request",
              "POST /iceberg/v1/ns/tables HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n"
              "Expect: 100-continue\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
    seeds.add("http_request", "GET http://127.0.0.1:9001/b/k?uploads HTTP/1.1\r\nHost: x\r\n\r\n")
    seeds.add("http_request", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")
    seeds.add("http_request", "GET /a/%2e%2e/b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")


def sigv4_seeds(seeds):
    # AWS's documented GET Object example (Signature Version 4 examples,
    # 2013-05-24), with the secret key and time sigv4_parse_fuzz.cc uses.
    headers = [("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9"),
               ("x-amz-content-sha256", sha256(b"")), ("x-amz-date", "20130524T000000Z")]
    auth = ("AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")

    def request(method, path, query, hdrs, body=None):
        text = f"{method}\n{path}\n{query}\n" + "".join(f"{n}:{v}\n" for n, v in hdrs)
        if body is not None:
            text += "\n" + body
        return text

    seeds.add("sigv4_parse", request("GET", "/test.txt", "", headers + [("Authorization", auth)]))
    seeds.add("sigv4_parse", request(
        "GET", "/test.txt",
        "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2F"
        "us-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&"
        "X-Amz-SignedHeaders=host&X-Amz-Signature="
        "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
        [("Host", "examplebucket.s3.amazonaws.com")]))
    seeds.add("sigv4_parse", request(
        "PUT", "/buckets/b%20c/x", "a=1&b=&c",
        [("Host", "h"), ("Date", "Fri, 24 May 2013 00:00:00 GMT"),
         ("x-amz-security-token", "token"),
         ("Authorization", "AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE/20130524/us-east-1/s3tables/"
          "aws4_request, SignedHeaders=date;host;x-amz-security-token, Signature=" + "ab" * 32)],
        '{"name":"b"}'))
    seeds.add("sigv4_parse", request("GET", "/", "", [("Authorization", "AWS AKID:sig")]))
    seeds.add("sigv4_parse", request(
        "POST", "/", "", [("Authorization", "AWS4-HMAC-SHA256 Credential=A/2/3/4/5, "
                           "Credential=B/2/3/4/5, SignedHeaders=host, Signature=1")]))


def range_seeds(seeds):
    for text in ["bytes=0-9", "bytes=100-", "bytes=-5", "bytes=-0", "bytes=0-0,5-9",
                 "bytes = 1 - 2", "items=0-1", "bytes=9223372036854775807-",
                 "bytes=-9223372036854775808", "Wed, 21 Oct 2015 07:28:00 GMT",
                 "Sun, 06 Nov 1994 08:49:37 GMT", "Thu, 29 Feb 2024 23:59:59 GMT"]:
        seeds.add("s3_range", text)


def chunk_signature(key, prev, data):
    scope = "20130524/us-east-1/s3/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256-PAYLOAD", "20130524T000000Z", scope, prev,
                         sha256(b""), sha256(data)])
    return hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()


def chunked_seeds(seeds):
    key = b"\x5a" * 32
    seed = "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9"
    chunks = [b"a" * 17, b"hello world", b""]
    body, prev = b"", seed
    for c in chunks:
        sig = chunk_signature(key, prev, c)
        body += b"%x;chunk-signature=%s\r\n%s\r\n" % (len(c), sig.encode(), c)
        prev = sig
    seeds.add("aws_chunked", body)
    seeds.add("aws_chunked", b"5\r\nhello\r\n0\r\nx-amz-checksum-crc32:sOO8/Q==\r\n\r\n")
    seeds.add("aws_chunked", b"0\r\n\r\n")
    seeds.add("aws_chunked", b"10;chunk-signature=00\r\n0123456789abcdef\r\n0;chunk-signature=00\r\n\r\n")


def decoding_seeds(seeds):
    records = [
        '{"id": 1, "event_time": "2026-12-01T10:00:00.123456Z", "flag": true, "i": -7, '
        '"f": 1.5, "d": -2e300, "amount": "12.34", "big": 1234567890.0123456789, '
        '"day": "2026-02-28", "at": "23:59:59.999999", "ts": "2026-12-01T10:00:00", '
        '"s": "h\\u00e9llo\\n", "u": "0e6b0f3c-3a4e-4a4d-9f7b-1d2c3e4f5a6b", "fx": "AAECAw==", '
        '"b": "aGVsbG8=", "user": {"name": "ann", "tags": ["a", null, "c"], '
        '"address": {"zip": 12345}}, "attrs": {"k": 1, "j": null}, '
        '"items": [{"sku": "x", "qty": 2, "m": {"p": [1.0, null, 2.5]}}, {"sku": "y"}]}',
        '{"id": 2, "event_time": 1764583200123}',
        '{"id": "3", "event_time": "2026-12-01 10:00:00+02:00", "items": []}',
        '{"event_time": "2026-12-01T10:00:00Z"}',
        '{"id": 9223372036854775807, "event_time": "2026-12-01T10:00:00Z", "i": 2147483648}',
        '[1, 2]',
        '{"id": 1, "event_time": "x", "user": {"name": {"deep": [[[[]]]]}}}',
    ]
    uuid = bytes.fromhex("0e6b0f3c3a4e4a4d9f7b1d2c3e4f5a6b")
    for r in records:
        seeds.add("json_shredder", r)
        seeds.add("gsr_framing", b"\x03\x00" + uuid + r.encode())
        seeds.add("gsr_framing", b"\x03\x05" + uuid + zlib.compress(r.encode()))
    seeds.add("gsr_framing", b"\x02\x00" + uuid)
    seeds.add("gsr_framing", b"\x03\x05" + uuid + zlib.compress(b"{" * 10)[:-3])


def proto_varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def proto_field(n, wire, body):
    tag = proto_varint((n << 3) | wire)
    return tag + (proto_varint(len(body)) + body if wire == 2 else body)


def protobuf_seeds(seeds):
    """Confluent-framed messages of protobuf_shredder_fuzz.cc's schema (f.M is
    index [0], f.N index [1])."""
    head = b"\x00\x00\x00\x00\x01"
    v, f = proto_varint, proto_field
    point = f(1, 0, v(3)) + f(2, 2, b"\x01\x00\x00\x00\x02\x00\x00\x00") + \
        f(3, 2, f(1, 2, b"s") + f(2, 2, v(1) + v(5)))
    full = (f(1, 0, v((1 << 64) - 5)) + f(2, 0, v(4294967295)) + f(3, 0, v(3)) +
            f(4, 1, b"\xff" * 8) + f(5, 5, b"\x01\x00\x00\x80") + f(6, 5, b"\x00\x00\xc0\x7f") +
            f(7, 1, b"\x00" * 7 + b"\xf0") + f(8, 0, v(1)) + f(9, 2, "h\u00e9".encode()) +
            f(10, 2, b"\x00\xff") + f(11, 0, v(7)) + f(12, 2, point) + f(12, 2, f(1, 0, v(9))) +
            f(13, 2, v(1) + v(300)) + f(13, 0, v(2)) + f(14, 2, point) + f(14, 2, b"") +
            f(15, 2, f(1, 2, b"k") + f(2, 2, point)) + f(15, 2, f(1, 2, b"k")) +
            f(16, 2, f(1, 0, v(7)) + f(2, 1, b"\x00" * 8)) + f(18, 2, point) +
            f(19, 2, f(1, 0, v(1700000000)) + f(2, 0, v(5))) + f(20, 2, f(1, 2, b"w")) +
            f(21, 2, b"") + f(22, 5, b"\x00\x00\x80\x3f") + f(23, 2, b"x") +
            f(99, 0, v(1)) + f(98, 3, f(1, 0, v(1))) + proto_varint((98 << 3) | 4))
    seeds.add("protobuf_shredder", head + b"\x00" + full)
    seeds.add("protobuf_shredder", head + b"\x02\x00" + full[:40])
    seeds.add("protobuf_shredder", head + b"\x00")
    seeds.add("protobuf_shredder", head + b"\x02\x02" + f(1, 2, b"\x00\x01"))
    seeds.add("protobuf_shredder", head + b"\x00" + proto_varint((50 << 3) | 3) * 80)
    seeds.add("protobuf_shredder", head + b"\x00" + f(1, 2, b"x") + f(9, 2, b"\xc3\x28"))


def avro_seeds(seeds):
    """Avro values and keys of avro_shredder_fuzz.cc's schemas (fastavro, from
    the venv): the first byte picks the schema (0 value, 1 narrower value,
    2 key), as the target reads it."""
    import io

    import fastavro

    source = (REPO / "tests" / "fuzz" / "avro_shredder_fuzz.cc").read_text()
    schemas = [json.loads(m) for m in re.findall(r'R"\((\{"type":"record".*?)\)"', source, re.S)]
    writer, narrow, key = (fastavro.parse_schema(s) for s in schemas)

    def encode(mode, schema, record):
        out = io.BytesIO()
        fastavro.schemaless_writer(out, schema, record)
        return bytes([mode]) + out.getvalue()

    point = {"a": -(1 << 40), "tags": ["x", "", "h\u00e9"]}
    full = {"i": -(1 << 31), "l": (1 << 63) - 1, "f": 1.5, "d": -2e300, "b": True,
            "s": "h\u00e9llo", "y": b"\x00\xff", "x": b"abcd", "e": "C",
            "dec": __import__("decimal").Decimal("-12345.678"),
            "decf": __import__("decimal").Decimal("99.99"),
            "u": "0e6b0f3c-3a4e-4a4d-9f7b-1d2c3e4f5a6b", "day": 20000, "tm": 86399999,
            "tsm": 1740832496789, "tsu": 1740832496789123, "opt": None, "multi": point,
            "nested": {"p": point, "m": {"k": point, "n": None}},
            "arr": [[1.0, None], [], [2.5]]}
    seeds.add("avro_shredder", encode(0, writer, full))
    seeds.add("avro_shredder", encode(0, writer, {**full, "opt": "o", "multi": 7,
                                                   "nested": {"p": None, "m": {}}, "arr": []}))
    seeds.add("avro_shredder", encode(0, writer, {**full, "multi": "s"})[:60])
    seeds.add("avro_shredder", encode(1, narrow, {
        "l": 5, "d": 0.5, "s": "t", "extra": {"a": [b"1", b""]}, "i": 1, "f": 2.0, "b": False,
        "y": "str", "x": b"wxyz", "e": "A", "dec": full["dec"], "decf": full["decf"],
        "u": full["u"], "day": 1, "tm": 0, "tsm": -1, "tsu": 0,
        "nested": {"m": {"z": {"tags": [b"t"], "a": 3}, "q": None}}, "arr": [[None, 1.25]]}))
    seeds.add("avro_shredder", encode(2, key, {"customer": -5, "region": "eu",
                                               "parts": [1, 2, 3]}))
    seeds.add("avro_shredder", encode(2, key, {"customer": 0, "region": None, "parts": []}))


def tool_seeds(seeds, build):
    build = pathlib.Path(build)
    golden = build / "tests/unit/avro/avro_golden_writer"
    scenario = build / "tests/unit/iceberg/st_manifest_scenario_tool"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        files = []
        if golden.exists():
            subprocess.run([golden, tmp / "avro"], check=True, stdout=subprocess.DEVNULL)
            files += (tmp / "avro").glob("*.avro")
        else:
            print(f"make_seeds: {golden} not built; no golden Avro seeds")
        if scenario.exists():
            subprocess.run([scenario, tmp / "wh"], check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            files += (tmp / "wh").rglob("*.avro")
            for meta in (tmp / "wh").rglob("*.metadata.json"):
                seeds.add("iceberg_metadata", meta.read_bytes())
        else:
            print(f"make_seeds: {scenario} not built; no manifest seeds")
        for f in files:
            data = f.read_bytes()
            seeds.add("avro_container", data)
            schema = avro_header_schema(data)
            if schema:
                seeds.add("avro_schema", schema)
                for key in (b"schema", b"partition-spec"):
                    value = avro_header_value(data, key)
                    if value and key == b"schema":
                        seeds.add("iceberg_schema", value)


def read_long(data, pos):
    shift = result = 0
    while True:
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return (result >> 1) ^ -(result & 1), pos


def avro_header(data):
    if data[:4] != b"Obj\x01":
        return {}
    pos, out = 4, {}
    while True:
        count, pos = read_long(data, pos)
        if count == 0:
            return out
        if count < 0:
            _, pos = read_long(data, pos)
            count = -count
        for _ in range(count):
            n, pos = read_long(data, pos)
            k = data[pos:pos + n]
            pos += n
            n, pos = read_long(data, pos)
            out[k] = data[pos:pos + n]
            pos += n


def avro_header_value(data, key):
    return avro_header(data).get(key)


def avro_header_schema(data):
    return avro_header_value(data, b"avro.schema")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--build", default=str(REPO / "build"),
                        help="a gcc build with the unit-test tools (default: <repo>/build)")
    args = parser.parse_args()
    seeds = Seeds(args.dir)
    for target, files in LITERAL_SOURCES.items():
        for f in files:
            for literal in json_literals(f):
                seeds.add(target, literal)
    cases = json.loads((UNIT / "auth/policy_cases.json").read_text())
    for policy in cases.get("policies", {}).values():
        seeds.add("policy", json.dumps(policy))
    golden_metadata = (UNIT / "iceberg/golden/pyiceberg_v2.metadata.json").read_bytes()
    seeds.add("iceberg_metadata", golden_metadata)
    meta = json.loads(golden_metadata)
    for schema in meta.get("schemas", []):
        seeds.add("iceberg_schema", json.dumps(schema))
        seeds.add("iceberg_schema", json.dumps(
            {"name": "t", "schema": schema, "partition-spec": meta["partition-specs"][0],
             "write-order": meta["sort-orders"][0]}))
    seeds.add("iceberg_table_update", json.dumps({
        "requirements": [{"type": "assert-table-uuid", "uuid": meta["table-uuid"]},
                         {"type": "assert-current-schema-id",
                          "current-schema-id": meta["current-schema-id"]}],
        "updates": [{"action": "set-properties", "updates": {"a": "b"}},
                    {"action": "add-schema", "schema": meta["schemas"][0]},
                    {"action": "set-current-schema", "schema-id": -1}]}))
    http_seeds(seeds)
    sigv4_seeds(seeds)
    range_seeds(seeds)
    chunked_seeds(seeds)
    decoding_seeds(seeds)
    protobuf_seeds(seeds)
    avro_seeds(seeds)
    tool_seeds(seeds, args.build)
    for target, n in sorted(seeds.count.items()):
        print(f"make_seeds: {target}: {n} seeds")


if __name__ == "__main__":
    main()
