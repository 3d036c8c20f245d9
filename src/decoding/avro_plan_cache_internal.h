// Parsed writer schemas and compiled decode plans, per (writer schema id,
// table schema id): each schema is fetched, parsed and resolved onto the
// table once, however many records carry its id.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "avro/schema.h"
#include "common/status.h"
#include "decoding/avro_decode_plan_internal.h"
#include "decoding/writer_schema.h"

namespace st::decoding {

struct AvroWriterVersion {
  avro::Schema schema;
  // Null when records of this version cannot be written; `code` (a record.h
  // code: SCHEMA_MISMATCH for a schema that is not Avro or does not parse,
  // SCHEMA_INCOMPATIBLE when it does not resolve onto the table) and
  // `message` say why.
  std::unique_ptr<AvroStep> plan;
  std::string code;
  std::string message;
};

// Not thread-safe (one per writer). Entries stay for the cache's lifetime:
// their number is bounded by the versions registered for the topic.
class AvroPlanCache {
 public:
  using Fetch = std::function<Result<WriterSchema>()>;

  // The version `writer_id` (its text form, for messages) resolved onto
  // `plan` (the table schema `table_schema_id`), calling `fetch` the first
  // time. nullptr when fetch says NotFound (not cached: it may appear);
  // fetch's other errors are returned (not cached). With `target` (a node of
  // `plan`), the version is resolved onto it rather than onto the value
  // columns (a typed `_kafka.key`; use one cache per target).
  Result<const AvroWriterVersion*> Get(const std::string& writer_id, int32_t table_schema_id,
                                       const ShredPlan& plan, const Fetch& fetch,
                                       const ShredNode* target = nullptr);

 private:
  std::map<std::pair<std::string, int32_t>, AvroWriterVersion> versions_;
};

}  // namespace st::decoding
