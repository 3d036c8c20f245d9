// Kafka record values and keys of an AVRO_CONFLUENT channel from outside
// bytes: Avro binary decoded straight into the column buffers of a table
// mapped from a writer schema that uses every kind the decoder handles
// (primitives, logical types, enums, fixed, nested records, arrays, maps,
// nullable unions and a union of several types). The first input byte picks
// what the rest is: 0 a value of that writer schema, 1 a value of a narrower
// writer version the table resolves by promotion (int → long, float →
// double, string → bytes, a field the table lacks, one the writer lacks),
// 2 a typed record key decoded into `_kafka.key`.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "avro/schema.h"
#include "decoding/avro_decode_plan_internal.h"
#include "decoding/avro_schema_mapping.h"
#include "decoding/avro_shredder_internal.h"
#include "decoding/channel_schema.h"
#include "decoding/column_buffers_internal.h"
#include "decoding/shred_plan_internal.h"
#include "iceberg/parquet_schema.h"

namespace {

constexpr const char* kWriter = R"({"type":"record","name":"R","namespace":"f","fields":[
  {"name":"i","type":"int"},{"name":"l","type":"long"},{"name":"f","type":"float"},
  {"name":"d","type":"double"},{"name":"b","type":"boolean"},{"name":"s","type":"string"},
  {"name":"y","type":"bytes"},{"name":"x","type":{"type":"fixed","name":"F4","size":4}},
  {"name":"e","type":{"type":"enum","name":"E","symbols":["A","B","C"]}},
  {"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":20,"scale":3}},
  {"name":"decf","type":{"type":"fixed","name":"F9","size":9,"logicalType":"decimal",
                          "precision":20,"scale":2}},
  {"name":"u","type":{"type":"string","logicalType":"uuid"}},
  {"name":"day","type":{"type":"int","logicalType":"date"}},
  {"name":"tm","type":{"type":"int","logicalType":"time-millis"}},
  {"name":"tsm","type":{"type":"long","logicalType":"timestamp-millis"}},
  {"name":"tsu","type":{"type":"long","logicalType":"timestamp-micros"}},
  {"name":"opt","type":["null","string"],"default":null},
  {"name":"multi","type":["null","int","string",{"type":"record","name":"P","fields":[
     {"name":"a","type":"long"},{"name":"tags","type":{"type":"array","items":"string"}}]}]},
  {"name":"nested","type":{"type":"record","name":"N","fields":[
     {"name":"p","type":["null","P"]},{"name":"m","type":{"type":"map","values":["null","P"]}}]}},
  {"name":"arr","type":{"type":"array","items":{"type":"array","items":["null","double"]}}}]})";

// Resolves onto the table above: l, d and P.a narrower (promoted), y and
// P.tags as string ↔ bytes, fields in another order, `extra` skipped, the
// table's optional fields it lacks null.
constexpr const char* kNarrowWriter = R"({"type":"record","name":"R","namespace":"f","fields":[
  {"name":"l","type":"int"},{"name":"d","type":"float"},{"name":"s","type":"string"},
  {"name":"extra","type":{"type":"map","values":{"type":"array","items":"bytes"}}},
  {"name":"i","type":"int"},{"name":"f","type":"float"},{"name":"b","type":"boolean"},
  {"name":"y","type":"string"},{"name":"x","type":{"type":"fixed","name":"F4","size":4}},
  {"name":"e","type":{"type":"enum","name":"E","symbols":["A","B","C"]}},
  {"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":20,"scale":3}},
  {"name":"decf","type":{"type":"fixed","name":"F9","size":9,"logicalType":"decimal",
                          "precision":20,"scale":2}},
  {"name":"u","type":{"type":"string","logicalType":"uuid"}},
  {"name":"day","type":{"type":"int","logicalType":"date"}},
  {"name":"tm","type":{"type":"int","logicalType":"time-millis"}},
  {"name":"tsm","type":{"type":"long","logicalType":"timestamp-millis"}},
  {"name":"tsu","type":{"type":"long","logicalType":"timestamp-micros"}},
  {"name":"nested","type":{"type":"record","name":"N","fields":[
     {"name":"m","type":{"type":"map","values":["null",{"type":"record","name":"P","fields":[
        {"name":"tags","type":{"type":"array","items":"bytes"}},{"name":"a","type":"int"}]}]}}]}},
  {"name":"arr","type":{"type":"array","items":{"type":"array","items":["null","float"]}}}]})";

