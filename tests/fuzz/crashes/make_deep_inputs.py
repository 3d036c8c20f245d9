#!/usr/bin/env python3
"""Writes the deep-nesting inputs that overflow the stack of the recursive
parsers (issue 9 item 2; their depth limits are being added on another
branch). Until then run.sh caps those targets' -max_len below the depth
that overflows. Check a target against its input with

    tests/fuzz/crashes/make_deep_inputs.py /tmp/deep
    build-fuzz/tests/fuzz/iceberg_schema_fuzz /tmp/deep/iceberg_schema.json

which on today's code ends in "AddressSanitizer: stack-overflow".
"""

import json
import pathlib
import sys

DEPTH = 8000


def iceberg_struct(depth):
    # {"type":"struct","fields":[{"id":n,"name":"f","required":false,"type":<next>}]}
    head = '{"type":"struct","fields":[{"id":%d,"name":"f","required":false,"type":'
    text = "".join(head % (i + 1) for i in range(depth)) + '"int"' + "}]}" * depth
    return text


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "deep")
    out.mkdir(parents=True, exist_ok=True)
    struct = iceberg_struct(DEPTH)
    schema = '{"type":"struct","schema-id":0,"fields":[{"id":%d,"name":"top","required":false,"type":%s}]}' % (
        DEPTH + 1, struct)
    (out / "iceberg_schema.json").write_text(schema)
    (out / "iceberg_table_update.json").write_text(
        '{"updates":[{"action":"add-schema","schema":%s}]}' % schema)
    avro = '{"type":"array","items":' * DEPTH + '"int"' + "}" * DEPTH
    (out / "avro_schema.json").write_text(avro)
    js = '{"type":"object","properties":{"a":' * DEPTH + '{"type":"string"}' + "}}" * DEPTH
    (out / "json_schema_mapping.json").write_text(js)
    policy = ('{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*",'
              '"Resource":"*","Condition":{"StringEquals":{"k":' + "[" * DEPTH + '"v"' +
              "]" * DEPTH + "}}}]}")
    (out / "policy.json").write_text(policy)
    metadata = json.load(open(pathlib.Path(__file__).resolve().parents[3] /
                              "tests/unit/iceberg/golden/pyiceberg_v2.metadata.json"))
    text = json.dumps(metadata)
    first_schema = json.dumps(metadata["schemas"][0])
    deep = schema.replace('"schema-id":0', '"schema-id":%d' % metadata["schemas"][0]["schema-id"], 1)
    (out / "iceberg_metadata.json").write_text(text.replace(first_schema, deep, 1))
    for f in sorted(out.iterdir()):
        print(f"{f}: {f.stat().st_size} bytes")


if __name__ == "__main__":
    main()
