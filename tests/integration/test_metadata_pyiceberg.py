"""Our table metadata JSON and commit engine agree with PyIceberg's.

Drives the test-only tool iceberg_metadata_tool (tests/unit/iceberg):
- metadata PyIceberg wrote survives our parse + v2 serialization, and
  PyIceberg parses our output back to the same model;
- the same REST updates (serialized by PyIceberg's own update models) applied
  by PyIceberg's update_table_metadata and by our ApplyUpdates give the same
  schemas, specs, sort orders, snapshots, refs and id counters;
- a staged create (assert-create + the create updates) builds the table
  PyIceberg's new_table_metadata builds.
"""

import json
import uuid

from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.table.metadata import TableMetadataUtil, new_table_metadata
from pyiceberg.table.refs import SnapshotRefType
from pyiceberg.table.snapshots import Operation, Snapshot, Summary
from pyiceberg.table.sorting import NullOrder, SortDirection, SortField, SortOrder, UNSORTED_SORT_ORDER
from pyiceberg.table.update import (
    AddPartitionSpecUpdate,
    AddSchemaUpdate,
    AddSnapshotUpdate,
    AddSortOrderUpdate,
    AssertCreate,
    AssertRefSnapshotId,
    AssertTableUUID,
    AssignUUIDUpdate,
    RemovePropertiesUpdate,
    RemoveSnapshotRefUpdate,
    RemoveSnapshotsUpdate,
    SetCurrentSchemaUpdate,
    SetDefaultSortOrderUpdate,
    SetDefaultSpecUpdate,
    SetLocationUpdate,
    SetPropertiesUpdate,
    SetSnapshotRefUpdate,
    UpgradeFormatVersionUpdate,
    update_table_metadata,
)
from pyiceberg.transforms import BucketTransform, DayTransform, IdentityTransform, TruncateTransform
from pyiceberg.types import LongType, NestedField, StringType, StructType, TimestamptzType

TABLE_UUID = uuid.UUID("9c12d441-03fe-4693-9a96-a0705ddf69c1")

SCHEMA = Schema(
    NestedField(1, "id", LongType(), required=True),
    NestedField(2, "ts", TimestamptzType(), required=False),
    NestedField(3, "payload", StringType(), required=False),
    NestedField(4, "meta", StructType(NestedField(5, "src", StringType(), required=False)), required=False),
    identifier_field_ids=[1],
)
SPEC = PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=DayTransform(), name="ts_day"))


def base_metadata():
    return new_table_metadata(SCHEMA, SPEC, UNSORTED_SORT_ORDER, "s3://wh/db/t", {"owner": "st"}, table_uuid=TABLE_UUID)


def snapshot(snapshot_id, seq, parent=None):
    return Snapshot(
        snapshot_id=snapshot_id,
        parent_snapshot_id=parent,
        sequence_number=seq,
        timestamp_ms=1735689600000 + seq,
        manifest_list=f"s3://wh/db/t/metadata/snap-{snapshot_id}.avro",
        summary=Summary(Operation.APPEND, **{"added-records": str(seq)}),
        schema_id=0,
    )


def wire(models):
    return [json.loads(m.model_dump_json()) for m in models]


def comparable(metadata):
    """The parts both engines must agree on (timestamps and logs of time excluded)."""
    d = json.loads(metadata.model_dump_json())
    keep = ["format-version", "table-uuid", "location", "last-sequence-number", "last-column-id", "schemas",
            "current-schema-id", "partition-specs", "default-spec-id", "last-partition-id", "sort-orders",
            "default-sort-order-id", "properties", "current-snapshot-id", "snapshots", "refs"]
    out = {k: d.get(k) for k in keep}
    out["snapshot-log-ids"] = [e["snapshot-id"] for e in d.get("snapshot-log", [])]
    # After remove-snapshots PyIceberg clears parent ids that point at removed
    # snapshots; we keep them as Java does. Both are valid lineage.
    live = {s["snapshot-id"] for s in out["snapshots"] or []}
    for snap in out["snapshots"] or []:
        if snap.get("parent-snapshot-id") not in live:
            snap.pop("parent-snapshot-id", None)
    return out


def ours_apply(st_bin, base, requirements, updates):
    request = {"base": json.loads(base.model_dump_json()) if base is not None else None,
               "requirements": wire(requirements), "updates": wire(updates)}
    out = st_bin.run("iceberg_metadata_tool", "apply", "1735690000000", input=json.dumps(request)).stdout
    return TableMetadataUtil.parse_raw(out)


