// Opens the object store --object-store names: the local directory under
// the data dir by default, or an S3-compatible store (s3store/).
#pragma once

#include <memory>

#include "server/data_dir.h"
#include "server/server_config.h"
#include "storage/object_store.h"

namespace st::server {

// Errors: InvalidArgument (a malformed URL, missing credentials), Io.
Result<std::unique_ptr<storage::ObjectStore>> OpenObjectStore(const ServerConfig& config,
                                                              const DataDirLayout& layout);

}  // namespace st::server
