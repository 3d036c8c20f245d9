// catalog::StoreSecretLookup's optional TTL cache: hits skip the catalog, a
// revoked key stops authenticating once its entry expires, unknown keys are
// never cached. (Here rather than tests/unit/catalog: the cache serves SigV4.)
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "catalog/bootstrap.h"
#include "catalog/sqlite_metadata_store.h"
#include "catalog/store_secret_lookup.h"
#include "common/clock.h"
#include "common/random.h"

namespace st::catalog {
namespace {

TEST(SecretCacheTest, RevokedKeyStopsWithinTheTtl) {
  std::string pattern = (std::filesystem::temp_directory_path() / "st-secret-XXXXXX").string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr);
  ManualClock clock{std::chrono::system_clock::from_time_t(1'780'000'000)};
  DefaultRandom random{1};
  {
    auto store = OpenSqliteMetadataStore({pattern + "/catalog.db"}, clock, random).value();
    auto admin = EnsureAdmin(*store, "111122223333");
    ASSERT_TRUE(admin.has_value());
    StoreSecretLookup cached(*store, {std::chrono::seconds(2), &clock});
    StoreSecretLookup uncached(*store);

    ASSERT_TRUE(cached.Lookup(admin->access_key_id).has_value());
    auto second = store->CreateAccessKey(admin->user_arn);
    ASSERT_TRUE(second.has_value());
    ASSERT_TRUE(store->DeleteAccessKey(admin->access_key_id).ok());
    // Uncached: gone at once. Cached: still served until the entry expires.
    EXPECT_EQ(uncached.Lookup(admin->access_key_id).error().code(), StatusCode::kNotFound);
    auto hit = cached.Lookup(admin->access_key_id);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->secret_access_key, admin->secret_access_key);
    clock.Advance(std::chrono::milliseconds(1999));
    EXPECT_TRUE(cached.Lookup(admin->access_key_id).has_value());
    clock.Advance(std::chrono::milliseconds(1));
    EXPECT_EQ(cached.Lookup(admin->access_key_id).error().code(), StatusCode::kNotFound);

    // A failed lookup is not remembered: a key created afterwards works at once.
    EXPECT_FALSE(cached.Lookup("AKIANOTYETCREATED000").has_value());
    EXPECT_TRUE(cached.Lookup(second->access_key_id).has_value());
    ASSERT_TRUE(store->SetAccessKeyStatus(second->access_key_id, AccessKeyStatus::kInactive).ok());
    EXPECT_TRUE(cached.Lookup(second->access_key_id).has_value());
    clock.Advance(std::chrono::seconds(2));
    EXPECT_EQ(cached.Lookup(second->access_key_id).error().code(), StatusCode::kNotFound);
  }
  std::filesystem::remove_all(pattern);
}

}  // namespace
}  // namespace st::catalog
