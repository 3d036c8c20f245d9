// nlohmann_json is used with exceptions disabled at parse time (parse(...,
// false)) and only checked accessors afterwards, so nothing throws out of here.
#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "auth/condition_internal.h"
#include "auth/policy.h"

namespace st::auth {
namespace {

using Json = nlohmann::json;

// The deepest a valid policy nests is 6 (document, Statement list, statement,
// Condition, operator, value list); anything deeper is refused before the
// document is built, with a margin for a clearer error further on.
constexpr size_t kMaxPolicyDepth = 8;

// A SAX pass before the DOM parse: nlohmann keeps the last of two equal keys,
// so {"Effect":"Deny","Effect":"Allow"} would read as Allow while another
// reader sees Deny. Refuses duplicate keys at any level and nesting deeper
// than kMaxPolicyDepth, naming where.
class StructureCheck final : public nlohmann::json_sax<Json> {
 public:
  // Empty when the document passed; the problem otherwise (also for bad JSON).
  const std::string& problem() const { return problem_; }

  bool null() override { return Value(); }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t) override { return Value(); }
  bool number_unsigned(number_unsigned_t) override { return Value(); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t&) override { return Value(); }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override { return Open(false); }
  bool end_object() override { return Close(); }
  bool start_array(std::size_t) override { return Open(true); }
  bool end_array() override { return Close(); }
  bool key(string_t& name) override {
    Frame& frame = frames_.back();
    if (!frame.keys.insert(name).second) {
      problem_ = "duplicate key \"" + name + "\" " +
                 (frames_.size() == 1 ? std::string("at the top level")
                                      : "in " + Path(frames_.size() - 1)) +
                 "; each element may appear only once";
      return false;
    }
    frame.current = name;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    if (problem_.empty()) problem_ = "the policy is not valid JSON";
    return false;
  }

 private:
  struct Frame {
    bool array = false;
    std::set<std::string> keys;  // Objects.
    std::string current;         // Objects: the key being read.
    size_t next_index = 0;       // Arrays: the index of the next element.
  };

  // A value starts; in a list it takes the next index.
  void Element() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().next_index;
  }
  bool Value() {
    Element();
    return true;
  }
  bool Open(bool array) {
    Element();
    if (frames_.size() + 1 > kMaxPolicyDepth) {
      problem_ = "the policy nests deeper than " + std::to_string(kMaxPolicyDepth) +
                 " levels (at " +
                 (frames_.empty() ? std::string("the top level") : Path(frames_.size())) +
                 "); a valid policy nests at most 6";
      return false;
    }
    frames_.push_back(Frame{array, {}, {}, 0});
    return true;
  }
  bool Close() {
    frames_.pop_back();
    return true;
  }
  // "Statement[0].Condition": the place the first `count` open containers lead to.
  std::string Path(size_t count) const {
    std::string out;
    for (size_t i = 0; i < count; ++i) {
      const Frame& frame = frames_[i];
      if (frame.array) {
        out += "[" + std::to_string(frame.next_index - 1) + "]";
      } else {
        out += (out.empty() ? "" : ".") + frame.current;
      }
    }
    return out;
  }

  std::vector<Frame> frames_;
  std::string problem_;
};

Status Malformed(std::string message) {
  return InvalidArgument("MalformedPolicyDocument: " + std::move(message));
}

std::string Where(size_t index, const std::string& sid) {
  std::string out = "Statement[" + std::to_string(index) + "]";
  if (!sid.empty()) out += " (Sid \"" + sid + "\")";
  return out;
}

bool StartsWithIgnoreCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

// A string or a non-empty list of strings.
Result<std::vector<std::string>> StringList(const Json& value, const std::string& what) {
  std::vector<std::string> out;
  if (value.is_string()) {
    out.push_back(value.get<std::string>());
    return out;
  }
  if (!value.is_array() || value.empty()) {
    return Err(Malformed(what + " must be a string or a non-empty list of strings"));
  }
  for (const Json& item : value) {
    if (!item.is_string()) return Err(Malformed(what + " must contain only strings"));
    out.push_back(item.get<std::string>());
  }
  return out;
}

// Condition values: strings, numbers or booleans, alone or in a list.
Result<std::vector<std::string>> ConditionValues(const Json& value, const std::string& what) {
  auto scalar = [](const Json& v) -> std::optional<std::string> {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_number()) return v.dump();
    return std::nullopt;
  };
  std::vector<std::string> out;
  if (value.is_array()) {
    if (value.empty()) return Err(Malformed(what + " has an empty value list"));
    for (const Json& item : value) {
      auto s = scalar(item);
      if (!s) return Err(Malformed(what + " values must be strings, numbers or booleans"));
      out.push_back(*s);
    }
    return out;
  }
  auto s = scalar(value);
  if (!s) return Err(Malformed(what + " values must be strings, numbers or booleans"));
  out.push_back(*s);
  return out;
}

