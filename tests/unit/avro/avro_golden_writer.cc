// Test-only tool for tests/integration/test_avro_fastavro.py.
//
//   avro_golden_writer DIR         writes *.avro files and their *.expected.json into DIR
//   avro_golden_writer --read FILE decodes FILE and prints it as JSON on stdout
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "avro/container.h"
#include "golden_data.h"

namespace {

using Json = nlohmann::ordered_json;
using st::Value;
namespace avro = st::avro;

const avro::Metadata& IcebergMetadata() {
  static const avro::Metadata kMetadata = {
      {"schema",
       R"({"type":"struct","schema-id":0,"fields":[{"id":1,"name":"x","required":true,"type":"long"}]})"},
      {"partition-spec", "[]"},
      {"partition-spec-id", "0"},
      {"format-version", "2"},
      {"snapshot-id", "7046127148796766153"},
      {"content", "data"},
      {"st-unicode-key-ü", "värde ✓"},
  };
  return kMetadata;
}

st::Result<avro::Schema> ManifestListSchema() {
  using namespace avro;
  std::vector<Field> summary;
  summary.push_back(MakeField("contains_null", MakeBoolean(), 509));
  summary.push_back(MakeOptionalField("contains_nan", MakeBoolean(), 518));
  summary.push_back(MakeOptionalField("lower_bound", MakeBytes(), 510));
  summary.push_back(MakeOptionalField("upper_bound", MakeBytes(), 511));
  NodePtr partitions = MakeArray(MakeRecord("r508", std::move(summary)));
  partitions->attributes.SetInt("element-id", 508);

  std::vector<Field> fields;
  fields.push_back(MakeField("manifest_path", MakeString(), 500));
  fields.push_back(MakeField("manifest_length", MakeLong(), 501));
  fields.push_back(MakeField("partition_spec_id", MakeInt(), 502));
  fields.push_back(MakeField("content", MakeInt(), 517));
  fields.push_back(MakeField("sequence_number", MakeLong(), 515));
  fields.push_back(MakeField("min_sequence_number", MakeLong(), 516));
  fields.push_back(MakeField("added_snapshot_id", MakeLong(), 503));
  fields.push_back(MakeField("added_files_count", MakeInt(), 504));
  fields.push_back(MakeField("existing_files_count", MakeInt(), 505));
  fields.push_back(MakeField("deleted_files_count", MakeInt(), 506));
  fields.push_back(MakeField("added_rows_count", MakeLong(), 512));
  fields.push_back(MakeField("existing_rows_count", MakeLong(), 513));
  fields.push_back(MakeField("deleted_rows_count", MakeLong(), 514));
  fields.push_back(MakeOptionalField("partitions", partitions, 507));
  fields.push_back(MakeOptionalField("key_metadata", MakeBytes(), 519));
  return Schema::Make(MakeRecord("manifest_file", std::move(fields)));
}

std::vector<Value> ManifestListRecords() {
  std::vector<Value> out;
  for (int i = 0; i < 3; ++i) {
    Value partitions =
        i == 2 ? Value::Null()
               : Value::MakeList(
                     {Value::MakeStruct({Value::Bool(i == 1), Value::Null(),
                                         Value::Binary(std::string("\x01\x00\x00\x00", 4)),
                                         Value::Binary(std::string("\x09\x00\x00\x00", 4))})});
    out.push_back(Value::MakeStruct({
        Value::String("s3://bucket/warehouse/db/t/metadata/" + std::to_string(i) + "-m0.avro"),
        Value::Int64(6000 + i),
        Value::Int32(0),
        Value::Int32(0),
        Value::Int64(i + 1),
        Value::Int64(1),
        Value::Int64(7046127148796766153LL),
        Value::Int32(1),
        Value::Int32(0),
        Value::Int32(0),
        Value::Int64(100),
        Value::Int64(0),
        Value::Int64(0),
        partitions,
        Value::Null(),
    }));
  }
  return out;
}

int WriteFile(const std::string& dir, const std::string& name, const avro::Schema& schema,
              const std::vector<Value>& records, avro::Codec codec, size_t block_bytes) {
  st::DefaultRandom random(static_cast<uint64_t>(name.size()) * 7919);
  avro::ContainerWriterOptions options;
  options.codec = codec;
  options.block_target_bytes = block_bytes;
  options.metadata = IcebergMetadata();
  options.random = &random;
  st::MemoryOutputStream out;
  auto writer = avro::ContainerWriter::Make(schema, options, &out);
  if (!writer) {
    std::cerr << name << ": " << writer.error().ToString() << "\n";
    return 1;
  }
  for (const Value& record : records) {
    st::Status s = (*writer)->Append(record);
    if (!s.ok()) {
      std::cerr << name << ": " << s.ToString() << "\n";
      return 1;
    }
  }
  st::Status s = (*writer)->Close();
  if (!s.ok()) {
    std::cerr << name << ": " << s.ToString() << "\n";
    return 1;
  }
  std::ofstream(dir + "/" + name + ".avro", std::ios::binary) << out.buffer();
  Json expected = Json::object();
  Json metadata = Json::object();
  for (const auto& [k, v] : IcebergMetadata()) metadata[k] = v;
  expected["metadata"] = metadata;
  expected["codec"] = std::string(avro::CodecName(codec));
  Json rows = Json::array();
  for (const Value& record : records) {
    rows.push_back(Json::parse(avro::testing::ValueToJson(schema.root(), record)));
  }
  expected["records"] = std::move(rows);
  std::ofstream(dir + "/" + name + ".expected.json") << expected.dump(1);
  return 0;
}

int WriteAll(const std::string& dir) {
  auto everything = avro::Schema::Parse(avro::testing::EverythingSchemaJson());
  if (!everything) {
    std::cerr << everything.error().ToString() << "\n";
    return 1;
  }
  auto manifest_list = ManifestListSchema();
  if (!manifest_list) {
    std::cerr << manifest_list.error().ToString() << "\n";
    return 1;
  }
  std::vector<Value> records = avro::testing::EverythingRecords(300);
  int rc = 0;
  rc |= WriteFile(dir, "everything_null", *everything, records, avro::Codec::kNull, 64 * 1024);
  rc |= WriteFile(dir, "everything_deflate", *everything, records, avro::Codec::kDeflate, 2048);
  rc |= WriteFile(dir, "empty_deflate", *everything, {}, avro::Codec::kDeflate, 2048);
  rc |= WriteFile(dir, "manifest_list", *manifest_list, ManifestListRecords(),
                  avro::Codec::kDeflate, 64 * 1024);
  return rc;
}

int ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto reader = avro::ContainerReader::Open(bytes);
  if (!reader) {
    std::cerr << path << ": " << reader.error().ToString() << "\n";
    return 1;
  }
  auto records = (*reader)->ReadAll();
  if (!records) {
    std::cerr << path << ": " << records.error().ToString() << "\n";
    return 1;
  }
  Json out = Json::object();
  Json metadata = Json::object();
  for (const auto& [k, v] : (*reader)->metadata()) metadata[k] = v;
  out["metadata"] = metadata;
  out["schema"] = Json::parse((*reader)->schema().ToJson());
  Json rows = Json::array();
  for (const Value& record : *records) {
    rows.push_back(Json::parse(avro::testing::ValueToJson((*reader)->schema().root(), record)));
  }
  out["records"] = std::move(rows);
  std::cout << out.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--read") return ReadFile(argv[2]);
  if (argc == 2) return WriteAll(argv[1]);
  std::cerr << "usage: avro_golden_writer DIR | avro_golden_writer --read FILE\n";
  return 2;
}
