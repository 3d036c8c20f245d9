#include "kms/kms_error.h"

namespace st::kms {

std::string_view KmsErrorName(KmsErrorCode code) {
  switch (code) {
    case KmsErrorCode::kValidation:
      return "ValidationException";
    case KmsErrorCode::kNotFound:
      return "NotFoundException";
    case KmsErrorCode::kAlreadyExists:
      return "AlreadyExistsException";
    case KmsErrorCode::kDisabled:
      return "DisabledException";
    case KmsErrorCode::kInvalidState:
      return "KMSInvalidStateException";
    case KmsErrorCode::kInvalidCiphertext:
      return "InvalidCiphertextException";
    case KmsErrorCode::kIncorrectKey:
      return "IncorrectKeyException";
    case KmsErrorCode::kInvalidAliasName:
      return "InvalidAliasNameException";
    case KmsErrorCode::kInvalidArn:
      return "InvalidArnException";
    case KmsErrorCode::kMalformedPolicy:
      return "MalformedPolicyDocumentException";
    case KmsErrorCode::kTag:
      return "TagException";
    case KmsErrorCode::kUnsupportedOperation:
      return "UnsupportedOperationException";
    case KmsErrorCode::kAccessDenied:
      return "AccessDeniedException";
    case KmsErrorCode::kInternal:
      return "KMSInternalException";
  }
  return "KMSInternalException";
}

int KmsErrorHttpStatus(KmsErrorCode code) { return code == KmsErrorCode::kInternal ? 500 : 400; }

KmsError FromStatus(const Status& status) {
  switch (status.code()) {
    case StatusCode::kNotFound:
      return {KmsErrorCode::kNotFound, status.message()};
    case StatusCode::kAlreadyExists:
      return {KmsErrorCode::kAlreadyExists, status.message()};
    case StatusCode::kInvalidArgument:
      return {KmsErrorCode::kValidation, status.message()};
    case StatusCode::kAccessDenied:
      return {KmsErrorCode::kAccessDenied, status.message()};
    default:
      return {KmsErrorCode::kInternal, status.message()};
  }
}

}  // namespace st::kms
