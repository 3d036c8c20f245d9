// Kafka record values of a PROTOBUF_CONFLUENT channel from outside bytes:
// the Confluent header with message indexes, then the Protobuf wire format
// decoded into the columns of a table mapped from a schema that uses every
// kind the decoder handles (scalars of each wire type, enums, nested and
// repeated messages, packed fields, maps, oneofs, Timestamp, wrappers).
// The fuzzer drives field numbers, wire types, lengths, repeats and nesting
// (unknown groups) freely; a message index other than [0]/[1] is rejected
// as a channel would reject it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "decoding/channel_schema.h"
#include "decoding/column_buffers_internal.h"
#include "decoding/confluent_framing_internal.h"
#include "decoding/protobuf_decode_plan_internal.h"
#include "decoding/protobuf_descriptor_internal.h"
#include "decoding/protobuf_schema.h"
#include "decoding/protobuf_shredder_internal.h"
#include "decoding/shred_plan_internal.h"
#include "iceberg/parquet_schema.h"

namespace {

constexpr const char* kFuzzProto = R"(syntax = "proto3";
package f;
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
enum E { Z = 0; O = 1; }
message P { sint32 x = 1; repeated fixed32 v = 2; P2 deeper = 3; }
message P2 { string s = 1; repeated E es = 2; }
message M {
  int32 a = 1; uint32 b = 2; sint64 c = 3; fixed64 d = 4; sfixed32 e = 5; float f = 6;
  double g = 7; bool h = 8; string i = 9; bytes j = 10; E k = 11; P l = 12;
  repeated int64 m = 13; repeated P n = 14; map<string, P> o = 15; map<uint64, double> p = 16;
  oneof q { string r = 17; P s = 18; }
  google.protobuf.Timestamp t = 19; google.protobuf.StringValue u = 20;
  google.protobuf.UInt64Value v = 21; optional float w = 22; repeated string x = 23;
}
message N { bytes only = 1; })";

struct ProtoFuzzSetup {
  std::unique_ptr<st::parquet::Schema> parquet_schema;
  std::unique_ptr<st::decoding::ShredPlan> plan;
  std::unique_ptr<st::decoding::ProtoPlan> proto;
  std::unique_ptr<st::decoding::ProtobufShredder> shredder;
  std::unique_ptr<st::decoding::ColumnBuffers> buffers;
};

template <typename T>
T ProtoFuzzMust(st::Result<T> result, const char* what) {
  if (!result.has_value()) {
    fprintf(stderr, "%s: %s\n", what, result.error().ToString().c_str());
    abort();
  }
  return std::move(*result);
}

ProtoFuzzSetup MakeProtoFuzzSetup(int32_t message_index) {
  using namespace st::decoding;
  const WriterSchema writer{WriterSchemaType::kProtobuf, kFuzzProto, {}};
  auto value_schema = ProtoFuzzMust(ProtobufToIcebergSchema(writer, {message_index}), "mapping");
  auto table_schema = ProtoFuzzMust(
      ChannelTableSchema(ValueFormat::kProtobufConfluent, value_schema, true, std::nullopt),
      "table");
  ProtoFuzzSetup setup;
  setup.parquet_schema = std::make_unique<st::parquet::Schema>(
      ProtoFuzzMust(st::iceberg::ToParquetSchema(table_schema), "parquet schema"));
  setup.plan = std::make_unique<ShredPlan>(
      ProtoFuzzMust(MakeShredPlan(table_schema, *setup.parquet_schema), "shred plan"));
  setup.proto = std::make_unique<ProtoPlan>(ProtoFuzzMust(
      CompileProtoPlan(ProtoFuzzMust(ParseProtoSchema(writer, {message_index}), "parse"),
                       *setup.plan),
      "plan"));
  setup.shredder = std::make_unique<ProtobufShredder>(*setup.plan, 0);
  setup.buffers = std::make_unique<ColumnBuffers>(*setup.parquet_schema);
  return setup;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static ProtoFuzzSetup setups[2] = {MakeProtoFuzzSetup(0), MakeProtoFuzzSetup(1)};
  const std::string_view value(reinterpret_cast<const char*>(data), size);
  st::decoding::ConfluentFrame frame;
  st::decoding::RecordError error;
  if (!st::decoding::ParseConfluentFrame(value, true, &frame, &error)) return 0;
  if (frame.message_indexes.size() != 1 || frame.message_indexes[0] > 1) return 0;
  ProtoFuzzSetup& setup = setups[frame.message_indexes[0]];
  std::vector<st::decoding::ColumnMark> marks;
  setup.buffers->Clear();
  setup.buffers->Mark(&marks);
  if (setup.shredder->Shred(*setup.proto, frame.payload, *setup.buffers, &error)) {
    setup.buffers->AddRow();
  } else {
    setup.buffers->Truncate(marks);
  }
  return 0;
}
