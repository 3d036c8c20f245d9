#include "iceberg/table_update.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace st::iceberg {
namespace {

using nlohmann::json;

constexpr const char* kUuid = "9c12d441-03fe-4693-9a96-a0705ddf69c1";

// What PyIceberg 0.12 sends for a staged create (docs/api-contract-notes.md §3.6).
json CreateUpdates() {
  return json::parse(R"([
    {"action":"assign-uuid","uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1"},
    {"action":"upgrade-format-version","format-version":2},
    {"action":"add-schema","schema":{"type":"struct","schema-id":0,"identifier-field-ids":[],
      "fields":[{"id":1,"name":"id","required":true,"type":"long"},
                {"id":2,"name":"ts","required":false,"type":"timestamptz"}]},"last-column-id":2},
    {"action":"set-current-schema","schema-id":-1},
    {"action":"add-spec","spec":{"spec-id":0,"fields":[
      {"source-id":2,"field-id":1000,"name":"ts_day","transform":"day"}]}},
    {"action":"set-default-spec","spec-id":-1},
    {"action":"add-sort-order","sort-order":{"order-id":0,"fields":[]}},
    {"action":"set-default-sort-order","sort-order-id":-1},
    {"action":"set-location","location":"s3://wh/db/t"},
    {"action":"set-properties","updates":{"owner":"me"}}])");
}

TableMetadata Created() {
  auto updates = TableUpdatesFromJson(CreateUpdates());
  EXPECT_TRUE(updates.has_value()) << updates.error().ToString();
  auto m = ApplyUpdates(TableMetadata{}, *updates, 1000);
  EXPECT_TRUE(m.has_value()) << m.error().ToString();
  return *m;
}

Snapshot MakeSnapshot(int64_t id, int64_t seq, std::optional<int64_t> parent = std::nullopt) {
  return Snapshot{id,
                  parent,
                  seq,
                  5000 + id,
                  "s3://wh/db/t/metadata/snap-" + std::to_string(id),
                  {{"operation", "append"}},
                  0};
}

std::vector<TableUpdate> Append(int64_t id, int64_t seq, std::optional<int64_t> parent = {}) {
  return {AddSnapshot{MakeSnapshot(id, seq, parent)},
          SetSnapshotRef{"main", SnapshotRef{id, SnapshotRefType::kBranch, {}, {}, {}}}};
}

TEST(TableUpdateTest, StagedCreateFromRestJson) {
  auto requirements = TableRequirementsFromJson(json::parse(R"([{"type":"assert-create"}])"));
  ASSERT_TRUE(requirements.has_value());
  EXPECT_TRUE(CheckRequirements(*requirements, nullptr).ok());
  TableMetadata m = Created();
  EXPECT_EQ(m.table_uuid, kUuid);
  EXPECT_EQ(m.location, "s3://wh/db/t");
  EXPECT_EQ(m.last_column_id, 2);
  EXPECT_EQ(m.last_partition_id, 1000);
  EXPECT_EQ(m.DefaultSpec()->fields()[0].name, "ts_day");
  EXPECT_EQ(m.default_sort_order_id, 0);
  EXPECT_EQ(m.last_updated_ms, 1000);
  EXPECT_EQ(m.properties.at("owner"), "me");
  EXPECT_FALSE(m.current_snapshot_id.has_value());
  EXPECT_TRUE(m.Validate().ok());
  EXPECT_EQ(*ParseTableMetadata(SerializeTableMetadata(m)), m);

  // assert-create on an existing table is a conflict.
  Status exists = CheckRequirements(*requirements, &m);
  EXPECT_EQ(exists.code(), StatusCode::kConflict);
  EXPECT_NE(exists.message().find("already exists"), std::string::npos);
}

