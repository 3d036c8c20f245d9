// JSON → columns: every type, nesting, nulls and every JSON error code.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstring>

#include "decoding/column_buffers_internal.h"
#include "decoding/json_shredder_internal.h"
#include "decoding/shred_plan_internal.h"
#include "decoding_test_fixture.h"
#include "iceberg/parquet_schema.h"

namespace st::decoding {
namespace {

class JsonDecodingTest : public DecodingFixture {
 protected:
  // id 1 ts timestamptz (required, partition source), 2 name string, 3 n int,
  // 4 big long, 5 price decimal(38,3), 6 score double, 7 ok boolean,
  // 8 day date, 9 at time, 10 id uuid, 11 blob binary,
  // 12 user struct{13 id long required, 14 tags list<15 string>},
  // 16 attrs map<17 string, 18 int>, 19 matrix list<20 list<21 int required>>
  iceberg::Schema AllTypes() {
    return MustSchema({
        {1, "ts", true, Type::TimestampTz(), ""},
        {2, "name", false, Type::String(), ""},
        {3, "n", false, Type::Int(), ""},
        {4, "big", false, Type::Long(), ""},
        {5, "price", false, Type::Decimal(38, 3), ""},
        {6, "score", false, Type::Double(), ""},
        {7, "ok", false, Type::Boolean(), ""},
        {8, "day", false, Type::Date(), ""},
        {9, "at", false, Type::Time(), ""},
        {10, "id", false, Type::Uuid(), ""},
        {11, "blob", false, Type::Binary(), ""},
        {12, "user", false,
         Type::Struct({{13, "id", true, Type::Long(), ""},
                       {14, "tags", false, Type::List(15, false, Type::String()), ""}}),
         ""},
        {16, "attrs", false, Type::Map(17, Type::String(), 18, false, Type::Int()), ""},
        {19, "matrix", false, Type::List(20, false, Type::List(21, true, Type::Int())), ""},
    });
  }

  std::unique_ptr<PartitionedFileWriter> AllTypesWriter() {
    auto schema = AllTypes();
    auto spec = ChannelPartitionSpec(schema, false, "ts");
    EXPECT_TRUE(spec.has_value());
    return MustWriter(Options(ValueFormat::kJson, schema, *spec));
  }

  void ExpectError(std::string_view json, std::string_view code, std::string_view message_part) {
    auto writer = AllTypesWriter();
    auto error = AddValue(*writer, json);
    ASSERT_TRUE(error.has_value()) << json;
    EXPECT_EQ(error->code, code) << json << " → " << error->message;
    EXPECT_NE(error->message.find(message_part), std::string::npos)
        << json << " → " << error->message;
    // Nothing of the rejected record is written.
    auto files = writer->Finish();
    ASSERT_TRUE(files.has_value());
    EXPECT_TRUE(files->empty());
  }
};

constexpr std::string_view kFullRow = R"({
  "ts": "2025-03-01T12:34:56.789Z", "name": "alice", "n": -7, "big": 9007199254740993,
  "price": 12345678901234567890123456789012345.678, "score": 2, "ok": true,
  "day": "2025-03-01", "at": "12:34:56.5", "id": "00112233-4455-6677-8899-aabbccddeeff",
  "blob": "AAEC/w==", "user": {"id": 42, "tags": ["a", "b", null]},
  "attrs": {"x": 1, "y": null}, "matrix": [[1, 2], [], [3]], "extra": {"deep": [1, {"x": null}]}
})";

