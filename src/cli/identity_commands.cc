// account, user, role and key commands over the /admin identity API.
#include "cli/service_commands_internal.h"
#include "cli/service_http.h"
#include "common/percent_encoding.h"

namespace st::cli {

namespace {

using nlohmann::json;

// users|roles: create, list, delete, attach-policy, detach-policy.
void AddIdentityGroup(CLI::App& app, ServiceCommands& s, const std::string& group_name,
                      const std::string& plural) {
  CLI::App* group = AddGroup(app, s, group_name, "IAM " + plural + " (admin API)");
  const bool& json_out = s.options.json;
  std::string& account = s.NewString();
  std::string& name = s.NewString();
  std::string& policy_name = s.NewString();
  std::string& file = s.NewString();
  const std::string base = "/admin/" + plural;

  CLI::App* create = AddLeaf(*group, s, "create", "Create a " + group_name, [&, base] {
    return [&, base](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(json reply,
                          c.Call("POST", base, AccountQuery(account), json{{"name", name}}));
      Print(out, json_out, reply, [&] { out << reply.value("arn", "") << "\n"; });
      return Status::OK();
    };
  });
  CLI::App* list = AddLeaf(*group, s, "list", "List " + plural, [&, base, plural] {
    return [&, base, plural](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(json reply, c.Call("GET", base, AccountQuery(account)));
      Print(out, json_out, reply, [&] {
        PrintRows(out, reply.value(plural, json::array()), {"name", "arn", "createdAt"});
      });
      return Status::OK();
    };
  });
  CLI::App* remove = AddLeaf(
      *group, s, "delete", "Delete a " + group_name + " with its keys and policies", [&, base] {
        return [&, base](const ServiceClient& c, std::ostream& out) -> Status {
          ST_ASSIGN_OR_RETURN(json reply, c.Call("DELETE", base + "/" + PercentEncode(name),
                                                 AccountQuery(account)));
          Print(out, json_out, json{{"deleted", name}}, [&] { out << "deleted " << name << "\n"; });
          return Status::OK();
        };
      });
  CLI::App* attach =
      AddLeaf(*group, s, "attach-policy", "Attach (create or replace) an inline policy", [&, base] {
        return [&, base](const ServiceClient& c, std::ostream& out) -> Status {
          ST_ASSIGN_OR_RETURN(std::string document, ReadTextFile(file));
          json body = {{"policyDocument", document}};
          ST_ASSIGN_OR_RETURN(json reply, c.Call("PUT",
                                                 base + "/" + PercentEncode(name) + "/policies/" +
                                                     PercentEncode(policy_name),
                                                 AccountQuery(account), body));
          Print(out, json_out, json::object(),
                [&] { out << "attached " << policy_name << " to " << name << "\n"; });
          return Status::OK();
        };
      });
  CLI::App* detach = AddLeaf(*group, s, "detach-policy", "Remove an inline policy", [&, base] {
    return [&, base](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(json reply, c.Call("DELETE",
                                             base + "/" + PercentEncode(name) + "/policies/" +
                                                 PercentEncode(policy_name),
                                             AccountQuery(account)));
      Print(out, json_out, json::object(),
            [&] { out << "detached " << policy_name << " from " << name << "\n"; });
      return Status::OK();
    };
  });
  for (CLI::App* leaf : {create, list, remove, attach, detach}) {
    leaf->add_option("--account-id", account, "Account (default: the server's)");
  }
  for (CLI::App* leaf : {create, remove, attach, detach}) {
    leaf->add_option("name", name, "Name")->required();
  }
  for (CLI::App* leaf : {attach, detach}) {
    leaf->add_option("--policy-name", policy_name, "Inline policy name")->required();
  }
  attach->add_option("--file", file, "IAM policy JSON file")->required();
}

void AddKeyCommands(CLI::App& app, ServiceCommands& s) {
  CLI::App* group = AddGroup(app, s, "key", "Access keys of users and roles (admin API)");
  const bool& json_out = s.options.json;
  std::string& account = s.NewString();
  std::string& user = s.NewString();
  std::string& role = s.NewString();
  std::string& key_id = s.NewString();
  auto owner_path = [](const std::string& user_name,
                       const std::string& role_name) -> Result<std::string> {
    if (user_name.empty() == role_name.empty()) {
      return Err(InvalidArgument("name exactly one of --user and --role"));
    }
    return user_name.empty() ? "/admin/roles/" + PercentEncode(role_name)
                             : "/admin/users/" + PercentEncode(user_name);
  };

  CLI::App* create =
      AddLeaf(*group, s, "create", "Create an access key; prints id and secret", [&, owner_path] {
        return [&, owner_path](const ServiceClient& c, std::ostream& out) -> Status {
          ST_ASSIGN_OR_RETURN(std::string owner, owner_path(user, role));
          ST_ASSIGN_OR_RETURN(json reply,
                              c.Call("POST", owner + "/access-keys", AccountQuery(account)));
          Print(out, json_out, reply, [&] {
            out << "access_key_id: " << reply.value("accessKeyId", "") << "\n"
                << "secret_access_key: " << reply.value("secretAccessKey", "") << "\n";
          });
          return Status::OK();
        };
      });
  CLI::App* list = AddLeaf(*group, s, "list", "List access keys (no secrets)", [&, owner_path] {
    return [&, owner_path](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string owner, owner_path(user, role));
      ST_ASSIGN_OR_RETURN(json reply, c.Call("GET", owner + "/access-keys", AccountQuery(account)));
      Print(out, json_out, reply, [&] {
        PrintRows(out, reply.value("accessKeys", json::array()),
                  {"accessKeyId", "status", "createdAt"});
      });
      return Status::OK();
    };
  });
  CLI::App* remove = AddLeaf(*group, s, "delete", "Delete an access key", [&, owner_path] {
    return [&, owner_path](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string owner, owner_path(user, role));
      ST_ASSIGN_OR_RETURN(
          json reply,
          c.Call("DELETE", owner + "/access-keys/" + PercentEncode(key_id), AccountQuery(account)));
      Print(out, json_out, json{{"deleted", key_id}}, [&] { out << "deleted " << key_id << "\n"; });
      return Status::OK();
    };
  });
  for (CLI::App* leaf : {create, list, remove}) {
    leaf->add_option("--user", user, "The key's user");
    leaf->add_option("--role", role, "The key's role");
    leaf->add_option("--account-id", account, "Account (default: the server's)");
  }
  remove->add_option("access_key_id", key_id, "Key id")->required();
}

