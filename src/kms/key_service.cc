#include "kms/key_service.h"

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>

#include "auth/arn.h"
#include "auth/policy.h"
#include "auth/secure_random.h"
#include "common/uuid.h"

namespace st::kms {

namespace {

constexpr int64_t kDayMs = 24LL * 3600 * 1000;
constexpr std::string_view kAliasPrefix = "alias/";
constexpr size_t kMaxPolicyBytes = 32768;
constexpr size_t kMaxDescriptionBytes = 8192;
constexpr size_t kMaxTags = 50;

std::string WrapContext(const std::string& key_id, uint32_t version) {
  return key_id + "/" + std::to_string(version);
}

KmsError InternalKmsError(const Status& status) {
  return {KmsErrorCode::kInternal, status.message()};
}

KmsResult<bool> ValidatePolicy(const std::string& policy) {
  if (policy.empty() || policy.size() > kMaxPolicyBytes) {
    return KmsErr(
        KmsErrorCode::kMalformedPolicy,
        "The key policy must be 1 to 32768 bytes long; it is " + std::to_string(policy.size()));
  }
  Result<auth::Policy> parsed = auth::ParsePolicy(policy, auth::PolicyKind::kResource);
  if (!parsed.has_value()) {
    return KmsErr(KmsErrorCode::kMalformedPolicy, parsed.error().message());
  }
  return true;
}

KmsResult<bool> ValidateTags(const std::map<std::string, std::string>& tags) {
  if (tags.size() > kMaxTags) return KmsErr(KmsErrorCode::kTag, "A key has at most 50 tags");
  for (const auto& [key, value] : tags) {
    if (key.empty() || key.size() > 128 || value.size() > 256) {
      return KmsErr(KmsErrorCode::kTag, "A TagKey is 1 to 128 and a TagValue 0 to 256 characters");
    }
    if (key.rfind("aws:", 0) == 0) {
      return KmsErr(KmsErrorCode::kTag, "Tag keys beginning with aws: are reserved");
    }
  }
  return true;
}

}  // namespace

std::string DefaultKeyPolicy(const std::string& account_id) {
  nlohmann::json policy = {
      {"Version", "2012-10-17"},
      {"Id", "key-default-1"},
      {"Statement",
       nlohmann::json::array({{{"Sid", "Enable IAM User Permissions"},
                               {"Effect", "Allow"},
                               {"Principal", {{"AWS", "arn:aws:iam::" + account_id + ":root"}}},
                               {"Action", "kms:*"},
                               {"Resource", "*"}}})}};
  return policy.dump(2);
}

std::optional<KeyArnParts> ParseKeyArn(const std::string& arn) {
  // arn:aws:kms:<region>:<account>:key/<id>
  constexpr std::string_view kPrefix = "arn:aws:kms:";
  if (arn.rfind(kPrefix, 0) != 0) return std::nullopt;
  size_t region_end = arn.find(':', kPrefix.size());
  if (region_end == std::string::npos) return std::nullopt;
  size_t account_end = arn.find(':', region_end + 1);
  if (account_end == std::string::npos) return std::nullopt;
  std::string resource = arn.substr(account_end + 1);
  if (resource.rfind("key/", 0) != 0) return std::nullopt;
  KeyArnParts parts{arn.substr(kPrefix.size(), region_end - kPrefix.size()),
                    arn.substr(region_end + 1, account_end - region_end - 1), resource.substr(4)};
  if (parts.region.empty() || parts.account_id.empty() || parts.key_id.empty()) return std::nullopt;
  return parts;
}

bool PolicyMentionsAccount(const std::string& policy, const std::string& account_id) {
  Result<auth::Policy> parsed = auth::ParsePolicy(policy, auth::PolicyKind::kResource);
  if (!parsed.has_value()) return false;
  for (const auth::Statement& st : parsed->statements) {
    if (st.effect != auth::Effect::kAllow || !st.principal.has_value() || st.not_principal) {
      continue;
    }
    if (st.principal->everyone) return true;
    for (const std::string& entry : st.principal->aws) {
      if (entry == account_id || auth::ArnAccount(entry) == account_id) return true;
    }
  }
  return false;
}

KmsResult<bool> ValidateAliasName(const std::string& name) {
  if (name.rfind(kAliasPrefix, 0) != 0 || name.size() == kAliasPrefix.size() || name.size() > 256) {
    return KmsErr(KmsErrorCode::kInvalidAliasName,
                  "Alias must start with the prefix \"alias/\" and have 1 to 250 more characters");
  }
  for (char c : name.substr(kAliasPrefix.size())) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '/' || c == '_' || c == '-';
    if (!ok) {
      return KmsErr(KmsErrorCode::kInvalidAliasName,
                    "Alias names may hold only letters, digits, '/', '_' and '-'");
    }
  }
  if (name.rfind("alias/aws/", 0) == 0) {
    return KmsErr(KmsErrorCode::kInvalidAliasName,
                  "Alias names beginning with alias/aws/ are reserved for AWS managed keys");
  }
  return true;
}

