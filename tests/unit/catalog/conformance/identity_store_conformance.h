// IdentityStore conformance: accounts, users and roles, access keys and
// identity policies (identity_store.h).
#pragma once

#include "catalog/identity_store.h"
#include "conformance/store_conformance.h"

namespace st::catalog::conformance {

class IdentityStoreConformance : public StoreConformance {
 protected:
  IdentityStore& identities() { return *store_; }
};

TEST_P(IdentityStoreConformance, Accounts) {
  IdentityStore& store = identities();
  EXPECT_EQ(store.AccountExists(kAccount).value(), false);
  ASSERT_TRUE(store.CreateAccount(kAccount).ok());
  ASSERT_TRUE(store.CreateAccount(kOtherAccount).ok());
  EXPECT_EQ(store.CreateAccount(kAccount).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(store.CreateAccount("12").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store.AccountExists("12").error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store.AccountExists(kAccount).value(), true);
  auto account = store.GetAccount(kAccount);
  ASSERT_TRUE(account.has_value()) << account.error().ToString();
  EXPECT_EQ(account->account_id, kAccount);
  EXPECT_EQ(account->created_at, clock_.Now());
  EXPECT_EQ(account->user_count, 0);
  EXPECT_EQ(store.GetAccount("444455556666").error().code(), StatusCode::kNotFound);

  auto page = store.ListAccounts({.prefix = "", .continuation_token = "", .limit = 1});
  ASSERT_TRUE(page.has_value());
  ASSERT_EQ(page->items.size(), 1u);
  EXPECT_EQ(page->items[0].account_id, kAccount);
  ASSERT_FALSE(page->continuation_token.empty());
  auto next = store.ListAccounts({"", page->continuation_token, 1});
  ASSERT_TRUE(next.has_value());
  ASSERT_EQ(next->items.size(), 1u);
  EXPECT_EQ(next->items[0].account_id, kOtherAccount);
  EXPECT_TRUE(next->continuation_token.empty());
  EXPECT_EQ(store.ListAccounts({"", "", 0}).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(store.ListAccounts({"9", page->continuation_token, 1}).error().code(),
            StatusCode::kInvalidArgument);
}

TEST_P(IdentityStoreConformance, UsersAndRoles) {
  IdentityStore& store = identities();
  EXPECT_EQ(store.CreateIdentity(IdentityKind::kUser, kAccount, "alice").error().code(),
            StatusCode::kNotFound);
  ASSERT_TRUE(store.CreateAccount(kAccount).ok());
  auto alice = store.CreateIdentity(IdentityKind::kUser, kAccount, "alice");
  ASSERT_TRUE(alice.has_value()) << alice.error().ToString();
  EXPECT_EQ(alice->arn, "arn:aws:iam::111122223333:user/alice");
  auto role = store.CreateIdentity(IdentityKind::kRole, kAccount, "writer");
  ASSERT_TRUE(role.has_value());
  EXPECT_EQ(role->arn, "arn:aws:iam::111122223333:role/writer");
  EXPECT_EQ(store.CreateIdentity(IdentityKind::kUser, kAccount, "alice").error().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store.CreateIdentity(IdentityKind::kUser, kAccount, "").error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store.GetIdentity(alice->arn)->kind, IdentityKind::kUser);
  auto listed = store.ListIdentities(kAccount);
  ASSERT_TRUE(listed.has_value());
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].arn, role->arn);  // Ordered by ARN: ":role/" < ":user/".
  EXPECT_EQ(store.GetAccount(kAccount)->user_count, 1);
  EXPECT_EQ(store.GetAccount(kAccount)->role_count, 1);

  auto key = store.CreateAccessKey(alice->arn);
  ASSERT_TRUE(key.has_value());
  ASSERT_TRUE(store.PutIdentityPolicy(alice->arn, {"p", R"({"Statement":[]})"}).ok());
  ASSERT_TRUE(store.DeleteIdentity(alice->arn).ok());
  EXPECT_EQ(store.GetIdentity(alice->arn).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.GetAccessKey(key->access_key_id).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.ListIdentityPolicies(alice->arn).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store.DeleteIdentity(alice->arn).code(), StatusCode::kNotFound);
}

TEST_P(IdentityStoreConformance, AccessKeys) {
  IdentityStore& store = identities();
  ASSERT_TRUE(store.CreateAccount(kAccount).ok());
  auto user = store.CreateIdentity(IdentityKind::kUser, kAccount, "bob");
  ASSERT_TRUE(user.has_value());
  EXPECT_EQ(store.CreateAccessKey("arn:aws:iam::111122223333:user/nobody").error().code(),
            StatusCode::kNotFound);
  auto key = store.CreateAccessKey(user->arn);
  ASSERT_TRUE(key.has_value()) << key.error().ToString();
  EXPECT_EQ(key->access_key_id.rfind("AKIA", 0), 0u);
  EXPECT_EQ(key->access_key_id.size(), 20u);
  EXPECT_FALSE(key->secret_access_key.empty());
  EXPECT_EQ(key->status, AccessKeyStatus::kActive);
  auto second = store.CreateAccessKey(user->arn);
  ASSERT_TRUE(second.has_value());
  EXPECT_NE(second->access_key_id, key->access_key_id);

  auto got = store.GetAccessKey(key->access_key_id);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->secret_access_key, key->secret_access_key);
  EXPECT_EQ(got->owner_arn, user->arn);
  ASSERT_TRUE(store.SetAccessKeyStatus(key->access_key_id, AccessKeyStatus::kInactive).ok());
  EXPECT_EQ(store.GetAccessKey(key->access_key_id)->status, AccessKeyStatus::kInactive);
  EXPECT_EQ(store.SetAccessKeyStatus("AKIANOSUCHKEY0000000", AccessKeyStatus::kActive).code(),
            StatusCode::kNotFound);
  auto listed = store.ListAccessKeys(user->arn);
  ASSERT_TRUE(listed.has_value());
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_LT((*listed)[0].access_key_id, (*listed)[1].access_key_id);
  ASSERT_TRUE(store.DeleteAccessKey(key->access_key_id).ok());
  EXPECT_EQ(store.DeleteAccessKey(key->access_key_id).code(), StatusCode::kNotFound);
  EXPECT_EQ(store.ListAccessKeys(user->arn)->size(), 1u);
}

