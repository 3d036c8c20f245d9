#include "kms/key_model.h"

namespace st::kms {

std::string_view KeyStateName(KeyState state) {
  switch (state) {
    case KeyState::kEnabled:
      return "Enabled";
    case KeyState::kDisabled:
      return "Disabled";
    case KeyState::kPendingDeletion:
      return "PendingDeletion";
  }
  return "Disabled";
}

std::optional<KeyState> KeyStateFromName(std::string_view name) {
  for (KeyState state : {KeyState::kEnabled, KeyState::kDisabled, KeyState::kPendingDeletion}) {
    if (KeyStateName(state) == name) return state;
  }
  return std::nullopt;
}

}  // namespace st::kms
