// Every case of tests/integration/policy_matrix.json through the server's
// PolicyAuthorizer over a real SQLite catalog: principals come from access
// keys via StoreSecretLookup, identity policies, bucket and table policies
// are stored as the APIs would store them, and resources are real ARNs.
// A third of the cases also run as boto3 requests (test_policy_matrix.py).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "catalog/arns.h"
#include "catalog/sqlite_metadata_store.h"
#include "catalog/store_secret_lookup.h"
#include "common/logger.h"
#include "server/policy_authorizer.h"

namespace st::server {
namespace {

using nlohmann::json;

constexpr const char* kRegion = "us-east-1";

json LoadMatrix() {
  std::ifstream in(std::string(ST_SOURCE_DIR) + "/tests/integration/policy_matrix.json");
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

std::string Substitute(std::string text, const json& substitution) {
  for (const auto& [from, to] : substitution.items()) {
    for (size_t pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos)) {
      text.replace(pos, from.size(), to.get<std::string>());
      pos += to.get<std::string>().size();
    }
  }
  return text;
}

class PolicyMatrixTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "st-matrix-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto store = catalog::OpenSqliteMetadataStore({dir_ + "/catalog.db"}, clock_, random_);
    ASSERT_TRUE(store.has_value()) << store.error().ToString();
    store_ = std::move(*store);
    matrix_ = LoadMatrix();
    subst_ = matrix_["bucket_name_substitution"];
    BuildWorld();
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  void BuildWorld() {
    for (const auto& [_, account] : matrix_["accounts"].items()) {
      ASSERT_TRUE(store_->CreateAccount(account).ok());
    }
    const std::string owner = matrix_["accounts"]["owner"];
    for (const auto& [key, name] : matrix_["buckets"].items()) {
      auto bucket = store_->CreateTableBucket(
          {owner, kRegion, Substitute(name.get<std::string>(), subst_), {}});
      ASSERT_TRUE(bucket.has_value()) << bucket.error().ToString();
      bucket_arns_[key] = bucket->arn;
    }
    for (const auto& [key, spec] : matrix_["tables"].items()) {
      const std::string& bucket_arn = bucket_arns_[spec["bucket"]];
      std::string ns = spec["namespace"];
      if (!store_->GetNamespace(bucket_arn, ns).has_value()) {
        ASSERT_TRUE(store_->CreateNamespace(bucket_arn, ns, owner).has_value());
      }
      auto table = store_->CreateTable({bucket_arn, ns, spec["name"], owner, std::nullopt, {}});
      ASSERT_TRUE(table.has_value()) << table.error().ToString();
      tables_[key] = *table;
    }
    for (const auto& [key, spec] : matrix_["principals"].items()) {
      if (spec["type"] == "anonymous") continue;
      auto kind =
          spec["type"] == "role" ? catalog::IdentityKind::kRole : catalog::IdentityKind::kUser;
      std::string name = spec.value("name", key);
      auto identity = store_->CreateIdentity(kind, spec["account"], name);
      ASSERT_TRUE(identity.has_value()) << identity.error().ToString();
      auto access_key = store_->CreateAccessKey(identity->arn);
      ASSERT_TRUE(access_key.has_value());
      auto record = catalog::StoreSecretLookup(*store_).Lookup(access_key->access_key_id);
      ASSERT_TRUE(record.has_value());
      principals_[key] = record->principal;
      identity_arns_[key] = identity->arn;
    }
  }

  std::string PolicyText(const std::string& name) {
    return Substitute(matrix_["policies"].at(name).dump(), subst_);
  }

  // Resets every policy, then stores the case's.
  void ApplyPolicies(const json& c) {
    for (const auto& [key, arn] : identity_arns_) {
      auto names = store_->ListIdentityPolicies(arn);
      ASSERT_TRUE(names.has_value());
      for (const auto& policy : *names)
        ASSERT_TRUE(store_->DeleteIdentityPolicy(arn, policy.name).ok());
    }
    for (const auto& [_, arn] : bucket_arns_)
      ASSERT_TRUE(store_->DeleteTableBucketPolicy(arn).ok());
    for (const auto& [_, table] : tables_) {
      Status deleted = store_->DeleteTablePolicy(table.table_id);
      ASSERT_TRUE(deleted.ok() || deleted.code() == StatusCode::kNotFound) << deleted.ToString();
    }
    const std::string who = c["principal"];
    int n = 0;
    for (const auto& name : c["identity"]) {
      ASSERT_TRUE(identity_arns_.count(who)) << "identity policies for " << who;
      ASSERT_TRUE(store_
                      ->PutIdentityPolicy(identity_arns_[who],
                                          {"p" + std::to_string(n++), PolicyText(name)})
                      .ok());
    }
    std::string resource = c["resource"];
    if (!c["bucket_policy"].is_null()) {
      // On the bucket holding the resource (the demo bucket for "*").
      std::string bucket_key = "bucket";
      if (tables_.count(resource)) {
        bucket_key = matrix_["tables"][resource]["bucket"].get<std::string>();
      } else if (bucket_arns_.count(resource)) {
        bucket_key = resource;
      }
      ASSERT_TRUE(
          store_->PutTableBucketPolicy(bucket_arns_[bucket_key], PolicyText(c["bucket_policy"]))
              .ok());
    }
    if (!c["table_policy"].is_null()) {
      std::string table_key = c.value("table_policy_table", resource);
      ASSERT_TRUE(tables_.count(table_key)) << "table policy needs a table resource";
      ASSERT_TRUE(
          store_->PutTablePolicy(tables_[table_key].table_id, PolicyText(c["table_policy"])).ok());
    }
  }

