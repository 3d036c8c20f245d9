// EnsureAdmin and the SecretLookup adapter.
#include "catalog/bootstrap.h"

#include <gtest/gtest.h>

#include "catalog/store_secret_lookup.h"
#include "store_fixture.h"

namespace st::catalog {
namespace {

using BootstrapTest = StoreTest;

TEST_F(BootstrapTest, EnsureAdminIsIdempotent) {
  auto first = EnsureAdmin(*store_, kAccount);
  ASSERT_TRUE(first.has_value()) << first.error().ToString();
  EXPECT_TRUE(first->created);
  EXPECT_EQ(first->user_arn, "arn:aws:iam::111122223333:user/admin");
  EXPECT_EQ(first->access_key_id.substr(0, 4), "AKIA");
  EXPECT_EQ(first->secret_access_key.size(), 40u);
  auto policies = store_->ListIdentityPolicies(first->user_arn);
  ASSERT_EQ(policies->size(), 1u);
  EXPECT_EQ((*policies)[0].name, "AdministratorAccess");
  EXPECT_EQ((*policies)[0].document, kAdminPolicyDocument);

  // Second start (also through another connection): same key, nothing new.
  auto reopened = Open();
  auto second = EnsureAdmin(*reopened, kAccount);
  ASSERT_TRUE(second.has_value());
  EXPECT_FALSE(second->created);
  EXPECT_EQ(second->access_key_id, first->access_key_id);
  EXPECT_EQ(second->secret_access_key, first->secret_access_key);
  EXPECT_EQ(store_->ListAccessKeys(first->user_arn)->size(), 1u);
  EXPECT_EQ(store_->ListIdentities(kAccount)->size(), 1u);

  // A deactivated key is replaced by a fresh one.
  ASSERT_TRUE(store_->SetAccessKeyStatus(first->access_key_id, AccessKeyStatus::kInactive).ok());
  auto third = EnsureAdmin(*store_, kAccount);
  ASSERT_TRUE(third.has_value());
  EXPECT_TRUE(third->created);
  EXPECT_NE(third->access_key_id, first->access_key_id);

  EXPECT_EQ(EnsureAdmin(*store_, "12").error().code(), StatusCode::kInvalidArgument);
}

TEST_F(BootstrapTest, SecretLookupResolvesUsersAndRoles) {
  auto admin = EnsureAdmin(*store_, kAccount);
  ASSERT_TRUE(admin.has_value());
  StoreSecretLookup lookup(*store_);

  auto record = lookup.Lookup(admin->access_key_id);
  ASSERT_TRUE(record.has_value()) << record.error().ToString();
  EXPECT_EQ(record->secret_access_key, admin->secret_access_key);
  EXPECT_EQ(record->principal.type, auth::PrincipalType::kUser);
  EXPECT_EQ(record->principal.arn, "arn:aws:iam::111122223333:user/admin");
  EXPECT_EQ(record->principal.account_id, kAccount);
  EXPECT_EQ(record->principal.username, "admin");
  EXPECT_TRUE(record->session_token.empty());

  auto role = store_->CreateIdentity(IdentityKind::kRole, kAccount, "delivery");
  ASSERT_TRUE(role.has_value());
  auto role_key = store_->CreateAccessKey(role->arn);
  ASSERT_TRUE(role_key.has_value());
  auto role_record = lookup.Lookup(role_key->access_key_id);
  ASSERT_TRUE(role_record.has_value());
  EXPECT_EQ(role_record->principal.type, auth::PrincipalType::kAssumedRole);
  EXPECT_EQ(role_record->principal.role_arn, "arn:aws:iam::111122223333:role/delivery");
  EXPECT_EQ(role_record->principal.arn,
            "arn:aws:sts::111122223333:assumed-role/delivery/streamtables");

  EXPECT_EQ(lookup.Lookup("AKIAUNKNOWN000000000").error().code(), StatusCode::kNotFound);
  ASSERT_TRUE(store_->SetAccessKeyStatus(admin->access_key_id, AccessKeyStatus::kInactive).ok());
  EXPECT_EQ(lookup.Lookup(admin->access_key_id).error().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace st::catalog