bool IsAccountId(std::string_view s) {
  return s.size() == 12 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

Result<PrincipalSpec> ParsePrincipal(const Json& value, const std::string& where) {
  PrincipalSpec spec;
  if (value.is_string()) {
    if (value.get<std::string>() != "*") {
      return Err(Malformed(where + ": a string Principal must be \"*\"; name others as "
                                   "{\"AWS\": \"<account id or ARN>\"}"));
    }
    spec.everyone = true;
    return spec;
  }
  if (!value.is_object() || value.empty()) {
    return Err(Malformed(where + ": Principal must be \"*\" or an object such as {\"AWS\": ...}"));
  }
  for (const auto& [type, entries] : value.items()) {
    ST_ASSIGN_OR_RETURN(auto list, StringList(entries, where + ": Principal." + type));
    if (type == "AWS") {
      for (const std::string& entry : list) {
        if (entry == "*") {
          spec.everyone = true;
        } else if (IsAccountId(entry) ||
                   (entry.rfind("arn:", 0) == 0 && entry.find('*') == std::string::npos &&
                    std::count(entry.begin(), entry.end(), ':') >= 5)) {
          spec.aws.push_back(entry);
        } else {
          return Err(Malformed(where + ": Invalid principal in policy: \"" + entry +
                               "\"; use \"*\", a 12-digit account id or a full IAM ARN "
                               "(wildcards only via Condition aws:PrincipalArn)"));
        }
      }
    } else if (type == "Service") {
      spec.services.insert(spec.services.end(), list.begin(), list.end());
    } else if (type == "Federated") {
      spec.federated.insert(spec.federated.end(), list.begin(), list.end());
    } else if (type == "CanonicalUser") {
      spec.canonical_users.insert(spec.canonical_users.end(), list.begin(), list.end());
    } else {
      return Err(Malformed(where + ": unknown principal type \"" + type +
                           "\"; use AWS, Service, Federated or CanonicalUser"));
    }
  }
  return spec;
}

Status ValidateAction(const std::string& action, const std::string& where) {
  if (action == "*") return Status::OK();
  size_t colon = action.find(':');
  bool service_ok =
      colon != std::string::npos && colon > 0 &&
      std::all_of(action.begin(), action.begin() + static_cast<long>(colon),
                  [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; });
  if (!service_ok || colon + 1 == action.size()) {
    return Malformed(where + ": Action \"" + action +
                     "\" must be \"*\" or \"<service>:<action>\" (e.g. s3tables:GetTable)");
  }
  return Status::OK();
}

Status ValidateResource(const std::string& resource, const std::string& where) {
  if (resource == "*") return Status::OK();
  if (resource.rfind("arn:", 0) != 0 || std::count(resource.begin(), resource.end(), ':') < 5) {
    return Malformed(where + ": Resource \"" + resource +
                     "\" must be \"*\" or an ARN (arn:partition:service:region:account:resource)");
  }
  return Status::OK();
}

Result<std::vector<Condition>> ParseConditionBlock(const Json& block, const std::string& where) {
  if (!block.is_object()) return Err(Malformed(where + ": Condition must be an object"));
  std::vector<Condition> out;
  for (const auto& [op_text, keys] : block.items()) {
    Condition proto;
    proto.operator_text = op_text;
    std::string_view name = op_text;
    if (StartsWithIgnoreCase(name, "ForAnyValue:")) {
      proto.qualifier = SetQualifier::kForAnyValue;
      name.remove_prefix(12);
    } else if (StartsWithIgnoreCase(name, "ForAllValues:")) {
      proto.qualifier = SetQualifier::kForAllValues;
      name.remove_prefix(13);
    }
    if (name.size() > 8 && StartsWithIgnoreCase(name.substr(name.size() - 8), "IfExists")) {
      proto.if_exists = true;
      name.remove_suffix(8);
    }
    auto op = ConditionOperatorFromName(name);
    if (!op || (*op == ConditionOperator::kNull &&
                (proto.if_exists || proto.qualifier != SetQualifier::kNone))) {
      return Err(Malformed(where + ": unknown condition operator \"" + op_text + "\""));
    }
    proto.op = *op;
    if (!keys.is_object() || keys.empty()) {
      return Err(Malformed(where + ": Condition." + op_text +
                           " must map condition keys to values, e.g. {\"aws:username\": \"x\"}"));
    }
    for (const auto& [key, values] : keys.items()) {
      std::string what = where + ": Condition." + op_text + "." + key;
      Condition condition = proto;
      condition.key = key;
      ST_ASSIGN_OR_RETURN(condition.values, ConditionValues(values, what));
      for (const std::string& value : condition.values) {
        if (auto problem = ValidateConditionValue(condition.op, value)) {
          return Err(Malformed(what + ": " + *problem));
        }
      }
      out.push_back(std::move(condition));
    }
  }
  return out;
}

Result<Statement> ParseStatement(const Json& json, size_t index, PolicyKind kind) {
  if (!json.is_object()) return Err(Malformed(Where(index, "") + " must be an object"));
  Statement st;
  if (json.contains("Sid")) {
    if (!json["Sid"].is_string())
      return Err(Malformed(Where(index, "") + ": Sid must be a string"));
    st.sid = json["Sid"].get<std::string>();
  }
  const std::string where = Where(index, st.sid);
  static const std::set<std::string> kKnown = {"Sid",          "Effect",      "Principal",
                                               "NotPrincipal", "Action",      "NotAction",
                                               "Resource",     "NotResource", "Condition"};
  for (const auto& [key, value] : json.items()) {
    if (!kKnown.count(key)) {
      return Err(
          Malformed(where + ": unknown element \"" + key + "\" (elements are case-sensitive)"));
    }
  }
  if (!json.contains("Effect") || !json["Effect"].is_string() ||
      (json["Effect"] != "Allow" && json["Effect"] != "Deny")) {
    return Err(Malformed(where + ": Effect must be \"Allow\" or \"Deny\""));
  }
  st.effect = json["Effect"] == "Allow" ? Effect::kAllow : Effect::kDeny;

  auto pick = [&](const char* name, const char* not_name, bool& is_not) -> Result<const Json*> {
    bool has = json.contains(name), has_not = json.contains(not_name);
    if (has && has_not) {
      return Err(Malformed(where + ": use either " + name + " or " + not_name + ", not both"));
    }
    is_not = has_not;
    if (!has && !has_not) return static_cast<const Json*>(nullptr);
    return &json[has ? name : not_name];
  };

  ST_ASSIGN_OR_RETURN(const Json* principal, pick("Principal", "NotPrincipal", st.not_principal));
  if (kind == PolicyKind::kIdentity && principal) {
    return Err(Malformed(where + ": an identity policy must not specify a Principal or "
                                 "NotPrincipal; put principals in a resource policy"));
  }
  if (kind == PolicyKind::kResource && !principal) {
    return Err(
        Malformed(where + ": a resource policy statement needs a Principal or NotPrincipal"));
  }
  if (principal) {
    ST_ASSIGN_OR_RETURN(auto spec, ParsePrincipal(*principal, where));
    st.principal = std::move(spec);
  }

  ST_ASSIGN_OR_RETURN(const Json* actions, pick("Action", "NotAction", st.not_action));
  if (!actions) return Err(Malformed(where + ": missing Action or NotAction"));
  ST_ASSIGN_OR_RETURN(st.actions, StringList(*actions, where + ": Action"));
  for (const std::string& action : st.actions) ST_TRY(ValidateAction(action, where));

  ST_ASSIGN_OR_RETURN(const Json* resources, pick("Resource", "NotResource", st.not_resource));
  if (!resources) return Err(Malformed(where + ": missing Resource or NotResource"));
  ST_ASSIGN_OR_RETURN(st.resources, StringList(*resources, where + ": Resource"));
  for (const std::string& resource : st.resources) ST_TRY(ValidateResource(resource, where));

  if (json.contains("Condition")) {
    ST_ASSIGN_OR_RETURN(st.conditions, ParseConditionBlock(json["Condition"], where));
  }
  return st;
}

}  // namespace