KeyService::KeyService(Deps deps) : deps_(std::move(deps)) {}

std::string KeyService::AliasArn(const std::string& account_id,
                                 const std::string& alias_name) const {
  return "arn:aws:kms:" + deps_.region + ":" + account_id + ":" + alias_name;
}

KmsResult<KmsKey> KeyService::Reload(const std::string& key_id) const {
  Result<KmsKey> key = deps_.store.GetKey(key_id);
  if (!key.has_value()) return tl::unexpected<KmsError>(FromStatus(key.error()));
  return *key;
}

KmsResult<KmsKey> KeyService::Lookup(const std::string& key_id, const KmsError& not_found) const {
  Result<KmsKey> key = deps_.store.GetKey(key_id);
  if (!key.has_value()) {
    if (key.error().code() == StatusCode::kNotFound) return tl::unexpected<KmsError>(not_found);
    return tl::unexpected<KmsError>(InternalKmsError(key.error()));
  }
  if (key->state == KeyState::kPendingDeletion && deps_.clock.NowMillis() >= key->deletion_ms) {
    Status deleted = deps_.store.DeleteKey(key_id);
    if (!deleted.ok() && deleted.code() != StatusCode::kNotFound) {
      return tl::unexpected<KmsError>(InternalKmsError(deleted));
    }
    return tl::unexpected<KmsError>(not_found);
  }
  return *key;
}

KmsResult<KmsKey> KeyService::ResolveKey(const std::string& account_id,
                                         const std::string& key_ref) const {
  if (key_ref.empty() || key_ref.size() > 2048) {
    return KmsErr(KmsErrorCode::kValidation, "KeyId must be 1 to 2048 characters long");
  }
  auto not_found = [&] {
    return KmsErr(KmsErrorCode::kNotFound, "Invalid keyId '" + key_ref + "'");
  };
  std::string key_id;
  std::string owner = account_id;
  if (key_ref.rfind(kAliasPrefix, 0) == 0) {
    Result<KmsAlias> alias = deps_.store.GetAlias(account_id, key_ref);
    if (!alias.has_value()) {
      if (alias.error().code() == StatusCode::kNotFound) {
        return KmsErr(KmsErrorCode::kNotFound,
                      "Alias " + AliasArn(account_id, key_ref) + " is not found.");
      }
      return tl::unexpected<KmsError>(InternalKmsError(alias.error()));
    }
    key_id = alias->key_id;
  } else if (key_ref.rfind("arn:", 0) == 0) {
    if (std::optional<KeyArnParts> parts = ParseKeyArn(key_ref); parts.has_value()) {
      if (parts->region != deps_.region) return not_found();
      key_id = parts->key_id;
      owner = parts->account_id;
    } else {
      // An alias ARN: arn:aws:kms:<region>:<account>:alias/<name>.
      size_t alias_at = key_ref.find(":alias/");
      std::string account = auth::ArnAccount(key_ref);
      if (alias_at == std::string::npos || key_ref.rfind("arn:aws:kms:", 0) != 0) {
        return KmsErr(KmsErrorCode::kNotFound, "Invalid arn " + key_ref);
      }
      if (account != account_id || key_ref.find(":" + deps_.region + ":") == std::string::npos) {
        // Aliases are private to their account.
        return KmsErr(KmsErrorCode::kNotFound, "Alias " + key_ref + " is not found.");
      }
      return ResolveKey(account_id, key_ref.substr(alias_at + 1));
    }
  } else {
    key_id = key_ref;
  }
  if (!Uuid::Parse(key_id).has_value()) return not_found();
  KmsResult<KmsKey> key =
      Lookup(key_id, {KmsErrorCode::kNotFound, "Key '" + key_ref + "' does not exist"});
  if (!key.has_value()) return key;
  if (key->account_id != owner) {
    return KmsErr(KmsErrorCode::kNotFound, "Key '" + key_ref + "' does not exist");
  }
  if (key->account_id != account_id && !PolicyMentionsAccount(key->policy, account_id)) {
    return KmsErr(KmsErrorCode::kNotFound, "Key '" + key_ref + "' does not exist");
  }
  return *key;
}

