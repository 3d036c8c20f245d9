// An ObjectStore on a local directory: each key is a file under the root.
// Atomicity comes from writing a hidden temporary file in the same directory,
// fsyncing it and renaming it over the target (then fsyncing the directory).
#pragma once

#include <memory>
#include <string>

#include "storage/object_store.h"

namespace st::storage {

// Creates `root_dir` if missing. Errors: Io when it cannot be created.
Result<std::unique_ptr<ObjectStore>> OpenLocalObjectStore(const std::string& root_dir);

}  // namespace st::storage
