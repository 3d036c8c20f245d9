#include "iceberg/schema.h"

#include <functional>
#include <unordered_set>

#include "iceberg/type_nesting.h"

namespace st::iceberg {

namespace {
constexpr int64_t kMaxFieldId = 2147483447;

// `depth`: the nesting level a nested type among `fields` would have.
Status ValidateFields(const std::vector<NestedField>& fields, bool check_names,
                      std::unordered_set<int32_t>& seen, int depth) {
  std::unordered_set<std::string> names;
  for (const auto& f : fields) {
    if (f.id <= 0 || f.id > kMaxFieldId) {
      return InvalidArgument("field '" + f.name + "' has id " + std::to_string(f.id) +
                             "; field ids must be in 1..2147483447");
    }
    if (!seen.insert(f.id).second) {
      return InvalidArgument("duplicate field id " + std::to_string(f.id) + " (field '" + f.name +
                             "'); ids must be unique across the whole schema");
    }
    if (!f.type) return InvalidArgument("field '" + f.name + "' has no type");
    if (check_names) {
      if (f.name.empty())
        return InvalidArgument("field id " + std::to_string(f.id) + " has an empty name");
      if (!names.insert(f.name).second) {
        return InvalidArgument("duplicate field name '" + f.name + "' in one struct");
      }
    }
    if (f.type->is_nested()) {
      if (depth > kMaxTypeNesting) {
        return InvalidArgument("field '" + f.name + "' (id " + std::to_string(f.id) +
                               ") nests types deeper than " + std::to_string(kMaxTypeNesting) +
                               " levels (struct, list and map each add one); flatten the schema");
      }
      ST_TRY(ValidateFields(f.type->fields(), f.type->id() == TypeId::kStruct, seen, depth + 1));
    }
  }
  return Status::OK();
}
}  // namespace

Result<Schema> Schema::Make(int32_t schema_id, std::vector<NestedField> fields,
                            std::vector<int32_t> identifier_field_ids) {
  std::unordered_set<int32_t> seen;
  ST_TRY(ValidateFields(fields, true, seen, 1));
  Schema schema;
  schema.schema_id_ = schema_id;
  schema.struct_type_ = Type::Struct(std::move(fields));
  schema.identifier_field_ids_ = std::move(identifier_field_ids);
  schema.Index();
  for (int32_t id : schema.identifier_field_ids_) {
    const NestedField* f = schema.FindField(id);
    if (f == nullptr) {
      return Err(
          InvalidArgument("identifier field id " + std::to_string(id) + " is not in the schema"));
    }
    if (!f->required || !f->type->is_primitive()) {
      return Err(
          InvalidArgument("identifier field '" + f->name + "' must be a required primitive"));
    }
  }
  return schema;
}

void Schema::Index() {
  std::function<void(const std::vector<NestedField>&, const std::string&)> walk =
      [&](const std::vector<NestedField>& fields, const std::string& prefix) {
        for (const auto& f : fields) {
          std::string path = prefix.empty() ? f.name : prefix + "." + f.name;
          by_id_[f.id] = &f;
          path_by_id_[f.id] = path;
          if (f.id > highest_field_id_) highest_field_id_ = f.id;
          if (f.type->is_nested()) walk(f.type->fields(), path);
        }
      };
  walk(struct_type_->fields(), "");
}

const NestedField* Schema::FindField(int32_t id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : it->second;
}

const NestedField* Schema::FindFieldByName(std::string_view dotted_name) const {
  for (const auto& [id, path] : path_by_id_) {
    if (path == dotted_name) return FindField(id);
  }
  return nullptr;
}

std::string Schema::FieldPath(int32_t id) const {
  auto it = path_by_id_.find(id);
  return it == path_by_id_.end() ? std::string() : it->second;
}

bool Schema::SameStructure(const Schema& other) const {
  return *struct_type_ == *other.struct_type_ &&
         identifier_field_ids_ == other.identifier_field_ids_;
}

}  // namespace st::iceberg
