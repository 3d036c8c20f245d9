// Shared by the schema sources; not for other modules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "avro/schema.h"
#include "common/status.h"

namespace st::avro::internal {

// Deepest schema nesting accepted (parsed or built): every record field,
// union branch, array items and map values is one level. Real schemas stay
// far below; Iceberg's own limit (iceberg/type_nesting.h kMaxTypeNesting) maps to
// at most 3 Avro levels per Iceberg type, and the schema's JSON text stays
// within common/json_nesting.h kMaxJsonNesting.
inline constexpr int kMaxSchemaDepth = 128;

// JSON helpers that keep nlohmann out of schema.cc.
std::string QuoteJsonString(std::string_view text);
std::optional<int64_t> JsonToInt(const std::string& json);
std::optional<std::string> JsonToString(const std::string& json);
bool IsValidJson(std::string_view json);

// Named types defined outside the tree (full name → a validated definition),
// for names the tree refers to without defining them: Confluent schema
// references.
using ExternalNames = std::unordered_map<std::string, NodePtr>;

// Validates the tree under `root` and returns a resolved deep copy (see
// Schema::Make). A name the tree does not define but `external` does is
// copied in as that definition at its first use (a reference after it).
Result<NodePtr> ValidateAndCopy(const NodePtr& root, const ExternalNames* external = nullptr);

}  // namespace st::avro::internal
