// IdentityStore: accounts, IAM users and roles, their access keys and inline
// identity policies. One of the per-entity interfaces that MetadataStore
// aggregates (metadata_store.h states the contract every store keeps: atomic
// methods, store-generated ids and timestamps, S3 Tables-style errors).
//
// Thread-safety: implementations are thread-safe; every method is atomic on
// its own (DeleteIdentity removes the keys and policies in the same step).
#pragma once

#include <string>
#include <vector>

#include "catalog/pagination.h"
#include "catalog/records.h"
#include "common/status.h"

namespace st::catalog {

class IdentityStore {
 public:
  virtual ~IdentityStore() = default;

  // ---- Accounts ----

  // Errors: InvalidArgument, AlreadyExists.
  virtual Status CreateAccount(const std::string& account_id) = 0;
  // Errors: InvalidArgument.
  virtual Result<bool> AccountExists(const std::string& account_id) = 0;
  // Errors: InvalidArgument, NotFound.
  virtual Result<Account> GetAccount(const std::string& account_id) = 0;
  // Every account ordered by id; page.prefix filters ids. Errors:
  // InvalidArgument (page limit, or a token from another listing or prefix).
  virtual Result<Page<Account>> ListAccounts(const PageRequest& page) = 0;

  // ---- Users and roles ----

  // A user or role in an existing account. Errors: InvalidArgument, NotFound
  // (account), AlreadyExists.
  virtual Result<Identity> CreateIdentity(IdentityKind kind, const std::string& account_id,
                                          const std::string& name) = 0;
  // Errors: NotFound.
  virtual Result<Identity> GetIdentity(const std::string& arn) = 0;
  // Every user and role of the account, ordered by ARN.
  virtual Result<std::vector<Identity>> ListIdentities(const std::string& account_id) = 0;
  // Also deletes its access keys and identity policies. Errors: NotFound.
  virtual Status DeleteIdentity(const std::string& arn) = 0;

  // ---- Access keys ----

  // A new active key with a fresh secret. Errors: NotFound (owner).
  virtual Result<AccessKey> CreateAccessKey(const std::string& owner_arn) = 0;
  // Errors: NotFound.
  virtual Result<AccessKey> GetAccessKey(const std::string& access_key_id) = 0;
  // Ordered by key id. Errors: NotFound (owner).
  virtual Result<std::vector<AccessKey>> ListAccessKeys(const std::string& owner_arn) = 0;
  // Errors: NotFound.
  virtual Status SetAccessKeyStatus(const std::string& access_key_id, AccessKeyStatus status) = 0;
  // Errors: NotFound.
  virtual Status DeleteAccessKey(const std::string& access_key_id) = 0;

  // ---- Identity policies ----

  // Creates or replaces an inline policy. Errors: NotFound (owner), InvalidArgument.
  virtual Status PutIdentityPolicy(const std::string& owner_arn, const NamedPolicy& policy) = 0;
  // Ordered by name. Errors: NotFound (owner).
  virtual Result<std::vector<NamedPolicy>> ListIdentityPolicies(const std::string& owner_arn) = 0;
  // Errors: NotFound (owner or policy).
  virtual Status DeleteIdentityPolicy(const std::string& owner_arn, const std::string& name) = 0;
};

}  // namespace st::catalog
