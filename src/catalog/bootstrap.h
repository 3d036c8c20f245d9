// First-start identity bootstrap: the default account and its administrator.
#pragma once

#include <string>

#include "catalog/identity_store.h"

namespace st::catalog {

inline constexpr const char* kAdminUserName = "admin";
inline constexpr const char* kAdminPolicyName = "AdministratorAccess";
// Allows everything, like AWS's AdministratorAccess managed policy.
inline constexpr const char* kAdminPolicyDocument =
    R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]})";

struct AdminCredentials {
  std::string user_arn;
  std::string access_key_id;
  std::string secret_access_key;
  bool created = false;  // false: everything existed already.
};

// Ensures `account_id` exists with user "admin", the AdministratorAccess
// inline policy and an active access key; returns that key (the first active
// one, by id). Idempotent: a second call changes nothing and returns the same
// key. Safe to race with another process doing the same (the loser re-reads).
// Errors: InvalidArgument (account id), and the store's errors.
Result<AdminCredentials> EnsureAdmin(IdentityStore& store, const std::string& account_id);

}  // namespace st::catalog
