// bucket, namespace, table and policy commands over the S3 Tables control plane.
#include <optional>

#include "cli/service_commands_internal.h"
#include "cli/service_http.h"
#include "common/percent_encoding.h"

namespace st::cli {

namespace {

using nlohmann::json;

std::string TablePath(const std::string& bucket_arn, const std::string& ns,
                      const std::string& name) {
  return "/tables/" + PercentEncode(bucket_arn) + "/" + PercentEncode(ns) + "/" +
         PercentEncode(name);
}

// --sse-algorithm / --kms-key-arn as an EncryptionConfiguration; nullopt
// when neither is given. A key alone means aws:kms. The server checks the
// rest (the key must exist, be enabled and usable by the caller).
// The values live in ServiceCommands' string storage (CLI11 binds by
// reference); the struct itself is copied into the commands' lambdas.
struct EncryptionFlags {
  std::string& algorithm;
  std::string& key_arn;

  std::optional<json> Configuration() const {
    if (algorithm.empty() && key_arn.empty()) return std::nullopt;
    json config = {{"sseAlgorithm", algorithm.empty() ? "aws:kms" : algorithm}};
    if (!key_arn.empty()) config["kmsKeyArn"] = key_arn;
    return config;
  }
  void AddTo(CLI::App& leaf) {
    leaf.add_option("--sse-algorithm", algorithm, "AES256 (SSE-S3) or aws:kms (SSE-KMS)");
    leaf.add_option("--kms-key-arn", key_arn, "The KMS key ARN for aws:kms");
  }
};

void PrintEncryption(std::ostream& out, bool json_out, const json& reply) {
  Print(out, json_out, reply,
        [&] { PrintFields(out, reply.value("encryptionConfiguration", json::object())); });
}

void AddBucketCommands(CLI::App& app, ServiceCommands& s) {
  CLI::App* group = AddGroup(app, s, "bucket", "Table buckets (S3 Tables control plane)");
  const bool& json_out = s.options.json;
  EncryptionFlags encryption{s.NewString(), s.NewString()};

  std::string& create_name = s.NewString();
  CLI::App* create =
      AddLeaf(*group, s, "create", "Create a table bucket; prints its ARN", [&, encryption] {
        return [&, encryption](const ServiceClient& c, std::ostream& out) -> Status {
          json body = {{"name", create_name}};
          if (std::optional<json> config = encryption.Configuration()) {
            body["encryptionConfiguration"] = *config;
          }
          ST_ASSIGN_OR_RETURN(json reply, c.Call("PUT", "/buckets", {}, body));
          Print(out, json_out, reply, [&] { out << reply.value("arn", "") << "\n"; });
          return Status::OK();
        };
      });
  create->add_option("name", create_name, "Bucket name")->required();
  encryption.AddTo(*create);

  // bucket get-encryption|put-encryption|delete-encryption: the default
  // encryption of the bucket's new tables.
  std::string& encrypted_bucket = s.NewString();
  CLI::App* get_encryption =
      AddLeaf(*group, s, "get-encryption", "Show the bucket's default encryption", [&] {
        return [&](const ServiceClient& c, std::ostream& out) -> Status {
          ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, encrypted_bucket));
          ST_ASSIGN_OR_RETURN(json reply,
                              c.Call("GET", "/buckets/" + PercentEncode(arn) + "/encryption"));
          PrintEncryption(out, json_out, reply);
          return Status::OK();
        };
      });
  CLI::App* put_encryption =
      AddLeaf(*group, s, "put-encryption", "Set the bucket's default encryption for new tables",
              [&, encryption] {
                return [&, encryption](const ServiceClient& c, std::ostream& out) -> Status {
                  std::optional<json> config = encryption.Configuration();
                  if (!config.has_value()) {
                    return InvalidArgument("put-encryption needs --sse-algorithm or --kms-key-arn");
                  }
                  ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, encrypted_bucket));
                  ST_ASSIGN_OR_RETURN(
                      json reply, c.Call("PUT", "/buckets/" + PercentEncode(arn) + "/encryption",
                                         {}, json{{"encryptionConfiguration", *config}}));
                  json shown = {{"encryptionConfiguration", *config}};
                  PrintEncryption(out, json_out, shown);
                  return Status::OK();
                };
              });
  encryption.AddTo(*put_encryption);
  CLI::App* delete_encryption = AddLeaf(
      *group, s, "delete-encryption", "Reset the bucket's default encryption to AES256", [&] {
        return [&](const ServiceClient& c, std::ostream& out) -> Status {
          ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, encrypted_bucket));
          ST_ASSIGN_OR_RETURN(json reply,
                              c.Call("DELETE", "/buckets/" + PercentEncode(arn) + "/encryption"));
          Print(out, json_out, json::object(), [&] { out << "encryption reset\n"; });
          return Status::OK();
        };
      });
  for (CLI::App* leaf : {get_encryption, put_encryption, delete_encryption}) {
    leaf->add_option("bucket", encrypted_bucket, "Bucket name or ARN")->required();
  }

  std::string& prefix = s.NewString();
  AddLeaf(*group, s, "list", "List table buckets (name, ARN, created)", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      QueryList query;
      if (!prefix.empty()) query.emplace_back("prefix", prefix);
      ST_ASSIGN_OR_RETURN(json all, ListAll(c, "/buckets", query, "tableBuckets"));
      Print(out, json_out, json{{"tableBuckets", all}}, [&] {
        PrintRows(out, all, {"name", "arn", "createdAt"});
      });
      return Status::OK();
    };
  })->add_option("--prefix", prefix, "Only names starting with this");

  std::string& get_bucket = s.NewString();
  AddLeaf(*group, s, "get", "Show a table bucket",
          [&] {
            return [&](const ServiceClient& c, std::ostream& out) -> Status {
              ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, get_bucket));
              ST_ASSIGN_OR_RETURN(json reply, c.Call("GET", "/buckets/" + PercentEncode(arn)));
              Print(out, json_out, reply, [&] { PrintFields(out, reply); });
              return Status::OK();
            };
          })
      ->add_option("bucket", get_bucket, "Bucket name or ARN")
      ->required();

  std::string& delete_bucket = s.NewString();
  AddLeaf(
      *group, s, "delete", "Delete an empty table bucket",
      [&] {
        return [&](const ServiceClient& c, std::ostream& out) -> Status {
          ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, delete_bucket));
          ST_ASSIGN_OR_RETURN(json reply, c.Call("DELETE", "/buckets/" + PercentEncode(arn)));
          Print(out, json_out, json{{"deleted", arn}}, [&] { out << "deleted " << arn << "\n"; });
          return Status::OK();
        };
      })
      ->add_option("bucket", delete_bucket, "Bucket name or ARN")
      ->required();
}