TEST(TableUpdateTest, FastAppendsAdvanceSequenceAndLog) {
  TableMetadata m = Created();
  auto first = ApplyUpdates(m, Append(11, 1), 9000);
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  EXPECT_EQ(first->current_snapshot_id, 11);
  EXPECT_EQ(first->last_sequence_number, 1);
  EXPECT_EQ(first->last_updated_ms, 5011);  // The snapshot's timestamp.
  ASSERT_EQ(first->snapshot_log.size(), 1u);
  EXPECT_EQ(first->snapshot_log[0], (SnapshotLogEntry{11, 5011}));

  auto second = ApplyUpdates(*first, Append(12, 2, 11), 9001);
  ASSERT_TRUE(second.has_value()) << second.error().ToString();
  EXPECT_EQ(second->refs.at("main").snapshot_id, 12);
  EXPECT_EQ(second->snapshot_log.size(), 2u);

  // A snapshot numbered from older metadata lost a race: a retryable conflict
  // (409 CommitFailedException), not a bad request.
  auto stale = ApplyUpdates(*second, Append(13, 2, 12), 9002);
  ASSERT_FALSE(stale.has_value());
  EXPECT_EQ(stale.error().code(), StatusCode::kConflict);
  EXPECT_NE(stale.error().message().find("last-sequence-number 2"), std::string::npos);
  EXPECT_NE(stale.error().message().find("reload the table and retry"), std::string::npos);
  // A snapshot without a parent (a replace transaction's, retried after losing
  // a race) keeps its number, as Iceberg's TableMetadata allows; the table's
  // last-sequence-number does not go down.
  auto stale_replace = ApplyUpdates(*second, Append(14, 1), 9002);
  ASSERT_TRUE(stale_replace.has_value()) << stale_replace.error().ToString();
  EXPECT_EQ(stale_replace->current_snapshot_id, 14);
  EXPECT_EQ(stale_replace->last_sequence_number, 2);

  auto duplicate = ApplyUpdates(*second, Append(12, 3), 9002);
  ASSERT_FALSE(duplicate.has_value());
  EXPECT_NE(duplicate.error().message().find("already exists"), std::string::npos);

  auto dangling = ApplyUpdates(
      *second, {SetSnapshotRef{"b", SnapshotRef{99, SnapshotRefType::kBranch, {}, {}, {}}}}, 1);
  ASSERT_FALSE(dangling.has_value());
  EXPECT_NE(dangling.error().message().find("unknown snapshot 99"), std::string::npos);

  // Tag on another snapshot, then expire 11: the log loses history up to it.
  auto tagged = ApplyUpdates(
      *second, {SetSnapshotRef{"t", SnapshotRef{11, SnapshotRefType::kTag, {}, {}, {}}}}, 9003);
  ASSERT_TRUE(tagged.has_value());
  EXPECT_EQ(tagged->last_updated_ms, 9003);
  auto expired = ApplyUpdates(*tagged, {RemoveSnapshots{{11}}}, 9004);
  ASSERT_TRUE(expired.has_value()) << expired.error().ToString();
  EXPECT_FALSE(expired->refs.count("t"));
  EXPECT_EQ(expired->snapshot_log, (std::vector<SnapshotLogEntry>{{12, 5012}}));
  EXPECT_EQ(expired->snapshots[0].parent_snapshot_id, 11);  // Dangling parent is fine.

  auto no_main = ApplyUpdates(*expired, {RemoveSnapshotRef{"main"}}, 9005);
  ASSERT_TRUE(no_main.has_value());
  EXPECT_FALSE(no_main->current_snapshot_id.has_value());
}

struct RequirementCase {
  TableRequirement requirement;
  const char* message_part;
};

