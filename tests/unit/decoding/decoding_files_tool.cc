// Test-only tool for tests/integration/test_decoding_files.py: decodes Kafka
// records given as JSON lines on stdin through PartitionedFileWriter into a
// local object store, so pyarrow can read the files back.
//
// Usage: decoding_files_tool <store_dir> <config.json>
//   config: {"format": "JSON"|"BYTE_ARRAY"|"STRING"|"AVRO_CONFLUENT", "avro_table_schema": str,
//            "writer_schemas": {"<id>": str}, "value_schema": <Iceberg schema JSON>,
//            "include_metadata": bool, "partition_source": str|null, "daily": bool,
//            "target_file_bytes": int (optional)}
//   stdin, one record per line: {"partition": int, "offset": int, "timestamp_ms": int,
//            "key_b64": str|null, "value_b64": str|null, "headers": [[key, value_b64|null], ...]}
// stdout: {"table_schema": ..., "spec": ...}, then per record {"offset": n, "error": code|null,
//         "message": str}, then per data file {"file": key, "partition": [...], "record_count": n}.
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "avro/schema.h"
#include "common/base64.h"
#include "common/random.h"
#include "decoding/avro_schema_mapping.h"
#include "decoding/channel_schema.h"
#include "decoding/partitioned_file_writer.h"
#include "decoding/text_scalars_internal.h"
#include "iceberg/json_serde.h"
#include "storage/local_object_store.h"

namespace {

using namespace st;  // NOLINT: test tool.

int Die(const std::string& message) {
  std::cerr << "decoding_files_tool: " << message << "\n";
  return 1;
}

std::string Base64(const nlohmann::json& j) {
  std::string out;
  if (!common::Base64DecodeAppend(j.get<std::string>(), &out, common::Base64Alphabet::kStandard,
                                  common::Base64Padding::kOptional))
    std::cerr << "bad base64\n";
  return out;
}

nlohmann::json PartitionJson(const Value& partition) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& v : partition.struct_value()) {
    if (v.is_null()) {
      out.push_back(nullptr);
    } else if (v.kind() == Value::Kind::kInt32) {
      out.push_back(v.int32_value());
    } else if (v.kind() == Value::Kind::kInt64) {
      out.push_back(v.int64_value());
    } else {
      out.push_back(v.bytes_value());
    }
  }
  return out;
}

int Run(int argc, char** argv) {
  if (argc != 3) return Die("usage: decoding_files_tool <store_dir> <config.json>");
  std::ifstream config_file(argv[2]);
  std::stringstream buffer;
  buffer << config_file.rdbuf();
  const auto config = nlohmann::json::parse(buffer.str());
  const std::string format_name = config.at("format");
  decoding::ValueFormat format = decoding::ValueFormat::kJson;
  if (format_name == "BYTE_ARRAY") format = decoding::ValueFormat::kByteArray;
  if (format_name == "STRING") format = decoding::ValueFormat::kString;
  if (format_name == "AVRO_CONFLUENT") format = decoding::ValueFormat::kAvroConfluent;
  std::optional<iceberg::Schema> value_schema;
  if (config.contains("value_schema") && !config["value_schema"].is_null()) {
    auto parsed = iceberg::SchemaFromJson(config["value_schema"]);
    if (!parsed) return Die(parsed.error().ToString());
    value_schema = *parsed;
  }
  // "avro_table_schema": Avro schema text mapped by AvroToIcebergSchema.
  if (config.contains("avro_table_schema")) {
    auto avro_schema = avro::Schema::Parse(config["avro_table_schema"].get<std::string>());
    if (!avro_schema) return Die(avro_schema.error().ToString());
    auto mapped = decoding::AvroToIcebergSchema(*avro_schema);
    if (!mapped) return Die(mapped.error().ToString());
    value_schema = *mapped;
  }
  std::optional<std::string> source;
  if (config.contains("partition_source") && !config["partition_source"].is_null()) {
    source = config["partition_source"].get<std::string>();
  }
  const bool include_metadata = config.value("include_metadata", true);
  auto schema = decoding::ChannelTableSchema(format, value_schema, include_metadata, source);
  if (!schema) return Die(schema.error().ToString());
  auto spec = decoding::ChannelPartitionSpec(*schema, config.value("daily", false), source);
  if (!spec) return Die(spec.error().ToString());
  std::cout << nlohmann::json{{"table_schema", iceberg::SchemaToJson(*schema)},
                              {"spec", iceberg::PartitionSpecToJson(*spec)}}
                   .dump()
            << "\n";

  auto store = storage::OpenLocalObjectStore(argv[1]);
  if (!store) return Die(store.error().ToString());
  iceberg::FileIO io(**store, "s3://bucket/", "");
  DefaultRandom random(1);
  decoding::WriterOptions options{.format = format,
                                  .schema = *schema,
                                  .spec = *spec,
                                  .include_metadata = include_metadata,
                                  .data_location = "s3://bucket/table/data"};
  // AVRO_CONFLUENT: "writer_schemas": {"<id>": "<Avro schema JSON text>"}.
  const auto writer_schemas = config.value("writer_schemas", nlohmann::json::object());
  options.writer_schemas = [writer_schemas](int32_t id) -> Result<decoding::WriterSchema> {
    const std::string key = std::to_string(id);
    if (!writer_schemas.contains(key)) return Err(NotFound("no writer schema " + key));
    return decoding::WriterSchema{decoding::WriterSchemaType::kAvro,
                                  writer_schemas[key].get<std::string>()};
  };
  options.target_file_bytes = config.value("target_file_bytes", int64_t{options.target_file_bytes});
  auto writer = decoding::PartitionedFileWriter::Make(options, io, random);
  if (!writer) return Die(writer.error().ToString());

  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    std::string key, value;
    std::vector<std::pair<std::string, std::optional<std::string>>> headers;
    decoding::KafkaRecord record;
    record.topic = "topic";
    record.partition = j.value("partition", 0);
    record.offset = j.value("offset", int64_t{0});
    record.timestamp_ms = j.value("timestamp_ms", int64_t{-1});
    if (j.contains("key_b64") && !j["key_b64"].is_null()) {
      key = Base64(j["key_b64"]);
      record.key = key;
    }
    if (!j["value_b64"].is_null()) {
      value = Base64(j["value_b64"]);
      record.value = value;
    }
    for (const auto& h : j.value("headers", nlohmann::json::array())) {
      headers.emplace_back(h[0].get<std::string>(), std::nullopt);
      if (!h[1].is_null()) headers.back().second = Base64(h[1]);
    }
    for (const auto& [k, v] : headers) {
      record.headers.push_back(
          {k, v ? std::optional<std::string_view>(*v) : std::optional<std::string_view>()});
    }
    auto added = (*writer)->Add(record);
    if (!added) return Die(added.error().ToString());
    nlohmann::json out{{"offset", record.offset}, {"error", nullptr}, {"message", ""}};
    if (*added) {
      out["error"] = (*added)->code;
      out["message"] = (*added)->message;
    }
    std::cout << out.dump() << "\n";
  }
  auto files = (*writer)->Finish();
  if (!files) return Die(files.error().ToString());
  for (const auto& f : *files) {
    auto key = io.KeyFor(f.file_path);
    std::cout << nlohmann::json{{"file", key ? *key : f.file_path},
                                {"partition", PartitionJson(f.partition)},
                                {"record_count", f.record_count}}
                     .dump()
              << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