void AddNamespaceCommands(CLI::App& app, ServiceCommands& s) {
  CLI::App* group = AddGroup(app, s, "namespace", "Namespaces of a table bucket");
  const bool& json_out = s.options.json;
  std::string& bucket = s.NewString();
  std::string& name = s.NewString();

  CLI::App* create = AddLeaf(*group, s, "create", "Create a namespace", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, bucket));
      ST_ASSIGN_OR_RETURN(json reply, c.Call("PUT", "/namespaces/" + PercentEncode(arn), {},
                                             json{{"namespace", json::array({name})}}));
      Print(out, json_out, reply, [&] { out << name << "\n"; });
      return Status::OK();
    };
  });
  CLI::App* list = AddLeaf(*group, s, "list", "List namespaces", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, bucket));
      ST_ASSIGN_OR_RETURN(json all,
                          ListAll(c, "/namespaces/" + PercentEncode(arn), {}, "namespaces"));
      Print(out, json_out, json{{"namespaces", all}}, [&] {
        PrintRows(out, all, {"namespace", "createdAt", "createdBy"});
      });
      return Status::OK();
    };
  });
  CLI::App* remove = AddLeaf(*group, s, "delete", "Delete an empty namespace", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, bucket));
      ST_ASSIGN_OR_RETURN(json reply, c.Call("DELETE", "/namespaces/" + PercentEncode(arn) + "/" +
                                                           PercentEncode(name)));
      Print(out, json_out, json{{"deleted", name}}, [&] { out << "deleted " << name << "\n"; });
      return Status::OK();
    };
  });
  for (CLI::App* leaf : {create, list, remove}) {
    leaf->add_option("--bucket", bucket, "Bucket name or ARN")->required();
  }
  create->add_option("name", name, "Namespace")->required();
  remove->add_option("name", name, "Namespace")->required();
}

// The ARN of table `ns`.`name` in `bucket` (name or ARN), through GetTable.
Result<std::string> TableArn(const ServiceClient& c, const std::string& bucket,
                             const std::string& ns, const std::string& name) {
  ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, bucket));
  ST_ASSIGN_OR_RETURN(
      json reply,
      c.Call("GET", "/get-table", {{"tableBucketARN", arn}, {"namespace", ns}, {"name", name}}));
  if (!reply.is_object() || !reply.contains("tableARN") || !reply["tableARN"].is_string()) {
    return Err(Internal("GetTable returned no tableARN"));
  }
  return reply["tableARN"].get<std::string>();
}

