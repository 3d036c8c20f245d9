#include "decoding/avro_plan_cache_internal.h"
#include "decoding/avro_schema_mapping.h"
#include "decoding/record.h"

namespace st::decoding {

Result<const AvroWriterVersion*> AvroPlanCache::Get(const std::string& writer_id,
                                                    int32_t table_schema_id, const ShredPlan& plan,
                                                    const Fetch& fetch, const ShredNode* target) {
  auto key = std::make_pair(writer_id, table_schema_id);
  if (auto it = versions_.find(key); it != versions_.end()) return &it->second;
  Result<WriterSchema> fetched = fetch();
  if (!fetched) {
    if (fetched.error().code() == StatusCode::kNotFound) {
      return static_cast<const AvroWriterVersion*>(nullptr);
    }
    return Err(fetched.error().WithContext("looking up writer schema " + writer_id));
  }
  AvroWriterVersion version;
  if (fetched->type != WriterSchemaType::kAvro) {
    version.code = std::string(kSchemaMismatch);
    version.message = "writer schema " + writer_id + " is a " +
                      (fetched->type == WriterSchemaType::kProtobuf ? "PROTOBUF" : "JSON") +
                      " schema; this channel decodes Avro";
  } else if (auto parsed = ParseAvroWriterSchema(*fetched); !parsed) {
    version.code = std::string(kSchemaMismatch);
    version.message =
        "writer schema " + writer_id + " is not a valid Avro schema: " + parsed.error().message();
  } else {
    version.schema = std::move(*parsed);
    auto compiled = target != nullptr ? CompileAvroPlanOnto(version.schema, *target)
                                      : CompileAvroPlan(version.schema, plan);
    if (compiled) {
      version.plan = std::make_unique<AvroStep>(std::move(*compiled));
    } else {
      version.code = std::string(kSchemaIncompatible);
      version.message = "writer schema " + writer_id + ": " + compiled.error().message();
    }
  }
  return &versions_.emplace(std::move(key), std::move(version)).first->second;
}

}  // namespace st::decoding
