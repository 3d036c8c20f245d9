// `streamtables kms ...` over the server's KMS API (AWS JSON 1.1 at <api>/kms,
// SigV4 service kms): keys (create, list, describe, enable, disable,
// schedule/cancel deletion, rotation), aliases and key policies.
#include <optional>

#include "cli/service_commands_internal.h"

namespace st::cli {

namespace {

using nlohmann::json;

constexpr const char* kPath = "/kms/";

Result<json> Kms(const ServiceClient& client, const std::string& operation, const json& body) {
  return client.CallTarget(kPath, "kms", "TrentService." + operation, body);
}

// Every element of `member` over all pages (Marker / Truncated / NextMarker).
Result<json> KmsListAll(const ServiceClient& client, const std::string& operation,
                        const std::string& member, json body) {
  json all = json::array();
  std::string marker;
  do {
    if (!marker.empty()) body["Marker"] = marker;
    ST_ASSIGN_OR_RETURN(json page, Kms(client, operation, body));
    for (const json& item : page.value(member, json::array())) all.push_back(item);
    marker = page.value("Truncated", false) ? page.value("NextMarker", "") : "";
  } while (!marker.empty());
  return all;
}

// --policy takes a JSON document inline (it starts with '{') or a file name.
Result<std::string> PolicyDocument(const std::string& value) {
  size_t first = value.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && value[first] == '{') return value;
  return ReadTextFile(value);
}

// "7" → 7 for the day-count options (CLI11 has checked it is a number).
std::optional<int> Days(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return std::stoi(text);
}

}  // namespace

