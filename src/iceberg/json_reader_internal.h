// Strict typed access to JSON objects for the Iceberg JSON parsers. Every
// error is InvalidArgument and names the key and the object (`what`), so
// callers can re-code it (metadata files → Corruption) without rewording.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace st::iceberg::internal {

using Json = nlohmann::json;

class JsonReader {
 public:
  // `what` names the object in messages ("partition field", "table metadata").
  JsonReader(const Json& object, std::string what) : object_(object), what_(std::move(what)) {}

  // Errors when `object` is not a JSON object.
  Status CheckObject() const;
  bool Has(const char* key) const;  // Present and not null.
  const std::string& what() const { return what_; }

  Result<const Json*> Required(const char* key) const;
  Result<int32_t> Int32(const char* key) const;
  Result<int64_t> Int64(const char* key) const;
  Result<bool> Bool(const char* key) const;
  Result<std::string> String(const char* key) const;
  Result<const Json*> Array(const char* key) const;
  Result<const Json*> Object(const char* key) const;
  Result<std::map<std::string, std::string>> StringMap(const char* key) const;
  Result<std::vector<int32_t>> Int32List(const char* key) const;
  Result<std::vector<int64_t>> Int64List(const char* key) const;
  Result<std::vector<std::string>> StringList(const char* key) const;

  // Absent or null → nullopt; present with the wrong type → error.
  Result<std::optional<int32_t>> OptionalInt32(const char* key) const;
  Result<std::optional<int64_t>> OptionalInt64(const char* key) const;
  Result<std::optional<std::string>> OptionalString(const char* key) const;

  Status MissingKey(const char* key) const;
  Status WrongType(const char* key, const char* expected) const;

 private:
  const Json& object_;
  std::string what_;
};

// Re-codes a parse error as Corruption (for stored metadata), keeping the message.
inline Status AsCorruption(const Status& status) {
  return status.ok() ? status : Corruption(status.message());
}

}  // namespace st::iceberg::internal
