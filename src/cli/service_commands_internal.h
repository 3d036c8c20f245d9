// Shared state and output helpers of the service commands.
#pragma once

#include <CLI/CLI.hpp>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "cli/service_client.h"
#include "cli/service_commands.h"

namespace st::cli {

using CommandBody = std::function<Status(const ServiceClient& client, std::ostream& out)>;

struct ServiceCommands {
  ServiceOptions options;
  std::string selected_name;  // "bucket create", for messages.
  CommandBody selected;
  // Stable storage for option values (CLI11 binds by reference).
  std::deque<std::string> strings;
  std::string& NewString() { return strings.emplace_back(); }
};

// A command group ("bucket") with the global flags.
CLI::App* AddGroup(CLI::App& app, ServiceCommands& state, const std::string& name,
                   const std::string& description);
// A leaf command ("bucket create") whose run is `body`, made by `make` after
// parsing (so it sees the parsed option values).
CLI::App* AddLeaf(CLI::App& group, ServiceCommands& state, const std::string& name,
                  const std::string& description, std::function<CommandBody()> make);

void AddCatalogCommands(CLI::App& app, ServiceCommands& state);
void AddIdentityCommands(CLI::App& app, ServiceCommands& state);
void AddChannelCommands(CLI::App& app, ServiceCommands& state);
void AddKmsCommands(CLI::App& app, ServiceCommands& state);

// --json: the document; otherwise `human`.
void Print(std::ostream& out, bool json, const nlohmann::json& doc,
           const std::function<void()>& human);
// "key: value" lines for the scalar members of an object (nested ones as JSON).
void PrintFields(std::ostream& out, const nlohmann::json& object);
// Tab-separated rows of `columns` from each element.
void PrintRows(std::ostream& out, const nlohmann::json& items,
               const std::vector<std::string>& columns);
// GET `path` page after page, following continuationToken until a page has
// none; returns every element of each page's `member` array. Errors: Call's.
Result<nlohmann::json> ListAll(const ServiceClient& client, const std::string& path,
                               const QueryList& query, const std::string& member);
// ?accountId=<id> (an admin acting on another account), or nothing when empty.
QueryList AccountQuery(const std::string& account_id);
// The file's contents. Errors: kIo naming the path.
Result<std::string> ReadTextFile(const std::string& path);

}  // namespace st::cli
