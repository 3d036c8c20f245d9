"""Foreign-reader checks for the Iceberg file side (src/iceberg manifests,
manifest lists, snapshot operations, metadata versions).

st_manifest_scenario_tool builds a small table through appends (with a
manifest merge), a replace, a delete and an expire, and prints what it meant
to write. fastavro reads every manifest list and manifest and we compare field
by field; PyIceberg loads the final metadata and its inspect tables must agree.

Needs: ninja -C $ST_BUILD_DIR st_manifest_scenario_tool (ST_BUILD_DIR
defaults to /work/main/build).
"""

import datetime
import json
import os
import struct
import subprocess
from pathlib import Path

import fastavro
import pytest

BUILD_DIR = Path(os.environ.get("ST_BUILD_DIR", "/work/main/build"))
TOOL = BUILD_DIR / "tests" / "unit" / "iceberg" / "st_manifest_scenario_tool"
EPOCH_DATE = datetime.date(1970, 1, 1)

MANIFEST_FILE_IDS = {
    "manifest_path": 500, "manifest_length": 501, "partition_spec_id": 502, "content": 517,
    "sequence_number": 515, "min_sequence_number": 516, "added_snapshot_id": 503,
    "added_files_count": 504, "existing_files_count": 505, "deleted_files_count": 506,
    "added_rows_count": 512, "existing_rows_count": 513, "deleted_rows_count": 514,
    "partitions": 507, "key_metadata": 519,
}
REQUIRED_LIST_FIELDS = set(MANIFEST_FILE_IDS) - {"partitions", "key_metadata"}
ENTRY_IDS = {"status": 0, "snapshot_id": 1, "sequence_number": 3, "file_sequence_number": 4,
             "data_file": 2}