void AddTableCommands(CLI::App& app, ServiceCommands& s) {
  CLI::App* group = AddGroup(app, s, "table", "Tables of a table bucket");
  const bool& json_out = s.options.json;
  std::string& bucket = s.NewString();
  std::string& ns = s.NewString();
  std::string& name = s.NewString();
  std::string& version_token = s.NewString();

  CLI::App* list = AddLeaf(*group, s, "list", "List tables (namespace, name, ARN)", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, bucket));
      QueryList query;
      if (!ns.empty()) query.emplace_back("namespace", ns);
      ST_ASSIGN_OR_RETURN(json all, ListAll(c, "/tables/" + PercentEncode(arn), query, "tables"));
      Print(out, json_out, json{{"tables", all}}, [&] {
        PrintRows(out, all, {"namespace", "name", "tableARN", "type"});
      });
      return Status::OK();
    };
  });
  CLI::App* get = AddLeaf(*group, s, "get", "Show a table", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, bucket));
      ST_ASSIGN_OR_RETURN(json reply,
                          c.Call("GET", "/get-table",
                                 {{"tableBucketARN", arn}, {"namespace", ns}, {"name", name}}));
      Print(out, json_out, reply, [&] { PrintFields(out, reply); });
      return Status::OK();
    };
  });
  EncryptionFlags encryption{s.NewString(), s.NewString()};
  CLI::App* create = AddLeaf(
      *group, s, "create", "Create an Iceberg table (no metadata yet); prints its ARN",
      [&, encryption] {
        return [&, encryption](const ServiceClient& c, std::ostream& out) -> Status {
          ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, bucket));
          json body = {{"name", name}, {"format", "ICEBERG"}};
          if (std::optional<json> config = encryption.Configuration()) {
            body["encryptionConfiguration"] = *config;
          }
          ST_ASSIGN_OR_RETURN(
              json reply,
              c.Call("PUT", "/tables/" + PercentEncode(arn) + "/" + PercentEncode(ns), {}, body));
          Print(out, json_out, reply, [&] { out << reply.value("tableARN", "") << "\n"; });
          return Status::OK();
        };
      });
  encryption.AddTo(*create);
  CLI::App* get_encryption =
      AddLeaf(*group, s, "get-encryption", "Show the encryption in force for a table", [&] {
        return [&](const ServiceClient& c, std::ostream& out) -> Status {
          ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, bucket));
          ST_ASSIGN_OR_RETURN(json reply, c.Call("GET", TablePath(arn, ns, name) + "/encryption"));
          PrintEncryption(out, json_out, reply);
          return Status::OK();
        };
      });
  CLI::App* remove = AddLeaf(*group, s, "delete", "Delete a table and its files", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, bucket));
      QueryList query;
      if (!version_token.empty()) query.emplace_back("versionToken", version_token);
      ST_ASSIGN_OR_RETURN(json reply, c.Call("DELETE", TablePath(arn, ns, name), query));
      Print(out, json_out, json{{"deleted", ns + "." + name}},
            [&] { out << "deleted " << ns << "." << name << "\n"; });
      return Status::OK();
    };
  });
  CLI::App* location = AddLeaf(
      *group, s, "metadata-location", "Print the current metadata location and version token", [&] {
        return [&](const ServiceClient& c, std::ostream& out) -> Status {
          ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, bucket));
          ST_ASSIGN_OR_RETURN(json reply,
                              c.Call("GET", TablePath(arn, ns, name) + "/metadata-location"));
          Print(out, json_out, reply, [&] { PrintFields(out, reply); });
          return Status::OK();
        };
      });
  for (CLI::App* leaf : {list, create, get, get_encryption, remove, location}) {
    leaf->add_option("--bucket", bucket, "Bucket name or ARN")->required();
  }
  list->add_option("--namespace", ns, "Only this namespace");
  for (CLI::App* leaf : {create, get, get_encryption, remove, location}) {
    leaf->add_option("--namespace", ns, "Namespace")->required();
    leaf->add_option("name", name, "Table name")->required();
  }
  remove->add_option("--version-token", version_token, "Delete only at this version");

  // table maintenance run|status: POST /admin/maintenance/run, and the two
  // S3 Tables job-status operations.
  CLI::App* maintenance =
      AddGroup(*group, s, "maintenance", "Run a maintenance job now, or show the jobs' status");
  std::string& job = s.NewString();
  CLI::App* run = AddLeaf(*maintenance, s, "run", "Run one maintenance job on a table now", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string arn, TableArn(c, bucket, ns, name));
      ST_ASSIGN_OR_RETURN(
          json reply, c.Call("POST", "/admin/maintenance/run", {{"tableArn", arn}, {"job", job}}));
      Print(out, json_out, reply, [&] { PrintFields(out, reply); });
      return Status::OK();
    };
  });
  CLI::App* status = AddLeaf(*maintenance, s, "status", "Show every maintenance job's status", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, bucket));
      ST_ASSIGN_OR_RETURN(json jobs,
                          c.Call("GET", TablePath(arn, ns, name) + "/maintenance-job-status"));
      ST_ASSIGN_OR_RETURN(std::string tarn, TableArn(c, bucket, ns, name));
      ST_ASSIGN_OR_RETURN(json expiration, c.Call("GET", "/table-record-expiration-job-status",
                                                  {{"tableArn", tarn}}));
      json reply = {{"tableARN", tarn},
                    {"status", jobs.is_object() ? jobs.value("status", json::object()) : json()},
                    {"recordExpiration", expiration}};
      Print(out, json_out, reply, [&] {
        for (const auto& [name_of_job, value] : reply["status"].items()) {
          out << name_of_job << "\t" << value.value("status", "") << "\t"
              << value.value("lastRunTimestamp", "") << "\t" << value.value("failureMessage", "")
              << "\n";
        }
        out << "recordExpiration\t" << expiration.value("status", "") << "\t"
            << expiration.value("lastRunTimestamp", "") << "\t"
            << expiration.value("failureMessage", "") << "\n";
      });
      return Status::OK();
    };
  });
  for (CLI::App* leaf : {run, status}) {
    leaf->add_option("--bucket", bucket, "Bucket name or ARN")->required();
    leaf->add_option("--namespace", ns, "Namespace")->required();
    leaf->add_option("name", name, "Table name")->required();
  }
  run->add_option("--job", job,
                  "icebergCompaction, icebergSnapshotManagement, icebergUnreferencedFileRemoval "
                  "or recordExpiration")
      ->required();
}

