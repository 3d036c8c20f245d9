// The catalog's entities as plain values: identities (accounts, IAM users and
// roles, access keys, identity policies) and table-bucket resources (table
// buckets, namespaces, tables). The stores return these; callers never
// fill ids, ARNs, tokens or timestamps themselves (the store generates them).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace st::catalog {

using TimePoint = std::chrono::system_clock::time_point;

// ---- Identity ----

// An account (12 digits) as the admin API lists it; the counts are taken
// when the account is read, not stored.
struct Account {
  std::string account_id;
  TimePoint created_at;
  int64_t user_count = 0;
  int64_t role_count = 0;
  int64_t table_bucket_count = 0;
};

enum class IdentityKind { kUser, kRole };

// An IAM user or role. arn is arn:aws:iam::<account>:user/<name> or :role/<name>.
struct Identity {
  IdentityKind kind = IdentityKind::kUser;
  std::string account_id;  // 12 digits.
  std::string name;
  std::string arn;
  TimePoint created_at;
};

enum class AccessKeyStatus { kActive, kInactive };

// A long-term credential. The secret is stored as is because SigV4 needs it
// to recompute signatures (the store is as sensitive as a key file).
struct AccessKey {
  std::string access_key_id;  // "AKIA" + 16 characters of [A-Z2-7].
  std::string secret_access_key;
  std::string owner_arn;  // The Identity's ARN.
  AccessKeyStatus status = AccessKeyStatus::kActive;
  TimePoint created_at;
};

// An inline identity policy or a resource policy: name → IAM JSON document.
struct NamedPolicy {
  std::string name;
  std::string document;
};

// ---- Table buckets ----

// Maintenance configuration values are the S3 Tables JSON `value` documents
// ({"status":..,"settings":{..}}) keyed by type ("icebergCompaction", ...);
// only what was put is returned (maintenance_defaults.h fills the rest).
using MaintenanceConfigs = std::map<std::string, std::string>;

// S3 Tables EncryptionConfiguration. sse_algorithm is "AES256" or "aws:kms";
// kms_key_arn is set only for aws:kms.
struct EncryptionConfig {
  std::string sse_algorithm = "AES256";
  std::string kms_key_arn;
  friend bool operator==(const EncryptionConfig&, const EncryptionConfig&) = default;
};

struct TableBucket {
  std::string arn;  // arn:aws:s3tables:<region>:<account>:bucket/<name>
  std::string name;
  std::string owner_account_id;
  std::string region;
  std::string table_bucket_id;  // A UUID, stable for the bucket's life.
  TimePoint created_at;
  EncryptionConfig encryption;
};

struct Namespace {
  std::string bucket_arn;
  std::string table_bucket_id;
  std::string name;
  std::string namespace_id;  // A UUID.
  std::string created_by;    // Account id of the creator.
  std::string owner_account_id;
  TimePoint created_at;
};

struct Table {
  std::string table_id;  // A UUID; the last segment of the ARN.
  std::string arn;       // <bucket ARN>/table/<table_id>
  std::string bucket_arn;
  std::string table_bucket_id;
  std::string namespace_name;
  std::string namespace_id;
  std::string name;
  std::string type = "customer";
  std::string format = "ICEBERG";
  // Absent until the first metadata file is committed.
  std::optional<std::string> metadata_location;
  // Opaque; a new one on every change to the pointer or the name.
  std::string version_token;
  // s3://<63-character id>--table-s3 ; every table file lives below it.
  std::string warehouse_location;
  TimePoint created_at;
  std::string created_by;  // Account ids.
  TimePoint modified_at;
  std::string modified_by;
  std::string owner_account_id;
  // Set for a streaming table: the ARN of the delivery channel that alone
  // may change it.
  std::optional<std::string> managed_by_channel;
  EncryptionConfig encryption;
};

// Who is changing a table: the account recorded as modified_by and, when the
// API layer has established that the request comes from a delivery channel,
// that channel's ARN (the only writer a streaming table accepts).
struct TableWriter {
  std::string account_id;
  std::optional<std::string> acting_channel;
};

}  // namespace st::catalog