void AddAccountCommands(CLI::App& app, ServiceCommands& s) {
  CLI::App* group = AddGroup(app, s, "account", "Accounts (admin API)");
  const bool& json_out = s.options.json;
  std::string& account = s.NewString();
  CLI::App* create = AddLeaf(*group, s, "create", "Create an account", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(json reply,
                          c.Call("POST", "/admin/accounts", {}, json{{"accountId", account}}));
      Print(out, json_out, reply, [&] { out << account << "\n"; });
      return Status::OK();
    };
  });
  CLI::App* get = AddLeaf(*group, s, "get", "Show an account with its counts", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(json reply, c.Call("GET", "/admin/accounts/" + PercentEncode(account)));
      Print(out, json_out, reply, [&] { PrintFields(out, reply); });
      return Status::OK();
    };
  });
  std::string& page_size = s.NewString();
  AddLeaf(*group, s, "list", "List every account (id, created, users, roles, buckets)", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      QueryList query;
      if (!page_size.empty()) query.emplace_back("maxResults", page_size);
      ST_ASSIGN_OR_RETURN(json all, ListAll(c, "/admin/accounts", query, "accounts"));
      Print(out, json_out, json{{"accounts", all}}, [&] {
        PrintRows(out, all,
                  {"accountId", "createdAt", "userCount", "roleCount", "tableBucketCount"});
      });
      return Status::OK();
    };
  })->add_option("--page-size", page_size, "Accounts per request (1-1000; all pages are listed)");
  for (CLI::App* leaf : {create, get}) {
    leaf->add_option("account_id", account, "12-digit account id")->required();
  }
}

}  // namespace

void AddIdentityCommands(CLI::App& app, ServiceCommands& state) {
  AddAccountCommands(app, state);
  AddIdentityGroup(app, state, "user", "users");
  AddIdentityGroup(app, state, "role", "roles");
  AddKeyCommands(app, state);
}

}  // namespace st::cli