TEST(TableUpdateTest, EveryRequirementCanFail) {
  TableMetadata m = *ApplyUpdates(Created(), Append(11, 1), 1);
  const RequirementCase kCases[] = {
      // Each message starts with Iceberg's "Requirement failed: <what>" wording,
      // which Java clients and the REST Compatibility Kit match on.
      {AssertCreate{}, "Requirement failed: table already exists"},
      {AssertTableUuid{"00000000-0000-0000-0000-000000000000"},
       "Requirement failed: UUID does not match: expected 00000000-0000-0000-0000-000000000000 "
       "!= 9c12d441-03fe-4693-9a96-a0705ddf69c1"},
      {AssertRefSnapshotId{"main", std::nullopt},
       "Requirement failed: branch main was created concurrently (it points at snapshot 11"},
      {AssertRefSnapshotId{"main", 10},
       "Requirement failed: branch main has changed: expected id 10 != 11"},
      {AssertRefSnapshotId{"dev", 11},
       "Requirement failed: branch or tag dev is missing, expected snapshot 11"},
      {AssertCurrentSchemaId{1}, "Requirement failed: current schema changed: expected id 1 != 0"},
      {AssertLastAssignedFieldId{1},
       "Requirement failed: last assigned field id changed: expected id 1 != 2"},
      {AssertLastAssignedPartitionId{999},
       "Requirement failed: last assigned partition id changed: expected id 999 != 1000"},
      {AssertDefaultSpecId{1},
       "Requirement failed: default partition spec changed: expected id 1 != 0"},
      {AssertDefaultSortOrderId{1},
       "Requirement failed: default sort order changed: expected id 1 != 0"},
  };
  for (const auto& c : kCases) {
    Status s = CheckRequirements({c.requirement}, &m);
    EXPECT_EQ(s.code(), StatusCode::kConflict) << RequirementType(c.requirement);
    EXPECT_NE(s.message().find(RequirementType(c.requirement)), std::string::npos) << s.message();
    EXPECT_EQ(s.message().rfind(c.message_part, 0), 0u) << s.message();
    EXPECT_NE(s.message().find("reload the table and retry"), std::string::npos) << s.message();
    if (!std::holds_alternative<AssertCreate>(c.requirement)) {
      EXPECT_EQ(CheckRequirements({c.requirement}, nullptr).code(), StatusCode::kConflict);
    }
  }
  const std::vector<TableRequirement> passing = {
      AssertTableUuid{"9C12D441-03FE-4693-9A96-A0705DDF69C1"},
      AssertRefSnapshotId{"main", 11},
      AssertRefSnapshotId{"dev", std::nullopt},
      AssertCurrentSchemaId{0},
      AssertLastAssignedFieldId{2},
      AssertLastAssignedPartitionId{1000},
      AssertDefaultSpecId{0},
      AssertDefaultSortOrderId{0}};
  EXPECT_TRUE(CheckRequirements(passing, &m).ok());
}

TEST(TableUpdateTest, JsonRoundTripOfEveryShape) {
  const json requirements = json::parse(R"([
    {"type":"assert-create"},
    {"type":"assert-table-uuid","uuid":"u"},
    {"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":null},
    {"type":"assert-ref-snapshot-id","ref":"main","snapshot-id":5},
    {"type":"assert-current-schema-id","current-schema-id":1},
    {"type":"assert-last-assigned-field-id","last-assigned-field-id":2},
    {"type":"assert-last-assigned-partition-id","last-assigned-partition-id":1000},
    {"type":"assert-default-spec-id","default-spec-id":0},
    {"type":"assert-default-sort-order-id","default-sort-order-id":0}])");
  auto reqs = TableRequirementsFromJson(requirements);
  ASSERT_TRUE(reqs.has_value()) << reqs.error().ToString();
  EXPECT_FALSE(std::get<AssertRefSnapshotId>((*reqs)[2]).snapshot_id.has_value());
  for (size_t i = 0; i < reqs->size(); ++i) {
    EXPECT_EQ(TableRequirementToJson((*reqs)[i]), requirements[i]) << i;
  }
  json updates = CreateUpdates();
  for (const char* extra : {
           R"({"action":"add-snapshot","snapshot":{"snapshot-id":5,"sequence-number":1,
               "timestamp-ms":7,"manifest-list":"m","summary":{"operation":"append"}}})",
           R"({"action":"set-snapshot-ref","ref-name":"main","type":"branch","snapshot-id":5,
               "max-ref-age-ms":10})",
           R"({"action":"remove-snapshots","snapshot-ids":[1,2]})",
           R"({"action":"remove-snapshot-ref","ref-name":"b"})",
           R"({"action":"remove-properties","removals":["a"]})",
           R"({"action":"remove-schemas","schema-ids":[3]})",
           R"({"action":"remove-partition-specs","spec-ids":[4]})",
       }) {
    updates.push_back(json::parse(extra));
  }
  auto parsed = TableUpdatesFromJson(updates);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().ToString();
  for (size_t i = 0; i < parsed->size(); ++i) {
    EXPECT_EQ(TableUpdateToJson((*parsed)[i]), updates[i]) << updates[i].dump();
  }
}