TEST_F(JsonDecodingTest, EveryTypeRoundTripsThroughMetrics) {
  auto writer = AllTypesWriter();
  ASSERT_EQ(AddValue(*writer, kFullRow), std::nullopt);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  ASSERT_EQ(files->size(), 1u);
  const auto& f = (*files)[0];
  EXPECT_EQ(f.record_count, 1);
  EXPECT_EQ(f.partition, Value::MakeStruct({Value::Int32(483564)}));  // Hours since epoch.
  EXPECT_NE(f.file_path.find("/t/data/ts_hour=2025-03-01-12/"), std::string::npos) << f.file_path;
  EXPECT_EQ(Bound(f, 1, *Type::TimestampTz(), true), Value::Int64(1740832496789000));
  EXPECT_EQ(Bound(f, 2, *Type::String(), true), Value::String("alice"));
  EXPECT_EQ(Bound(f, 3, *Type::Int(), true), Value::Int32(-7));
  EXPECT_EQ(Bound(f, 4, *Type::Long(), true), Value::Int64(9007199254740993));
  Int128 price = 0;
  for (char c : std::string("12345678901234567890123456789012345678"))
    price = price * 10 + (c - '0');
  EXPECT_EQ(Bound(f, 5, *Type::Decimal(38, 3), true), Value::Decimal(price));
  EXPECT_EQ(Bound(f, 6, *Type::Double(), true), Value::Double(2.0));
  EXPECT_EQ(Bound(f, 7, *Type::Boolean(), true), Value::Bool(true));
  EXPECT_EQ(Bound(f, 8, *Type::Date(), true), Value::Int32(20148));
  EXPECT_EQ(Bound(f, 9, *Type::Time(), true), Value::Int64(45296500000));
  EXPECT_EQ(Bound(f, 10, *Type::Uuid(), true),
            Value::Binary(std::string(
                "\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16)));
  EXPECT_EQ(Bound(f, 11, *Type::Binary(), true), Value::Binary(std::string("\x00\x01\x02\xff", 4)));
  EXPECT_EQ(Bound(f, 13, *Type::Long(), true), Value::Int64(42));
  // Lists and maps: counts only. tags: 3 entries, 1 null; attrs values: 2, 1 null;
  // matrix elements: [1,2], [] (an empty list counts as one null entry), [3].
  EXPECT_EQ(f.value_counts.at(15), 3);
  EXPECT_EQ(f.null_value_counts.at(15), 1);
  EXPECT_EQ(f.value_counts.at(17), 2);
  EXPECT_EQ(f.value_counts.at(18), 2);
  EXPECT_EQ(f.null_value_counts.at(18), 1);
  EXPECT_EQ(f.value_counts.at(21), 4);
  EXPECT_EQ(f.null_value_counts.at(21), 1);
}

TEST_F(JsonDecodingTest, MissingAndNullOptionalFieldsAreNull) {
  auto writer = AllTypesWriter();
  ASSERT_EQ(AddValue(*writer, R"({"ts": "2025-03-01T12:00:00Z"})"), std::nullopt);
  ASSERT_EQ(AddValue(*writer, R"({"ts": "2025-03-01T12:00:01Z", "name": null, "user": null,
                                  "attrs": {}, "matrix": null})"),
            std::nullopt);
  ASSERT_EQ(AddValue(*writer, R"({"ts": "2025-03-01T12:00:02Z", "user": {"id": 1}})"),
            std::nullopt);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  const auto& f = (*files)[0];
  EXPECT_EQ(f.record_count, 3);
  EXPECT_EQ(f.null_value_counts.at(2), 3);
  EXPECT_EQ(f.null_value_counts.at(13), 2);  // user null twice; present once with id.
  EXPECT_EQ(f.null_value_counts.at(15), 3);
  EXPECT_EQ(f.lower_bounds.count(2), 0u);
}

TEST_F(JsonDecodingTest, RejectedRecordLeavesEarlierRowsIntact) {
  auto writer = AllTypesWriter();
  ASSERT_EQ(AddValue(*writer, R"({"ts": "2025-03-01T12:00:00Z", "name": "a",
                                  "user": {"id": 1, "tags": ["x"]}})"),
            std::nullopt);
  // Fails deep inside, after name, user.id and a tag were pushed.
  auto error = AddValue(*writer, R"({"ts": "2025-03-01T12:00:01Z", "name": "b",
                                     "user": {"id": 2, "tags": ["y", 5]}})");
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kTypeMismatch);
  EXPECT_NE(error->message.find("user.tags.element"), std::string::npos) << error->message;
  // Fails in the partition step of another hour.
  error = AddValue(*writer, R"({"name": "c", "user": {"id": 3}})");
  ASSERT_TRUE(error.has_value());
  ASSERT_EQ(AddValue(*writer, R"({"ts": "2025-03-01T12:00:02Z", "name": "d",
                                  "user": {"id": 4, "tags": []}})"),
            std::nullopt);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  const auto& f = (*files)[0];
  EXPECT_EQ(f.record_count, 2);
  EXPECT_EQ(f.value_counts.at(2), 2);
  EXPECT_EQ(Bound(f, 2, *Type::String(), false), Value::String("d"));
  EXPECT_EQ(Bound(f, 13, *Type::Long(), false), Value::Int64(4));
  EXPECT_EQ(f.value_counts.at(15), 2);  // "x" and the empty list's null entry.
  EXPECT_EQ(f.null_value_counts.at(15), 1);
}