Result<Policy> ParsePolicy(std::string_view text, PolicyKind kind) {
  StructureCheck check;
  if (!Json::sax_parse(text.begin(), text.end(), &check) || !check.problem().empty()) {
    return Err(
        Malformed(check.problem().empty() ? "the policy is not valid JSON" : check.problem()));
  }
  Json json = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return Err(Malformed("the policy is not valid JSON"));
  if (!json.is_object()) return Err(Malformed("the policy must be a JSON object"));
  Policy policy;
  for (const auto& [key, value] : json.items()) {
    if (key != "Version" && key != "Id" && key != "Statement") {
      return Err(Malformed("unknown top-level element \"" + key +
                           "\"; a policy has Version, Id and Statement"));
    }
  }
  if (json.contains("Version")) {
    const Json& version = json["Version"];
    if (!version.is_string() || (version != "2012-10-17" && version != "2008-10-17")) {
      return Err(Malformed("Version must be \"2012-10-17\" (or the legacy \"2008-10-17\")"));
    }
    policy.version = version.get<std::string>();
  }
  if (json.contains("Id")) {
    if (!json["Id"].is_string()) return Err(Malformed("Id must be a string"));
    policy.id = json["Id"].get<std::string>();
  }
  if (!json.contains("Statement")) return Err(Malformed("missing Statement"));
  const Json& statements = json["Statement"];
  std::vector<const Json*> items;
  if (statements.is_object()) {
    items.push_back(&statements);
  } else if (statements.is_array()) {
    for (const Json& item : statements) items.push_back(&item);
  } else {
    return Err(Malformed("Statement must be an object or a list of objects"));
  }
  std::set<std::string> sids;
  for (size_t i = 0; i < items.size(); ++i) {
    ST_ASSIGN_OR_RETURN(Statement st, ParseStatement(*items[i], i, kind));
    if (!st.sid.empty() && !sids.insert(st.sid).second) {
      return Err(Malformed("Statement IDs (Sid) must be unique; \"" + st.sid + "\" repeats"));
    }
    policy.statements.push_back(std::move(st));
  }
  return policy;
}

}  // namespace st::auth