KmsResult<KmsKey> KeyService::KeyOfBlob(const std::string& account_id,
                                        const std::string& blob) const {
  Result<BlobHeader> header = ParseBlobHeader(blob);
  if (!header.has_value()) {
    return KmsErr(KmsErrorCode::kInvalidCiphertext, header.error().message());
  }
  // A blob of a deleted or unknown key cannot be decrypted by anyone.
  KmsResult<KmsKey> key = Lookup(
      header->key_id,
      {KmsErrorCode::kInvalidCiphertext, "the ciphertext refers to a key that does not exist"});
  if (!key.has_value()) return key;
  if (key->account_id != account_id && !PolicyMentionsAccount(key->policy, account_id)) {
    return KmsErr(KmsErrorCode::kInvalidCiphertext,
                  "the ciphertext refers to a key that does not exist");
  }
  return *key;
}

KmsResult<KeyVersion> KeyService::NewVersion(const std::string& key_id, uint32_t version) const {
  Result<std::string> material = auth::SecureRandomBytes(kKeyMaterialBytes);
  if (!material.has_value()) return tl::unexpected<KmsError>(InternalKmsError(material.error()));
  Result<std::string> wrapped = deps_.master.Seal(*material, WrapContext(key_id, version));
  Wipe(*material);
  if (!wrapped.has_value()) return tl::unexpected<KmsError>(InternalKmsError(wrapped.error()));
  return KeyVersion{key_id, version, *wrapped, deps_.clock.NowMillis()};
}

KmsResult<KmsKey> KeyService::CreateKey(const std::string& account_id,
                                        const CreateKeyInput& input) {
  if (input.description.size() > kMaxDescriptionBytes) {
    return KmsErr(KmsErrorCode::kValidation, "Description must be at most 8192 characters");
  }
  KmsKey key;
  key.key_id = Uuid::Generate(deps_.random).ToString();
  key.account_id = account_id;
  key.arn = "arn:aws:kms:" + deps_.region + ":" + account_id + ":key/" + key.key_id;
  key.description = input.description;
  key.created_ms = deps_.clock.NowMillis();
  key.last_rotation_ms = key.created_ms;
  key.policy = input.policy.value_or(DefaultKeyPolicy(account_id));
  auto valid = ValidatePolicy(key.policy);
  if (!valid.has_value()) return tl::unexpected<KmsError>(valid.error());
  auto tags_ok = ValidateTags(input.tags);
  if (!tags_ok.has_value()) return tl::unexpected<KmsError>(tags_ok.error());
  key.tags = input.tags;
  KmsResult<KeyVersion> first = NewVersion(key.key_id, 1);
  if (!first.has_value()) return tl::unexpected<KmsError>(first.error());
  Status created = deps_.store.CreateKey(key, *first);
  if (!created.ok()) return tl::unexpected<KmsError>(FromStatus(created));
  return key;
}

KmsResult<std::vector<KmsKey>> KeyService::ListKeys(const std::string& account_id) const {
  Result<std::vector<KmsKey>> keys = deps_.store.ListKeys(account_id);
  if (!keys.has_value()) return tl::unexpected<KmsError>(InternalKmsError(keys.error()));
  return *keys;
}

KmsResult<bool> KeyService::CheckUsable(const KmsKey& key) {
  switch (key.state) {
    case KeyState::kEnabled:
      return true;
    case KeyState::kDisabled:
      return KmsErr(KmsErrorCode::kDisabled, key.arn + " is disabled.");
    case KeyState::kPendingDeletion:
      return KmsErr(KmsErrorCode::kInvalidState, key.arn + " is pending deletion.");
  }
  return KmsErr(KmsErrorCode::kInternal, "unknown key state");
}

KmsResult<std::string> KeyService::Material(const KmsKey& key, uint32_t version) const {
  Result<KeyVersion> stored = deps_.store.GetVersion(key.key_id, version);
  if (!stored.has_value()) {
    if (stored.error().code() == StatusCode::kNotFound) {
      return KmsErr(KmsErrorCode::kInvalidCiphertext,
                    "the ciphertext refers to a key version that does not exist");
    }
    return tl::unexpected<KmsError>(InternalKmsError(stored.error()));
  }
  Result<std::string> material =
      deps_.master.Unseal(stored->wrapped_material, WrapContext(key.key_id, version));
  if (!material.has_value()) {
    // The stored material does not unseal under this master key: the key
    // file was replaced, or the row was tampered with.
    return KmsErr(KmsErrorCode::kInternal,
                  "the key material of " + key.arn + " does not unseal under the KMS master key");
  }
  return *material;
}

