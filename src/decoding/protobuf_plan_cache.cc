#include "decoding/protobuf_plan_cache_internal.h"
#include "decoding/protobuf_schema.h"
#include "decoding/record.h"

namespace st::decoding {

Result<const ProtoWriterVersion*> ProtoPlanCache::Get(const std::string& schema_id,
                                                      const std::vector<int32_t>& message_indexes,
                                                      int32_t table_schema_id,
                                                      const ShredPlan& plan, const Fetch& fetch,
                                                      const ShredNode* target,
                                                      ProtoMessageSelection selection) {
  Key key{schema_id, message_indexes, table_schema_id};
  if (auto it = versions_.find(key); it != versions_.end()) return &it->second;
  Result<WriterSchema> fetched = fetch();
  const std::string& id = schema_id;
  if (!fetched) {
    if (fetched.error().code() == StatusCode::kNotFound) {
      return static_cast<const ProtoWriterVersion*>(nullptr);
    }
    return Err(fetched.error().WithContext("looking up writer schema " + id));
  }
  ProtoWriterVersion version;
  // GSR: the one index (a uint32 stored bit for bit) becomes the path
  // ParseProtoSchema walks.
  Result<std::vector<int32_t>> path = message_indexes;
  if (selection == ProtoMessageSelection::kGsrIndex &&
      fetched->type == WriterSchemaType::kProtobuf && message_indexes.size() == 1) {
    path = GsrProtobufMessagePath(*fetched, static_cast<uint32_t>(message_indexes[0]));
  }
  if (fetched->type != WriterSchemaType::kProtobuf) {
    version.code = std::string(kSchemaMismatch);
    version.message = "writer schema " + id + " is " +
                      (fetched->type == WriterSchemaType::kAvro ? "an AVRO" : "a JSON") +
                      " schema; this channel decodes Protobuf";
  } else if (!path) {
    const bool bad_index = path.error().code() == StatusCode::kNotFound;
    version.code = std::string(bad_index ? kMalformedProtobuf : kSchemaMismatch);
    version.message = "writer schema " + id + ": " + path.error().message();
  } else if (auto parsed = ParseProtoSchema(*fetched, *path); !parsed) {
    const bool bad_index = parsed.error().code() == StatusCode::kNotFound;
    version.code = std::string(bad_index ? kMalformedProtobuf : kSchemaMismatch);
    version.message = "writer schema " + id + ": " + parsed.error().message();
  } else if (auto compiled = target != nullptr ? CompileProtoPlanOnto(std::move(*parsed), *target)
                                               : CompileProtoPlan(std::move(*parsed), plan);
             !compiled) {
    version.code = std::string(kSchemaIncompatible);
    version.message = "writer schema " + id + ": " + compiled.error().message();
  } else {
    version.plan = std::make_unique<ProtoPlan>(std::move(*compiled));
  }
  if (versions_.size() >= kMaxEntries) {
    uncached_ = std::move(version);
    return &uncached_;
  }
  return &versions_.emplace(std::move(key), std::move(version)).first->second;
}

}  // namespace st::decoding
