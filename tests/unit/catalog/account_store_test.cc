// Accounts in the SQLite MetadataStore: GetAccount and the paged ListAccounts.
#include <gtest/gtest.h>

#include <vector>

#include "store_fixture.h"

namespace st::catalog {
namespace {

using AccountStoreTest = StoreTest;

constexpr const char* kFirst = "100000000001";
constexpr const char* kSecond = "100000000002";
constexpr const char* kThird = "200000000003";

TEST_F(AccountStoreTest, ListAccountsPagesInIdOrder) {
  // Created out of order: the listing is ordered by id, not by creation.
  for (const char* id : {kThird, kFirst, kSecond}) {
    ASSERT_TRUE(store_->CreateAccount(id).ok()) << id;
    clock_.Advance(std::chrono::seconds(1));
  }
  std::vector<std::string> seen;
  std::vector<size_t> page_sizes;
  PageRequest request;
  request.limit = 2;
  do {
    auto page = store_->ListAccounts(request);
    ASSERT_TRUE(page.has_value()) << page.error().ToString();
    page_sizes.push_back(page->items.size());
    for (const Account& account : page->items) seen.push_back(account.account_id);
    request.continuation_token = page->continuation_token;
    ASSERT_LE(page_sizes.size(), 3u) << "the listing does not end";
  } while (!request.continuation_token.empty());
  EXPECT_EQ(seen, (std::vector<std::string>{kFirst, kSecond, kThird}));
  EXPECT_EQ(page_sizes, (std::vector<size_t>{2, 1}));

  // A page that ends exactly at the last account carries no token.
  auto exact = store_->ListAccounts({"", "", 3});
  ASSERT_TRUE(exact.has_value());
  EXPECT_EQ(exact->items.size(), 3u);
  EXPECT_TRUE(exact->continuation_token.empty());

  auto prefixed = store_->ListAccounts({"1000", "", 1});
  ASSERT_TRUE(prefixed.has_value());
  ASSERT_EQ(prefixed->items.size(), 1u);
  EXPECT_EQ(prefixed->items[0].account_id, kFirst);
  auto rest = store_->ListAccounts({"1000", prefixed->continuation_token, 5});
  ASSERT_TRUE(rest.has_value());
  ASSERT_EQ(rest->items.size(), 1u);
  EXPECT_EQ(rest->items[0].account_id, kSecond);
  EXPECT_TRUE(rest->continuation_token.empty());
}

TEST_F(AccountStoreTest, ListAccountsRejectsBadPagesAndForeignTokens) {
  for (const char* id : {kFirst, kSecond, kThird}) ASSERT_TRUE(store_->CreateAccount(id).ok());
  EXPECT_EQ(store_->ListAccounts({"", "", 0}).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->ListAccounts({"", "", 1001}).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->ListAccounts({"", "garbage!", 2}).error().code(), StatusCode::kInvalidArgument);
  auto first = store_->ListAccounts({"", "", 1});
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(store_->ListAccounts({"2", first->continuation_token, 1}).error().code(),
            StatusCode::kInvalidArgument);
  // A table-bucket token is not an account token.
  MakeBucket("bucket-1");
  MakeBucket("bucket-2");
  auto buckets = store_->ListTableBuckets(kAccount, {"", "", 1});
  ASSERT_TRUE(buckets.has_value());
  ASSERT_FALSE(buckets->continuation_token.empty());
  EXPECT_EQ(store_->ListAccounts({"", buckets->continuation_token, 1}).error().code(),
            StatusCode::kInvalidArgument);
}

TEST_F(AccountStoreTest, AccountsCarryCreationTimeAndCounts) {
  ASSERT_TRUE(store_->CreateAccount(kAccount).ok());
  const TimePoint created = clock_.Now();
  clock_.Advance(std::chrono::milliseconds(1500));
  ASSERT_TRUE(store_->CreateAccount(kFirst).ok());
  ASSERT_TRUE(store_->CreateIdentity(IdentityKind::kUser, kAccount, "alice").has_value());
  ASSERT_TRUE(store_->CreateIdentity(IdentityKind::kUser, kAccount, "bob").has_value());
  ASSERT_TRUE(store_->CreateIdentity(IdentityKind::kRole, kAccount, "writer").has_value());
  ASSERT_TRUE(store_->CreateIdentity(IdentityKind::kUser, kFirst, "carol").has_value());
  MakeBucket("analytics");

  auto got = store_->GetAccount(kAccount);
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  EXPECT_EQ(got->account_id, kAccount);
  EXPECT_EQ(got->created_at, created);
  EXPECT_EQ(got->user_count, 2);
  EXPECT_EQ(got->role_count, 1);
  EXPECT_EQ(got->table_bucket_count, 1);

  auto all = store_->ListAccounts({});
  ASSERT_TRUE(all.has_value());
  ASSERT_EQ(all->items.size(), 2u);
  const Account& other = all->items[0];  // "1000..." sorts before "1111...".
  EXPECT_EQ(other.account_id, kFirst);
  EXPECT_EQ(other.created_at, created + std::chrono::milliseconds(1500));
  EXPECT_EQ(other.user_count, 1);
  EXPECT_EQ(other.role_count, 0);
  EXPECT_EQ(other.table_bucket_count, 0);
  EXPECT_EQ(all->items[1].user_count, 2);

  EXPECT_EQ(store_->GetAccount("999999999999").error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->GetAccount("12ab").error().code(), StatusCode::kInvalidArgument);
}

TEST_F(AccountStoreTest, EmptyCatalogListsNothing) {
  auto none = store_->ListAccounts({});
  ASSERT_TRUE(none.has_value());
  EXPECT_TRUE(none->items.empty());
  EXPECT_TRUE(none->continuation_token.empty());
}

}  // namespace
}  // namespace st::catalog