TEST(TableUpdateTest, JsonErrors) {
  auto unknown = TableUpdateFromJson(json::parse(R"({"action":"frobnicate"})"));
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.error().message().find("frobnicate"), std::string::npos);
  auto stats = TableUpdateFromJson(json::parse(R"({"action":"set-statistics","snapshot-id":1})"));
  ASSERT_FALSE(stats.has_value());
  EXPECT_EQ(stats.error().code(), StatusCode::kUnsupported);
  auto req = TableRequirementFromJson(json::parse(R"({"type":"assert-nothing"})"));
  ASSERT_FALSE(req.has_value());
  EXPECT_EQ(req.error().code(), StatusCode::kInvalidArgument);
  auto missing = TableUpdatesFromJson(json::parse(R"([{"action":"set-location"}])"));
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message().find("updates[0]"), std::string::npos);
  EXPECT_NE(missing.error().message().find("'location'"), std::string::npos);
  auto bad_schema = TableUpdateFromJson(json::parse(
      R"({"action":"add-schema","schema":{"type":"struct","fields":[{"id":1,"name":"a"}]}})"));
  ASSERT_FALSE(bad_schema.has_value());
  EXPECT_NE(bad_schema.error().message().find("add-schema"), std::string::npos);
  // Old metadata may hold snapshots without a summary; a new one must have it.
  auto no_summary = TableUpdateFromJson(json::parse(
      R"({"action":"add-snapshot","snapshot":{"snapshot-id":5,"sequence-number":1,
          "timestamp-ms":7,"manifest-list":"m"}})"));
  ASSERT_FALSE(no_summary.has_value());
  EXPECT_EQ(no_summary.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(no_summary.error().message().find("no summary"), std::string::npos);
}

TEST(TableUpdateTest, SchemaSpecAndOrderEvolution) {
  TableMetadata m = Created();
  auto wider = Schema::Make(7, {{1, "id", true, Type::Long(), ""},
                                {2, "ts", false, Type::TimestampTz(), ""},
                                {3, "cat", false, Type::String(), ""}});
  ASSERT_TRUE(wider.has_value());
  PartitionSpec by_cat = PartitionSpec::MakeUnchecked(
      0, {{2, 0, "ts_day", Transform::Day()}, {3, 0, "cat_bucket", Transform::Bucket(8)}});
  SortOrder by_id{0, {{Transform::Identity(), 1, SortDirection::kAsc, NullOrder::kNullsFirst}}};
  auto next = ApplyUpdates(
      m,
      {AddSchema{*wider, std::nullopt}, SetCurrentSchema{kLastAdded}, AddPartitionSpec{by_cat},
       SetDefaultSpec{kLastAdded}, AddSortOrder{by_id}, SetDefaultSortOrder{kLastAdded}},
      2000);
  ASSERT_TRUE(next.has_value()) << next.error().ToString();
  EXPECT_EQ(next->current_schema_id, 1);  // max+1, not the requested 7.
  EXPECT_EQ(next->last_column_id, 3);
  EXPECT_EQ(next->default_spec_id, 1);
  EXPECT_EQ(next->DefaultSpec()->fields()[0].field_id, 1000);  // Reused for day(ts).
  EXPECT_EQ(next->DefaultSpec()->fields()[1].field_id, 1001);
  EXPECT_EQ(next->last_partition_id, 1001);
  EXPECT_EQ(next->default_sort_order_id, 1);

  // Re-adding an existing schema reuses its id.
  auto again = ApplyUpdates(*next, {AddSchema{*wider, std::nullopt}, SetCurrentSchema{-1}}, 1);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->schemas.size(), 2u);

  struct Bad {
    std::vector<TableUpdate> updates;
    const char* message_part;
  };
  const Bad kBad[] = {
      {{SetCurrentSchema{-1}}, "added none"},
      {{SetCurrentSchema{5}}, "schema 5 does not exist"},
      {{SetDefaultSpec{5}}, "partition spec 5 does not exist"},
      {{SetDefaultSortOrder{5}}, "sort order 5 does not exist"},
      {{AddPartitionSpec{PartitionSpec::MakeUnchecked(0, {{9, 0, "x", Transform::Identity()}})}},
       "source id 9"},
      {{AddPartitionSpec{PartitionSpec::MakeUnchecked(0, {{1, 0, "h", Transform::Hour()}})}},
       "cannot be applied"},
      {{AddSortOrder{SortOrder{
           0, {{Transform::Identity(), 9, SortDirection::kAsc, NullOrder::kNullsFirst}}}}},
       "source id 9"},
      {{UpgradeFormatVersion{1}}, "downgrade"},
      {{SetLocation{""}}, "location"},
      {{RemoveSchemas{{0}}}, "current schema"},
      {{RemovePartitionSpecs{{0}}}, "default partition spec"},
  };
  for (const auto& b : kBad) {
    auto r = ApplyUpdates(m, b.updates, 1);
    ASSERT_FALSE(r.has_value()) << b.message_part;
    EXPECT_EQ(r.error().code(), StatusCode::kInvalidArgument) << r.error().ToString();
    EXPECT_NE(r.error().message().find(b.message_part), std::string::npos) << r.error().ToString();
  }
  EXPECT_EQ(ApplyUpdates(m, {UpgradeFormatVersion{3}}, 1).error().code(), StatusCode::kUnsupported);
}

