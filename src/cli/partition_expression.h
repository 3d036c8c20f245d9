// `--partition-by` expressions: Iceberg transforms in the function syntax
// engines use in DDL: `day(ts)`, `hour(ts)`, `month(ts)`, `year(ts)`,
// `bucket(16, id)`, `truncate(4, s)`, `identity(col)` or a bare `col`,
// comma-separated. Partition fields get ids 1000, 1001, ... and Java's
// default names (`ts_day`, `id_bucket`, `s_trunc`, `col`).
#pragma once

#include <string_view>
#include <vector>

#include "common/status.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"

namespace st::cli {

// An empty or all-blank `text` yields no fields (unpartitioned). Errors:
// InvalidArgument naming the bad term (unknown transform or column, bad
// parameter, unbalanced parentheses).
Result<std::vector<iceberg::PartitionField>> ParsePartitionExpression(const iceberg::Schema& schema,
                                                                      std::string_view text);

}  // namespace st::cli
