#include "decoding/json_schema_evolution.h"

#include <string_view>
#include <utility>
#include <vector>

#include "decoding/channel_schema.h"

namespace st::decoding {
namespace {

using iceberg::NestedField;
using iceberg::Type;
using iceberg::TypeId;
using iceberg::TypePtr;

Status Differs(const std::string& path, const std::string& what) {
  return FailedPrecondition("field " + path + " " + what);
}

// `type` with every nested id replaced by the next fresh one: a struct's
// fields first, then each field's nested types, as Iceberg Java assigns them.
TypePtr Renumber(const TypePtr& type, int32_t* next) {
  switch (type->id()) {
    case TypeId::kStruct: {
      std::vector<NestedField> fields = type->fields();
      for (NestedField& f : fields) f.id = (*next)++;
      for (NestedField& f : fields) f.type = Renumber(f.type, next);
      return Type::Struct(std::move(fields));
    }
    case TypeId::kList: {
      const int32_t element_id = (*next)++;
      return Type::List(element_id, type->element().required, Renumber(type->element().type, next));
    }
    case TypeId::kMap: {
      const int32_t key_id = (*next)++;
      const int32_t value_id = (*next)++;
      return Type::Map(key_id, Renumber(type->key().type, next), value_id, type->value().required,
                       Renumber(type->value().type, next));
    }
    default:
      return type;
  }
}

class Merger {
 public:
  explicit Merger(int32_t highest_id) : next_id_(highest_id + 1) {}
  bool changed() const { return changed_; }

  // The table's struct `table` extended with `version`'s new optional fields.
  Result<std::vector<NestedField>> MergeFields(const std::vector<NestedField>& table,
                                               const std::vector<NestedField>& version,
                                               const std::string& prefix, bool top) {
    std::vector<NestedField> out;
    for (const NestedField& t : table) {
      if (top && t.name == kKafkaMetadataColumn) continue;  // Re-added last.
      const std::string path = prefix + t.name;
      const NestedField* v = Find(version, t.name);
      if (v == nullptr) {
        if (t.required)
          return Err(Differs(path, "is required in the table and not in the version"));
        out.push_back(t);
        continue;
      }
      NestedField merged = t;
      // Required in the table, optional in the version: the column becomes
      // optional (Iceberg allows it). The other way the version's records
      // always fill the optional column: nothing changes.
      if (t.required && !v->required) {
        merged.required = false;
        changed_ = true;
      }
      ST_ASSIGN_OR_RETURN(merged.type, MergeType(t.type, v->type, path));
      out.push_back(std::move(merged));
    }
    std::vector<NestedField> added;
    for (const NestedField& v : version) {
      if (top && v.name == kKafkaMetadataColumn) continue;
      if (Find(table, v.name) != nullptr) continue;
      if (v.required) {
        return Err(Differs(prefix + v.name, "is new and required; a new field must be optional"));
      }
      added.push_back(v);
    }
    // Fresh ids: the new fields of this struct first, then their nested types.
    for (NestedField& f : added) f.id = next_id_++;
    for (NestedField& f : added) {
      f.type = Renumber(f.type, &next_id_);
      changed_ = true;
      out.push_back(std::move(f));
    }
    if (top) {
      if (const NestedField* kafka = Find(table, kKafkaMetadataColumn)) out.push_back(*kafka);
    }
    return out;
  }

 private:
  static const NestedField* Find(const std::vector<NestedField>& fields, std::string_view name) {
    for (const NestedField& f : fields) {
      if (f.name == name) return &f;
    }
    return nullptr;
  }

  // Iceberg's type promotions: int → long, float → double, decimal(P,S) →
  // decimal(P',S) with P' > P.
  static bool Promotes(const Type& from, const Type& to) {
    if (from.id() == TypeId::kInt) return to.id() == TypeId::kLong;
    if (from.id() == TypeId::kFloat) return to.id() == TypeId::kDouble;
    if (from.id() == TypeId::kDecimal) {
      return to.id() == TypeId::kDecimal && to.scale() == from.scale() &&
             to.precision() > from.precision();
    }
    return false;
  }

