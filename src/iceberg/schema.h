// An Iceberg schema: a struct of fields with ids unique across all nesting
// levels, plus its schema-id and identifier field ids.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "iceberg/types.h"

namespace st::iceberg {

class Schema {
 public:
  // Validates: ids positive, <= 2147483447 and unique across the whole tree
  // (struct fields, list elements, map keys/values); names unique within a
  // struct and non-empty; identifier fields exist, are required primitives.
  // Errors: InvalidArgument naming the offending id or name.
  static Result<Schema> Make(int32_t schema_id, std::vector<NestedField> fields,
                             std::vector<int32_t> identifier_field_ids = {});

  int32_t schema_id() const { return schema_id_; }
  const std::vector<NestedField>& fields() const { return struct_type_->fields(); }
  const TypePtr& AsStruct() const { return struct_type_; }
  const std::vector<int32_t>& identifier_field_ids() const { return identifier_field_ids_; }

  // Any field at any depth by id; nullptr when absent.
  const NestedField* FindField(int32_t id) const;
  // A top-level or nested struct field by dotted name ("a.b"); nullptr when absent.
  const NestedField* FindFieldByName(std::string_view dotted_name) const;
  // Dotted name of the field with this id ("a.b", "l.element"), or "" if absent.
  std::string FieldPath(int32_t id) const;
  // The largest field id in the tree (0 for an empty schema).
  int32_t HighestFieldId() const { return highest_field_id_; }

  // Same fields and identifier ids (schema-id not compared).
  bool SameStructure(const Schema& other) const;

 private:
  Schema() = default;
  int32_t schema_id_ = 0;
  TypePtr struct_type_;
  std::vector<int32_t> identifier_field_ids_;
  std::unordered_map<int32_t, const NestedField*> by_id_;
  std::unordered_map<int32_t, std::string> path_by_id_;
  int32_t highest_field_id_ = 0;

  void Index();
};

}  // namespace st::iceberg
