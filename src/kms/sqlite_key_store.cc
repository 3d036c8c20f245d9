// KeyStore over its own connection to the catalog database (written against
// sql::Connection, opened here on the SQLite file). One mutex serialises
// this connection; the catalog's connection coordinates with it through the
// database's locking (SQLite: the busy timeout).
#include <nlohmann/json.hpp>

#include "common/mutex.h"
#include "kms/key_store.h"
#include "sql/connection.h"
#include "sql/statement.h"
#include "sql/transaction.h"
#include "sqlite/database.h"

namespace st::kms {

namespace {

using sql::Connection;
using sql::Statement;
using sql::Transaction;

constexpr std::string_view kKeyColumns =
    "key_id, account_id, arn, description, state, created_at_ms, deletion_at_ms, "
    "pending_window_days, rotation_enabled, rotation_period_days, last_rotation_ms, "
    "current_version, policy, tags_json";

std::string TagsJson(const std::map<std::string, std::string>& tags) {
  return nlohmann::json(tags).dump();
}

KmsKey ReadKey(const Statement& row) {
  KmsKey key;
  key.key_id = row.Text(0);
  key.account_id = row.Text(1);
  key.arn = row.Text(2);
  key.description = row.Text(3);
  // The CHECK constraint admits only the three names.
  key.state = KeyStateFromName(row.Text(4)).value_or(KeyState::kDisabled);
  key.created_ms = row.Int64(5);
  key.deletion_ms = row.Int64(6);
  key.pending_window_days = static_cast<int>(row.Int64(7));
  key.rotation_enabled = row.Int64(8) != 0;
  key.rotation_period_days = static_cast<int>(row.Int64(9));
  key.last_rotation_ms = row.Int64(10);
  key.current_version = static_cast<uint32_t>(row.Int64(11));
  key.policy = row.Text(12);
  nlohmann::json tags = nlohmann::json::parse(row.Text(13), nullptr, /*allow_exceptions=*/false);
  if (tags.is_object()) {
    for (const auto& [k, v] : tags.items()) {
      if (v.is_string()) key.tags[k] = v.get<std::string>();
    }
  }
  return key;
}

KmsAlias ReadAlias(const Statement& row) {
  return KmsAlias{row.Text(0), row.Text(1), row.Text(2), row.Int64(3), row.Int64(4)};
}

class SqliteKeyStore final : public KeyStore {
 public:
  explicit SqliteKeyStore(std::unique_ptr<Connection> db) : db_(std::move(db)) {}

  Status CheckTables() EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    for (const char* table : {"kms_keys", "kms_key_versions", "kms_aliases"}) {
      ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(db_->dialect().TableExistsQuery()));
      stmt.Bind(1, std::string_view(table));
      ST_ASSIGN_OR_RETURN(bool row, stmt.Step());
      if (!row || stmt.Int64(0) == 0) {
        return FailedPrecondition(std::string("the catalog database has no table ") + table +
                                  " (it is not migrated to schema version 5)");
      }
    }
    return Status::OK();
  }

