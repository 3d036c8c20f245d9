// PolicyAuthorizer on KMS key ARNs over a real catalog and key store: the
// caller's IAM policies from the catalog combined with the key's policy as
// AWS KMS does, and the KMS master key file rules.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "catalog/sqlite_metadata_store.h"
#include "catalog/store_secret_lookup.h"
#include "common/logger.h"
#include "kms/key_service.h"
#include "server/master_key.h"
#include "server/policy_authorizer.h"

namespace st::server {
namespace {

constexpr char kOwner[] = "111122223333";
constexpr char kOther[] = "444455556666";

class KmsAuthorizerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "st-kmsauth-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    auto store = catalog::OpenSqliteMetadataStore({dir_ + "/catalog.db"}, clock_, random_);
    ASSERT_TRUE(store.has_value()) << store.error().ToString();
    store_ = std::move(*store);
    auto keys = kms::OpenSqliteKeyStore(dir_ + "/catalog.db");
    ASSERT_TRUE(keys.has_value()) << keys.error().ToString();
    keys_ = std::move(*keys);
    auto sealer = auth::AesGcmSecretSealer::Make(std::string(32, 'k'));
    ASSERT_TRUE(sealer.has_value());
    sealer_ = std::move(*sealer);
    service_ = std::make_unique<kms::KeyService>(
        kms::KeyService::Deps{*keys_, *sealer_, clock_, random_, "us-east-1"});
    for (const char* account : {kOwner, kOther}) ASSERT_TRUE(store_->CreateAccount(account).ok());
    authorizer_ = std::make_unique<PolicyAuthorizer>(
        PolicySources{*store_, *store_, *store_, *store_, keys_.get()}, clock_, logger_, kOwner);
  }
  void TearDown() override {
    authorizer_.reset();
    service_.reset();
    keys_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  auth::Principal User(const std::string& account, const std::string& name,
                       const std::string& policy) {
    auto identity = store_->CreateIdentity(catalog::IdentityKind::kUser, account, name);
    EXPECT_TRUE(identity.has_value());
    if (!policy.empty()) {
      EXPECT_TRUE(store_->PutIdentityPolicy(identity->arn, {"inline", policy}).ok());
    }
    auto access_key = store_->CreateAccessKey(identity->arn);
    EXPECT_TRUE(access_key.has_value());
    auto record = catalog::StoreSecretLookup(*store_).Lookup(access_key->access_key_id);
    EXPECT_TRUE(record.has_value());
    return record->principal;
  }

  bool Allowed(const auth::Principal& who, const std::string& action, const std::string& arn) {
    auto decision = authorizer_->Authorize({"test", "127.0.0.1"}, who, {action, arn, {}});
    EXPECT_TRUE(decision.has_value());
    return decision.has_value() && decision->allowed;
  }

  std::string dir_;
  ManualClock clock_{std::chrono::system_clock::now()};
  DefaultRandom random_{11};
  NullLogger logger_;
  std::unique_ptr<catalog::MetadataStore> store_;
  std::unique_ptr<kms::KeyStore> keys_;
  std::unique_ptr<auth::AesGcmSecretSealer> sealer_;
  std::unique_ptr<kms::KeyService> service_;
  std::unique_ptr<PolicyAuthorizer> authorizer_;
};

constexpr char kAllowDecrypt[] =
    R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"kms:Decrypt","Resource":"*"}]})";

TEST_F(KmsAuthorizerTest, DefaultKeyPolicyDelegatesToIam) {
  auto key = service_->CreateKey(kOwner, {});
  ASSERT_TRUE(key.has_value());
  auth::Principal alice = User(kOwner, "alice", kAllowDecrypt);
  auth::Principal bob = User(kOwner, "bob", "");
  EXPECT_TRUE(Allowed(alice, "kms:Decrypt", key->arn));
  EXPECT_FALSE(Allowed(alice, "kms:Encrypt", key->arn));
  EXPECT_FALSE(Allowed(bob, "kms:Decrypt", key->arn));
}

TEST_F(KmsAuthorizerTest, KeyPolicyWithoutDelegationOverridesIam) {
  auto key = service_->CreateKey(
      kOwner, {"",
               std::string(R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow",
        "Principal":{"AWS":"arn:aws:iam::111122223333:user/carol"},"Action":"kms:*","Resource":"*"}]})"),
               {}});
  ASSERT_TRUE(key.has_value()) << key.error().message;
  EXPECT_FALSE(Allowed(User(kOwner, "alice", kAllowDecrypt), "kms:Decrypt", key->arn));
  EXPECT_TRUE(Allowed(User(kOwner, "carol", ""), "kms:Decrypt", key->arn));
  // An unknown key ARN has no policy: nobody is allowed.
  EXPECT_FALSE(
      Allowed(User(kOwner, "dave", kAllowDecrypt), "kms:Decrypt",
              "arn:aws:kms:us-east-1:111122223333:key/0b8f9a2e-3c1d-4e5f-8a9b-0c1d2e3f4a5b"));
}

TEST_F(KmsAuthorizerTest, CrossAccountNeedsKeyPolicyAndIam) {
  auto key = service_->CreateKey(kOwner, {});
  ASSERT_TRUE(key.has_value());
  auth::Principal erin = User(kOther, "erin", kAllowDecrypt);
  EXPECT_FALSE(Allowed(erin, "kms:Decrypt", key->arn));
  ASSERT_TRUE(service_
                  ->PutPolicy(*key, R"({"Version":"2012-10-17","Statement":[
    {"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":"kms:*","Resource":"*"},
    {"Effect":"Allow","Principal":{"AWS":"444455556666"},"Action":"kms:Decrypt","Resource":"*"}]})")
                  .has_value());
  EXPECT_TRUE(Allowed(erin, "kms:Decrypt", key->arn));
  EXPECT_FALSE(Allowed(User(kOther, "frank", ""), "kms:Decrypt", key->arn));
}

TEST(KmsMasterKeyTest, RefusesFilesReadableByOthers) {
  std::string pattern = (std::filesystem::temp_directory_path() / "st-kmskey-XXXXXX").string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr);
  std::string dir = pattern;
  std::string created = dir + "/kms-master.key";
  auto first = LoadKmsMasterKey("", created);
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  EXPECT_TRUE(first->created);
  EXPECT_EQ(first->bytes.size(), 32u);
  auto again = LoadKmsMasterKey("", created);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->bytes, first->bytes);
  std::string operator_file = dir + "/operator.key";
  std::ofstream(operator_file) << std::string(64, 'a') << "\n";
  ::chmod(operator_file.c_str(), 0640);
  auto refused = LoadKmsMasterKey(operator_file, created);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.error().message().find("chmod 600"), std::string::npos);
  ::chmod(operator_file.c_str(), 0600);
  auto taken = LoadKmsMasterKey(operator_file, created);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->bytes, std::string(32, '\xaa'));
  EXPECT_EQ(taken->origin, "--kms-master-key-file");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace st::server
