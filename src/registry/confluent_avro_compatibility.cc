#include "registry/confluent_avro_compatibility.h"

#include <map>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace st::registry::confluent {

namespace {

using avro::Node;
using avro::Type;

constexpr size_t kMaxMessages = 8;
// Deeper than the parser allows (200), so only a schema built in code meets it.
constexpr int kMaxDepth = 512;

std::string ShortName(const std::string& full_name) {
  size_t dot = full_name.rfind('.');
  return dot == std::string::npos ? full_name : full_name.substr(dot + 1);
}

std::vector<std::string> StringArray(const avro::Attributes& attributes, std::string_view key) {
  std::vector<std::string> out;
  const std::string* json = attributes.FindJson(key);
  if (json == nullptr) return out;
  // Named types keep "aliases" as a raw attribute; reuse the field helper
  // that reads the same JSON shape.
  avro::Field probe;
  probe.attributes.SetJson("aliases", *json);
  return avro::FieldAliases(probe);
}

bool NamesMatch(const Node& writer, const Node& reader) {
  if (writer.full_name == reader.full_name) return true;
  if (ShortName(writer.full_name) == ShortName(reader.full_name)) return true;
  for (const std::string& alias : StringArray(reader.attributes, "aliases")) {
    if (alias == writer.full_name || alias == ShortName(writer.full_name)) return true;
  }
  return false;
}

bool Promotes(Type writer, Type reader) {
  switch (writer) {
    case Type::kInt:
      return reader == Type::kLong || reader == Type::kFloat || reader == Type::kDouble;
    case Type::kLong:
      return reader == Type::kFloat || reader == Type::kDouble;
    case Type::kFloat:
      return reader == Type::kDouble;
    case Type::kString:
      return reader == Type::kBytes;
    case Type::kBytes:
      return reader == Type::kString;
    default:
      return false;
  }
}

std::string Describe(const Node& node) {
  if (node.type == Type::kRecord || node.type == Type::kEnum || node.type == Type::kFixed) {
    return std::string(avro::TypeName(node.type)) + " " + node.full_name;
  }
  return std::string(avro::TypeName(node.type));
}

class Checker {
 public:
  std::vector<std::string> messages;

  bool Check(const Node& writer_in, const Node& reader_in, const std::string& path, int depth) {
    const Node& writer = writer_in.Resolve();
    const Node& reader = reader_in.Resolve();
    if (depth > kMaxDepth) return Fail(path, "schemas nest too deeply to compare");
    auto key = std::make_pair(&writer, &reader);
    auto found = decided_.find(key);
    // In progress (recursion) counts as compatible; the outer call decides.
    if (found != decided_.end()) return found->second;
    decided_[key] = true;
    bool ok = Compare(writer, reader, path, depth);
    decided_[key] = ok;
    return ok;
  }

 private:
  bool Fail(const std::string& path, const std::string& what) {
    if (messages.size() < kMaxMessages) {
      messages.push_back("at " + (path.empty() ? std::string("/") : path) + ": " + what);
    }
    return false;
  }

  // Whether `reader` reads `writer` without recording messages (union branch probing).
  bool Quietly(const Node& writer, const Node& reader, const std::string& path, int depth) {
    std::vector<std::string> saved = std::move(messages);
    messages.clear();
    bool ok = Check(writer, reader, path, depth);
    messages = std::move(saved);
    return ok;
  }