DATA_FILE_IDS = {
    "content": 134, "file_path": 100, "file_format": 101, "partition": 102, "record_count": 103,
    "file_size_in_bytes": 104, "column_sizes": 108, "value_counts": 109,
    "null_value_counts": 110, "nan_value_counts": 137, "lower_bounds": 125,
    "upper_bounds": 128, "key_metadata": 131, "split_offsets": 132, "equality_ids": 135,
    "sort_order_id": 140, "referenced_data_file": 143,
}
MAP_RECORDS = {"column_sizes": "k117_v118", "value_counts": "k119_v120",
               "null_value_counts": "k121_v122", "nan_value_counts": "k138_v139",
               "lower_bounds": "k126_v127", "upper_bounds": "k129_v130"}


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    if not TOOL.exists():
        pytest.fail(f"{TOOL} is missing; build it with: ninja -C {BUILD_DIR} "
                    "st_manifest_scenario_tool")
    warehouse = tmp_path_factory.mktemp("wh")
    out = subprocess.run([str(TOOL), str(warehouse)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def read_avro(path):
    with open(path, "rb") as f:
        reader = fastavro.reader(f)
        # fastavro returns the parsed schema; the header keeps the raw JSON.
        meta = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in reader.metadata.items()}
        return meta, list(reader)


def raw_schema(meta):
    return json.loads(meta["avro.schema"])


def fields_by_name(record_schema):
    return {f["name"]: f for f in record_schema["fields"]}


def non_null(avro_type):
    if isinstance(avro_type, list):
        rest = [t for t in avro_type if t != "null"]
        assert len(rest) == 1
        return rest[0]
    return avro_type


def le_int(v):
    return struct.pack("<i", v)


def test_operations_ran(scenario):
    assert scenario["operations"] == ["append", "append", "append", "append", "replace",
                                      "delete"]
    assert len(scenario["expired"]["snapshot_ids"]) == 4
    assert [s["operation"] for s in scenario["snapshots"]] == ["replace", "delete"]
    for path in (scenario["expired"]["manifest_lists"] + scenario["expired"]["manifests"]
                 + scenario["expired"]["data_files"]):
        assert not os.path.exists(path), f"{path} should have been deleted after expiry"


def test_manifest_lists(scenario):
    by_id = {s["snapshot_id"]: s for s in scenario["snapshots"]}
    for snap in scenario["snapshots"]:
        path = snap["manifest_list"]
        assert Path(path).name.startswith(f"snap-{snap['snapshot_id']}-1-")
        meta, records = read_avro(path)
        assert meta["avro.codec"] == "deflate"
        assert meta["snapshot-id"] == str(snap["snapshot_id"])
        parent = snap["parent_snapshot_id"]
        assert meta["parent-snapshot-id"] == ("null" if parent is None else str(parent))
        assert meta["sequence-number"] == str(snap["sequence_number"])
        assert meta["format-version"] == "2"

        schema = raw_schema(meta)
        assert schema["name"] == "manifest_file"
        fields = fields_by_name(schema)
        assert {n: f["field-id"] for n, f in fields.items()} == MANIFEST_FILE_IDS
        for name in REQUIRED_LIST_FIELDS:
            assert not isinstance(fields[name]["type"], list), name
        partitions = non_null(fields["partitions"]["type"])
        assert partitions["element-id"] == 508
        assert partitions["items"]["name"] == "r508"
        assert {f["name"]: f["field-id"] for f in partitions["items"]["fields"]} == {
            "contains_null": 509, "contains_nan": 518, "lower_bound": 510, "upper_bound": 511}

        assert len(records) == len(snap["manifests"])
        for got, want in zip(records, snap["manifests"]):
            for key, value in want.items():
                if key == "partitions":
                    continue
                assert got[key] == value, (path, key)
            assert got["key_metadata"] is None
            assert len(got["partitions"]) == 3
            for gp, wp in zip(got["partitions"], want["partitions"]):
                assert gp["contains_null"] == wp["contains_null"]
                assert gp["contains_nan"] == wp["contains_nan"]
                for b in ("lower_bound", "upper_bound"):
                    assert (gp[b].hex() if gp[b] is not None else None) == wp[b]
            assert got["sequence_number"] <= snap["sequence_number"]
            assert got["added_snapshot_id"] in by_id or got["added_snapshot_id"] in \
                scenario["expired"]["snapshot_ids"]


def check_manifest_schema(meta):
    assert meta["avro.codec"] == "deflate"
    for key in ("schema", "partition-spec", "partition-spec-id", "format-version", "content"):
        assert key in meta, key
    assert meta["format-version"] == "2"
    assert meta["content"] == "data"
    assert meta["partition-spec-id"] == "0"
    assert json.loads(meta["partition-spec"]) == [
        {"name": "ts_day", "transform": "day", "source-id": 2, "field-id": 1000},
        {"name": "category", "transform": "identity", "source-id": 3, "field-id": 1001},
        {"name": "id_bucket", "transform": "bucket[4]", "source-id": 1, "field-id": 1002},
    ]
    table_schema = json.loads(meta["schema"])
    assert table_schema["type"] == "struct"
    assert [f["name"] for f in table_schema["fields"]] == ["id", "ts", "category", "amount"]

    schema = raw_schema(meta)
    assert schema["name"] == "manifest_entry"
    entry = fields_by_name(schema)
    assert {n: f["field-id"] for n, f in entry.items()} == ENTRY_IDS
    data_file = entry["data_file"]["type"]
    assert data_file["name"] == "r2"
    df = fields_by_name(data_file)
    assert {n: f["field-id"] for n, f in df.items()} == DATA_FILE_IDS
    for name, record in MAP_RECORDS.items():
        array = non_null(df[name]["type"])
        assert array["type"] == "array" and array["logicalType"] == "map"
        assert array["items"]["name"] == record
        key_id, value_id = (int(x[1:]) for x in record.split("_"))
        assert [f["field-id"] for f in array["items"]["fields"]] == [key_id, value_id]
    assert non_null(df["split_offsets"]["type"])["element-id"] == 133
    partition = df["partition"]["type"]
    assert partition["name"] == "r102"
    pf = fields_by_name(partition)
    assert {n: f["field-id"] for n, f in pf.items()} == {"ts_day": 1000, "category": 1001,
                                                         "id_bucket": 1002}
    assert pf["ts_day"]["type"] == ["null", {"type": "int", "logicalType": "date"}]
    assert pf["category"]["type"] == ["null", "string"]
    assert pf["id_bucket"]["type"] == ["null", "int"]
    for f in pf.values():
        assert "default" in f and f["default"] is None


def expected_partition(files_json, path):
    p = files_json[path]["partition"]
    return {"ts_day": EPOCH_DATE + datetime.timedelta(days=p["ts_day"]),
            "category": p["category"], "id_bucket": p["id_bucket"]}


def as_map(pairs):
    return {str(kv["key"]): kv["value"] for kv in pairs} if pairs is not None else {}


def test_manifests(scenario):
    files = scenario["files"]
    seen = 0
    for snap in scenario["snapshots"]:
        for mf in snap["manifests"]:
            meta, entries = read_avro(mf["manifest_path"])
            check_manifest_schema(meta)
            assert os.path.getsize(mf["manifest_path"]) == mf["manifest_length"]
            counts = {0: [0, 0], 1: [0, 0], 2: [0, 0]}
            live_seqs = []
            for e in entries:
                seen += 1
                status = e["status"]
                counts[status][0] += 1
                counts[status][1] += e["data_file"]["record_count"]
                if status == 1:  # ADDED: sequence numbers inherit from the manifest.
                    assert e["sequence_number"] is None and e["file_sequence_number"] is None
                    assert e["snapshot_id"] == mf["added_snapshot_id"]
                    live_seqs.append(mf["sequence_number"])
                else:  # EXISTING / DELETED carry explicit numbers.
                    assert e["sequence_number"] is not None
                    assert e["file_sequence_number"] is not None
                    assert e["snapshot_id"] is not None
                    if status == 2:
                        assert e["snapshot_id"] == mf["added_snapshot_id"]
                    else:
                        live_seqs.append(e["sequence_number"])
                d = e["data_file"]
                want = files[d["file_path"]]
                for key in ("content", "file_format", "record_count", "file_size_in_bytes",
                            "split_offsets", "sort_order_id"):
                    assert d[key] == want[key], (d["file_path"], key)
                for key in ("column_sizes", "value_counts", "null_value_counts",
                            "nan_value_counts"):
                    assert as_map(d[key]) == want[key], (d["file_path"], key)
                for key in ("lower_bounds", "upper_bounds"):
                    assert {k: v.hex() for k, v in as_map(d[key]).items()} == want[key]
                assert d["partition"] == expected_partition(files, d["file_path"])
                assert d["key_metadata"] is None and d["equality_ids"] is None
            assert [counts[1][0], counts[0][0], counts[2][0]] == [
                mf["added_files_count"], mf["existing_files_count"], mf["deleted_files_count"]]
            assert [counts[1][1], counts[0][1], counts[2][1]] == [
                mf["added_rows_count"], mf["existing_rows_count"], mf["deleted_rows_count"]]
            if live_seqs:
                assert mf["min_sequence_number"] == min(live_seqs)
            check_partition_summaries(mf, entries)
    assert seen > 0


def check_partition_summaries(mf, entries):
    parts = [e["data_file"]["partition"] for e in entries]
    names = ["ts_day", "category", "id_bucket"]
    encode = {
        "ts_day": lambda d: le_int((d - EPOCH_DATE).days),
        "category": lambda s: s.encode(),
        "id_bucket": le_int,
    }
    for name, summary in zip(names, mf["partitions"]):
        values = [p[name] for p in parts]
        non_null_values = [v for v in values if v is not None]
        assert summary["contains_null"] == (None in values), name
        assert summary["contains_nan"] is False
        if non_null_values:
            assert summary["lower_bound"] == encode[name](min(non_null_values)).hex(), name
            assert summary["upper_bound"] == encode[name](max(non_null_values)).hex(), name
        else:
            assert summary["lower_bound"] is None


def test_merge_happened(scenario):
    # The replace rewrote the merged manifest (appends 1-3): its entries from
    # the first snapshots are EXISTING/DELETED with explicit sequence numbers 1..3.
    replace = scenario["snapshots"][0]
    seqs = set()
    for mf in replace["manifests"]:
        _, entries = read_avro(mf["manifest_path"])
        seqs.update(e["sequence_number"] for e in entries if e["status"] != 1)
    assert {1, 2, 3} <= seqs


def test_pyiceberg_agrees(scenario):
    from pyiceberg.table import StaticTable

    table = StaticTable.from_metadata(scenario["metadata_location"])
    meta = table.metadata
    assert meta.format_version == 2
    assert meta.current_snapshot_id == scenario["current_snapshot_id"]
    assert [s.snapshot_id for s in meta.snapshots] == [s["snapshot_id"] for s in
                                                       scenario["snapshots"]]
    for got, want in zip(meta.snapshots, scenario["snapshots"]):
        assert got.sequence_number == want["sequence_number"]
        assert got.parent_snapshot_id == want["parent_snapshot_id"]
        assert got.summary.operation.value == want["operation"]
        assert got.summary["total-data-files"] == want["summary"]["total-data-files"]
        assert got.manifest_list == want["manifest_list"]

    current = scenario["snapshots"][-1]
    manifests = table.inspect.manifests().to_pylist()
    assert sorted(m["path"] for m in manifests) == sorted(
        m["manifest_path"] for m in current["manifests"])
    by_path = {m["manifest_path"]: m for m in current["manifests"]}
    for m in manifests:
        want = by_path[m["path"]]
        assert m["length"] == want["manifest_length"]
        assert m["added_snapshot_id"] == want["added_snapshot_id"]
        assert m["added_data_files_count"] == want["added_files_count"]
        assert m["existing_data_files_count"] == want["existing_files_count"]
        assert m["deleted_data_files_count"] == want["deleted_files_count"]

    live = table.inspect.files().to_pylist()
    live_paths = sorted(f["file_path"] for f in live)
    summary = current["summary"]
    assert len(live_paths) == int(summary["total-data-files"])
    assert sum(f["record_count"] for f in live) == int(summary["total-records"])
    assert sum(f["file_size_in_bytes"] for f in live) == int(summary["total-files-size"])
    loc = scenario["location"]
    assert live_paths == [f"{loc}/data/{n}.parquet" for n in ("ac", "d", "e")]
    for f in live:
        want = scenario["files"][f["file_path"]]
        assert f["record_count"] == want["record_count"]
        assert f["spec_id"] == 0
        for key in ("column_sizes", "value_counts", "null_value_counts", "nan_value_counts"):
            assert {str(k): v for k, v in f[key]} == want[key], key
        for key in ("lower_bounds", "upper_bounds"):
            assert {str(k): v.hex() for k, v in f[key]} == want[key], key
        assert f["split_offsets"] == want["split_offsets"]
        assert f["partition"] == expected_partition(scenario["files"], f["file_path"])
        # PyIceberg decodes our single-value bounds with the schema types.
        metrics = f["readable_metrics"]
        assert metrics["id"]["lower_bound"] == int.from_bytes(
            bytes.fromhex(want["lower_bounds"]["1"]), "little", signed=True)
        assert metrics["ts"]["lower_bound"].date() == expected_partition(
            scenario["files"], f["file_path"])["ts_day"]

    entries = table.inspect.entries().to_pylist()
    assert sorted(e["data_file"]["file_path"] for e in entries if e["status"] != 2) == live_paths
    for e in entries:
        assert e["sequence_number"] is not None  # PyIceberg resolved inheritance.
