#include "cli/table_create_internal.h"
#include "iceberg/table_update.h"

namespace st::cli::internal {

Result<iceberg::TableMetadata> NewDevTableMetadata(const iceberg::Schema& schema,
                                                   const iceberg::PartitionSpec& spec,
                                                   std::string location,
                                                   std::map<std::string, std::string> properties,
                                                   std::string table_uuid, int64_t now_ms) {
  return iceberg::NewTableMetadata(schema, spec, iceberg::SortOrder::Unsorted(),
                                   std::move(location), std::move(properties),
                                   std::move(table_uuid), now_ms);
}

}  // namespace st::cli::internal
