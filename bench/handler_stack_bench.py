#!/usr/bin/env python3
"""How much of its stack an I/O thread uses for the deepest requests the
input limits admit (issue 9, item 2; src/http/server.h thread_stack_bytes).

Starts `streamtables server` (build it with -DST_SANITIZE=ON: ASan frames are
the largest) with RLIMIT_STACK lowered to 4 MiB, so every other thread of the
process gets a 4 MiB stack and the I/O threads' explicit 8 MiB stacks are the
only 8 MiB mappings in /proc/<pid>/smaps. A stack's resident size is its
high-water mark (pages, once touched, stay). Reads it after warm-up requests,
then sends each at-the-limit request many times over fresh connections (so
every I/O thread serves each) and reads it again:

  - Iceberg REST createTable + loadTable + add-schema commit with a schema
    nesting 100 structs (iceberg/types.h kMaxTypeNesting);
  - S3 Tables CreateTable with that schema as schemaV2;
  - Glue CreateSchema, JSON and AVRO, with a definition nesting 512 arrays
    (common/json_nesting.h kMaxJsonNesting), and an Avro schema nesting 128
    levels (avro kMaxSchemaDepth) through the registry;
  - a channel-create and an admin body nesting 512 levels.

  .venv/bin/python bench/handler_stack_bench.py --build-dir build-asan
"""

import argparse
import json
import pathlib
import re
import resource
import sys
import tempfile
import uuid
from urllib.parse import quote

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "integration"))
from harness.server import StreamtablesServer  # noqa: E402

IO_STACK_KB = 8 * 1024


def nested_struct_schema(levels):
    head = "".join('{"id":%d,"name":"s","required":false,"type":{"type":"struct","fields":['
                   % (i + 1) for i in range(levels))
    leaf = '{"id":%d,"name":"leaf","required":false,"type":"int"}' % (levels + 1)
    return '{"type":"struct","schema-id":0,"fields":[' + head + leaf + "]}}" * levels + "]}"


def nested_avro(levels):
    return '{"type":"array","items":' * levels + '"int"' + "}" * levels


def io_stacks_kb(pid):
    """Resident kB of every 8 MiB anonymous rw mapping (the I/O thread stacks)."""
    text = pathlib.Path(f"/proc/{pid}/smaps").read_text()
    out = []
    for block in re.split(r"\n(?=[0-9a-f]+-[0-9a-f]+ )", text):
        head = block.split("\n", 1)[0].split()
        if len(head) < 5 or head[1] != "rw-p" or len(head) > 5:
            continue
        size = int(re.search(r"^Size:\s+(\d+) kB", block, re.M).group(1))
        if IO_STACK_KB - 8 <= size <= IO_STACK_KB + 8:
            out.append(int(re.search(r"^Rss:\s+(\d+) kB", block, re.M).group(1)))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", default="build-asan")
    parser.add_argument("--repeat", type=int, default=16)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    resource.setrlimit(resource.RLIMIT_STACK, (4 * 1024 * 1024, hard))
    with tempfile.TemporaryDirectory() as work:
        server = StreamtablesServer(pathlib.Path(work), pathlib.Path(args.build_dir)).start(
            timeout_s=120)
        resource.setrlimit(resource.RLIMIT_STACK, (soft, hard))
        try:
            pid = server.proc.pid
            s3t = server.boto3_client("s3tables")
            for _ in range(args.repeat):
                s3t.list_table_buckets()
            stacks = io_stacks_kb(pid)
            assert len(stacks) == 8, f"expected 8 I/O thread stacks of 8 MiB, found {stacks}"
            before = max(stacks)

            bucket = s3t.create_table_bucket(name="stack")["arn"]
            s3t.create_namespace(tableBucketARN=bucket, namespace=["ns"])
            prefix = f"{server.iceberg_url}/v1/{quote(bucket, safe='')}"
            json_headers = {"Content-Type": "application/json"}

            def ok(response, what):
                assert response.status_code in (200, 204), (what, response.status_code,
                                                            response.text[:300])

            ok(server.signed_request("POST", prefix + "/namespaces", body='{"namespace":["rest"]}',
                                     headers=json_headers), "namespace")
            schema = nested_struct_schema(100)
            glue_headers = {"Content-Type": "application/x-amz-json-1.1"}

            def glue(target, body):
                return server.signed_request(
                    "POST", server.api_url + "/glue/", service="glue", body=json.dumps(body),
                    headers={**glue_headers, "X-Amz-Target": "AWSGlue." + target})

            ok(glue("CreateRegistry", {"RegistryName": "reg"}), "registry")
            for i in range(args.repeat):
                name = f"t{i}"
                ok(server.signed_request("POST", prefix + "/namespaces/rest/tables",
                                         body='{"name":"%s","schema":%s}' % (name, schema),
                                         headers=json_headers), "createTable")
                ok(server.signed_request("GET", prefix + f"/namespaces/rest/tables/{name}"),
                   "loadTable")
                commit = ('{"requirements":[],"updates":[{"action":"add-schema","schema":%s}]}'
                          % schema.replace('"schema-id":0', '"schema-id":1'))
                ok(server.signed_request("POST", prefix + f"/namespaces/rest/tables/{name}",
                                         body=commit, headers=json_headers), "commit")
                ok(server.signed_request(
                    "PUT", f"{server.api_url}/tables/{quote(bucket, safe='')}/ns",
                    body='{"name":"s%d","format":"ICEBERG","metadata":{"iceberg":{"schemaV2":%s}}}'
                         % (i, schema), headers=json_headers), "s3tables CreateTable")
                for data_format, definition in [("JSON", "[" * 512 + "]" * 512),
                                                ("AVRO", "[" * 512 + "]" * 512),
                                                ("AVRO", nested_avro(128))]:
                    ok(glue("CreateSchema", {
                        "RegistryId": {"RegistryName": "reg"}, "SchemaName": uuid.uuid4().hex,
                        "DataFormat": data_format, "Compatibility": "NONE",
                        "SchemaDefinition": definition}), "glue " + data_format)
                deep = "[" * 510 + "]" * 510
                server.signed_request("POST", server.api_url + "/admin/kafka-clusters",
                                      body='{"name":"d","bootstrapServers":"h:1",'
                                           '"clientProperties":%s}' % deep, headers=json_headers)
            after = io_stacks_kb(pid)
            print(json.dumps({"build_dir": args.build_dir, "io_threads": len(after),
                              "stack_kb": IO_STACK_KB, "resident_kb_before": before,
                              "resident_kb_after_each": after,
                              "resident_kb_after_max": max(after)}, indent=2))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
