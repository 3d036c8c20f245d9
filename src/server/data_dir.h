// The on-disk layout of a server's --data-dir.
//
//   <data-dir>/account-id        the 12-digit account id, written on first start
//   <data-dir>/catalog/catalog.db  SQLite metadata store (created by the catalog)
//   <data-dir>/objects/          the local object store (table files)
//   <data-dir>/keys/             key material (mode 0700)
#pragma once

#include <string>

#include "common/random.h"
#include "common/status.h"

namespace st::server {

struct DataDirLayout {
  std::string root;
  std::string catalog_db_path;
  std::string objects_dir;
  std::string keys_dir;
  std::string account_id;
};

// Creates the directories that are missing and settles the account id: the
// stored one; else `account_id_flag`; else a random one from `random`, which
// is then stored. Errors: kIo (cannot create or read/write the layout, naming
// the path); kFailedPrecondition when `account_id_flag` differs from the
// stored id; kCorruption when the stored id is not 12 digits.
Result<DataDirLayout> PrepareDataDir(const std::string& root, const std::string& account_id_flag,
                                     Random& random);

}  // namespace st::server
