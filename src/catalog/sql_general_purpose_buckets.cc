// General-purpose S3 buckets (dead-letter queue targets) in the SQLite store.
#include "catalog/arns.h"
#include "catalog/names.h"
#include "catalog/sql_metadata_store_internal.h"

namespace st::catalog::sqlstore {

namespace {

constexpr const char* kGpBucketColumns = "name, owner_account_id, region, created_at_ms";

GeneralPurposeBucket ReadGpBucket(const Statement& stmt) {
  GeneralPurposeBucket out;
  out.name = stmt.Text(0);
  out.arn = GeneralPurposeBucketArn(out.name);
  out.owner_account_id = stmt.Text(1);
  out.region = stmt.Text(2);
  out.created_at = FromMillis(stmt.Int64(3));
  return out;
}

Status GpBucketNotFound(const std::string& name) {
  return NotFound("The specified bucket '" + name + "' does not exist.");
}

}  // namespace

Result<GeneralPurposeBucket> SqlMetadataStore::CreateGeneralPurposeBucket(
    const std::string& owner_account_id, const std::string& region, const std::string& name) {
  ST_TRY(ValidateAccountId(owner_account_id));
  ST_TRY(ValidateGeneralPurposeBucketName(name));
  if (region.empty()) return Err(InvalidArgument("A bucket needs a region."));
  ConnectionLock lock(*this);
  GeneralPurposeBucket out;
  out.name = name;
  out.arn = GeneralPurposeBucketArn(name);
  out.owner_account_id = owner_account_id;
  out.region = region;
  out.created_at = FromMillis(NowMs());
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare(std::string("INSERT INTO general_purpose_buckets(") +
                                   kGpBucketColumns + ") VALUES (?, ?, ?, ?)"));
  Status status =
      stmt.Bind(1, name).Bind(2, owner_account_id).Bind(3, region).Bind(4, NowMs()).Run();
  if (status.code() == StatusCode::kAlreadyExists) {
    return Err(AlreadyExists("The bucket '" + name +
                             "' already exists (bucket names are global); choose another name."));
  }
  ST_TRY(status);
  return out;
}

Result<GeneralPurposeBucket> SqlMetadataStore::GetGeneralPurposeBucket(const std::string& name) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(std::string("SELECT ") + kGpBucketColumns +
                                                   " FROM general_purpose_buckets WHERE name = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, name).Step());
  if (!found) return Err(GpBucketNotFound(name));
  return ReadGpBucket(stmt);
}

Result<std::vector<GeneralPurposeBucket>> SqlMetadataStore::ListGeneralPurposeBuckets(
    const std::string& owner_account_id) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare(std::string("SELECT ") + kGpBucketColumns +
                                   " FROM general_purpose_buckets WHERE owner_account_id = ? "
                                   "ORDER BY name"));
  stmt.Bind(1, owner_account_id);
  return stmt.ReadRows(ReadGpBucket);
}

Status SqlMetadataStore::DeleteGeneralPurposeBucket(const std::string& name) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare("DELETE FROM general_purpose_buckets WHERE name = ?"));
  ST_TRY(stmt.Bind(1, name).Run());
  return db_->Changes() == 0 ? GpBucketNotFound(name) : Status::OK();
}

}  // namespace st::catalog::sqlstore
