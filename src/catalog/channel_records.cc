#include "catalog/channel_records.h"

namespace st::catalog {

const char* ChannelStatusName(ChannelStatus status) {
  switch (status) {
    case ChannelStatus::kCreating:
      return "CREATING";
    case ChannelStatus::kActive:
      return "ACTIVE";
    case ChannelStatus::kUpdating:
      return "UPDATING";
    case ChannelStatus::kDeleting:
      return "DELETING";
    case ChannelStatus::kFailed:
      return "FAILED";
    case ChannelStatus::kSuspending:
      return "SUSPENDING";
    case ChannelStatus::kSuspended:
      return "SUSPENDED";
  }
  return "FAILED";
}

}  // namespace st::catalog