TEST_F(JsonDecodingTest, RowsGoToOneFilePerHour) {
  auto writer = AllTypesWriter();
  ASSERT_EQ(AddValue(*writer, R"({"ts": "2025-03-01T12:59:59.999999Z"})"), std::nullopt);
  ASSERT_EQ(AddValue(*writer, R"({"ts": "2025-03-01T13:00:00Z"})"), std::nullopt);
  ASSERT_EQ(AddValue(*writer, R"({"ts": "2025-03-01T14:30:00+02:00"})"), std::nullopt);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 2u);
  int64_t total = 0;
  for (const auto& f : *files) {
    total += f.record_count;
    const int32_t hour = f.partition.struct_value()[0].int32_value();
    EXPECT_EQ(f.record_count, hour == 483564 ? 2 : 1);  // 12:59 UTC and 12:30 UTC.
  }
  EXPECT_EQ(total, 3);
}

TEST_F(JsonDecodingTest, ErrorCodes) {
  ExpectError("not json", kMalformedJson, "not valid JSON");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z")", kMalformedJson, "not valid JSON");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z"} trailing)", kMalformedJson, "not valid JSON");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z"} {})", kMalformedJson, "not valid JSON");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "extra": [1,,2]})", kMalformedJson,
              "not valid JSON");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "name": "a", "name": "b"})", kMalformedJson,
              "field name twice");
  ExpectError("", kMalformedJson, "not valid JSON");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "n": 1.2.3})", kMalformedJson, "at field n");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "score": 1e})", kMalformedJson, "at field score");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "price": 01.5})", kMalformedJson, "at field price");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "ok": tru})", kMalformedJson, "not valid JSON");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "attrs": {"a": 1, "a": 2}})", kMalformedJson,
              "key \"a\" twice in map field attrs");
  std::string many = R"({"ts": "2025-03-01T12:00:00Z", "attrs": {)";
  for (int i = 0; i < 40; ++i) many += "\"k" + std::to_string(i) + "\": 1, ";
  ExpectError(many + R"("k3": 2}})", kMalformedJson, "key \"k3\" twice in map field attrs");
  ExpectError(R"([1, 2])", kTypeMismatch, "must be a JSON object; got array");
  ExpectError(R"({"name": "x"})", kMissingPartitionValue, "partition source field ts");
  ExpectError(R"({"ts": null})", kMissingPartitionValue, "partition source field ts");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "user": {"tags": []}})", kMissingRequiredField,
              "required field user.id is missing or null");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "user": {"id": null}})", kMissingRequiredField,
              "user.id");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "matrix": [[1, null]]})", kMissingRequiredField,
              "matrix.element.element");
  ExpectError(R"({"ts": "2025-03-01 12:00"})", kTypeMismatch,
              "field ts must be timestamptz (RFC 3339 date-time string with offset); got "
              "\"2025-03-01 12:00\"");
  ExpectError(R"({"ts": 1740832496})", kTypeMismatch, "field ts must be timestamptz");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "n": "7"})", kTypeMismatch,
              "field n must be int (integer within 32 bits); got string");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "n": 2147483648})", kTypeMismatch, "out of range");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "n": 1.5})", kTypeMismatch, "non-integer");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "big": 18446744073709551616})", kTypeMismatch,
              "field big must be long");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "price": 1.2345})", kTypeMismatch,
              "field price must be decimal(38,3)");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "price": "1.2"})", kTypeMismatch, "got string");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "score": true})", kTypeMismatch,
              "field score must be double");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "ok": 1})", kTypeMismatch,
              "field ok must be boolean");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "day": "2025/03/01"})", kTypeMismatch, "field day");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "at": "noon"})", kTypeMismatch, "field at");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "id": "not-a-uuid"})", kTypeMismatch, "field id");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "blob": "!!"})", kTypeMismatch,
              "field blob must be binary (base64 string)");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "user": [1]})", kTypeMismatch,
              "field user must be object (struct); got array");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "user": {"id": 1, "tags": "a"}})", kTypeMismatch,
              "field user.tags must be array (list); got string");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "attrs": {"a": "b"}})", kTypeMismatch,
              "field attrs.value must be int");
  ExpectError(R"({"ts": "2025-03-01T12:00:00Z", "name": {"a": 1}})", kTypeMismatch,
              "field name must be string (JSON string); got object");
}