constexpr const char* kKey = R"({"type":"record","name":"K","fields":[
  {"name":"customer","type":"long"},{"name":"region","type":["null","string"]},
  {"name":"parts","type":{"type":"array","items":"int"}}]})";

template <typename T>
T AvroFuzzMust(st::Result<T> result, const char* what) {
  if (!result.has_value()) {
    fprintf(stderr, "%s: %s\n", what, result.error().ToString().c_str());
    abort();
  }
  return std::move(*result);
}

struct AvroFuzzSetup {
  // Writer nodes are referenced by the steps: the schemas live as long.
  std::optional<st::avro::Schema> writer, narrow, key;
  std::unique_ptr<st::parquet::Schema> parquet_schema;
  std::unique_ptr<st::decoding::ShredPlan> plan;
  std::unique_ptr<st::decoding::AvroStep> steps[3];
  const st::decoding::ShredNode* key_node = nullptr;
  std::unique_ptr<st::decoding::AvroShredder> shredder;
  std::unique_ptr<st::decoding::ColumnBuffers> buffers;
};

std::unique_ptr<AvroFuzzSetup> MakeAvroFuzzSetup() {
  using namespace st::decoding;
  auto s = std::make_unique<AvroFuzzSetup>();
  s->writer = AvroFuzzMust(st::avro::Schema::Parse(kWriter), "writer");
  s->narrow = AvroFuzzMust(st::avro::Schema::Parse(kNarrowWriter), "narrow writer");
  s->key = AvroFuzzMust(st::avro::Schema::Parse(kKey), "key");
  auto value_schema = AvroFuzzMust(AvroToIcebergSchema(*s->writer), "mapping");
  auto table = AvroFuzzMust(ChannelTableSchema(ValueFormat::kAvroConfluent, value_schema, true,
                                               std::nullopt, KeyFormat::kAvroConfluent),
                            "table");
  table = AvroFuzzMust(EvolveKeyForAvro(table, *s->key), "key evolution").schema;
  s->parquet_schema = std::make_unique<st::parquet::Schema>(
      AvroFuzzMust(st::iceberg::ToParquetSchema(table), "parquet schema"));
  s->plan = std::make_unique<ShredPlan>(
      AvroFuzzMust(MakeShredPlan(table, *s->parquet_schema), "shred plan"));
  s->key_node = &s->plan->kafka.children[s->plan->kafka.FindChild("key")];
  s->steps[0] =
      std::make_unique<AvroStep>(AvroFuzzMust(CompileAvroPlan(*s->writer, *s->plan), "value"));
  s->steps[1] =
      std::make_unique<AvroStep>(AvroFuzzMust(CompileAvroPlan(*s->narrow, *s->plan), "narrow"));
  s->steps[2] =
      std::make_unique<AvroStep>(AvroFuzzMust(CompileAvroPlanOnto(*s->key, *s->key_node), "key"));
  s->shredder = std::make_unique<AvroShredder>(*s->plan, 0);
  s->buffers = std::make_unique<ColumnBuffers>(*s->parquet_schema);
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static AvroFuzzSetup& setup = *MakeAvroFuzzSetup().release();
  if (size == 0 || data[0] > 2) return 0;
  const std::string_view payload(reinterpret_cast<const char*>(data) + 1, size - 1);
  st::decoding::RecordError error;
  std::vector<st::decoding::ColumnMark> marks;
  setup.buffers->Clear();
  setup.buffers->Mark(&marks);
  const bool ok =
      data[0] == 2 ? setup.shredder->ShredInto(*setup.steps[2], *setup.key_node, payload,
                                               *setup.buffers, &error)
                   : setup.shredder->Shred(*setup.steps[data[0]], payload, *setup.buffers, &error);
  if (ok) {
    setup.buffers->AddRow();
  } else {
    setup.buffers->Truncate(marks);
  }
  return 0;
}
