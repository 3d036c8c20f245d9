#include <limits>

#include "iceberg/json_reader_internal.h"

namespace st::iceberg::internal {

namespace {

// nlohmann keeps non-negative integers as unsigned; both count as integers
// as long as they fit the target.
template <typename T>
std::optional<T> AsInteger(const Json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) return std::nullopt;
    return static_cast<T>(u);
  }
  if (v.is_number_integer()) {
    const auto i = v.get<int64_t>();
    if (i < std::numeric_limits<T>::min() || i > std::numeric_limits<T>::max()) return std::nullopt;
    return static_cast<T>(i);
  }
  return std::nullopt;
}

}  // namespace

Status JsonReader::CheckObject() const {
  if (!object_.is_object()) return InvalidArgument(what_ + " must be a JSON object");
  return Status::OK();
}

bool JsonReader::Has(const char* key) const {
  if (!object_.is_object()) return false;
  auto it = object_.find(key);
  return it != object_.end() && !it->is_null();
}

Status JsonReader::MissingKey(const char* key) const {
  return InvalidArgument(what_ + ": missing required key '" + key + "'");
}

Status JsonReader::WrongType(const char* key, const char* expected) const {
  return InvalidArgument(what_ + ": key '" + key + "' must be " + expected);
}

Result<const Json*> JsonReader::Required(const char* key) const {
  ST_TRY(CheckObject());
  auto it = object_.find(key);
  if (it == object_.end() || it->is_null()) return Err(MissingKey(key));
  return &*it;
}

#define ST_JSON_INTEGER_GETTER(Name, T, Label)                                 \
  Result<T> JsonReader::Name(const char* key) const {                          \
    ST_ASSIGN_OR_RETURN(const Json* v, Required(key));                         \
    auto n = AsInteger<T>(*v);                                                 \
    if (!n) return Err(WrongType(key, Label));                                 \
    return *n;                                                                 \
  }                                                                            \
  Result<std::optional<T>> JsonReader::Optional##Name(const char* key) const { \
    if (!Has(key)) return std::optional<T>();                                  \
    ST_ASSIGN_OR_RETURN(T v, Name(key));                                       \
    return std::optional<T>(v);                                                \
  }
ST_JSON_INTEGER_GETTER(Int32, int32_t, "a 32-bit integer")
ST_JSON_INTEGER_GETTER(Int64, int64_t, "a 64-bit integer")
#undef ST_JSON_INTEGER_GETTER

Result<bool> JsonReader::Bool(const char* key) const {
  ST_ASSIGN_OR_RETURN(const Json* v, Required(key));
  if (!v->is_boolean()) return Err(WrongType(key, "a boolean"));
  return v->get<bool>();
}

Result<std::string> JsonReader::String(const char* key) const {
  ST_ASSIGN_OR_RETURN(const Json* v, Required(key));
  if (!v->is_string()) return Err(WrongType(key, "a string"));
  return v->get<std::string>();
}

Result<std::optional<std::string>> JsonReader::OptionalString(const char* key) const {
  if (!Has(key)) return std::optional<std::string>();
  ST_ASSIGN_OR_RETURN(std::string v, String(key));
  return std::optional<std::string>(std::move(v));
}

Result<const Json*> JsonReader::Array(const char* key) const {
  ST_ASSIGN_OR_RETURN(const Json* v, Required(key));
  if (!v->is_array()) return Err(WrongType(key, "an array"));
  return v;
}

Result<const Json*> JsonReader::Object(const char* key) const {
  ST_ASSIGN_OR_RETURN(const Json* v, Required(key));
  if (!v->is_object()) return Err(WrongType(key, "an object"));
  return v;
}

Result<std::map<std::string, std::string>> JsonReader::StringMap(const char* key) const {
  ST_ASSIGN_OR_RETURN(const Json* v, Object(key));
  std::map<std::string, std::string> out;
  for (auto it = v->begin(); it != v->end(); ++it) {
    if (!it->is_string()) {
      return Err(InvalidArgument(what_ + ": value of '" + it.key() + "' in '" + key +
                                 "' must be a string"));
    }
    out.emplace(it.key(), it->get<std::string>());
  }
  return out;
}

Result<std::vector<int32_t>> JsonReader::Int32List(const char* key) const {
  ST_ASSIGN_OR_RETURN(const Json* v, Array(key));
  std::vector<int32_t> out;
  for (const auto& e : *v) {
    auto n = AsInteger<int32_t>(e);
    if (!n) return Err(WrongType(key, "an array of 32-bit integers"));
    out.push_back(*n);
  }
  return out;
}

Result<std::vector<int64_t>> JsonReader::Int64List(const char* key) const {
  ST_ASSIGN_OR_RETURN(const Json* v, Array(key));
  std::vector<int64_t> out;
  for (const auto& e : *v) {
    auto n = AsInteger<int64_t>(e);
    if (!n) return Err(WrongType(key, "an array of 64-bit integers"));
    out.push_back(*n);
  }
  return out;
}

Result<std::vector<std::string>> JsonReader::StringList(const char* key) const {
  ST_ASSIGN_OR_RETURN(const Json* v, Array(key));
  std::vector<std::string> out;
  for (const auto& e : *v) {
    if (!e.is_string()) return Err(WrongType(key, "an array of strings"));
    out.push_back(e.get<std::string>());
  }
  return out;
}

}  // namespace st::iceberg::internal
