// Secret access keys at rest, as in sqlite_secret_sealing.cc: sealed with the
// injected SecretSealer (access_keys.sealed_secret), plaintext
// (access_keys.secret) only in stores opened without one; a store opened with
// a sealer seals the plaintext ones in place. PostgreSQL rewrites a row on
// UPDATE and vacuum reclaims the old version; there is no secure_delete.
#include <string>
#include <vector>

#include "catalog/postgres_metadata_store_internal.h"

namespace st::catalog::postgres {

namespace {

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
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db.Prepare("SELECT access_key_id, sealed_secret FROM access_keys "
                                 "WHERE sealed_secret IS NOT NULL"));
  int64_t sealed = 0;
  int64_t opened = 0;
  ST_TRY(stmt.ForEachRow([&](const Statement& row) {
    ++sealed;
    if (sealer.Unseal(row.Blob(1), row.Text(0)).has_value()) ++opened;
  }));
  if (sealed > 0 && opened == 0) return WrongMasterKey(path, sealed);
  return Status::OK();
}

Status SealPlaintextSecrets(Connection& db, const auth::SecretSealer& sealer) {
  ST_ASSIGN_OR_RETURN(Statement probe,
                      db.Prepare("SELECT 1 FROM access_keys WHERE sealed_secret IS NULL "
                                 "LIMIT 1"));
  ST_ASSIGN_OR_RETURN(bool any, probe.Step());
  if (!any) return Status::OK();
  {
    Transaction txn(db);
    ST_TRY(txn.status());
    ST_ASSIGN_OR_RETURN(Statement select,
                        db.Prepare("SELECT access_key_id, secret FROM access_keys "
                                   "WHERE sealed_secret IS NULL"));
    std::vector<std::pair<std::string, std::string>> plaintext;
    ST_TRY(select.ForEachRow(
        [&](const Statement& row) { plaintext.emplace_back(row.Text(0), row.Text(1)); }));
    for (const auto& [id, secret] : plaintext) {
      ST_ASSIGN_OR_RETURN(std::string sealed, sealer.Seal(secret, id));
      ST_ASSIGN_OR_RETURN(
          Statement update,
          db.Prepare(
              "UPDATE access_keys SET secret = NULL, sealed_secret = ? WHERE access_key_id = ?"));
      ST_TRY(update.BindBlob(1, sealed).Bind(2, id).Run());
    }
    ST_TRY(txn.Commit());
  }
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

Status PostgresMetadataStore::BindSecret(Statement& stmt, int index,
                                         const std::string& access_key_id,
                                         const std::string& secret) const {
  if (sealer_ == nullptr) {
    // Plaintext only where nothing is sealed yet: never mix in a clear secret.
    ST_ASSIGN_OR_RETURN(Statement sealed,
                        db_->Prepare("SELECT 1 FROM access_keys WHERE sealed_secret IS NOT NULL "
                                     "LIMIT 1"));
    ST_ASSIGN_OR_RETURN(bool any, sealed.Step());
    if (any) {
      return FailedPrecondition(
          "catalog database holds sealed secret access keys and this "
          "store has no master key; create access key '" +
          access_key_id + "' through the server");
    }
    stmt.Bind(index, secret).BindNull(index + 1);
    return Status::OK();
  }
  ST_ASSIGN_OR_RETURN(std::string sealed, sealer_->Seal(secret, access_key_id));
  stmt.BindNull(index).BindBlob(index + 1, sealed);
  return Status::OK();
}

Result<std::string> PostgresMetadataStore::OpenSecret(const std::string& access_key_id,
                                                      const std::string& stored,
                                                      bool sealed) const {
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

}  // namespace st::catalog::postgres