std::string Nested(int levels) {
  std::string json = R"({"ts": "2025-03-01T12:00:00Z", "extra": )";
  for (int i = 1; i < levels; ++i) json += R"({"a": )";
  json += "1";
  for (int i = 1; i < levels; ++i) json += "}";
  return json + "}";
}

TEST_F(JsonDecodingTest, NestingLimitIsSixteenLevels) {
  auto writer = AllTypesWriter();
  EXPECT_EQ(AddValue(*writer, Nested(16)), std::nullopt);
  auto error = AddValue(*writer, Nested(17));
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kNestingTooDeep);
  EXPECT_NE(error->message.find("deeper than 16 levels"), std::string::npos) << error->message;
  std::string arrays = R"({"ts": "2025-03-01T12:00:00Z", "matrix": [[)";
  for (int i = 0; i < 20; ++i) arrays += "[";
  for (int i = 0; i < 20; ++i) arrays += "]";
  arrays += "]]}";
  error = AddValue(*writer, arrays);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kTypeMismatch) << error->message;  // Schema expects int at level 3.
}

TEST_F(JsonDecodingTest, NullTombstoneAndTooLarge) {
  auto schema = AllTypes();
  auto options = Options(ValueFormat::kJson, schema);
  options.max_record_bytes = 1000;
  auto writer = MustWriter(std::move(options));
  auto error = AddValue(*writer, std::nullopt);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kNullValue);
  EXPECT_NE(error->message.find("tombstone"), std::string::npos);
  std::string big = R"({"ts": "2025-03-01T12:00:00Z", "name": ")" + std::string(2000, 'x') + "\"}";
  error = AddValue(*writer, big);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kRecordTooLarge);
  EXPECT_NE(error->message.find("more than the maximum of 1000"), std::string::npos);

  // Default cap 4 MiB: a 5 MB value is refused.
  auto default_writer = MustWriter(Options(ValueFormat::kJson, schema));
  std::string huge =
      R"({"ts": "2025-03-01T12:00:00Z", "name": ")" + std::string(5000000, 'x') + "\"}";
  error = AddValue(*default_writer, huge);
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code, kRecordTooLarge);
}

TEST_F(JsonDecodingTest, EscapedStringsAndKeysAreUnescaped) {
  auto writer = AllTypesWriter();
  ASSERT_EQ(AddValue(*writer, R"({"t\u0073": "2025-03-01T12:00:00Z", "name": "a\"b\\c\u00e9\n"})"),
            std::nullopt);
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value());
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ(Bound((*files)[0], 2, *Type::String(), true), Value::String("a\"b\\c\xc3\xa9\n"));
}

