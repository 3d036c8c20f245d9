// The seam between the decoder and a Confluent-compatible schema registry:
// how the writer schema of a framed record is found. The delivery wiring
// (the built-in registry or an external one) supplies the function.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace st::decoding {

// The registry's schemaType.
enum class WriterSchemaType { kAvro, kProtobuf, kJson };

struct WriterSchema {
  WriterSchemaType type = WriterSchemaType::kAvro;
  std::string text;  // The schema as registered (Avro: JSON schema text).
  // Protobuf: the files the schema imports, transitively, as (import name,
  // schema text) from its registry references.
  std::vector<std::pair<std::string, std::string>> references;
};

// Resolves a Confluent schema id (the 4 bytes after the magic byte) to its
// schema. Called from the writer's thread, at most once per id per writer
// while it answers (answers are cached). NotFound → the record is
// SCHEMA_NOT_FOUND (not cached: the id may be registered later); any other
// error is returned from PartitionedFileWriter::Add() as a Status (transient:
// retry the record).
using WriterSchemaLookup = std::function<Result<WriterSchema>(int32_t schema_id)>;

}  // namespace st::decoding
