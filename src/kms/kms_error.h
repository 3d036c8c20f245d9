// The errors of the KMS service, as AWS KMS names them on the wire. A KMS
// client matches on the exception name (DisabledException vs
// KMSInvalidStateException vs NotFoundException), which a StatusCode cannot
// carry, so the service's operations return KmsResult<T>.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "common/status.h"

namespace st::kms {

enum class KmsErrorCode {
  kValidation,            // ValidationException: a malformed or out-of-range parameter.
  kNotFound,              // NotFoundException: no such key or alias for the caller.
  kAlreadyExists,         // AlreadyExistsException: the alias exists.
  kDisabled,              // DisabledException: the key is Disabled.
  kInvalidState,          // KMSInvalidStateException: e.g. PendingDeletion.
  kInvalidCiphertext,     // InvalidCiphertextException: wrong context, tampered blob.
  kIncorrectKey,          // IncorrectKeyException: KeyId does not match the blob's key.
  kInvalidAliasName,      // InvalidAliasNameException.
  kInvalidArn,            // InvalidArnException.
  kMalformedPolicy,       // MalformedPolicyDocumentException.
  kTag,                   // TagException.
  kUnsupportedOperation,  // UnsupportedOperationException (e.g. an asymmetric KeySpec).
  kAccessDenied,          // AccessDeniedException.
  kInternal,              // KMSInternalException (HTTP 500).
};

struct KmsError {
  KmsErrorCode code = KmsErrorCode::kInternal;
  std::string message;
};

template <typename T>
using KmsResult = tl::expected<T, KmsError>;

inline tl::unexpected<KmsError> KmsErr(KmsErrorCode code, std::string message) {
  return tl::unexpected<KmsError>(KmsError{code, std::move(message)});
}

// The wire name ("NotFoundException") and HTTP status of `code`: 500 for
// kInternal, 400 for every other (AWS KMS answers AccessDenied with 400 too).
std::string_view KmsErrorName(KmsErrorCode code);
int KmsErrorHttpStatus(KmsErrorCode code);

// A store or crypto Status as a KmsError: kNotFound → kNotFound, kAlreadyExists
// → kAlreadyExists, kInvalidArgument → kValidation, anything else kInternal.
KmsError FromStatus(const Status& status);

}  // namespace st::kms
