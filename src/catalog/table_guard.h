// The rule that makes a streaming table read-only to everyone but its
// delivery channel, shared by the stores and the commit engine so every path
// refuses with the same message.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "catalog/records.h"
#include "common/status.h"

namespace st::catalog {

// OK for an ordinary table, or when `acting_channel` is the table's channel;
// otherwise AccessDenied naming the table, the action ("rename", ...) and
// the channel ARN.
Status CheckTableWritable(const Table& table, const std::optional<std::string>& acting_channel,
                          std::string_view action);

}  // namespace st::catalog