  Status CreateKey(const KmsKey& key, const KeyVersion& first) override EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    Transaction tx(*db_);
    ST_TRY(tx.status());
    ST_ASSIGN_OR_RETURN(Statement insert,
                        db_->Prepare("INSERT INTO kms_keys (" + std::string(kKeyColumns) +
                                     ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    insert.Bind(1, key.key_id)
        .Bind(2, key.account_id)
        .Bind(3, key.arn)
        .Bind(4, key.description)
        .Bind(5, KeyStateName(key.state))
        .Bind(6, key.created_ms)
        .Bind(7, key.deletion_ms)
        .Bind(8, int64_t{key.pending_window_days})
        .Bind(9, int64_t{key.rotation_enabled ? 1 : 0})
        .Bind(10, int64_t{key.rotation_period_days})
        .Bind(11, key.last_rotation_ms)
        .Bind(12, int64_t{key.current_version})
        .Bind(13, key.policy)
        .Bind(14, TagsJson(key.tags));
    ST_TRY(insert.Run());
    ST_TRY(InsertVersion(first));
    return tx.Commit();
  }

  Result<KmsKey> GetKey(const std::string& key_id) const override EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare("SELECT " + std::string(kKeyColumns) +
                                                     " FROM kms_keys WHERE key_id = ?"));
    stmt.Bind(1, key_id);
    ST_ASSIGN_OR_RETURN(bool found, stmt.Step());
    if (!found) return Err(NotFound("Key '" + key_id + "' does not exist"));
    return ReadKey(stmt);
  }

  Result<std::vector<KmsKey>> ListKeys(const std::string& account_id) const override EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare("SELECT " + std::string(kKeyColumns) +
                                     " FROM kms_keys WHERE account_id = ? ORDER BY key_id"));
    stmt.Bind(1, account_id);
    return stmt.ReadRows(ReadKey);
  }

  Status UpdateKey(const KmsKey& key) override EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    ST_ASSIGN_OR_RETURN(
        Statement stmt,
        db_->Prepare("UPDATE kms_keys SET description = ?, state = ?, deletion_at_ms = ?, "
                     "pending_window_days = ?, rotation_enabled = ?, rotation_period_days = ?, "
                     "policy = ?, tags_json = ? WHERE key_id = ?"));
    stmt.Bind(1, key.description)
        .Bind(2, KeyStateName(key.state))
        .Bind(3, key.deletion_ms)
        .Bind(4, int64_t{key.pending_window_days})
        .Bind(5, int64_t{key.rotation_enabled ? 1 : 0})
        .Bind(6, int64_t{key.rotation_period_days})
        .Bind(7, key.policy)
        .Bind(8, TagsJson(key.tags))
        .Bind(9, key.key_id);
    ST_TRY(stmt.Run());
    if (db_->Changes() == 0) return NotFound("Key '" + key.key_id + "' does not exist");
    return Status::OK();
  }

  Status AddVersion(const KeyVersion& version) override EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    Transaction tx(*db_);
    ST_TRY(tx.status());
    ST_TRY(InsertVersion(version));
    ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare("UPDATE kms_keys SET current_version = ?, "
                                                     "last_rotation_ms = ? WHERE key_id = ?"));
    stmt.Bind(1, int64_t{version.version}).Bind(2, version.created_ms).Bind(3, version.key_id);
    ST_TRY(stmt.Run());
    if (db_->Changes() == 0) return NotFound("Key '" + version.key_id + "' does not exist");
    return tx.Commit();
  }

  Status DeleteKey(const std::string& key_id) override EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    // Versions and aliases go with it (ON DELETE CASCADE; foreign keys are on).
    ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare("DELETE FROM kms_keys WHERE key_id = ?"));
    stmt.Bind(1, key_id);
    ST_TRY(stmt.Run());
    if (db_->Changes() == 0) return NotFound("Key '" + key_id + "' does not exist");
    return Status::OK();
  }

  Result<KeyVersion> GetVersion(const std::string& key_id, uint32_t version) const override
      EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare("SELECT wrapped_material, created_at_ms FROM "
                                     "kms_key_versions WHERE key_id = ? AND version = ?"));
    stmt.Bind(1, key_id).Bind(2, int64_t{version});
    ST_ASSIGN_OR_RETURN(bool found, stmt.Step());
    if (!found) {
      return Err(NotFound("Key '" + key_id + "' has no version " + std::to_string(version)));
    }
    return KeyVersion{key_id, version, stmt.Blob(0), stmt.Int64(1)};
  }

  Status CreateAlias(const KmsAlias& alias) override EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare("INSERT INTO kms_aliases (account_id, alias_name, key_id, "
                                     "created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?)"));
    stmt.Bind(1, alias.account_id)
        .Bind(2, alias.alias_name)
        .Bind(3, alias.key_id)
        .Bind(4, alias.created_ms)
        .Bind(5, alias.updated_ms);
    Status run = stmt.Run();
    if (run.code() == StatusCode::kAlreadyExists) {
      return AlreadyExists("An alias with the name " + alias.alias_name + " already exists");
    }
    return run;
  }

  Result<KmsAlias> GetAlias(const std::string& account_id,
                            const std::string& alias_name) const override EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare("SELECT account_id, alias_name, key_id, created_at_ms, "
                                     "updated_at_ms FROM kms_aliases WHERE account_id = ? AND "
                                     "alias_name = ?"));
    stmt.Bind(1, account_id).Bind(2, alias_name);
    ST_ASSIGN_OR_RETURN(bool found, stmt.Step());
    if (!found) return Err(NotFound("Alias " + alias_name + " is not found."));
    return ReadAlias(stmt);
  }

  Result<std::vector<KmsAlias>> ListAliases(const std::string& account_id) const override
      EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare("SELECT account_id, alias_name, key_id, created_at_ms, "
                                     "updated_at_ms FROM kms_aliases WHERE account_id = ? "
                                     "ORDER BY alias_name"));
    stmt.Bind(1, account_id);
    return stmt.ReadRows(ReadAlias);
  }

  Status DeleteAlias(const std::string& account_id, const std::string& alias_name) override
      EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare("DELETE FROM kms_aliases WHERE account_id = ? AND "
                                     "alias_name = ?"));
    stmt.Bind(1, account_id).Bind(2, alias_name);
    ST_TRY(stmt.Run());
    if (db_->Changes() == 0) return NotFound("Alias " + alias_name + " is not found.");
    return Status::OK();
  }

 private:
  Status InsertVersion(const KeyVersion& version) REQUIRES(mu_) {
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare("INSERT INTO kms_key_versions (key_id, version, "
                                     "wrapped_material, created_at_ms) VALUES (?, ?, ?, ?)"));
    stmt.Bind(1, version.key_id)
        .Bind(2, int64_t{version.version})
        .BindBlob(3, version.wrapped_material)
        .Bind(4, version.created_ms);
    return stmt.Run();
  }

  mutable common::Mutex mu_;
  std::unique_ptr<Connection> db_ PT_GUARDED_BY(mu_);
};

}  // namespace

Result<std::unique_ptr<KeyStore>> OpenSqliteKeyStore(const std::string& db_path) {
  sqlite::OpenOptions options;
  options.path = db_path;
  options.label = "KMS key store (catalog database)";
  // Key creation must survive a crash once acknowledged: the material exists nowhere else.
  options.durable = true;
  ST_ASSIGN_OR_RETURN(std::unique_ptr<sqlite::Database> db, sqlite::Database::Open(options));
  return OpenKeyStore(std::move(db));
}

Result<std::unique_ptr<KeyStore>> OpenKeyStore(std::unique_ptr<sql::Connection> db) {
  auto store = std::make_unique<SqliteKeyStore>(std::move(db));
  ST_TRY(store->CheckTables());
  return std::unique_ptr<KeyStore>(std::move(store));
}

}  // namespace st::kms
