// Secret access keys at rest in the SQLite catalog: sealed under the injected
// SecretSealer, plaintext databases sealed on open, a wrong or missing master
// key refused at open, damaged rows caught on lookup, and owner-only files.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "auth/secret_sealer.h"
#include "catalog/arns.h"
#include "catalog/sqlite_metadata_store.h"
#include "common/clock.h"
#include "common/random.h"
#include "sqlite/database.h"

namespace st::catalog {
namespace {

constexpr const char* kAccount = "111122223333";

std::unique_ptr<auth::SecretSealer> SealerWithKey(char fill) {
  return std::move(*auth::AesGcmSecretSealer::Make(std::string(32, fill)));
}

class SecretSealingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "st-sealing-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string DbPath() const { return dir_ + "/catalog.db"; }

  Result<std::unique_ptr<MetadataStore>> Open(const auth::SecretSealer* sealer) {
    SqliteStoreOptions options;
    options.path = DbPath();
    options.secret_sealer = sealer;
    return OpenSqliteMetadataStore(options, clock_, random_);
  }

  // Account + users u0..u<n-1> with one key each; returns the keys.
  std::vector<AccessKey> MakeKeys(MetadataStore& store, int n) {
    EXPECT_TRUE(store.CreateAccount(kAccount).ok());
    std::vector<AccessKey> keys;
    for (int i = 0; i < n; ++i) {
      auto user = store.CreateIdentity(IdentityKind::kUser, kAccount, "u" + std::to_string(i));
      EXPECT_TRUE(user.has_value());
      auto key = store.CreateAccessKey(user->arn);
      EXPECT_TRUE(key.has_value()) << key.error().ToString();
      keys.push_back(*key);
    }
    return keys;
  }

  // The bytes of catalog.db and its -wal / -shm (those that exist).
  std::string FileBytes() const {
    std::string all;
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::ifstream in(DbPath() + suffix, std::ios::binary);
      std::stringstream buffer;
      buffer << in.rdbuf();
      all += buffer.str();
    }
    return all;
  }

  // Runs `sql` on the database file directly, as an attacker with the file would.
  void Exec(const std::string& sql) {
    ::st::sqlite::OpenOptions open;
    open.path = DbPath();
    auto db = ::st::sqlite::Database::Open(open);
    ASSERT_TRUE(db.has_value()) << db.error().ToString();
    ASSERT_TRUE((*db)->Exec(sql).ok()) << sql;
  }

  std::string dir_;
  ManualClock clock_{std::chrono::system_clock::time_point(std::chrono::seconds(1733250000))};
  DefaultRandom random_{7};
};

TEST_F(SecretSealingTest, SealedSecretsNeverReachTheFilesAndStillAuthenticate) {
  auto sealer = SealerWithKey('a');
  auto store = Open(sealer.get());
  ASSERT_TRUE(store.has_value()) << store.error().ToString();
  std::vector<AccessKey> keys = MakeKeys(**store, 5);
  std::string bytes = FileBytes();  // With the WAL in use.
  for (const AccessKey& key : keys) {
    EXPECT_EQ(bytes.find(key.secret_access_key), std::string::npos) << key.access_key_id;
    EXPECT_NE(bytes.find(key.access_key_id), std::string::npos);  // The scan does see rows.
    auto got = (*store)->GetAccessKey(key.access_key_id);
    ASSERT_TRUE(got.has_value()) << got.error().ToString();
    EXPECT_EQ(got->secret_access_key, key.secret_access_key);
  }
  auto listed = (*store)->ListAccessKeys(keys[0].owner_arn);
  ASSERT_TRUE(listed.has_value());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].secret_access_key, keys[0].secret_access_key);
  store->reset();

  // Reopened with the same key, everything still unseals.
  auto again = Open(sealer.get());
  ASSERT_TRUE(again.has_value()) << again.error().ToString();
  for (const AccessKey& key : keys) {
    EXPECT_EQ((*again)->GetAccessKey(key.access_key_id)->secret_access_key, key.secret_access_key);
  }
}

