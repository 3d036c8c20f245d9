#include <fstream>
#include <sstream>

#include "cli/service_commands_internal.h"

namespace st::cli {

CLI::App* AddGroup(CLI::App& app, ServiceCommands& state, const std::string& name,
                   const std::string& description) {
  CLI::App* group = app.add_subcommand(name, description);
  group->require_subcommand(1);
  ServiceOptions& o = state.options;
  group->add_option("--data-dir", o.data_dir, "Server data dir holding keys/admin.json")
      ->capture_default_str();
  group->add_option("--endpoint", o.endpoint, "API endpoint (default: from admin.json)");
  group->add_option("--profile", o.profile, "Credentials profile in ~/.aws/credentials");
  group->add_option("--region", o.region, "Signing region (default: from admin.json)");
  group->add_flag("--json", o.json, "Print the server's JSON reply");
  return group;
}

CLI::App* AddLeaf(CLI::App& group, ServiceCommands& state, const std::string& name,
                  const std::string& description, std::function<CommandBody()> make) {
  CLI::App* leaf = group.add_subcommand(name, description);
  leaf->fallthrough();  // Global flags may follow the leaf command.
  std::string full = group.get_name() + " " + name;
  leaf->callback([&state, full, make = std::move(make)] {
    state.selected_name = full;
    state.selected = make();
  });
  return leaf;
}

void Print(std::ostream& out, bool json, const nlohmann::json& doc,
           const std::function<void()>& human) {
  if (json) {
    out << (doc.is_null() ? nlohmann::json::object() : doc).dump(2) << "\n";
  } else {
    human();
  }
}

void PrintFields(std::ostream& out, const nlohmann::json& object) {
  if (!object.is_object()) return;
  for (const auto& [key, value] : object.items()) {
    out << key << ": " << (value.is_string() ? value.get<std::string>() : value.dump()) << "\n";
  }
}

void PrintRows(std::ostream& out, const nlohmann::json& items,
               const std::vector<std::string>& columns) {
  if (!items.is_array()) return;
  for (const auto& item : items) {
    std::string line;
    for (const std::string& column : columns) {
      if (!line.empty()) line += '\t';
      auto it = item.find(column);
      if (it == item.end()) continue;
      if (it->is_string()) {
        line += it->get<std::string>();
      } else if (it->is_array() && it->size() == 1 && (*it)[0].is_string()) {
        line += (*it)[0].get<std::string>();  // Namespaces are one-element lists.
      } else {
        line += it->dump();
      }
    }
    out << line << "\n";
  }
}

Result<nlohmann::json> ListAll(const ServiceClient& client, const std::string& path,
                               const QueryList& query, const std::string& member) {
  nlohmann::json all = nlohmann::json::array();
  std::string token;
  do {
    QueryList page_query = query;
    if (!token.empty()) page_query.emplace_back("continuationToken", token);
    ST_ASSIGN_OR_RETURN(nlohmann::json page, client.Call("GET", path, page_query));
    for (auto& item : page.value(member, nlohmann::json::array())) all.push_back(std::move(item));
    token = page.value("continuationToken", "");
  } while (!token.empty());
  return all;
}

QueryList AccountQuery(const std::string& account_id) {
  if (account_id.empty()) return {};
  return {{"accountId", account_id}};
}

Result<std::string> ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Err(IoError("cannot read '" + path + "'"));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::shared_ptr<ServiceCommands> AddServiceCommands(CLI::App& app) {
  auto state = std::make_shared<ServiceCommands>();
  AddCatalogCommands(app, *state);
  AddIdentityCommands(app, *state);
  AddChannelCommands(app, *state);
  AddKmsCommands(app, *state);
  return state;
}

std::optional<int> RunServiceCommand(const ServiceCommands& commands, std::ostream& out,
                                     std::ostream& err) {
  if (!commands.selected) return std::nullopt;
  const std::string prefix = "streamtables " + commands.selected_name + ": ";
  Result<ServiceSettings> settings = ResolveServiceSettings(commands.options);
  if (!settings.has_value()) {
    err << prefix << settings.error().message() << "\n";
    return 1;
  }
  ServiceClient client(std::move(*settings));
  Status status = commands.selected(client, out);
  if (!status.ok()) {
    err << prefix << status.message() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace st::cli