// The policy path of the bucket, or of the table when `table` is given.
Result<std::string> PolicyPath(const ServiceClient& c, const std::string& bucket,
                               const std::string& ns, const std::string& table) {
  ST_ASSIGN_OR_RETURN(std::string arn, ResolveBucketArn(c, bucket));
  if (table.empty()) return "/buckets/" + PercentEncode(arn) + "/policy";
  if (ns.empty()) return Err(InvalidArgument("--table needs --namespace"));
  return TablePath(arn, ns, table) + "/policy";
}

void AddPolicyCommands(CLI::App& app, ServiceCommands& s) {
  CLI::App* group = AddGroup(app, s, "policy", "Table bucket and table resource policies");
  const bool& json_out = s.options.json;
  std::string& bucket = s.NewString();
  std::string& ns = s.NewString();
  std::string& table = s.NewString();
  std::string& file = s.NewString();

  CLI::App* put = AddLeaf(*group, s, "put", "Set the policy from a JSON file", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string path, PolicyPath(c, bucket, ns, table));
      ST_ASSIGN_OR_RETURN(std::string document, ReadTextFile(file));
      ST_ASSIGN_OR_RETURN(json reply, c.Call("PUT", path, {}, json{{"resourcePolicy", document}}));
      Print(out, json_out, json::object(), [&] { out << "policy set\n"; });
      return Status::OK();
    };
  });
  CLI::App* get = AddLeaf(*group, s, "get", "Print the policy", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string path, PolicyPath(c, bucket, ns, table));
      ST_ASSIGN_OR_RETURN(json reply, c.Call("GET", path));
      Print(out, json_out, reply, [&] {
        std::string text = reply.value("resourcePolicy", "");
        json parsed = json::parse(text, nullptr, false);
        out << (parsed.is_discarded() ? text : parsed.dump(2)) << "\n";
      });
      return Status::OK();
    };
  });
  CLI::App* remove = AddLeaf(*group, s, "delete", "Remove the policy", [&] {
    return [&](const ServiceClient& c, std::ostream& out) -> Status {
      ST_ASSIGN_OR_RETURN(std::string path, PolicyPath(c, bucket, ns, table));
      ST_ASSIGN_OR_RETURN(json reply, c.Call("DELETE", path));
      Print(out, json_out, json::object(), [&] { out << "policy deleted\n"; });
      return Status::OK();
    };
  });
  for (CLI::App* leaf : {put, get, remove}) {
    leaf->add_option("--bucket", bucket, "Bucket name or ARN")->required();
    leaf->add_option("--namespace", ns, "Namespace of --table");
    leaf->add_option("--table", table, "A table's policy instead of the bucket's");
  }
  put->add_option("--file", file, "Policy JSON file")->required();
}

}  // namespace

void AddCatalogCommands(CLI::App& app, ServiceCommands& state) {
  AddBucketCommands(app, state);
  AddNamespaceCommands(app, state);
  AddTableCommands(app, state);
  AddPolicyCommands(app, state);
}

}  // namespace st::cli