TEST_F(SecretSealingTest, PlaintextDatabaseIsSealedInPlaceOnOpen) {
  std::vector<AccessKey> keys;
  {
    auto plain = Open(nullptr);  // What an older release wrote.
    ASSERT_TRUE(plain.has_value());
    keys = MakeKeys(**plain, 4);
  }
  ASSERT_NE(FileBytes().find(keys[0].secret_access_key), std::string::npos)
      << "the old format should have left plaintext to migrate";

  auto sealer = SealerWithKey('a');
  {
    auto store = Open(sealer.get());
    ASSERT_TRUE(store.has_value()) << store.error().ToString();
    for (const AccessKey& key : keys) {
      auto got = (*store)->GetAccessKey(key.access_key_id);
      ASSERT_TRUE(got.has_value()) << got.error().ToString();
      EXPECT_EQ(got->secret_access_key, key.secret_access_key);
    }
  }
  std::string bytes = FileBytes();
  for (const AccessKey& key : keys) {
    EXPECT_EQ(bytes.find(key.secret_access_key), std::string::npos) << key.access_key_id;
  }
  // Sealed now: a store without the master key (a tool) opens the database
  // for other entities but neither reads nor adds a secret.
  auto without = Open(nullptr);
  ASSERT_TRUE(without.has_value()) << without.error().ToString();
  auto read = (*without)->GetAccessKey(keys[0].access_key_id);
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().code(), StatusCode::kFailedPrecondition);
  auto added = (*without)->CreateAccessKey(keys[0].owner_arn);
  ASSERT_FALSE(added.has_value());
  EXPECT_EQ(added.error().code(), StatusCode::kFailedPrecondition);
  without->reset();
  EXPECT_EQ(FileBytes().find(keys[0].secret_access_key), std::string::npos);
}

TEST_F(SecretSealingTest, AnotherMasterKeyIsRefusedAtOpen) {
  auto sealer = SealerWithKey('a');
  {
    auto store = Open(sealer.get());
    ASSERT_TRUE(store.has_value());
    MakeKeys(**store, 2);
  }
  auto other = SealerWithKey('b');
  auto refused = Open(other.get());
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.error().message().find("sealed under another master key"), std::string::npos)
      << refused.error().message();
  EXPECT_NE(refused.error().message().find(DbPath()), std::string::npos);
  // Nothing was changed: the right key still opens it.
  EXPECT_TRUE(Open(sealer.get()).has_value());
}

TEST_F(SecretSealingTest, ADamagedOrMovedSealedValueFailsOnlyItsKey) {
  auto sealer = SealerWithKey('a');
  std::vector<AccessKey> keys;
  {
    auto store = Open(sealer.get());
    ASSERT_TRUE(store.has_value());
    keys = MakeKeys(**store, 3);
  }
  // Flip the last byte (the tag) of key 0; copy key 2's sealed value onto key 1.
  // (|| yields TEXT, so the result is cast back to the BLOB a sealed value is.)
  Exec(
      "UPDATE access_keys SET secret = CAST(substr(secret, 1, length(secret) - 1) || "
      "CASE WHEN substr(secret, -1) = x'00' THEN x'01' ELSE x'00' END AS BLOB) WHERE access_key_id "
      "= '" +
      keys[0].access_key_id + "'");
  Exec("UPDATE access_keys SET secret = (SELECT secret FROM access_keys WHERE access_key_id = '" +
       keys[2].access_key_id + "') WHERE access_key_id = '" + keys[1].access_key_id + "'");
  auto store = Open(sealer.get());
  ASSERT_TRUE(store.has_value()) << store.error().ToString();
  for (int i : {0, 1}) {
    auto got = (*store)->GetAccessKey(keys[i].access_key_id);
    ASSERT_FALSE(got.has_value()) << i;
    EXPECT_EQ(got.error().code(), StatusCode::kCorruption) << got.error().ToString();
    EXPECT_NE(got.error().message().find(keys[i].access_key_id), std::string::npos);
  }
  EXPECT_EQ((*store)->GetAccessKey(keys[2].access_key_id)->secret_access_key,
            keys[2].secret_access_key);
}

TEST_F(SecretSealingTest, DatabaseFilesAreOwnerOnly) {
  mode_t old = ::umask(022);  // A permissive umask: the modes must not depend on it.
  auto sealer = SealerWithKey('a');
  auto store = Open(sealer.get());
  ::umask(old);
  ASSERT_TRUE(store.has_value());
  MakeKeys(**store, 1);
  for (const char* suffix : {"", "-wal", "-shm"}) {
    struct stat st {};
    ASSERT_EQ(::stat((DbPath() + suffix).c_str(), &st), 0) << suffix;
    EXPECT_EQ(st.st_mode & 07777, 0600u) << "catalog.db" << suffix;
  }
}

}  // namespace
}  // namespace st::catalog