 public:
  // `table` merged with `version` (a field's type, or a wrapped JSON key's).
  Result<TypePtr> MergeType(const TypePtr& table, const TypePtr& version, const std::string& path) {
    if (table->is_primitive() && version->is_primitive() && !(*table == *version)) {
      // A wider version type widens the column; a narrower one fits it (the
      // JSON shredder reads number text into the column's type).
      if (Promotes(*table, *version)) {
        changed_ = true;
        return version;
      }
      if (Promotes(*version, *table)) return table;
    }
    if (table->id() != version->id() || (table->is_primitive() && !(*table == *version))) {
      return Err(Differs(path, "is " + table->ToString() + " in the table and " +
                                   version->ToString() + " in the version"));
    }
    switch (table->id()) {
      case TypeId::kStruct: {
        ST_ASSIGN_OR_RETURN(std::vector<NestedField> fields,
                            MergeFields(table->fields(), version->fields(), path + ".", false));
        return Type::Struct(std::move(fields));
      }
      case TypeId::kList: {
        ST_ASSIGN_OR_RETURN(TypePtr element, MergeType(table->element().type,
                                                       version->element().type, path + ".element"));
        return Type::List(table->element().id,
                          Relaxed(table->element().required, version->element().required),
                          std::move(element));
      }
      case TypeId::kMap: {
        if (!(*table->key().type == *version->key().type)) {
          return Err(Differs(path, "has another key type in the version"));
        }
        ST_ASSIGN_OR_RETURN(TypePtr value,
                            MergeType(table->value().type, version->value().type, path + ".value"));
        return Type::Map(table->key().id, table->key().type, table->value().id,
                         Relaxed(table->value().required, version->value().required),
                         std::move(value));
      }
      default:
        return table;
    }
  }

 private:
  // A list element's or map value's requiredness: relaxed when the version
  // admits nulls the table does not.
  bool Relaxed(bool table_required, bool version_required) {
    if (table_required && !version_required) {
      changed_ = true;
      return false;
    }
    return table_required;
  }

  int32_t next_id_;
  bool changed_ = false;
};

}  // namespace

Result<JsonSchemaEvolution> EvolveForJsonSchema(const iceberg::Schema& table,
                                                const iceberg::Schema& version) {
  Merger merger(table.HighestFieldId());
  ST_ASSIGN_OR_RETURN(std::vector<NestedField> fields,
                      merger.MergeFields(table.fields(), version.fields(), "", true));
  if (!merger.changed()) return JsonSchemaEvolution{table, false};
  ST_ASSIGN_OR_RETURN(iceberg::Schema evolved,
                      iceberg::Schema::Make(table.schema_id() + 1, std::move(fields),
                                            table.identifier_field_ids()));
  return JsonSchemaEvolution{std::move(evolved), true};
}

Result<JsonSchemaEvolution> EvolveKeyForJsonSchema(const iceberg::Schema& table,
                                                   const iceberg::Schema& key_version,
                                                   bool wrapped) {
  ST_ASSIGN_OR_RETURN(const NestedField* key, KafkaKeyOf(table));
  const std::string key_path = std::string(kKafkaMetadataColumn) + ".key";
  if (wrapped && key_version.fields().size() != 1) {
    return Err(InvalidArgument("a wrapped JSON key mapping has exactly one field"));
  }
  const TypePtr version_type = wrapped ? key_version.fields()[0].type : nullptr;
  NestedField evolved;
  if (key == nullptr) {
    // A new optional member: its id first, then the struct's, as Iceberg
    // numbers a new field.
    int32_t next_id = table.HighestFieldId() + 1;
    evolved = NestedField{next_id++, "key", false, nullptr, "Kafka record key"};
    evolved.type = Renumber(wrapped ? version_type : Type::Struct(key_version.fields()), &next_id);
  } else if (wrapped || key->type->id() != TypeId::kStruct) {
    if (!wrapped) {
      return Err(Differs(
          key_path, "is " + key->type->ToString() + " in the table and an object in the version"));
    }
    if (key->type->id() == TypeId::kStruct) {
      return Err(Differs(key_path, "is " + key->type->ToString() + " in the table and " +
                                       version_type->ToString() + " in the version"));
    }
    Merger merger(table.HighestFieldId());
    ST_ASSIGN_OR_RETURN(TypePtr merged, merger.MergeType(key->type, version_type, key_path));
    if (!merger.changed()) return JsonSchemaEvolution{table, false};
    evolved = *key;
    evolved.type = std::move(merged);
  } else {
    if (key->type->id() != TypeId::kStruct) {
      return Err(InvalidArgument("_kafka.key is " + key->type->ToString() +
                                 ", not a struct a JSON key can evolve"));
    }
    Merger merger(table.HighestFieldId());
    ST_ASSIGN_OR_RETURN(std::vector<NestedField> merged,
                        merger.MergeFields(key->type->fields(), key_version.fields(),
                                           std::string(kKafkaMetadataColumn) + ".key.", false));
    if (!merger.changed()) return JsonSchemaEvolution{table, false};
    evolved = *key;
    evolved.type = Type::Struct(std::move(merged));
  }
  ST_ASSIGN_OR_RETURN(iceberg::Schema out, WithKafkaKey(table, std::move(evolved)));
  return JsonSchemaEvolution{std::move(out), true};
}

}  // namespace st::decoding
