// The on-disk layout of a server's --data-dir. Everything in it is the
// server user's alone: directories 0700, files 0600.
//
//   <data-dir>/account-id        the 12-digit account id, written on first start
//   <data-dir>/replica-id        this server's replica id, written on first start
//   <data-dir>/catalog/catalog.db  SQLite metadata store (created by the catalog)
//   <data-dir>/objects/          the local object store (table files)
//   <data-dir>/keys/             key material: admin.json, master.key
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/random.h"
#include "common/status.h"

namespace st::server {

// What PrepareDataDir had to tighten in an existing data dir.
struct ModeRepairs {
  int64_t files = 0;  // Set to 0600.
  int64_t dirs = 0;   // Set to 0700.
  // The first few paths changed, each as "<path> <old mode>".
  std::vector<std::string> examples;
};

struct DataDirLayout {
  std::string root;
  std::string catalog_db_path;
  std::string objects_dir;
  std::string keys_dir;
  std::string master_key_path;  // keys/master.key
  std::string account_id;
  ModeRepairs repaired;
};

// Creates the directories that are missing (0700), sets every directory
// under `root` (and `root`) to 0700 and every file to 0600 where it was not
// (symbolic links are neither followed nor changed), and settles the account
// id: the stored one; else `account_id_flag`; else a random one from
// `random`, which is then stored. Errors: kIo (cannot create, chmod or
// read/write the layout, naming the path); kFailedPrecondition when
// `account_id_flag` differs from the stored id; kCorruption when the stored
// id is not 12 digits.
Result<DataDirLayout> PrepareDataDir(const std::string& root, const std::string& account_id_flag,
                                     Random& random);

// True for a usable replica id: 1-64 characters of [A-Za-z0-9._-]. It names
// the replica in Kafka (group.instance.id), leases and metric labels.
bool IsValidReplicaId(const std::string& id);

// Settles this server's replica id the way PrepareDataDir settles the
// account id: `replica_id_flag` when given (then stored, replacing an older
// one: a replica may be renamed); else the stored one; else "r-" + 12 random
// hex digits, stored. A replica keeps its id across restarts, so Kafka hands
// its partitions straight back instead of waiting for its old session to
// expire. Errors: kIo naming the path; kCorruption for a stored id that is
// not valid.
Result<std::string> SettleReplicaId(const DataDirLayout& layout, const std::string& replica_id_flag,
                                    Random& random);

}  // namespace st::server