KmsResult<KmsKey> KeyService::RotateIfDue(const KmsKey& key) {
  auto due = [this](const KmsKey& k) {
    return k.rotation_enabled &&
           deps_.clock.NowMillis() >= k.last_rotation_ms + int64_t{k.rotation_period_days} * kDayMs;
  };
  if (!due(key)) return key;
  return RotateLocked(key, due);
}

KmsResult<std::string> KeyService::Encrypt(const KmsKey& key_in, const std::string& plaintext,
                                           const EncryptionContext& context) {
  auto usable = CheckUsable(key_in);
  if (!usable.has_value()) return tl::unexpected<KmsError>(usable.error());
  if (plaintext.empty() || plaintext.size() > kMaxPlaintextBytes) {
    return KmsErr(KmsErrorCode::kValidation, "Plaintext must be 1 to 4096 bytes long; it is " +
                                                 std::to_string(plaintext.size()));
  }
  KmsResult<KmsKey> key = RotateIfDue(key_in);
  if (!key.has_value()) return tl::unexpected<KmsError>(key.error());
  KmsResult<std::string> material = Material(*key, key->current_version);
  if (!material.has_value()) return tl::unexpected<KmsError>(material.error());
  Result<std::string> iv = auth::SecureRandomBytes(kIvBytes);
  if (!iv.has_value()) return tl::unexpected<KmsError>(InternalKmsError(iv.error()));
  Result<std::string> blob =
      SealBlob(*material, BlobHeader{key->key_id, key->current_version, *iv}, plaintext, context);
  Wipe(*material);
  if (!blob.has_value()) return tl::unexpected<KmsError>(InternalKmsError(blob.error()));
  return *blob;
}

KmsResult<Decrypted> KeyService::Decrypt(const std::string& account_id, const std::string& blob,
                                         const EncryptionContext& context,
                                         const std::optional<KmsKey>& expected) const {
  KmsResult<KmsKey> key = KeyOfBlob(account_id, blob);
  if (!key.has_value()) return tl::unexpected<KmsError>(key.error());
  if (expected.has_value() && expected->key_id != key->key_id) {
    return KmsErr(KmsErrorCode::kIncorrectKey,
                  "The key ID in the request does not identify a CMK that can perform this "
                  "operation.");
  }
  auto usable = CheckUsable(*key);
  if (!usable.has_value()) return tl::unexpected<KmsError>(usable.error());
  Result<BlobHeader> header = ParseBlobHeader(blob);
  if (!header.has_value()) {
    return KmsErr(KmsErrorCode::kInvalidCiphertext, header.error().message());
  }
  KmsResult<std::string> material = Material(*key, header->key_version);
  if (!material.has_value()) return tl::unexpected<KmsError>(material.error());
  Result<std::string> plaintext = OpenBlob(*material, blob, context);
  Wipe(*material);
  if (!plaintext.has_value()) {
    // AWS says nothing more: which of context, key or bytes was wrong is not revealed.
    return KmsErr(KmsErrorCode::kInvalidCiphertext, "");
  }
  return Decrypted{*key, *plaintext};
}

KmsResult<DataKey> KeyService::GenerateDataKey(const KmsKey& key, size_t bytes,
                                               const EncryptionContext& context,
                                               bool with_plaintext) {
  if (bytes == 0 || bytes > 1024) {
    return KmsErr(KmsErrorCode::kValidation, "NumberOfBytes must be 1 to 1024");
  }
  Result<std::string> data_key = auth::SecureRandomBytes(bytes);
  if (!data_key.has_value()) return tl::unexpected<KmsError>(InternalKmsError(data_key.error()));
  KmsResult<std::string> blob = Encrypt(key, *data_key, context);
  if (!blob.has_value()) {
    Wipe(*data_key);
    return tl::unexpected<KmsError>(blob.error());
  }
  DataKey out{*blob, with_plaintext ? *data_key : std::string()};
  Wipe(*data_key);
  return out;
}

