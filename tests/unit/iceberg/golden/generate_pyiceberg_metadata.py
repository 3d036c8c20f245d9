"""Writes pyiceberg_v2.metadata.json: table metadata produced by PyIceberg's own
model (new_table_metadata + update_table_metadata), so metadata_json_test.cc
can check that we parse what a foreign writer emits.

Run: /work/main/.venv/bin/python generate_pyiceberg_metadata.py
(PyIceberg 0.12.0; the table UUID and timestamps are fixed for a stable file.)
"""

import pathlib
import uuid

from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.table.metadata import new_table_metadata
from pyiceberg.table.refs import SnapshotRef, SnapshotRefType
from pyiceberg.table.snapshots import Operation, Snapshot, Summary
from pyiceberg.table.sorting import NullOrder, SortDirection, SortField, SortOrder
from pyiceberg.table.update import AddSnapshotUpdate, SetSnapshotRefUpdate, update_table_metadata
from pyiceberg.transforms import BucketTransform, DayTransform, IdentityTransform, TruncateTransform
from pyiceberg.types import (
    DecimalType,
    ListType,
    LongType,
    MapType,
    NestedField,
    StringType,
    StructType,
    TimestamptzType,
    UUIDType,
)

schema = Schema(
    NestedField(1, "id", LongType(), required=True, doc="row id"),
    NestedField(2, "ts", TimestamptzType(), required=False),
    NestedField(3, "payload", StringType(), required=False),
    NestedField(4, "amount", DecimalType(38, 10), required=False),
    NestedField(5, "tags", ListType(7, StringType(), element_required=True), required=False),
    NestedField(
        6,
        "attrs",
        MapType(8, StringType(), 9, StructType(NestedField(10, "u", UUIDType(), required=False)), value_required=False),
        required=False,
    ),
    identifier_field_ids=[1],
)
spec = PartitionSpec(
    PartitionField(source_id=2, field_id=1000, transform=DayTransform(), name="ts_day"),
    PartitionField(source_id=1, field_id=1001, transform=BucketTransform(16), name="id_bucket"),
    PartitionField(source_id=3, field_id=1002, transform=TruncateTransform(4), name="payload_trunc"),
)
order = SortOrder(
    SortField(source_id=1, transform=IdentityTransform(), direction=SortDirection.DESC, null_order=NullOrder.NULLS_LAST)
)
metadata = new_table_metadata(
    schema,
    spec,
    order,
    "s3://warehouse/db/events",
    {"write.parquet.compression-codec": "zstd", "owner": "streamtables"},
    table_uuid=uuid.UUID("9c12d441-03fe-4693-9a96-a0705ddf69c1"),
)
snapshot = Snapshot(
    snapshot_id=3051729675574597004,
    parent_snapshot_id=None,
    sequence_number=1,
    timestamp_ms=1735689600000,
    manifest_list="s3://warehouse/db/events/metadata/snap-3051729675574597004-1-a.avro",
    summary=Summary(Operation.APPEND, **{"added-data-files": "1", "added-records": "10", "total-records": "10"}),
    schema_id=0,
)
metadata = update_table_metadata(
    metadata,
    (
        AddSnapshotUpdate(snapshot=snapshot),
        SetSnapshotRefUpdate(ref_name="main", type=SnapshotRefType.BRANCH, snapshot_id=snapshot.snapshot_id),
    ),
)
metadata = metadata.model_copy(update={"last_updated_ms": 1735689600000})
out = pathlib.Path(__file__).with_name("pyiceberg_v2.metadata.json")
out.write_text(metadata.model_dump_json(indent=2) + "\n")
print(out)
