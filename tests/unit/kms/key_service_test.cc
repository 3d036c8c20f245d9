// KeyService over the SQLite key store in a migrated catalog database:
// material wrapped under the master key, rotation versions, key states,
// aliases and the foreign-account rule.
#include "kms/key_service.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>
#include <vector>

#include "catalog/sqlite_metadata_store.h"

namespace st::kms {
namespace {

constexpr char kAccount[] = "111122223333";
constexpr char kOther[] = "444455556666";

class KeyServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("kms_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    std::string path = (dir_ / "catalog.db").string();
    catalog::SqliteStoreOptions options;
    options.path = path;
    auto catalog = catalog::OpenSqliteMetadataStore(options, clock_, random_);
    ASSERT_TRUE(catalog.has_value()) << catalog.error().ToString();
    catalog_ = std::move(catalog).value();
    auto store = OpenSqliteKeyStore(path);
    ASSERT_TRUE(store.has_value()) << store.error().ToString();
    store_ = std::move(store).value();
    auto sealer = auth::AesGcmSecretSealer::Make(std::string(32, 'm'));
    ASSERT_TRUE(sealer.has_value());
    sealer_ = std::move(sealer).value();
    service_ = std::make_unique<KeyService>(
        KeyService::Deps{*store_, *sealer_, clock_, random_, "us-east-1"});
  }
  void TearDown() override {
    service_.reset();
    store_.reset();
    catalog_.reset();
    std::filesystem::remove_all(dir_);
  }

  KmsKey NewKey(const std::string& account = kAccount) {
    auto key = service_->CreateKey(account, {});
    EXPECT_TRUE(key.has_value()) << key.error().message;
    return *key;
  }

  std::filesystem::path dir_;
  ManualClock clock_{std::chrono::system_clock::time_point(std::chrono::hours(480000))};
  DefaultRandom random_{7};
  std::unique_ptr<catalog::MetadataStore> catalog_;
  std::unique_ptr<KeyStore> store_;
  std::unique_ptr<auth::AesGcmSecretSealer> sealer_;
  std::unique_ptr<KeyService> service_;
};

TEST_F(KeyServiceTest, EncryptDecryptAndMaterialIsWrapped) {
  KmsKey key = NewKey();
  EXPECT_EQ(key.arn, "arn:aws:kms:us-east-1:111122223333:key/" + key.key_id);
  auto blob = service_->Encrypt(key, "plain", {{"k", "v"}});
  ASSERT_TRUE(blob.has_value()) << blob.error().message;
  auto decrypted = service_->Decrypt(kAccount, *blob, {{"k", "v"}}, std::nullopt);
  ASSERT_TRUE(decrypted.has_value()) << decrypted.error().message;
  EXPECT_EQ(decrypted->plaintext, "plain");
  auto wrong = service_->Decrypt(kAccount, *blob, {{"k", "w"}}, std::nullopt);
  ASSERT_FALSE(wrong.has_value());
  EXPECT_EQ(wrong.error().code, KmsErrorCode::kInvalidCiphertext);
  // The stored material is sealed: it does not unseal under another master key.
  auto version = store_->GetVersion(key.key_id, 1);
  ASSERT_TRUE(version.has_value());
  EXPECT_GT(version->wrapped_material.size(), kKeyMaterialBytes);
  auto other_master = auth::AesGcmSecretSealer::Make(std::string(32, 'n'));
  ASSERT_TRUE(other_master.has_value());
  EXPECT_FALSE((*other_master)->Unseal(version->wrapped_material, key.key_id + "/1").has_value());
  EXPECT_TRUE(sealer_->Unseal(version->wrapped_material, key.key_id + "/1").has_value());
}

TEST_F(KeyServiceTest, RotationKeepsOldVersions) {
  KmsKey key = NewKey();
  auto v1 = service_->Encrypt(key, "one", {});
  ASSERT_TRUE(v1.has_value());
  auto rotated = service_->Rotate(key);
  ASSERT_TRUE(rotated.has_value());
  EXPECT_EQ(rotated->current_version, 2u);
  auto v2 = service_->Encrypt(*rotated, "two", {});
  ASSERT_TRUE(v2.has_value());
  EXPECT_EQ(ParseBlobHeader(*v1)->key_version, 1u);
  EXPECT_EQ(ParseBlobHeader(*v2)->key_version, 2u);
  EXPECT_EQ(service_->Decrypt(kAccount, *v1, {}, std::nullopt)->plaintext, "one");
  EXPECT_EQ(service_->Decrypt(kAccount, *v2, {}, std::nullopt)->plaintext, "two");
  // A blob naming a version that does not exist is an invalid ciphertext.
  std::string v9 = *v2;
  v9[4 + kKeyIdBytes + 3] = 9;
  auto missing = service_->Decrypt(kAccount, v9, {}, std::nullopt);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, KmsErrorCode::kInvalidCiphertext);
}

TEST_F(KeyServiceTest, ScheduledRotationHappensWhenDue) {
  KmsKey key = NewKey();
  ASSERT_TRUE(service_->SetRotation(key, true, 90).has_value());
  auto reloaded = service_->ResolveKey(kAccount, key.key_id);
  ASSERT_TRUE(service_->Encrypt(*reloaded, "x", {}).has_value());
  EXPECT_EQ(store_->GetKey(key.key_id)->current_version, 1u);
  clock_.Advance(std::chrono::hours(24 * 91));
  auto blob = service_->Encrypt(*service_->ResolveKey(kAccount, key.key_id), "x", {});
  ASSERT_TRUE(blob.has_value());
  EXPECT_EQ(ParseBlobHeader(*blob)->key_version, 2u);
}