  auth::AccessRequest AccessFor(const json& c) {
    auth::AccessRequest access;
    access.action = c["action"];
    std::string resource = c["resource"];
    if (tables_.count(resource)) {
      const catalog::Table& table = tables_[resource];
      access.resource = table.arn;
      access.condition_keys["s3tables:namespace"] = {table.namespace_name};
      access.condition_keys["s3tables:tableName"] = {table.name};
    } else if (bucket_arns_.count(resource)) {
      access.resource = bucket_arns_[resource];
    } else if (resource.rfind("ns:", 0) == 0) {
      access.resource = bucket_arns_["bucket"];
      access.condition_keys["s3tables:namespace"] = {resource.substr(3)};
    } else {
      access.resource = resource;
    }
    if (c.contains("context")) {
      for (const auto& [key, values] : c["context"].items()) {
        access.condition_keys[key] = values.get<std::vector<std::string>>();
      }
    }
    return access;
  }

  ManualClock clock_{std::chrono::system_clock::from_time_t(1767225600)};  // 2026-01-01
  DefaultRandom random_{42};
  std::string dir_;
  std::unique_ptr<catalog::MetadataStore> store_;
  json matrix_, subst_;
  std::map<std::string, std::string> bucket_arns_;
  std::map<std::string, catalog::Table> tables_;
  std::map<std::string, auth::Principal> principals_;
  std::map<std::string, std::string> identity_arns_;
};

TEST_F(PolicyMatrixTest, EveryCase) {
  NullLogger logger;
  PolicyAuthorizer authorizer(*store_, clock_, logger, matrix_["accounts"]["owner"]);
  ASSERT_GE(matrix_["cases"].size(), 40u);
  for (const json& c : matrix_["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    ApplyPolicies(c);
    if (HasFatalFailure()) return;
    auth::Principal principal;  // Anonymous unless named.
    if (principals_.count(c["principal"])) principal = principals_[c["principal"]];
    auto result = authorizer.Evaluate(principal, AccessFor(c), "127.0.0.1");
    ASSERT_TRUE(result.has_value()) << result.error().ToString();
    EXPECT_EQ(result->allowed() ? "Allow" : "Deny", c["expected"].get<std::string>())
        << result->explanation;
  }
}

// A stored policy that no longer parses fails closed (it might hold a Deny).
TEST_F(PolicyMatrixTest, UnparseableStoredPolicyIsAnError) {
  NullLogger logger;
  PolicyAuthorizer authorizer(*store_, clock_, logger, matrix_["accounts"]["owner"]);
  ASSERT_TRUE(store_->PutTableBucketPolicy(bucket_arns_["bucket"], "{not json").ok());
  auth::AccessRequest access;
  access.action = "s3tables:GetTable";
  access.resource = tables_["orders"].arn;
  auto result = authorizer.Evaluate(principals_["alice"], access, "127.0.0.1");
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code(), StatusCode::kInternal);
  EXPECT_NE(result.error().message().find("table bucket policy"), std::string::npos);
}

// Identity ARNs are owned by the operator account: a principal of another
// account cannot administer identities even with iam:* allowed.
TEST_F(PolicyMatrixTest, AdminActionsBelongToTheOperatorAccount) {
  NullLogger logger;
  PolicyAuthorizer authorizer(*store_, clock_, logger, matrix_["accounts"]["owner"]);
  const char* kIamAll =
      R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"iam:*","Resource":"*"}]})";
  ASSERT_TRUE(store_->PutIdentityPolicy(identity_arns_["carol"], {"iam", kIamAll}).ok());
  ASSERT_TRUE(store_->PutIdentityPolicy(identity_arns_["bob"], {"iam", kIamAll}).ok());
  auth::AccessRequest access;
  access.action = "iam:CreateUser";
  access.resource = "arn:aws:iam::444455556666:user/mallory";
  auto carol = authorizer.Evaluate(principals_["carol"], access, "127.0.0.1");
  ASSERT_TRUE(carol.has_value());
  EXPECT_FALSE(carol->allowed());
  auto bob = authorizer.Evaluate(principals_["bob"], access, "127.0.0.1");
  ASSERT_TRUE(bob.has_value());
  EXPECT_TRUE(bob->allowed()) << bob->explanation;
}

}  // namespace
}  // namespace st::server