void AddKmsCommands(CLI::App& app, ServiceCommands& s) {
  CLI::App* group = AddGroup(app, s, "kms", "KMS keys (the server's KMS API at <api>/kms)");
  const bool& json_out = s.options.json;
  std::string& description = s.NewString();
  std::string& key_id = s.NewString();

  CLI::App* create =
      AddLeaf(*group, s, "create-key", "Create a symmetric key; prints its ARN", [&] {
        return [&](const ServiceClient& c, std::ostream& out) -> Status {
          ST_ASSIGN_OR_RETURN(json reply, Kms(c, "CreateKey", {{"Description", description}}));
          Print(out, json_out, reply,
                [&] { out << reply["KeyMetadata"].value("Arn", "") << "\n"; });
          return Status::OK();
        };
      });
  create->add_option("--description", description, "Description");

  AddLeaf(*group, s, "list-keys", "List the account's keys", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(json keys, KmsListAll(c, "ListKeys", "Keys", json::object()));
      json reply = {{"Keys", keys}};
      Print(out, json_out, reply, [&] { PrintRows(out, keys, {"KeyId", "KeyArn"}); });
      return Status::OK();
    };
  });

  CLI::App* describe = AddLeaf(*group, s, "describe-key", "Show a key's metadata", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(json reply, Kms(c, "DescribeKey", {{"KeyId", key_id}}));
      Print(out, json_out, reply, [&] { PrintFields(out, reply["KeyMetadata"]); });
      return Status::OK();
    };
  });
  std::vector<CLI::App*> by_key = {describe};
  struct StateCommand {
    const char* name;
    std::string operation;
    std::string verb;
  };
  for (const StateCommand& command : {StateCommand{"enable-key", "EnableKey", "enabled"},
                                      StateCommand{"disable-key", "DisableKey", "disabled"}}) {
    const std::string operation = command.operation;
    const std::string verb = command.verb;
    by_key.push_back(AddLeaf(*group, s, command.name, "Set a key " + verb, [&, operation, verb] {
      return [&, operation, verb](const ServiceClient& c, std::ostream& out) -> Status {
        ST_ASSIGN_OR_RETURN(json reply, Kms(c, operation, {{"KeyId", key_id}}));
        Print(out, json_out, json{{"KeyId", key_id}, {"State", verb}},
              [&] { out << verb << " " << key_id << "\n"; });
        return Status::OK();
      };
    }));
  }

  std::string& days = s.NewString();
  CLI::App* schedule = AddLeaf(
      *group, s, "schedule-key-deletion", "Schedule a key's deletion (7-30 days, default 30)", [&] {
        return [&](const ServiceClient& c, std::ostream& out) -> Status {
          json body = {{"KeyId", key_id}};
          if (std::optional<int> window = Days(days)) body["PendingWindowInDays"] = *window;
          ST_ASSIGN_OR_RETURN(json reply, Kms(c, "ScheduleKeyDeletion", body));
          Print(out, json_out, reply, [&] { PrintFields(out, reply); });
          return Status::OK();
        };
      });
  schedule->add_option("--pending-window-days", days, "Days until deletion")
      ->check(CLI::Range(7, 30));
  by_key.push_back(schedule);
  by_key.push_back(
      AddLeaf(*group, s, "cancel-key-deletion",
              "Cancel a scheduled deletion (the key stays "
              "disabled)",
              [&] {
                return [&](const ServiceClient& c, std::ostream& out) -> Status {
                  ST_ASSIGN_OR_RETURN(json reply, Kms(c, "CancelKeyDeletion", {{"KeyId", key_id}}));
                  Print(out, json_out, reply, [&] { PrintFields(out, reply); });
                  return Status::OK();
                };
              }));
  CLI::App* rotate = AddLeaf(*group, s, "enable-key-rotation", "Rotate a key automatically", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      json body = {{"KeyId", key_id}};
      if (std::optional<int> period = Days(days)) body["RotationPeriodInDays"] = *period;
      ST_ASSIGN_OR_RETURN(json reply, Kms(c, "EnableKeyRotation", body));
      ST_ASSIGN_OR_RETURN(json status, Kms(c, "GetKeyRotationStatus", {{"KeyId", key_id}}));
      Print(out, json_out, status, [&] { PrintFields(out, status); });
      return Status::OK();
    };
  });
  rotate->add_option("--rotation-period-days", days, "Days between rotations (90-2560)")
      ->check(CLI::Range(90, 2560));
  by_key.push_back(rotate);
  by_key.push_back(AddLeaf(*group, s, "get-key-rotation-status", "Show a key's rotation", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(json reply, Kms(c, "GetKeyRotationStatus", {{"KeyId", key_id}}));
      Print(out, json_out, reply, [&] { PrintFields(out, reply); });
      return Status::OK();
    };
  }));

  // Key policies: one policy per key, named "default".
  by_key.push_back(AddLeaf(*group, s, "get-key-policy", "Print a key's policy", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(json reply,
                          Kms(c, "GetKeyPolicy", {{"KeyId", key_id}, {"PolicyName", "default"}}));
      Print(out, json_out, reply, [&] {
        std::string text = reply.value("Policy", "");
        json parsed = json::parse(text, nullptr, false);
        out << (parsed.is_discarded() ? text : parsed.dump(2)) << "\n";
      });
      return Status::OK();
    };
  }));
  std::string& policy = s.NewString();
  CLI::App* put_policy = AddLeaf(*group, s, "put-key-policy", "Replace a key's policy", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string document, PolicyDocument(policy));
      ST_ASSIGN_OR_RETURN(
          json reply, Kms(c, "PutKeyPolicy",
                          {{"KeyId", key_id}, {"PolicyName", "default"}, {"Policy", document}}));
      Print(out, json_out, json{{"KeyId", key_id}}, [&] { out << "policy set\n"; });
      return Status::OK();
    };
  });
  put_policy->add_option("--policy", policy, "Policy JSON, inline or a file name")->required();
  by_key.push_back(put_policy);

  for (CLI::App* leaf : by_key) {
    leaf->add_option("key", key_id, "Key id, key ARN, alias/NAME or alias ARN")->required();
  }

  // Aliases: "alias/NAME" → a key of the caller's account.
  std::string& alias = s.NewString();
  CLI::App* create_alias = AddLeaf(*group, s, "create-alias", "Name a key alias/NAME", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(json reply,
                          Kms(c, "CreateAlias", {{"AliasName", alias}, {"TargetKeyId", key_id}}));
      Print(out, json_out, json{{"AliasName", alias}, {"TargetKeyId", key_id}},
            [&] { out << alias << " -> " << key_id << "\n"; });
      return Status::OK();
    };
  });
  create_alias->add_option("alias", alias, "alias/NAME")->required();
  create_alias->add_option("key", key_id, "Key id or key ARN")->required();
  AddLeaf(*group, s, "list-aliases", "List the account's aliases", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      json body = json::object();
      if (!key_id.empty()) body["KeyId"] = key_id;
      ST_ASSIGN_OR_RETURN(json aliases, KmsListAll(c, "ListAliases", "Aliases", body));
      Print(out, json_out, json{{"Aliases", aliases}}, [&] {
        PrintRows(out, aliases, {"AliasName", "TargetKeyId", "AliasArn"});
      });
      return Status::OK();
    };
  })->add_option("--key", key_id, "Only the aliases of this key");
  AddLeaf(*group, s, "delete-alias", "Delete an alias (not its key)",
          [&] {
            return [&](const ServiceClient& c, std::ostream& out) -> Status {
              ST_ASSIGN_OR_RETURN(json reply, Kms(c, "DeleteAlias", {{"AliasName", alias}}));
              Print(out, json_out, json{{"deleted", alias}},
                    [&] { out << "deleted " << alias << "\n"; });
              return Status::OK();
            };
          })
      ->add_option("alias", alias, "alias/NAME")
      ->required();
}

}  // namespace st::cli