  bool Compare(const Node& writer, const Node& reader, const std::string& path, int depth) {
    if (writer.type == Type::kUnion) {
      bool ok = true;
      for (size_t i = 0; i < writer.branches.size(); ++i) {
        ok = Check(*writer.branches[i], reader, path + "/" + std::to_string(i), depth + 1) && ok;
      }
      return ok;
    }
    if (reader.type == Type::kUnion) {
      for (const avro::NodePtr& branch : reader.branches) {
        if (Quietly(writer, *branch, path, depth + 1)) return true;
      }
      return Fail(path, "reader union has no branch that reads writer's " + Describe(writer));
    }
    if (writer.type != reader.type) {
      if (Promotes(writer.type, reader.type)) return true;
      return Fail(path,
                  "reader's " + Describe(reader) + " cannot read writer's " + Describe(writer));
    }
    switch (writer.type) {
      case Type::kRecord:
        return CompareRecords(writer, reader, path, depth);
      case Type::kEnum:
        return CompareEnums(writer, reader, path);
      case Type::kFixed:
        if (!NamesMatch(writer, reader)) {
          return Fail(path, "fixed name " + reader.full_name + " differs from " + writer.full_name);
        }
        if (writer.fixed_size != reader.fixed_size) {
          return Fail(path, "fixed " + reader.full_name + " has size " +
                                std::to_string(reader.fixed_size) + ", writer's " +
                                std::to_string(writer.fixed_size));
        }
        return true;
      case Type::kArray:
        return Check(*writer.items, *reader.items, path + "/items", depth + 1);
      case Type::kMap:
        return Check(*writer.values, *reader.values, path + "/values", depth + 1);
      default:
        return true;  // The same primitive.
    }
  }

  bool CompareRecords(const Node& writer, const Node& reader, const std::string& path, int depth) {
    if (!NamesMatch(writer, reader)) {
      return Fail(path, "record name " + reader.full_name + " differs from " + writer.full_name);
    }
    // Indexed so that wide records cost O(fields), not O(fields^2).
    std::unordered_map<std::string_view, const avro::Field*> by_name;
    for (const avro::Field& field : writer.fields) by_name.emplace(field.name, &field);
    bool ok = true;
    for (const avro::Field& field : reader.fields) {
      const avro::Field* source = FindWriterField(by_name, field);
      std::string field_path = path + "/" + field.name;
      if (source == nullptr) {
        if (!field.default_json.has_value()) {
          ok = Fail(field_path, "reader field '" + field.name +
                                    "' has no default value and is missing in the writer") &&
               ok;
        }
        continue;
      }
      ok = Check(*source->type, *field.type, field_path, depth + 1) && ok;
    }
    return ok;
  }

  static const avro::Field* FindWriterField(
      const std::unordered_map<std::string_view, const avro::Field*>& writer_fields,
      const avro::Field& reader_field) {
    auto found = writer_fields.find(reader_field.name);
    if (found != writer_fields.end()) return found->second;
    for (const std::string& alias : avro::FieldAliases(reader_field)) {
      found = writer_fields.find(alias);
      if (found != writer_fields.end()) return found->second;
    }
    return nullptr;
  }

  bool CompareEnums(const Node& writer, const Node& reader, const std::string& path) {
    if (!NamesMatch(writer, reader)) {
      return Fail(path, "enum name " + reader.full_name + " differs from " + writer.full_name);
    }
    if (reader.enum_default.has_value()) return true;
    std::unordered_set<std::string_view> known(reader.symbols.begin(), reader.symbols.end());
    for (const std::string& symbol : writer.symbols) {
      if (!known.contains(symbol)) {
        return Fail(path, "reader enum " + reader.full_name + " lacks writer's symbol '" + symbol +
                              "' and has no default");
      }
    }
    return true;
  }

  std::map<std::pair<const Node*, const Node*>, bool> decided_;
};

}  // namespace

std::vector<std::string> AvroReadIncompatibilities(const avro::Schema& reader,
                                                   const avro::Schema& writer) {
  Checker checker;
  if (!checker.Check(writer.root(), reader.root(), "", 0) && checker.messages.empty()) {
    checker.messages.emplace_back("schemas are incompatible");
  }
  return std::move(checker.messages);
}

std::vector<std::string> AvroLevelIncompatibilities(const std::string& level,
                                                    const avro::Schema& candidate,
                                                    const avro::Schema& existing) {
  std::vector<std::string> out;
  bool backward = level.starts_with("BACKWARD") || level.starts_with("FULL");
  bool forward = level.starts_with("FORWARD") || level.starts_with("FULL");
  if (backward) {
    for (std::string& message : AvroReadIncompatibilities(candidate, existing)) {
      out.push_back("new schema cannot read data written with the old one, " + message);
    }
  }
  if (forward) {
    for (std::string& message : AvroReadIncompatibilities(existing, candidate)) {
      out.push_back("old schema cannot read data written with the new one, " + message);
    }
  }
  return out;
}

}  // namespace st::registry::confluent
