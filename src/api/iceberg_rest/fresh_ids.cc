#include <cstdint>
#include <map>
#include <set>

#include "api/iceberg_rest/fresh_ids_internal.h"

namespace st::api::iceberg_rest {

namespace {

class Renumbering {
 public:
  void Struct(nlohmann::json& type) {
    auto fields = type.find("fields");
    if (fields == type.end() || !fields->is_array()) return;
    for (nlohmann::json& field : *fields) {
      if (field.is_object()) Assign(field, "id");
    }
    for (nlohmann::json& field : *fields) {
      if (!field.is_object()) continue;
      auto nested = field.find("type");
      if (nested != field.end()) Type(*nested);
    }
  }

  // Rewrites `object[key]` (a source id) to its new id.
  Status Remap(nlohmann::json& object, const char* key) {
    auto value = object.find(key);
    if (value == object.end() || !value->is_number_integer()) return Status::OK();
    int64_t old_id = value->get<int64_t>();
    if (ambiguous_.count(old_id) != 0) {
      return InvalidArgument("CreateTableRequest: field id " + std::to_string(old_id) +
                             " appears more than once in the schema, so '" + key +
                             "' cannot name one column; give every field a distinct id.");
    }
    auto found = mapping_.find(old_id);
    if (found != mapping_.end()) *value = found->second;
    return Status::OK();
  }

  Status RemapArray(nlohmann::json& array) {
    if (!array.is_array()) return Status::OK();
    for (nlohmann::json& item : array) {
      nlohmann::json holder = {{"id", item}};
      ST_TRY(Remap(holder, "id"));
      item = holder["id"];
    }
    return Status::OK();
  }

 private:
  void Type(nlohmann::json& type) {
    if (!type.is_object()) return;  // A primitive type string.
    auto kind = type.find("type");
    if (kind == type.end() || !kind->is_string()) return;
    const std::string& name = kind->get_ref<const std::string&>();
    if (name == "struct") {
      Struct(type);
    } else if (name == "list") {
      Assign(type, "element-id");
      if (auto element = type.find("element"); element != type.end()) Type(*element);
    } else if (name == "map") {
      Assign(type, "key-id");
      Assign(type, "value-id");
      if (auto key = type.find("key"); key != type.end()) Type(*key);
      if (auto value = type.find("value"); value != type.end()) Type(*value);
    }
  }

  void Assign(nlohmann::json& object, const char* key) {
    auto value = object.find(key);
    if (value == object.end() || !value->is_number_integer()) return;
    int64_t old_id = value->get<int64_t>();
    int32_t new_id = ++last_id_;
    if (!mapping_.emplace(old_id, new_id).second) ambiguous_.insert(old_id);
    *value = new_id;
  }

  int32_t last_id_ = 0;
  std::map<int64_t, int32_t> mapping_;
  std::set<int64_t> ambiguous_;
};

Status RemapFields(Renumbering& renumbering, nlohmann::json* holder) {
  if (holder == nullptr || !holder->is_object()) return Status::OK();
  auto fields = holder->find("fields");
  if (fields == holder->end() || !fields->is_array()) return Status::OK();
  for (nlohmann::json& field : *fields) {
    if (field.is_object()) ST_TRY(renumbering.Remap(field, "source-id"));
  }
  return Status::OK();
}

}  // namespace

Status AssignFreshIds(nlohmann::json& schema, nlohmann::json* spec, nlohmann::json* order) {
  if (!schema.is_object()) return Status::OK();
  Renumbering renumbering;
  renumbering.Struct(schema);
  if (auto ids = schema.find("identifier-field-ids"); ids != schema.end()) {
    ST_TRY(renumbering.RemapArray(*ids));
  }
  ST_TRY(RemapFields(renumbering, spec));
  return RemapFields(renumbering, order);
}

}  // namespace st::api::iceberg_rest