TEST_P(IdentityStoreConformance, IdentityPolicies) {
  IdentityStore& store = identities();
  ASSERT_TRUE(store.CreateAccount(kAccount).ok());
  auto user = store.CreateIdentity(IdentityKind::kUser, kAccount, "carol");
  ASSERT_TRUE(user.has_value());
  EXPECT_EQ(store.PutIdentityPolicy(user->arn + "x", {"p", "{}"}).code(), StatusCode::kNotFound);
  ASSERT_TRUE(store.PutIdentityPolicy(user->arn, {"b", R"({"v":1})"}).ok());
  ASSERT_TRUE(store.PutIdentityPolicy(user->arn, {"a", R"({"v":2})"}).ok());
  ASSERT_TRUE(store.PutIdentityPolicy(user->arn, {"b", R"({"v":3})"}).ok());  // Replaces.
  auto listed = store.ListIdentityPolicies(user->arn);
  ASSERT_TRUE(listed.has_value());
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].name, "a");
  EXPECT_EQ((*listed)[1].document, R"({"v":3})");
  ASSERT_TRUE(store.DeleteIdentityPolicy(user->arn, "a").ok());
  EXPECT_EQ(store.DeleteIdentityPolicy(user->arn, "a").code(), StatusCode::kNotFound);
  EXPECT_EQ(store.ListIdentityPolicies(user->arn)->size(), 1u);
}

}  // namespace st::catalog::conformance
