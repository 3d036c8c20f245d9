// `streamtables kms create-key|list-keys|describe-key|enable-key|disable-key`
// over the server's KMS API (AWS JSON 1.1 at <api>/kms, SigV4 service kms).
#include "cli/service_commands_internal.h"

namespace st::cli {

namespace {

using nlohmann::json;

constexpr const char* kPath = "/kms/";

Result<json> Kms(const ServiceClient& client, const std::string& operation, const json& body) {
  return client.CallTarget(kPath, "kms", "TrentService." + operation, body);
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
      json keys = json::array();
      std::string marker;
      do {
        json body = json::object();
        if (!marker.empty()) body["Marker"] = marker;
        ST_ASSIGN_OR_RETURN(json page, Kms(c, "ListKeys", body));
        for (const json& key : page.value("Keys", json::array())) keys.push_back(key);
        marker = page.value("Truncated", false) ? page.value("NextMarker", "") : "";
      } while (!marker.empty());
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
  for (CLI::App* leaf : by_key) {
    leaf->add_option("key", key_id, "Key id, key ARN, alias/NAME or alias ARN")->required();
  }
}

}  // namespace st::cli
