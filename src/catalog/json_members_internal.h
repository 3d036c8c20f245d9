// Reading members of a JSON document for catalog's codecs (channel_model,
// maintenance_model): each member checked for its JSON type, every refusal
// InvalidArgument naming the member. Private to catalog.
//
// Why not common/json_fields.h: these messages are the wire contract of the
// MSK and S3 Tables codecs ("The member 'value.settings.x' must be from 1 to
// 900."), so they carry a member path prefix, a per-member hint and the
// bounds of a ranged integer, and a refusal reports the member it names back
// to the caller (`invalid_member`: MSK's error field). json_fields words a
// FieldProblem through a stateless format function that sees none of these;
// widening it for one module would make every other surface pay for it.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "common/status.h"

namespace st::catalog::internal {

using nlohmann::json;

// ---- Wire string tables: an array of {value, name} rows per enum ----

template <class E>
struct WireName {
  E value;
  std::string_view name;
};

template <class Table, class E>
std::string_view NameOf(const Table& table, E value) {
  for (const auto& row : table) {
    if (row.value == value) return row.name;
  }
  return "";
}

// "A, B or C".
template <class Table>
std::string Choices(const Table& table) {
  std::string out;
  for (size_t i = 0; i < table.size(); ++i) {
    if (i > 0) out += i + 1 == table.size() ? " or " : ", ";
    out += table[i].name;
  }
  return out;
}

// The enum value of `name`; errors: InvalidArgument listing the valid names.
template <class Table>
auto ValueOf(const Table& table, std::string_view name, std::string_view member)
    -> Result<decltype(table[0].value)> {
  for (const auto& row : table) {
    if (row.name == name) return row.value;
  }
  return Err(InvalidArgument("The " + std::string(member) + " '" + std::string(name) +
                             "' is not valid: use " + Choices(table) + "."));
}

// ---- Members ----

class Reader {
 public:
  // `invalid_member` (may be null) receives the member a refusal names;
  // `where` prefixes member names in messages ("value.settings.").
  explicit Reader(std::string* invalid_member, std::string where = "")
      : invalid_member_(invalid_member), where_(std::move(where)) {}

  Status Bad(const std::string& member, std::string message) {
    if (invalid_member_ != nullptr) *invalid_member_ = member;
    return InvalidArgument(std::move(message));
  }
  void set_where(std::string where) { where_ = std::move(where); }
  const std::string& where() const { return where_; }

  // An error from a parser of `member`'s value.
  Status Bad(const std::string& member, const Status& status) {
    return Bad(member, status.message());
  }

  // The JSON object `text`; `message` is the refusal when it is not one
  // (malformed JSON or another JSON type), naming no member.
  Result<json> ParseObject(std::string_view text, std::string message) {
    json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (root.is_discarded() || !root.is_object()) return Err(Bad("", std::move(message)));
    return root;
  }

  // `object[key]` of the given type when present and not null; nullptr when
  // absent and not required. `hint` follows the missing-member message.
  Result<const json*> Member(const json& object, const std::string& key, json::value_t type,
                             const char* type_name, bool required, const char* hint = "") {
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
      if (required) {
        return Err(Bad(key, "The required member '" + where_ + key + "' is missing" + hint + "."));
      }
      return nullptr;
    }
    bool ok =
        it->type() == type || (type == json::value_t::number_integer && it->is_number_unsigned());
    if (!ok) return Err(Bad(key, "The member '" + where_ + key + "' must be " + type_name + "."));
    return &*it;
  }
  Result<const json*> Obj(const json& o, const std::string& key, bool required,
                          const char* hint = "") {
    return Member(o, key, json::value_t::object, "an object", required, hint);
  }
  Result<const json*> Arr(const json& o, const std::string& key, bool required) {
    return Member(o, key, json::value_t::array, "an array", required);
  }
  Result<const json*> Bool(const json& o, const std::string& key, bool required) {
    return Member(o, key, json::value_t::boolean, "a boolean", required);
  }
  Result<const json*> Int(const json& o, const std::string& key, bool required) {
    return Member(o, key, json::value_t::number_integer, "an integer", required);
  }
  Result<std::optional<std::string>> Str(const json& o, const std::string& key, bool required) {
    ST_ASSIGN_OR_RETURN(const json* value,
                        Member(o, key, json::value_t::string, "a string", required));
    if (value == nullptr) return std::optional<std::string>();
    return value->get<std::string>();
  }
  Result<std::string> RequiredStr(const json& o, const std::string& key) {
    ST_ASSIGN_OR_RETURN(std::optional<std::string> value, Str(o, key, true));
    return *std::move(value);
  }
  // One-element list members ("Currently exactly one ... must be specified").
  Result<const json*> SingleObject(const json& o, const std::string& key) {
    ST_ASSIGN_OR_RETURN(const json* list, Arr(o, key, true));
    if (list->size() != 1 || !(*list)[0].is_object()) {
      return Err(Bad(key, "'" + key + "' must hold exactly one object."));
    }
    return &(*list)[0];
  }

 private:
  std::string* invalid_member_;
  std::string where_;
};

}  // namespace st::catalog::internal
