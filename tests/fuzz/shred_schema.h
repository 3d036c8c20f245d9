// The table both decoding fuzz targets shred into: every Iceberg primitive,
// required and optional columns, nested structs, lists and maps, and a
// timestamptz partition source, compiled as a delivery channel compiles it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>

#include "decoding/channel_schema.h"
#include "decoding/column_buffers_internal.h"
#include "decoding/json_shredder_internal.h"
#include "decoding/shred_plan_internal.h"
#include "iceberg/json_serde.h"
#include "iceberg/parquet_schema.h"

namespace st::fuzz {

inline constexpr const char* kShredSchemaJson = R"json({"type":"struct","schema-id":0,"fields":[
  {"id":1,"name":"id","required":true,"type":"long"},
  {"id":2,"name":"event_time","required":true,"type":"timestamptz"},
  {"id":3,"name":"flag","required":false,"type":"boolean"},
  {"id":4,"name":"i","required":false,"type":"int"},
  {"id":5,"name":"f","required":false,"type":"float"},
  {"id":6,"name":"d","required":false,"type":"double"},
  {"id":7,"name":"amount","required":false,"type":"decimal(9,2)"},
  {"id":8,"name":"big","required":false,"type":"decimal(38,10)"},
  {"id":9,"name":"day","required":false,"type":"date"},
  {"id":10,"name":"at","required":false,"type":"time"},
  {"id":11,"name":"ts","required":false,"type":"timestamp"},
  {"id":12,"name":"s","required":false,"type":"string"},
  {"id":13,"name":"u","required":false,"type":"uuid"},
  {"id":14,"name":"fx","required":false,"type":"fixed[4]"},
  {"id":15,"name":"b","required":false,"type":"binary"},
  {"id":16,"name":"user","required":false,"type":{"type":"struct","fields":[
    {"id":17,"name":"name","required":true,"type":"string"},
    {"id":18,"name":"tags","required":false,"type":{"type":"list","element-id":19,
      "element-required":false,"element":"string"}},
    {"id":20,"name":"address","required":false,"type":{"type":"struct","fields":[
      {"id":21,"name":"zip","required":false,"type":"int"}]}}]}},
  {"id":22,"name":"attrs","required":false,"type":{"type":"map","key-id":23,"key":"string",
    "value-id":24,"value-required":false,"value":"long"}},
  {"id":25,"name":"items","required":false,"type":{"type":"list","element-id":26,
    "element-required":true,"element":{"type":"struct","fields":[
      {"id":27,"name":"sku","required":true,"type":"string"},
      {"id":28,"name":"qty","required":false,"type":"int"},
      {"id":29,"name":"m","required":false,"type":{"type":"map","key-id":30,"key":"string",
        "value-id":31,"value-required":true,"value":{"type":"list","element-id":32,
        "element-required":false,"element":"double"}}}]}}}
]})json";

// A shredder over kShredSchemaJson plus the _kafka column, partitioned on
// event_time (one partition slot), with its column buffers.
struct ShredSetup {
  std::unique_ptr<parquet::Schema> parquet_schema;
  std::unique_ptr<decoding::ShredPlan> plan;
  std::unique_ptr<decoding::JsonShredder> shredder;
  std::unique_ptr<decoding::ColumnBuffers> buffers;
};

template <typename T>
T MustOk(Result<T> result, const char* what) {
  if (!result.has_value()) {
    fprintf(stderr, "%s: %s\n", what, result.error().ToString().c_str());
    abort();
  }
  return std::move(*result);
}

inline ShredSetup MakeShredSetup() {
  auto value_schema =
      MustOk(iceberg::SchemaFromJson(nlohmann::json::parse(kShredSchemaJson)), "value schema");
  auto table_schema = MustOk(
      decoding::ChannelTableSchema(decoding::ValueFormat::kJson, value_schema, true, "event_time"),
      "table schema");
  ShredSetup setup;
  setup.parquet_schema = std::make_unique<parquet::Schema>(
      MustOk(iceberg::ToParquetSchema(table_schema), "parquet schema"));
  setup.plan = std::make_unique<decoding::ShredPlan>(
      MustOk(decoding::MakeShredPlan(table_schema, *setup.parquet_schema), "shred plan"));
  for (auto& child : setup.plan->root.children) {
    if (child.name == "event_time") child.partition_slot = 0;
  }
  setup.shredder = std::make_unique<decoding::JsonShredder>(*setup.plan, 1);
  setup.buffers = std::make_unique<decoding::ColumnBuffers>(*setup.parquet_schema);
  return setup;
}

// Shreds one value as the channel writer does: on failure the partial row is
// dropped with Truncate, on success the row is counted.
inline void ShredOne(ShredSetup& setup, std::string_view json) {
  std::vector<decoding::ColumnMark> marks;
  setup.buffers->Clear();
  setup.buffers->Mark(&marks);
  decoding::RecordError error;
  if (setup.shredder->Shred(json, *setup.buffers, &error)) {
    setup.buffers->AddRow();
  } else {
    setup.buffers->Truncate(marks);
  }
}

}  // namespace st::fuzz