// Java clients send add-schema's (deprecated) last-column-id as the new
// schema's highest field id, which after a dropped column is below the
// table's: it is ignored, and the table's last-column-id never goes down.
TEST(TableUpdateTest, AddSchemaIgnoresTheSentLastColumnId) {
  TableMetadata m = Created();  // Columns 1 and 2.
  auto narrower = Schema::Make(0, {{1, "id", true, Type::Long(), ""}});
  ASSERT_TRUE(narrower.has_value());
  auto dropped = ApplyUpdates(m, {AddSchema{*narrower, 1}, SetCurrentSchema{kLastAdded}}, 2000);
  ASSERT_TRUE(dropped.has_value()) << dropped.error().ToString();
  EXPECT_EQ(dropped->current_schema_id, 1);
  EXPECT_EQ(dropped->CurrentSchema()->fields().size(), 1u);
  EXPECT_EQ(dropped->last_column_id, 2);

  // A value above every field id does not move it up either.
  auto wider =
      Schema::Make(0, {{1, "id", true, Type::Long(), ""}, {3, "x", false, Type::String(), ""}});
  ASSERT_TRUE(wider.has_value());
  auto added = ApplyUpdates(*dropped, {AddSchema{*wider, 99}}, 2001);
  ASSERT_TRUE(added.has_value()) << added.error().ToString();
  EXPECT_EQ(added->last_column_id, 3);
}

TEST(TableUpdateTest, MetadataLogIsTrimmed) {
  TableMetadata m = Created();
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(AddMetadataLogEntry(m, {"f" + std::to_string(i), i}).ok());
  }
  EXPECT_EQ(m.metadata_log.size(), 5u);
  m.properties[kMetadataPreviousVersionsMax] = "2";
  ASSERT_TRUE(AddMetadataLogEntry(m, {"f5", 5}).ok());
  EXPECT_EQ(m.metadata_log, (std::vector<MetadataLogEntry>{{"f4", 4}, {"f5", 5}}));
  m.properties[kMetadataPreviousVersionsMax] = "many";
  EXPECT_EQ(AddMetadataLogEntry(m, {"f6", 6}).code(), StatusCode::kInvalidArgument);
}

TEST(TableUpdateTest, NewTableMetadataAssignsIds) {
  auto schema =
      Schema::Make(4, {{1, "id", true, Type::Long(), ""}, {2, "name", false, Type::String(), ""}});
  ASSERT_TRUE(schema.has_value());
  auto m = NewTableMetadata(
      *schema, PartitionSpec::MakeUnchecked(3, {{2, 0, "name_trunc", Transform::Truncate(2)}}),
      SortOrder{5, {{Transform::Identity(), 1, SortDirection::kDesc, NullOrder::kNullsLast}}},
      "s3://wh/t", {{"k", "v"}}, kUuid, 42);
  ASSERT_TRUE(m.has_value()) << m.error().ToString();
  EXPECT_EQ(m->current_schema_id, 0);
  EXPECT_EQ(m->last_column_id, 2);
  EXPECT_EQ(m->DefaultSpec()->spec_id(), 0);
  EXPECT_EQ(m->DefaultSpec()->fields()[0].field_id, 1000);
  EXPECT_EQ(m->last_partition_id, 1000);
  EXPECT_EQ(m->default_sort_order_id, 1);
  EXPECT_EQ(m->last_updated_ms, 42);

  auto unpartitioned = NewTableMetadata(*schema, PartitionSpec::Unpartitioned(),
                                        SortOrder::Unsorted(), "s3://wh/t", {}, kUuid, 42);
  ASSERT_TRUE(unpartitioned.has_value());
  EXPECT_EQ(unpartitioned->last_partition_id, 999);
  EXPECT_EQ(unpartitioned->default_sort_order_id, 0);

  auto bad =
      NewTableMetadata(*schema, PartitionSpec::MakeUnchecked(0, {{2, 0, "d", Transform::Day()}}),
                       SortOrder::Unsorted(), "s3://wh/t", {}, kUuid, 42);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace st::iceberg