// `count` copies of `base`, each truncated or with 1-3 bytes replaced by
// JSON-significant or invalid ones.
std::vector<std::string> MutatedRecords(std::string_view base, uint64_t seed, int count) {
  DefaultRandom random(seed);
  const char replacements[] = "{}[]\",:0123456789.-eE\\ntfu \x01\xff";
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) {
    std::string json(base);
    const uint64_t r = random.Next64();
    if (r % 4 == 0) {
      json.resize(r / 4 % json.size());
    } else {
      for (int k = 0; k < 1 + static_cast<int>(r % 3); ++k) {
        json[random.Next64() % json.size()] =
            replacements[random.Next64() % (sizeof(replacements) - 1)];
      }
    }
    out.push_back(std::move(json));
  }
  return out;
}

// Mutated and truncated records never break the writer: each is either a
// row or a RecordError with a known code, and the file holds exactly the rows.
TEST_F(JsonDecodingTest, MutatedRecordsAreRowsOrKnownErrors) {
  auto writer = AllTypesWriter();
  int64_t accepted = 0;
  const std::string_view codes[] = {kMalformedJson, kTypeMismatch, kMissingRequiredField,
                                    kMissingPartitionValue, kNestingTooDeep};
  const std::vector<std::string> mutated = MutatedRecords(kFullRow, 99, 3000);
  for (int i = 0; i < static_cast<int>(mutated.size()); ++i) {
    const std::string& json = mutated[i];
    auto error = AddValue(*writer, json, i);
    if (!error) {
      ++accepted;
      continue;
    }
    EXPECT_NE(std::find(std::begin(codes), std::end(codes), error->code), std::end(codes))
        << error->code << ": " << error->message;
    EXPECT_FALSE(error->message.empty());
  }
  auto files = writer->Finish();
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  int64_t rows = 0;
  for (const auto& f : *files) rows += f.record_count;
  EXPECT_EQ(rows, accepted);
  EXPECT_GT(accepted, 0);
}

// The process kernel is the best one the CPU has, or the one ST_SIMD_KERNEL
// names (ctest runs this binary twice: `decoding` and
// `decoding_fallback_kernel` with ST_SIMD_KERNEL=fallback).
TEST(JsonKernelTest, ProcessKernelIsTheBestOrTheForcedOne) {
  const char* forced = getenv("ST_SIMD_KERNEL");
  EXPECT_TRUE(JsonKernelSupported(JsonKernel::kFallback));
  if (forced != nullptr && std::strcmp(forced, "fallback") == 0) {
    EXPECT_EQ(ProcessJsonKernel(), JsonKernel::kFallback);
  } else if (forced == nullptr) {
    EXPECT_EQ(ProcessJsonKernel(), JsonKernelSupported(JsonKernel::kHaswell)
                                       ? JsonKernel::kHaswell
                                       : JsonKernel::kFallback);
  }
  std::printf("JSON shredder kernel: %s (haswell supported: %d)\n",
              std::string(JsonKernelName(ProcessJsonKernel())).c_str(),
              JsonKernelSupported(JsonKernel::kHaswell) ? 1 : 0);
}

void ExpectSameColumns(ColumnBuffers& a, ColumnBuffers& b, int columns, const std::string& json) {
  for (int i = 0; i < columns; ++i) {
    const ColumnBuffer& x = a.column(i);
    const ColumnBuffer& y = b.column(i);
    EXPECT_EQ(x.def, y.def) << "column " << i << ": " << json;
    EXPECT_EQ(x.rep, y.rep) << "column " << i << ": " << json;
    EXPECT_EQ(x.bools, y.bools) << "column " << i << ": " << json;
    EXPECT_EQ(x.i32, y.i32) << "column " << i << ": " << json;
    EXPECT_EQ(x.i64, y.i64) << "column " << i << ": " << json;
    EXPECT_EQ(x.f32, y.f32) << "column " << i << ": " << json;
    EXPECT_EQ(x.f64, y.f64) << "column " << i << ": " << json;
    EXPECT_EQ(x.arena, y.arena) << "column " << i << ": " << json;
    EXPECT_EQ(x.ends, y.ends) << "column " << i << ": " << json;
  }
}

