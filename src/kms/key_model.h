// The typed model of KMS keys, their material versions and aliases, as the
// store keeps them and the service reads them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace st::kms {

enum class KeyState { kEnabled, kDisabled, kPendingDeletion };

// "Enabled", "Disabled", "PendingDeletion": the wire and stored spelling.
std::string_view KeyStateName(KeyState state);
std::optional<KeyState> KeyStateFromName(std::string_view name);

struct KmsKey {
  std::string key_id;      // A UUID: the last segment of the ARN.
  std::string account_id;  // The owner.
  std::string arn;         // arn:aws:kms:<region>:<account>:key/<key_id>
  std::string description;
  KeyState state = KeyState::kEnabled;
  int64_t created_ms = 0;
  int64_t deletion_ms = 0;  // When PendingDeletion: the scheduled deletion date.
  int pending_window_days = 0;
  bool rotation_enabled = false;
  int rotation_period_days = 365;
  int64_t last_rotation_ms = 0;  // Creation or the latest rotation.
  uint32_t current_version = 1;  // Encrypt uses this version; all older ones still decrypt.
  std::string policy;            // The key policy document (JSON text), name "default".
  std::map<std::string, std::string> tags;
};

// One generation of key material, wrapped under the server's KMS master key.
struct KeyVersion {
  std::string key_id;
  uint32_t version = 1;
  std::string wrapped_material;  // SecretSealer output; context "<key_id>/<version>".
  int64_t created_ms = 0;
};

struct KmsAlias {
  std::string account_id;
  std::string alias_name;  // "alias/..."
  std::string key_id;
  int64_t created_ms = 0;
  int64_t updated_ms = 0;
};

}  // namespace st::kms
