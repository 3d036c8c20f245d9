#include "server/object_encryption.h"

#include "auth/secure_random.h"
#include "catalog/records.h"
#include "storage/envelope.h"

namespace st::server {

namespace {

constexpr std::string_view kWarehouseSuffix = "--table-s3";

}  // namespace

Result<storage::ObjectEncryption> TableEncryptionResolver::ForNewObject(
    std::string_view key) const {
  storage::ObjectEncryption out;
  out.sse = storage::SseKind::kSseS3;
  std::string_view bucket = key.substr(0, key.find('/'));
  if (bucket.size() <= kWarehouseSuffix.size() ||
      bucket.substr(bucket.size() - kWarehouseSuffix.size()) != kWarehouseSuffix) {
    return out;
  }
  Result<catalog::Table> table = tables_.GetTableByWarehouseLocation("s3://" + std::string(bucket));
  if (!table.has_value()) {
    // A warehouse bucket with no table (deleted meanwhile): the server's key.
    if (table.error().code() == StatusCode::kNotFound) return out;
    return Err(table.error());
  }
  out.context_arn = table->arn;
  if (table->encryption.sse_algorithm == "aws:kms") {
    out.sse = storage::SseKind::kSseKms;
    out.kms_key_arn = table->encryption.kms_key_arn;
  }
  return out;
}

kms::EncryptionContext DataKeyContext(const storage::ObjectEncryption& encryption,
                                      std::string_view object_key) {
  kms::EncryptionContext context;
  if (!encryption.context_arn.empty()) context["aws:s3:arn"] = encryption.context_arn;
  context["streamtables:object-key"] = std::string(object_key);
  return context;
}

Status KmsFailure(const kms::KmsError& error, const std::string& key_arn) {
  std::string name(kms::KmsErrorName(error.code));
  std::string message = "KMS." + name + ": " + error.message + " (key " + key_arn + ")";
  switch (error.code) {
    case kms::KmsErrorCode::kInvalidCiphertext:
    case kms::KmsErrorCode::kIncorrectKey:
      return Status(StatusCode::kCorruption, message);
    case kms::KmsErrorCode::kAccessDenied:
      return Status(StatusCode::kAccessDenied, message);
    case kms::KmsErrorCode::kInternal:
      return Status(StatusCode::kInternal, message);
    default:
      return Status(StatusCode::kFailedPrecondition, message);
  }
}

Result<kms::KmsKey> ServerDataKeys::Key(const std::string& key_arn) const {
  std::optional<kms::KeyArnParts> parts = kms::ParseKeyArn(key_arn);
  if (!parts.has_value()) {
    return Err(KmsFailure({kms::KmsErrorCode::kNotFound, "not a key ARN"}, key_arn));
  }
  kms::KmsResult<kms::KmsKey> key = kms_.ResolveKey(parts->account_id, key_arn);
  if (!key.has_value()) return Err(KmsFailure(key.error(), key_arn));
  return *key;
}

Result<storage::DataKey> ServerDataKeys::NewDataKey(const storage::ObjectEncryption& encryption,
                                                    std::string_view object_key) {
  storage::DataKey out;
  if (encryption.sse == storage::SseKind::kSseKms) {
    ST_ASSIGN_OR_RETURN(kms::KmsKey key, Key(encryption.kms_key_arn));
    kms::KmsResult<kms::DataKey> made =
        kms_.GenerateDataKey(key, storage::kDataKeyBytes, DataKeyContext(encryption, object_key),
                             /*with_plaintext=*/true);
    if (!made.has_value()) return Err(KmsFailure(made.error(), encryption.kms_key_arn));
    out.plaintext = std::move(made->plaintext);
    out.wrapped = std::move(made->ciphertext_blob);
    return out;
  }
  ST_ASSIGN_OR_RETURN(out.plaintext, auth::SecureRandomBytes(storage::kDataKeyBytes));
  std::string context = "sse-s3\n" + encryption.context_arn + "\n" + std::string(object_key);
  ST_ASSIGN_OR_RETURN(out.wrapped, sse_s3_->Seal(out.plaintext, context));
  return out;
}

Result<std::string> ServerDataKeys::UnwrapDataKey(const storage::ObjectEncryption& encryption,
                                                  std::string_view object_key,
                                                  std::string_view wrapped) {
  if (encryption.sse == storage::SseKind::kSseKms) {
    ST_ASSIGN_OR_RETURN(kms::KmsKey key, Key(encryption.kms_key_arn));
    kms::KmsResult<kms::Decrypted> opened = kms_.Decrypt(
        key.account_id, std::string(wrapped), DataKeyContext(encryption, object_key), key);
    if (!opened.has_value()) return Err(KmsFailure(opened.error(), encryption.kms_key_arn));
    return std::move(opened->plaintext);
  }
  std::string context = "sse-s3\n" + encryption.context_arn + "\n" + std::string(object_key);
  return sse_s3_->Unseal(wrapped, context);
}

Status ServerDataKeys::CheckKeyUsable(const storage::ObjectEncryption& encryption) {
  if (encryption.sse != storage::SseKind::kSseKms) return Status::OK();
  ST_ASSIGN_OR_RETURN(kms::KmsKey key, Key(encryption.kms_key_arn));
  switch (key.state) {
    case kms::KeyState::kEnabled:
      return Status::OK();
    case kms::KeyState::kDisabled:
      return KmsFailure({kms::KmsErrorCode::kDisabled, key.arn + " is disabled."}, key.arn);
    case kms::KeyState::kPendingDeletion:
      return KmsFailure({kms::KmsErrorCode::kInvalidState, key.arn + " is pending deletion."},
                        key.arn);
  }
  return KmsFailure({kms::KmsErrorCode::kInternal, "unknown key state"}, key.arn);
}

}  // namespace st::server
