// Avro schemas: a tree of Nodes, built in code or parsed from JSON, validated
// and frozen into a Schema.
//
// Iceberg depends on attributes the Avro spec does not define (`field-id` on
// record fields, `element-id` on arrays, `key-id`/`value-id` on maps,
// `adjust-to-utc`, ...). Every attribute that is not part of the Avro spec is
// kept, in order, as raw JSON text and written back by Schema::ToJson().
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace st::avro {

enum class Type {
  kNull,
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kBytes,
  kString,
  kRecord,
  kEnum,
  kArray,
  kMap,
  kUnion,
  kFixed,
  kReference,  // A use of a named type (record, enum, fixed) defined elsewhere.
};

// The Avro spelling ("int", "record", ...); "reference" for kReference.
std::string_view TypeName(Type type);

// Non-standard JSON attributes, in insertion order, each value kept as JSON text.
class Attributes {
 public:
  // `json` must be valid JSON text (an InvalidArgument surfaces in Schema::Make otherwise).
  void SetJson(std::string key, std::string json);
  void SetInt(std::string key, int64_t value);
  void SetBool(std::string key, bool value);
  void SetString(std::string key, std::string_view value);
  void Remove(std::string_view key);

  // The JSON text of `key`, or nullptr.
  const std::string* FindJson(std::string_view key) const;
  // Typed reads; nullopt when absent or of another JSON type.
  std::optional<int64_t> GetInt(std::string_view key) const;
  std::optional<bool> GetBool(std::string_view key) const;
  std::optional<std::string> GetString(std::string_view key) const;

  const std::vector<std::pair<std::string, std::string>>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
};

struct Node;
// Nodes are mutable while a schema is being built; Schema::Make copies them.
using NodePtr = std::shared_ptr<Node>;

struct Field {
  std::string name;
  NodePtr type;
  std::string doc;
  // JSON text of "default", if any (e.g. "null" for Iceberg optional fields).
  std::optional<std::string> default_json;
  // Everything else on the field: `field-id`, `aliases`, `order`, custom keys.
  Attributes attributes;
};

struct Node {
  Type type = Type::kNull;

  // Named types (record, enum, fixed): the name as written; may contain dots.
  std::string name;
  // Explicit "namespace" attribute; empty when inherited or absent.
  std::string name_space;
  // An explicit "namespace": "" — the null namespace, not the enclosing one.
  bool null_namespace = false;
  std::string doc;

  std::vector<Field> fields;                // kRecord.
  std::vector<std::string> symbols;         // kEnum.
  std::optional<std::string> enum_default;  // kEnum "default" symbol.
  NodePtr items;                            // kArray.
  NodePtr values;                           // kMap.
  std::vector<NodePtr> branches;            // kUnion.
  int64_t fixed_size = 0;                   // kFixed.
  std::string reference;                    // kReference: the name as written.

  // "logicalType", or empty. Unknown or invalid logical types are kept and
  // written back but do not change how values are encoded (as the spec says).
  std::string logical_type;
  // "precision" / "scale" for the decimal logical type (0 when absent).
  int32_t precision = 0;
  int32_t scale = 0;
  bool has_precision = false;
  bool has_scale = false;

  // Non-standard attributes: `element-id`, `key-id`, `value-id`, `adjust-to-utc`, ...
  Attributes attributes;

  // Filled by Schema::Make; do not set by hand.
  std::string full_name;           // Named types: namespace-qualified name.
  const Node* resolved = nullptr;  // kReference: the definition it names.
  int64_t min_encoded_bytes = 0;   // Lower bound on the encoded size of a value.
  bool is_decimal = false;         // Valid decimal (precision 1..38) on bytes/fixed.
  bool is_logical_map = false;     // Array of {key, value} records with logicalType "map".

  // Follows a reference to its definition (identity for other nodes).
  const Node& Resolve() const { return type == Type::kReference ? *resolved : *this; }
};

// Builders for schemas written in code. Names follow Avro rules
// ([A-Za-z_][A-Za-z0-9_]*, dotted for full names); Schema::Make checks them.
NodePtr MakePrimitive(Type type);
NodePtr MakeNull();
NodePtr MakeBoolean();
NodePtr MakeInt();
NodePtr MakeLong();
NodePtr MakeFloat();
NodePtr MakeDouble();
NodePtr MakeBytes();
NodePtr MakeString();
NodePtr MakeRecord(std::string name, std::vector<Field> fields);
NodePtr MakeEnum(std::string name, std::vector<std::string> symbols);
NodePtr MakeFixed(std::string name, int64_t size);
NodePtr MakeArray(NodePtr items);
NodePtr MakeMap(NodePtr values);
NodePtr MakeUnion(std::vector<NodePtr> branches);
// ["null", type]: Iceberg's optional value.
NodePtr MakeOptional(NodePtr type);
NodePtr MakeReference(std::string name);
// Sets logicalType (and returns the node, for chaining).
NodePtr WithLogicalType(NodePtr node, std::string logical_type);
// bytes or fixed with logicalType decimal.
NodePtr MakeDecimal(NodePtr bytes_or_fixed, int32_t precision, int32_t scale);
// Iceberg int-keyed map: array<record{key, value}> with logicalType "map",
// key/value field ids on the record fields.
NodePtr MakeLogicalMap(std::string record_name, NodePtr key, int32_t key_id, NodePtr value,
                       int32_t value_id);

// The names in a field's "aliases" attribute (an array of strings; anything
// else yields none), as written (possibly namespace-qualified).
std::vector<std::string> FieldAliases(const Field& field);

// A required field, with `field-id` when given.
Field MakeField(std::string name, NodePtr type, std::optional<int32_t> field_id = std::nullopt);
// An optional field: type ["null", type], "default": null, `field-id` when given.
Field MakeOptionalField(std::string name, NodePtr type,
                        std::optional<int32_t> field_id = std::nullopt);

// A validated, immutable schema. Cheap to copy (shares the node tree).
// Thread-safe for concurrent readers.
class Schema {
 public:
  // The schema "null".
  Schema();
  // Parses Avro JSON schema text. Errors: InvalidArgument for malformed JSON,
  // unknown types, bad names, duplicate field names or named types,
  // unresolved names, unions with duplicate branch types or nested unions,
  // bad fixed sizes, enum problems, schemas nested deeper than 200 levels.
  static Result<Schema> Parse(std::string_view json);
  // As Parse, for a schema whose named types may come from other schemas
  // (Confluent schema references, in dependency order: each may use the
  // types of the ones before it). A referenced type is defined inline at its
  // first use, so the result stands alone. Errors: as Parse, naming the
  // reference that does not parse.
  static Result<Schema> Parse(std::string_view json,
                              const std::vector<std::string_view>& referenced);
  // Validates a schema built in code (same errors as Parse). The tree is
  // copied; later edits to `root` do not affect the Schema. A node pointer
  // that occurs twice is written as a reference after its first occurrence.
  static Result<Schema> Make(const NodePtr& root);

  const Node& root() const { return *root_; }

  // Compact JSON with every attribute; Parse(ToJson()) yields an equal schema.
  std::string ToJson() const;

 private:
  explicit Schema(std::shared_ptr<const Node> root) : root_(std::move(root)) {}
  std::shared_ptr<const Node> root_;
};

}  // namespace st::avro