def test_roundtrip_of_pyiceberg_metadata(st_bin):
    metadata = update_table_metadata(
        base_metadata(),
        (AddSnapshotUpdate(snapshot=snapshot(101, 1)),
         SetSnapshotRefUpdate(ref_name="main", type=SnapshotRefType.BRANCH, snapshot_id=101)))
    out = st_bin.run("iceberg_metadata_tool", "roundtrip", input=metadata.model_dump_json()).stdout
    doc = json.loads(out)
    assert doc["format-version"] == 2 and "schema" not in doc and "partition-spec" not in doc
    assert doc["refs"]["main"]["snapshot-id"] == doc["current-snapshot-id"] == 101
    assert all(isinstance(v, str) for v in doc["snapshots"][0]["summary"].values())
    back = TableMetadataUtil.parse_raw(out)
    assert comparable(back) == comparable(metadata)
    assert back.last_updated_ms == metadata.last_updated_ms

    # No snapshot: current-snapshot-id -1 reads as None in PyIceberg.
    empty = st_bin.run("iceberg_metadata_tool", "roundtrip", input=base_metadata().model_dump_json()).stdout
    assert json.loads(empty)["current-snapshot-id"] == -1
    assert TableMetadataUtil.parse_raw(empty).current_snapshot_id is None


def test_updates_agree_with_pyiceberg(st_bin):
    base = base_metadata()
    # Clients assign the next schema id themselves (PyIceberg trusts it, Java reassigns max+1).
    wider = Schema(*SCHEMA.fields, NestedField(6, "cat", StringType(), required=False),
                   identifier_field_ids=[1], schema_id=1)
    commits = [
        ([AssertTableUUID(uuid=TABLE_UUID), AssertRefSnapshotId(ref="main", snapshot_id=None)],
         [AddSnapshotUpdate(snapshot=snapshot(101, 1)),
          SetSnapshotRefUpdate(ref_name="main", type=SnapshotRefType.BRANCH, snapshot_id=101)]),
        ([AssertRefSnapshotId(ref="main", snapshot_id=101)],
         [AddSnapshotUpdate(snapshot=snapshot(102, 2, 101)),
          SetSnapshotRefUpdate(ref_name="main", type=SnapshotRefType.BRANCH, snapshot_id=102),
          SetSnapshotRefUpdate(ref_name="v1", type=SnapshotRefType.TAG, snapshot_id=101, max_ref_age_ms=86400000)]),
        ([], [AddSchemaUpdate(schema_=wider), SetCurrentSchemaUpdate(schema_id=-1)]),
        ([], [AddPartitionSpecUpdate(spec=PartitionSpec(
                 PartitionField(source_id=2, field_id=1000, transform=DayTransform(), name="ts_day"),
                 PartitionField(source_id=6, field_id=1001, transform=BucketTransform(8), name="cat_bucket"),
                 spec_id=1)),
              SetDefaultSpecUpdate(spec_id=-1)]),
        ([], [AddSortOrderUpdate(sort_order=SortOrder(
                 SortField(source_id=3, transform=TruncateTransform(4), direction=SortDirection.DESC,
                           null_order=NullOrder.NULLS_LAST),
                 SortField(source_id=1, transform=IdentityTransform()), order_id=1)),
              SetDefaultSortOrderUpdate(sort_order_id=-1)]),
        ([], [SetPropertiesUpdate(updates={"a": "1", "b": "2"}), RemovePropertiesUpdate(removals=["owner"]),
              SetLocationUpdate(location="s3://wh/db/t2")]),
        ([], [RemoveSnapshotRefUpdate(ref_name="v1"), RemoveSnapshotsUpdate(snapshot_ids=[101])]),
    ]
    theirs, ours = base, base
    for requirements, updates in commits:
        for r in requirements:
            r.validate(theirs)
        theirs = update_table_metadata(theirs, tuple(updates))
        ours = ours_apply(st_bin, ours, requirements, updates)
        assert comparable(ours) == comparable(theirs), f"after {[u.action for u in updates]}"


def test_failed_requirement_is_a_conflict(st_bin):
    request = {"base": json.loads(base_metadata().model_dump_json()),
               "requirements": wire([AssertRefSnapshotId(ref="main", snapshot_id=5)]), "updates": []}
    result = st_bin.run("iceberg_metadata_tool", "apply", "1", input=json.dumps(request), check=False)
    assert result.returncode == 1
    assert "conflict" in result.stderr and "assert-ref-snapshot-id" in result.stderr


def test_staged_create_matches_new_table_metadata(st_bin):
    order = SortOrder(SortField(source_id=1, transform=IdentityTransform()), order_id=1)
    expected = new_table_metadata(SCHEMA, SPEC, order, "s3://wh/db/t", {"owner": "st"}, table_uuid=TABLE_UUID)
    updates = [
        AssignUUIDUpdate(uuid=TABLE_UUID),
        UpgradeFormatVersionUpdate(format_version=2),
        AddSchemaUpdate(schema_=SCHEMA),
        SetCurrentSchemaUpdate(schema_id=-1),
        AddPartitionSpecUpdate(spec=SPEC),
        SetDefaultSpecUpdate(spec_id=-1),
        AddSortOrderUpdate(sort_order=order),
        SetDefaultSortOrderUpdate(sort_order_id=-1),
        SetLocationUpdate(location="s3://wh/db/t"),
        SetPropertiesUpdate(updates={"owner": "st"}),
    ]
    created = ours_apply(st_bin, None, [AssertCreate()], updates)
    assert comparable(created) == comparable(expected)