TEST_F(KeyServiceTest, ConcurrentEncryptsRotateOnce) {
  KmsKey key = NewKey();
  ASSERT_TRUE(service_->SetRotation(key, true, 90).has_value());
  clock_.Advance(std::chrono::hours(24 * 90));
  KmsKey due = *service_->ResolveKey(kAccount, key.key_id);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      for (int j = 0; j < 5; ++j) {
        if (!service_->Encrypt(due, "x", {}).has_value()) ++failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(store_->GetKey(key.key_id)->current_version, 2u);
  EXPECT_EQ(store_->GetVersion(key.key_id, 3).error().code(), StatusCode::kNotFound);
}

TEST_F(KeyServiceTest, StatesRefuseCryptography) {
  KmsKey key = NewKey();
  auto blob = service_->Encrypt(key, "x", {});
  ASSERT_TRUE(blob.has_value());
  auto disabled = service_->SetEnabled(key, false);
  ASSERT_TRUE(disabled.has_value());
  EXPECT_EQ(service_->Encrypt(*disabled, "x", {}).error().code, KmsErrorCode::kDisabled);
  EXPECT_EQ(service_->Decrypt(kAccount, *blob, {}, std::nullopt).error().code,
            KmsErrorCode::kDisabled);
  auto pending = service_->ScheduleDeletion(*disabled, 7);
  ASSERT_TRUE(pending.has_value());
  EXPECT_EQ(service_->Decrypt(kAccount, *blob, {}, std::nullopt).error().code,
            KmsErrorCode::kInvalidState);
  EXPECT_EQ(service_->SetEnabled(*pending, true).error().code, KmsErrorCode::kInvalidState);
  EXPECT_EQ(service_->ScheduleDeletion(*pending, 7).error().code, KmsErrorCode::kInvalidState);
  EXPECT_EQ(service_->ScheduleDeletion(*pending, 6).error().code, KmsErrorCode::kValidation);
  auto cancelled = service_->CancelDeletion(*pending);
  ASSERT_TRUE(cancelled.has_value());
  EXPECT_EQ(cancelled->state, KeyState::kDisabled);
}

TEST_F(KeyServiceTest, DeletedAfterThePendingWindow) {
  KmsKey key = NewKey();
  ASSERT_TRUE(service_->CreateAlias(kAccount, "alias/doomed", key).has_value());
  auto blob = service_->Encrypt(key, "x", {});
  ASSERT_TRUE(blob.has_value());
  ASSERT_TRUE(service_->ScheduleDeletion(key, 7).has_value());
  clock_.Advance(std::chrono::hours(24 * 7 - 1));
  EXPECT_EQ(service_->ResolveKey(kAccount, key.key_id)->state, KeyState::kPendingDeletion);
  clock_.Advance(std::chrono::hours(1));
  EXPECT_EQ(service_->ResolveKey(kAccount, key.key_id).error().code, KmsErrorCode::kNotFound);
  EXPECT_EQ(store_->GetKey(key.key_id).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->GetVersion(key.key_id, 1).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(service_->ResolveKey(kAccount, "alias/doomed").error().code, KmsErrorCode::kNotFound);
  EXPECT_EQ(service_->Decrypt(kAccount, *blob, {}, std::nullopt).error().code,
            KmsErrorCode::kInvalidCiphertext);
}

TEST_F(KeyServiceTest, AliasesAndAccounts) {
  KmsKey key = NewKey();
  ASSERT_TRUE(service_->CreateAlias(kAccount, "alias/orders", key).has_value());
  EXPECT_EQ(service_->CreateAlias(kAccount, "alias/orders", key).error().code,
            KmsErrorCode::kAlreadyExists);
  EXPECT_EQ(service_->CreateAlias(kAccount, "alias/aws/x", key).error().code,
            KmsErrorCode::kInvalidAliasName);
  EXPECT_EQ(service_->ResolveKey(kAccount, "alias/orders")->key_id, key.key_id);
  EXPECT_EQ(
      service_->ResolveKey(kAccount, "arn:aws:kms:us-east-1:111122223333:alias/orders")->key_id,
      key.key_id);
  // Another account sees neither the alias nor, without a policy naming it, the key.
  EXPECT_EQ(service_->ResolveKey(kOther, "alias/orders").error().code, KmsErrorCode::kNotFound);
  EXPECT_EQ(
      service_->ResolveKey(kOther, "arn:aws:kms:us-east-1:111122223333:alias/orders").error().code,
      KmsErrorCode::kNotFound);
  EXPECT_EQ(service_->ResolveKey(kOther, key.arn).error().code, KmsErrorCode::kNotFound);
  EXPECT_EQ(service_->ResolveKey(kOther, key.key_id).error().code, KmsErrorCode::kNotFound);
  std::string grant = R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow",
    "Principal":{"AWS":"arn:aws:iam::444455556666:root"},"Action":"kms:Decrypt","Resource":"*"}]})";
  ASSERT_TRUE(service_->PutPolicy(key, grant).has_value());
  EXPECT_EQ(service_->ResolveKey(kOther, key.arn)->key_id, key.key_id);
  // A bare key id names a key of the caller's own account only.
  EXPECT_EQ(service_->ResolveKey(kOther, key.key_id).error().code, KmsErrorCode::kNotFound);
  EXPECT_EQ(service_->PutPolicy(key, "{").error().code, KmsErrorCode::kMalformedPolicy);
}

}  // namespace
}  // namespace st::kms