// Both builds of the walk give the same rows, partition values and errors
// (code and message) for valid, invalid and mutated records, whatever
// simdjson's active implementation (stage 1) is. On a CPU without AVX2 this
// compares the fallback build with itself; `decoding_simd_isolation` checks
// the haswell build's object there.
TEST_F(JsonDecodingTest, KernelsShredIdentically) {
  auto table = ChannelTableSchema(ValueFormat::kJson, AllTypes(), false, std::nullopt);
  ASSERT_TRUE(table.has_value());
  auto parquet_schema = iceberg::ToParquetSchema(*table);
  ASSERT_TRUE(parquet_schema.has_value());
  auto plan = MakeShredPlan(*table, *parquet_schema);
  ASSERT_TRUE(plan.has_value());
  for (auto& child : plan->root.children) {
    if (child.name == "ts") child.partition_slot = 0;
  }
  const int columns = parquet_schema->num_columns();
  JsonShredder fallback(*plan, 1, JsonKernel::kFallback);
  JsonShredder best(
      *plan, 1,
      JsonKernelSupported(JsonKernel::kHaswell) ? JsonKernel::kHaswell : JsonKernel::kFallback);
  ColumnBuffers fallback_out(*parquet_schema);
  ColumnBuffers best_out(*parquet_schema);

  std::vector<std::string> corpus = {
      std::string(kFullRow),
      R"({"t\u0073": "2025-03-01T12:00:00Z", "name": "a\"b\\c\u00e9\n\ud83d\ude00"})",
      R"({"ts": "2025-03-01T12:00:00Z", "name": "a string longer than thirty-two bytes, )"
      R"(with \"escapes\" after the first SIMD block", "score": -1.5e-300, "big": -1})",
      "not json",
      "",
      "[1, 2]",
      "\"x\"",
      "12",
      "true",
      "null",
      R"({"ts": 1} x)",
      R"({"ts": "2025-03-01T12:00:00Z", "attrs": {"a": 1, "a": 2}})",
      R"({"ts": "2025-03-01T12:00:00Z", "n": 2147483648, "big": 18446744073709551616})",
      R"({"ts": "2025-03-01T12:00:00Z", "price": 01.5})",
      R"({"ts": "2025-03-01T12:00:00Z", "ok": tru})",
      R"({"ts": "2025-03-01T12:00:00Z", "user": {"id": null}})",
      R"({"ts": "2025-03-01T12:00:00Z", "name": "\xff"})",
  };
  std::string nested = R"({"ts": "2025-03-01T12:00:00Z", "extra": )";
  for (int depth = 1; depth <= 20; ++depth) {
    corpus.push_back(nested + std::string(depth, '[') + "1" + std::string(depth, ']') + "}");
  }
  std::string many = R"({"ts": "2025-03-01T12:00:00Z", "attrs": {)";
  for (int i = 0; i < 40; ++i)
    many += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
  corpus.push_back(many + R"("k3": 2}})");
  corpus.push_back(many + R"("end": 2}})");
  for (std::string& json : MutatedRecords(kFullRow, 7, 4000)) corpus.push_back(std::move(json));

  int rows = 0;
  for (const std::string& json : corpus) {
    fallback_out.Clear();
    best_out.Clear();
    RecordError fallback_error;
    RecordError best_error;
    const bool fallback_ok = fallback.Shred(json, fallback_out, &fallback_error);
    const bool best_ok = best.Shred(json, best_out, &best_error);
    ASSERT_EQ(fallback_ok, best_ok) << json;
    if (!fallback_ok) {
      EXPECT_EQ(fallback_error.code, best_error.code) << json;
      EXPECT_EQ(fallback_error.message, best_error.message) << json;
      continue;
    }
    ++rows;
    ExpectSameColumns(fallback_out, best_out, columns, json);
    EXPECT_EQ(fallback.partition_values(), best.partition_values()) << json;
  }
  EXPECT_GT(rows, 100);
}

}  // namespace
}  // namespace st::decoding
