// The KMS operations on typed values: key lifecycle, aliases, key policies,
// tags, rotation and the symmetric cryptography. Authorization is not here:
// the router has asked the Authorizer (IAM identity policies combined with
// the key policy, server/policy_authorizer.h) before an operation runs; the
// surface (kms_surface.h) turns wire JSON into these calls.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "auth/secret_sealer.h"
#include "common/clock.h"
#include "common/mutex.h"
#include "common/random.h"
#include "kms/ciphertext_blob.h"
#include "kms/key_model.h"
#include "kms/key_store.h"
#include "kms/kms_error.h"

namespace st::kms {

// The key policy CreateKey attaches when none is given: the account root
// principal is allowed kms:*, which delegates to the account's IAM policies.
std::string DefaultKeyPolicy(const std::string& account_id);

// "arn:aws:kms:<region>:<account>:key/<key_id>" → its parts; nullopt when
// `arn` is not a key ARN.
struct KeyArnParts {
  std::string region;
  std::string account_id;
  std::string key_id;
};
std::optional<KeyArnParts> ParseKeyArn(const std::string& arn);

// Whether `policy` (a key policy document) has an Allow statement whose
// Principal could match a principal of `account_id` ("*", the account id, or
// an ARN in that account). A key of another account whose policy names the
// caller's account nowhere is reported as NotFound: its existence is not the
// caller's business.
bool PolicyMentionsAccount(const std::string& policy, const std::string& account_id);

struct CreateKeyInput {
  std::string description;
  std::optional<std::string> policy;  // Default: DefaultKeyPolicy(account).
  std::map<std::string, std::string> tags;
};

struct DataKey {
  std::string ciphertext_blob;
  std::string plaintext;  // Empty for GenerateDataKeyWithoutPlaintext.
};

struct Decrypted {
  KmsKey key;
  std::string plaintext;
};

// Thread-safe; mutations of one key are serialised by one mutex (a
// read-modify-write of the key row). Everything referenced must outlive it.
class KeyService {
 public:
  struct Deps {
    KeyStore& store;
    // Wraps key material under the KMS master key (never in the catalog).
    const auth::SecretSealer& master;
    const Clock& clock;
    Random& random;  // Key ids (UUIDs). Key material and IVs come from the CSPRNG.
    std::string region;
  };
  explicit KeyService(Deps deps);

  // The key `key_ref` names for a caller of `account_id`: a key id, a key
  // ARN, "alias/<name>" or an alias ARN. Aliases resolve in the caller's
  // account only (an alias ARN of another account is NotFound); a key ARN of
  // another account resolves when its key policy mentions the caller's account.
  KmsResult<KmsKey> ResolveKey(const std::string& account_id, const std::string& key_ref) const;
  // As ResolveKey, for the key id in a ciphertext blob's header.
  KmsResult<KmsKey> KeyOfBlob(const std::string& account_id, const std::string& blob) const;

  KmsResult<KmsKey> CreateKey(const std::string& account_id, const CreateKeyInput& input);
  KmsResult<std::vector<KmsKey>> ListKeys(const std::string& account_id) const;

  KmsResult<std::string> Encrypt(const KmsKey& key, const std::string& plaintext,
                                 const EncryptionContext& context);
  // `expected`: the key the caller named (IncorrectKeyException when the
  // blob is another key's). Wrong context or changed bytes: InvalidCiphertext.
  KmsResult<Decrypted> Decrypt(const std::string& account_id, const std::string& blob,
                               const EncryptionContext& context,
                               const std::optional<KmsKey>& expected) const;
  KmsResult<DataKey> GenerateDataKey(const KmsKey& key, size_t bytes,
                                     const EncryptionContext& context, bool with_plaintext);

  KmsResult<KmsKey> SetEnabled(const KmsKey& key, bool enabled);
  KmsResult<KmsKey> ScheduleDeletion(const KmsKey& key, int pending_window_days);
  KmsResult<KmsKey> CancelDeletion(const KmsKey& key);
  KmsResult<KmsKey> SetRotation(const KmsKey& key, bool enabled, std::optional<int> period_days);
  // Adds a new material version and makes it current (RotateKeyOnDemand).
  KmsResult<KmsKey> Rotate(const KmsKey& key);
  KmsResult<KmsKey> PutPolicy(const KmsKey& key, const std::string& policy);
  KmsResult<KmsKey> Tag(const KmsKey& key, const std::map<std::string, std::string>& tags);
  KmsResult<KmsKey> Untag(const KmsKey& key, const std::vector<std::string>& tag_keys);

  KmsResult<KmsAlias> CreateAlias(const std::string& account_id, const std::string& alias_name,
                                  const KmsKey& target);
  KmsResult<KmsAlias> UpdateAlias(const std::string& account_id, const std::string& alias_name,
                                  const KmsKey& target);
  KmsResult<bool> DeleteAlias(const std::string& account_id, const std::string& alias_name);
  KmsResult<std::vector<KmsAlias>> ListAliases(const std::string& account_id) const;

  const std::string& region() const { return deps_.region; }
  std::string AliasArn(const std::string& account_id, const std::string& alias_name) const;

 private:
  // Errors for a key the crypto operations cannot use (Disabled, PendingDeletion).
  static KmsResult<bool> CheckUsable(const KmsKey& key);
  KmsResult<std::string> Material(const KmsKey& key, uint32_t version) const;
  KmsResult<KmsKey> Reload(const std::string& key_id) const;
  // The stored key, or NotFound (reported as `not_found`) when it does not
  // exist or its deletion date has passed (then it is deleted now: deletion
  // is lazy, on the first lookup after the date).
  KmsResult<KmsKey> Lookup(const std::string& key_id, const KmsError& not_found) const;
  KmsResult<KeyVersion> NewVersion(const std::string& key_id, uint32_t version) const;
  // Rotates `key` first when rotation is enabled and its period has passed.
  KmsResult<KmsKey> RotateIfDue(const KmsKey& key) EXCLUDES(mu_);
  // Adds a version under mu_ when `still_due` holds for the reloaded key.
  KmsResult<KmsKey> RotateLocked(const KmsKey& key,
                                 const std::function<bool(const KmsKey&)>& still_due) EXCLUDES(mu_);

  Deps deps_;
  common::Mutex mu_;  // Serialises read-modify-write of key rows.
};

// Validates an alias name: "alias/" then 1-250 of [A-Za-z0-9/_-], not
// "alias/aws/..." (reserved for AWS managed keys).
KmsResult<bool> ValidateAliasName(const std::string& name);

}  // namespace st::kms