KmsResult<KmsKey> KeyService::SetEnabled(const KmsKey& key_in, bool enabled) {
  common::MutexLock lock(mu_);
  KmsResult<KmsKey> key = Reload(key_in.key_id);
  if (!key.has_value()) return key;
  if (key->state == KeyState::kPendingDeletion) {
    return KmsErr(KmsErrorCode::kInvalidState, key->arn + " is pending deletion.");
  }
  key->state = enabled ? KeyState::kEnabled : KeyState::kDisabled;
  Status updated = deps_.store.UpdateKey(*key);
  if (!updated.ok()) return tl::unexpected<KmsError>(FromStatus(updated));
  return key;
}

KmsResult<KmsKey> KeyService::ScheduleDeletion(const KmsKey& key_in, int pending_window_days) {
  if (pending_window_days < 7 || pending_window_days > 30) {
    return KmsErr(KmsErrorCode::kValidation,
                  "PendingWindowInDays must be between 7 and 30 (inclusive)");
  }
  common::MutexLock lock(mu_);
  KmsResult<KmsKey> key = Reload(key_in.key_id);
  if (!key.has_value()) return key;
  if (key->state == KeyState::kPendingDeletion) {
    return KmsErr(KmsErrorCode::kInvalidState, key->arn + " is pending deletion.");
  }
  key->state = KeyState::kPendingDeletion;
  key->pending_window_days = pending_window_days;
  key->deletion_ms = deps_.clock.NowMillis() + int64_t{pending_window_days} * kDayMs;
  Status updated = deps_.store.UpdateKey(*key);
  if (!updated.ok()) return tl::unexpected<KmsError>(FromStatus(updated));
  return key;
}

KmsResult<KmsKey> KeyService::CancelDeletion(const KmsKey& key_in) {
  common::MutexLock lock(mu_);
  KmsResult<KmsKey> key = Reload(key_in.key_id);
  if (!key.has_value()) return key;
  if (key->state != KeyState::kPendingDeletion) {
    return KmsErr(KmsErrorCode::kInvalidState, key->arn + " is not pending deletion.");
  }
  // As AWS: a key whose deletion is cancelled comes back Disabled.
  key->state = KeyState::kDisabled;
  key->deletion_ms = 0;
  key->pending_window_days = 0;
  Status updated = deps_.store.UpdateKey(*key);
  if (!updated.ok()) return tl::unexpected<KmsError>(FromStatus(updated));
  return key;
}

KmsResult<KmsKey> KeyService::SetRotation(const KmsKey& key_in, bool enabled,
                                          std::optional<int> period_days) {
  if (period_days.has_value() && (*period_days < 90 || *period_days > 2560)) {
    return KmsErr(KmsErrorCode::kValidation,
                  "RotationPeriodInDays must be between 90 and 2560 (inclusive)");
  }
  common::MutexLock lock(mu_);
  KmsResult<KmsKey> key = Reload(key_in.key_id);
  if (!key.has_value()) return key;
  auto usable = CheckUsable(*key);
  if (!usable.has_value()) return tl::unexpected<KmsError>(usable.error());
  key->rotation_enabled = enabled;
  if (period_days.has_value()) key->rotation_period_days = *period_days;
  Status updated = deps_.store.UpdateKey(*key);
  if (!updated.ok()) return tl::unexpected<KmsError>(FromStatus(updated));
  return key;
}

KmsResult<KmsKey> KeyService::Rotate(const KmsKey& key_in) {
  return RotateLocked(key_in, [](const KmsKey&) { return true; });
}

KmsResult<KmsKey> KeyService::RotateLocked(const KmsKey& key_in,
                                           const std::function<bool(const KmsKey&)>& still_due) {
  common::MutexLock lock(mu_);
  KmsResult<KmsKey> key = Reload(key_in.key_id);
  if (!key.has_value()) return key;
  // Concurrent Encrypts may all find a rotation due: only the first rotates.
  if (!still_due(*key)) return key;
  auto usable = CheckUsable(*key);
  if (!usable.has_value()) return tl::unexpected<KmsError>(usable.error());
  KmsResult<KeyVersion> next = NewVersion(key->key_id, key->current_version + 1);
  if (!next.has_value()) return tl::unexpected<KmsError>(next.error());
  Status added = deps_.store.AddVersion(*next);
  if (!added.ok()) return tl::unexpected<KmsError>(FromStatus(added));
  return Reload(key->key_id);
}

