// Where KMS keys live: the catalog database (tables kms_keys,
// kms_key_versions, kms_aliases of the catalog's migration 5), reached
// through its own SQLite connection like the schema registry.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "kms/key_model.h"
#include "sql/connection.h"

namespace st::kms {

// Thread-safe. Errors: NotFound for a missing key, version or alias (the
// message names it), AlreadyExists for an alias name taken in the account,
// and the database's (Unavailable, Io, Corruption).
class KeyStore {
 public:
  virtual ~KeyStore() = default;
  // The key and its first material version, in one transaction.
  virtual Status CreateKey(const KmsKey& key, const KeyVersion& first) = 0;
  virtual Result<KmsKey> GetKey(const std::string& key_id) const = 0;
  // Keys of `account_id` ordered by key id.
  virtual Result<std::vector<KmsKey>> ListKeys(const std::string& account_id) const = 0;
  // Replaces the mutable fields (description, state, dates, rotation,
  // policy, tags); never the material or current_version.
  virtual Status UpdateKey(const KmsKey& key) = 0;
  // Adds `version` and makes it the key's current version (and sets
  // last_rotation_ms to its creation time), in one transaction.
  virtual Status AddVersion(const KeyVersion& version) = 0;
  // Deletes the key, its versions and its aliases (a deletion date passed).
  virtual Status DeleteKey(const std::string& key_id) = 0;
  virtual Result<KeyVersion> GetVersion(const std::string& key_id, uint32_t version) const = 0;

  virtual Status CreateAlias(const KmsAlias& alias) = 0;
  virtual Result<KmsAlias> GetAlias(const std::string& account_id,
                                    const std::string& alias_name) const = 0;
  // Aliases of `account_id` ordered by name.
  virtual Result<std::vector<KmsAlias>> ListAliases(const std::string& account_id) const = 0;
  virtual Status DeleteAlias(const std::string& account_id, const std::string& alias_name) = 0;
};

// Opens a connection to the catalog database at `db_path`, which the
// catalog has already migrated (FailedPrecondition otherwise, naming the
// missing table).
Result<std::unique_ptr<KeyStore>> OpenSqliteKeyStore(const std::string& db_path);
// The same store on a connection of its own to an already migrated catalog
// database of any backend (the PostgreSQL catalog).
Result<std::unique_ptr<KeyStore>> OpenKeyStore(std::unique_ptr<sql::Connection> db);

}  // namespace st::kms
