// The server's side of encryption at rest (issue 11 item 2): which
// protection a new object gets (its table's encryption configuration) and
// where its data key comes from (a server-managed key for SSE-S3, the
// built-in KMS for SSE-KMS). storage::NewEncryptedObjectStore does the rest.
#pragma once

#include <memory>
#include <string>

#include "auth/secret_sealer.h"
#include "catalog/table_store.h"
#include "kms/key_service.h"
#include "storage/encrypted_object_store.h"

namespace st::server {

// Objects under a table's warehouse bucket ("<id>--table-s3/...") take the
// table's recorded encryption (SSE-KMS with its key, or SSE-S3); every other
// object (general-purpose buckets such as DLQs, multipart staging, ETag
// records) is SSE-S3, as S3 encrypts every new object by default.
class TableEncryptionResolver final : public storage::EncryptionResolver {
 public:
  explicit TableEncryptionResolver(catalog::TableStore& tables) : tables_(tables) {}
  Result<storage::ObjectEncryption> ForNewObject(std::string_view key) const override;

 private:
  catalog::TableStore& tables_;
};

// The encryption context a data key of `object_key` is wrapped with:
// {"aws:s3:arn": <context ARN>} as S3 Tables binds the table ARN, plus the
// object key, so a header copied to another object does not unwrap there.
kms::EncryptionContext DataKeyContext(const storage::ObjectEncryption& encryption,
                                      std::string_view object_key);

// SSE-S3 keys are wrapped by `sse_s3_key` (the server's key file
// keys/sse-s3.key, never in the catalog); SSE-KMS keys by GenerateDataKey on
// the configured key. A KMS refusal is an error whose message starts with
// "KMS.<AWS exception name>: " and names the key (kFailedPrecondition for a
// disabled, pending-deletion or missing key; Corruption for a blob that does
// not authenticate), which the S3 endpoint and delivery report as such.
class ServerDataKeys final : public storage::DataKeyProvider {
 public:
  ServerDataKeys(kms::KeyService& kms, std::unique_ptr<auth::SecretSealer> sse_s3_key)
      : kms_(kms), sse_s3_(std::move(sse_s3_key)) {}
  Result<storage::DataKey> NewDataKey(const storage::ObjectEncryption& encryption,
                                      std::string_view object_key) override;
  Result<std::string> UnwrapDataKey(const storage::ObjectEncryption& encryption,
                                    std::string_view object_key, std::string_view wrapped) override;
  // SSE-KMS: the key must still exist and be Enabled (one catalog lookup).
  Status CheckKeyUsable(const storage::ObjectEncryption& encryption) override;

 private:
  Result<kms::KmsKey> Key(const std::string& key_arn) const;
  kms::KeyService& kms_;
  std::unique_ptr<auth::SecretSealer> sse_s3_;
};

// The Status for a KMS error on key `key_arn` (see ServerDataKeys).
Status KmsFailure(const kms::KmsError& error, const std::string& key_arn);

}  // namespace st::server