KmsResult<KmsKey> KeyService::PutPolicy(const KmsKey& key_in, const std::string& policy) {
  auto valid = ValidatePolicy(policy);
  if (!valid.has_value()) return tl::unexpected<KmsError>(valid.error());
  common::MutexLock lock(mu_);
  KmsResult<KmsKey> key = Reload(key_in.key_id);
  if (!key.has_value()) return key;
  key->policy = policy;
  Status updated = deps_.store.UpdateKey(*key);
  if (!updated.ok()) return tl::unexpected<KmsError>(FromStatus(updated));
  return key;
}

KmsResult<KmsKey> KeyService::Tag(const KmsKey& key_in,
                                  const std::map<std::string, std::string>& tags) {
  common::MutexLock lock(mu_);
  KmsResult<KmsKey> key = Reload(key_in.key_id);
  if (!key.has_value()) return key;
  if (key->state == KeyState::kPendingDeletion) {
    return KmsErr(KmsErrorCode::kInvalidState, key->arn + " is pending deletion.");
  }
  for (const auto& [k, v] : tags) key->tags[k] = v;
  auto tags_ok = ValidateTags(key->tags);
  if (!tags_ok.has_value()) return tl::unexpected<KmsError>(tags_ok.error());
  Status updated = deps_.store.UpdateKey(*key);
  if (!updated.ok()) return tl::unexpected<KmsError>(FromStatus(updated));
  return key;
}

KmsResult<KmsKey> KeyService::Untag(const KmsKey& key_in, const std::vector<std::string>& keys) {
  common::MutexLock lock(mu_);
  KmsResult<KmsKey> key = Reload(key_in.key_id);
  if (!key.has_value()) return key;
  for (const std::string& k : keys) key->tags.erase(k);
  Status updated = deps_.store.UpdateKey(*key);
  if (!updated.ok()) return tl::unexpected<KmsError>(FromStatus(updated));
  return key;
}

KmsResult<KmsAlias> KeyService::CreateAlias(const std::string& account_id,
                                            const std::string& alias_name, const KmsKey& target) {
  auto valid = ValidateAliasName(alias_name);
  if (!valid.has_value()) return tl::unexpected<KmsError>(valid.error());
  if (target.account_id != account_id) {
    return KmsErr(KmsErrorCode::kNotFound, "An alias can only point to a key of its own account");
  }
  if (target.state == KeyState::kPendingDeletion) {
    return KmsErr(KmsErrorCode::kInvalidState, target.arn + " is pending deletion.");
  }
  int64_t now = deps_.clock.NowMillis();
  KmsAlias alias{account_id, alias_name, target.key_id, now, now};
  Status created = deps_.store.CreateAlias(alias);
  if (!created.ok()) {
    if (created.code() == StatusCode::kAlreadyExists) {
      return KmsErr(
          KmsErrorCode::kAlreadyExists,
          "An alias with the name " + AliasArn(account_id, alias_name) + " already exists");
    }
    return tl::unexpected<KmsError>(FromStatus(created));
  }
  return alias;
}

KmsResult<KmsAlias> KeyService::UpdateAlias(const std::string& account_id,
                                            const std::string& alias_name, const KmsKey& target) {
  common::MutexLock lock(mu_);
  Result<KmsAlias> existing = deps_.store.GetAlias(account_id, alias_name);
  if (!existing.has_value()) return tl::unexpected<KmsError>(FromStatus(existing.error()));
  Status deleted = deps_.store.DeleteAlias(account_id, alias_name);
  if (!deleted.ok()) return tl::unexpected<KmsError>(FromStatus(deleted));
  KmsAlias alias{account_id, alias_name, target.key_id, existing->created_ms,
                 deps_.clock.NowMillis()};
  Status created = deps_.store.CreateAlias(alias);
  if (!created.ok()) return tl::unexpected<KmsError>(FromStatus(created));
  return alias;
}

KmsResult<bool> KeyService::DeleteAlias(const std::string& account_id,
                                        const std::string& alias_name) {
  Status deleted = deps_.store.DeleteAlias(account_id, alias_name);
  if (!deleted.ok()) {
    if (deleted.code() == StatusCode::kNotFound) {
      return KmsErr(KmsErrorCode::kNotFound,
                    "Alias " + AliasArn(account_id, alias_name) + " is not found.");
    }
    return tl::unexpected<KmsError>(FromStatus(deleted));
  }
  return true;
}

KmsResult<std::vector<KmsAlias>> KeyService::ListAliases(const std::string& account_id) const {
  Result<std::vector<KmsAlias>> aliases = deps_.store.ListAliases(account_id);
  if (!aliases.has_value()) return tl::unexpected<KmsError>(InternalKmsError(aliases.error()));
  return *aliases;
}

}  // namespace st::kms
