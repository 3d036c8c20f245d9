#include "catalog/table_guard.h"

namespace st::catalog {

Status CheckTableWritable(const Table& table, const std::optional<std::string>& acting_channel,
                          std::string_view action) {
  if (!table.managed_by_channel.has_value() || acting_channel == table.managed_by_channel) {
    return Status::OK();
  }
  return Status(StatusCode::kAccessDenied,
                "Cannot " + std::string(action) + " table " + table.namespace_name + "." +
                    table.name + ": it is a streaming table that only its delivery channel " +
                    *table.managed_by_channel +
                    " may change. Change the channel's settings instead, or delete the table.");
}

}  // namespace st::catalog
