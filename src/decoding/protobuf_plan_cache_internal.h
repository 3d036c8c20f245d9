// Parsed Protobuf writer schemas and compiled decode plans, per (schema id,
// message indexes, table schema id): each is fetched, parsed and resolved
// onto the table once, however many records carry it. The schema id is the
// Confluent id's decimal text or the GSR schema version UUID.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "common/status.h"
#include "decoding/protobuf_decode_plan_internal.h"
#include "decoding/writer_schema.h"

namespace st::decoding {

// How a record names its message type: Confluent's path of indexes (the
// top-level message, then nested ones), or the Glue Schema Registry's one
// index into every message type of the file sorted by full name
// (GsrProtobufMessagePath).
enum class ProtoMessageSelection : uint8_t { kConfluentPath, kGsrIndex };

struct ProtoWriterVersion {
  // Null when records of this version cannot be written; `code` (a record.h
  // code: SCHEMA_MISMATCH for a schema that is not Protobuf or does not
  // parse, MALFORMED_PROTOBUF for message indexes naming no message,
  // SCHEMA_INCOMPATIBLE when it does not resolve onto the table) and
  // `message` say why.
  std::unique_ptr<ProtoPlan> plan;
  std::string code;
  std::string message;
};

// Not thread-safe (one per writer). Entries stay for the cache's lifetime;
// at most kMaxEntries, then versions are compiled per record (uncached).
class ProtoPlanCache {
 public:
  using Fetch = std::function<Result<WriterSchema>()>;
  static constexpr size_t kMaxEntries = 4096;

  // nullptr when fetch says NotFound (not cached); fetch's other errors are
  // returned (not cached). The pointer stays valid until the next Get.
  // With `target` (a node of `plan`), the message is resolved onto it rather
  // than onto the value columns (a typed `_kafka.key`; one cache per target).
  // kGsrIndex: `message_indexes` holds the one GSR index (one cache per
  // selection: the key does not say which).
  Result<const ProtoWriterVersion*> Get(
      const std::string& schema_id, const std::vector<int32_t>& message_indexes,
      int32_t table_schema_id, const ShredPlan& plan, const Fetch& fetch,
      const ShredNode* target = nullptr,
      ProtoMessageSelection selection = ProtoMessageSelection::kConfluentPath);

 private:
  using Key = std::tuple<std::string, std::vector<int32_t>, int32_t>;
  std::map<Key, ProtoWriterVersion> versions_;
  ProtoWriterVersion uncached_;
};

}  // namespace st::decoding
