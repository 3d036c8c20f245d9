// The AWS KMS API subset (AWS JSON 1.1, X-Amz-Target "TrentService.<Op>",
// SigV4 signing name "kms") over KeyService, mounted at "/kms" on the API
// endpoint: clients use endpoint_url "<api>/kms" (the root "/" belongs to
// the S3 Tables control plane).
//
// Operations: CreateKey, DescribeKey, ListKeys, Encrypt, Decrypt,
// GenerateDataKey, GenerateDataKeyWithoutPlaintext, ReEncrypt, EnableKey,
// DisableKey, CreateAlias, UpdateAlias, ListAliases, DeleteAlias,
// ScheduleKeyDeletion, CancelKeyDeletion, EnableKeyRotation,
// DisableKeyRotation, GetKeyRotationStatus, RotateKeyOnDemand, GetKeyPolicy,
// PutKeyPolicy, ListKeyPolicies, TagResource, UntagResource, ListResourceTags.
//
// Authorization: every operation is the IAM action "kms:<Op>" on the key ARN
// it names (ReEncrypt: kms:ReEncryptFrom on the source key, then
// kms:ReEncryptTo on the destination; CreateKey, ListKeys, ListAliases: "*"),
// with condition keys kms:CallerAccount, kms:EncryptionContext:<key> and
// kms:EncryptionContextKeys. The Authorizer combines the caller's IAM
// policies with the key policy (server/policy_authorizer.h).
//
// Errors: {"__type": "<Exception>", "message": "..."}, HTTP 400 except
// KMSInternalException (500); see kms_error.h for the names.
#pragma once

#include <string>

#include "auth/authorizer.h"
#include "http/router.h"
#include "kms/key_service.h"

namespace st::kms {

// Everything referenced must outlive the mounted router.
struct KmsDeps {
  KeyService& keys;
  // For the second authorization of ReEncrypt (kms:ReEncryptTo).
  const auth::Authorizer& authorizer;
};

// The surface "kms" at prefix "/kms".
http::Surface MakeKmsSurface(const KmsDeps& deps);

// The condition key a service acting for the caller sets
// ("s3.<region>.amazonaws.com" for the S3 read path); direct calls never do.
inline constexpr const char* kViaServiceKey = "kms:ViaService";
inline void SetViaService(auth::AccessRequest& access, const std::string& service) {
  access.condition_keys[kViaServiceKey] = {service};
}

// The condition keys for an encryption context: kms:EncryptionContext:<k> = v
// for each pair and kms:EncryptionContextKeys = every key.
void AddEncryptionContextKeys(const EncryptionContext& context, auth::AccessRequest& access);

}  // namespace st::kms
