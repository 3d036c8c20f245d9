// Secret access keys at rest: sealed with the injected SecretSealer (SQLite:
// a BLOB in access_keys.secret; PostgreSQL: "sealed:<hex>", see
// StoredSecret), plaintext only in stores opened without one. The stored
// form tells the two apart, so no schema change was needed and a database
// written by an older release is sealed in place when opened.
#include <string>
#include <vector>

#include "catalog/sql_metadata_store_internal.h"

namespace st::catalog::sqlstore {

namespace {

// The SQL condition on access_keys.secret that holds for sealed values
// (`sealed`) or for plaintext ones.
std::string SealedCondition(const Connection& db, bool sealed) {
  if (db.dialect().BinaryInTextColumns()) {
    return sealed ? "typeof(secret) = 'blob'" : "typeof(secret) != 'blob'";
  }
  std::string like = "'" + std::string(kSealedTextPrefix) + "%'";
  return sealed ? "secret LIKE " + like : "secret NOT LIKE " + like;
}

void BindSealed(const Connection& db, Statement& stmt, int index, const std::string& sealed) {
  if (db.dialect().BinaryInTextColumns()) {
    stmt.BindBlob(index, sealed);
    return;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text(kSealedTextPrefix);
  for (unsigned char c : sealed) {
    text += kHex[c >> 4];
    text += kHex[c & 0xF];
  }
  stmt.Bind(index, text);
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

Status WrongMasterKey(const std::string& path, int64_t sealed) {
  return FailedPrecondition(
      "the master key does not unseal any of the " + std::to_string(sealed) +
      " secret access keys in catalog database '" + path +
      "': they were sealed under another master key; start with the original key "
      "(<data-dir>/keys/master.key, --master-key-file or STREAMTABLES_MASTER_KEY_FILE)");
}

// Every sealed row is tried, so that one damaged row is not mistaken for a
// wrong key: the key is wrong only when none of them unseals.
Status CheckSealedSecrets(Connection& db, const auth::SecretSealer& sealer,
                          const std::string& path) {
  ST_ASSIGN_OR_RETURN(Statement stmt, db.Prepare("SELECT access_key_id, secret FROM access_keys "
                                                 "WHERE " +
                                                 SealedCondition(db, true)));
  int64_t sealed = 0;
  int64_t opened = 0;
  ST_TRY(stmt.ForEachRow([&](const Statement& row) {
    ++sealed;
    if (sealer.Unseal(ReadStoredSecret(row, 1).bytes, row.Text(0)).has_value()) ++opened;
  }));
  if (sealed > 0 && opened == 0) return WrongMasterKey(path, sealed);
  return Status::OK();
}

Status SealPlaintextSecrets(Connection& db, const auth::SecretSealer& sealer) {
  ST_ASSIGN_OR_RETURN(Statement probe, db.Prepare("SELECT 1 FROM access_keys WHERE " +
                                                  SealedCondition(db, false) + " LIMIT 1"));
  ST_ASSIGN_OR_RETURN(bool any, probe.Step());
  if (!any) return Status::OK();
  // SQLite: secure_delete zeroes the space the plaintext values leave
  // behind, and the checkpoint below copies the zeroed pages over the
  // database file. (PostgreSQL: old row versions stay until VACUUM.)
  const bool sqlite = db.dialect().backend() == sql::Backend::kSqlite;
  if (sqlite) ST_TRY(db.Exec("PRAGMA secure_delete=ON"));
  {
    Transaction txn(db);
    ST_TRY(txn.status());
    ST_ASSIGN_OR_RETURN(Statement select,
                        db.Prepare("SELECT access_key_id, secret FROM access_keys WHERE " +
                                   SealedCondition(db, false)));
    std::vector<std::pair<std::string, std::string>> plaintext;
    ST_TRY(select.ForEachRow(
        [&](const Statement& row) { plaintext.emplace_back(row.Text(0), row.Text(1)); }));
    for (const auto& [id, secret] : plaintext) {
      ST_ASSIGN_OR_RETURN(std::string sealed, sealer.Seal(secret, id));
      ST_ASSIGN_OR_RETURN(Statement update,
                          db.Prepare("UPDATE access_keys SET secret = ? WHERE access_key_id = ?"));
      BindSealed(db, update, 1, sealed);
      ST_TRY(update.Bind(2, id).Run());
    }
    ST_TRY(txn.Commit());
  }
  if (!sqlite) return Status::OK();
  ST_TRY(db.Exec("PRAGMA secure_delete=OFF"));
  // Best effort: a reader in another process may hold old frames; the WAL is
  // then truncated by a later checkpoint.
  (void)db.Exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return Status::OK();
}

}  // namespace

Status PrepareSecretsAtRest(Connection& db, const auth::SecretSealer* sealer,
                            const std::string& path) {
  // Without a sealer (tools and tests that never touch keys) the sealed
  // secrets stay as they are; reading or adding one is refused later.
  if (sealer == nullptr) return Status::OK();
  ST_TRY(CheckSealedSecrets(db, *sealer, path));
  Status sealed = SealPlaintextSecrets(db, *sealer);
  if (!sealed.ok()) {
    return sealed.WithContext("sealing the plaintext secret access keys of catalog database '" +
                              path + "'");
  }
  return Status::OK();
}

Status SqlMetadataStore::BindSecret(Statement& stmt, int index, const std::string& access_key_id,
                                    const std::string& secret) const {
  if (sealer_ == nullptr) {
    // Plaintext only where nothing is sealed yet: never mix in a clear secret.
    ST_ASSIGN_OR_RETURN(Statement sealed, db_->Prepare("SELECT 1 FROM access_keys WHERE " +
                                                       SealedCondition(*db_, true) + " LIMIT 1"));
    ST_ASSIGN_OR_RETURN(bool any, sealed.Step());
    if (any) {
      return FailedPrecondition(
          "catalog database holds sealed secret access keys and this "
          "store has no master key; create access key '" +
          access_key_id + "' through the server");
    }
    stmt.Bind(index, secret);
    return Status::OK();
  }
  ST_ASSIGN_OR_RETURN(std::string sealed, sealer_->Seal(secret, access_key_id));
  BindSealed(*db_, stmt, index, sealed);
  return Status::OK();
}

StoredSecret ReadStoredSecret(const Statement& row, int column) {
  if (row.IsBlob(column)) return {row.Blob(column), true};
  std::string text = row.Text(column);
  if (!text.starts_with(kSealedTextPrefix)) return {std::move(text), false};
  std::string bytes;
  for (size_t i = kSealedTextPrefix.size(); i + 1 < text.size(); i += 2) {
    int high = HexValue(text[i]);
    int low = HexValue(text[i + 1]);
    // Damaged hex stays undecodable bytes: Unseal then reports Corruption.
    bytes += static_cast<char>(((high < 0 ? 0 : high) << 4) | (low < 0 ? 0 : low));
  }
  return {std::move(bytes), true};
}

Result<std::string> SqlMetadataStore::OpenSecret(const std::string& access_key_id,
                                                 const std::string& stored, bool sealed) const {
  if (!sealed) return stored;
  if (sealer_ == nullptr) {
    return Err(FailedPrecondition("the secret of access key '" + access_key_id +
                                  "' is sealed and this catalog store was opened without the "
                                  "master key; read it through the server"));
  }
  auto secret = sealer_->Unseal(stored, access_key_id);
  if (!secret.has_value()) {
    return Err(secret.error().WithContext("the secret of access key '" + access_key_id + "'"));
  }
  return secret;
}

}  // namespace st::catalog::sqlstore
