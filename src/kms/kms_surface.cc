// The route table: one POST / whose AccessResolver turns X-Amz-Target into
// the IAM action kms:<Op>, resolves the key the request names (key id, key
// ARN, alias name or alias ARN, or the key in a ciphertext blob) into the
// resource ARN and adds the kms:* condition keys, so the router authorizes
// every operation before its handler runs.
#include "kms/kms_surface.h"

#include <memory>
#include <nlohmann/json.hpp>

#include "auth/arn.h"
#include "common/base64.h"
#include "common/json_fields.h"
#include "http/error_table.h"

namespace st::kms {

namespace {

constexpr std::string_view kTargetPrefix = "TrentService.";
constexpr std::string_view kContentType = "application/x-amz-json-1.1";
constexpr size_t kMaxEncodedBlob = (kMaxCiphertextBytes + 2) / 3 * 4;
constexpr size_t kMaxEncodedPlaintext = (kMaxPlaintextBytes + 2) / 3 * 4;
constexpr size_t kMaxContextPairs = 64;
constexpr size_t kMaxContextBytes = 8192;
constexpr int64_t kMaxListLimit = 1000;

// ---- Errors.

constexpr http::StatusCodeRow kByCode[] = {
    {StatusCode::kInvalidArgument, 400, "ValidationException"},
    {StatusCode::kNotFound, 400, "NotFoundException"},
    {StatusCode::kAlreadyExists, 400, "AlreadyExistsException"},
    {StatusCode::kCorruption, 400, "InvalidCiphertextException"},
    {StatusCode::kFailedPrecondition, 400, "KMSInvalidStateException"},
    {StatusCode::kUnsupported, 400, "UnsupportedOperationException"},
    {StatusCode::kAccessDenied, 400, "AccessDeniedException"},
    {StatusCode::kUnauthenticated, 400, "UnrecognizedClientException"},
    {StatusCode::kUnavailable, 503, "KMSInternalException"},
};
constexpr http::HttpStatusRow kByHttpStatus[] = {
    {403, "AccessDeniedException"},
};
constexpr http::ErrorTable kTable{kByCode, kByHttpStatus, "ValidationException",
                                  "KMSInternalException"};

class KmsErrorWriter final : public http::ErrorWriter {
 public:
  http::Response Write(const http::Request& request, const http::HttpError& error) const override {
    http::WireError wire = http::ResolveWireError(kTable, error);
    nlohmann::json body = {{"__type", wire.name}, {"message", error.status.message()}};
    return http::AmznJsonErrorResponse(request, wire, body.dump(), kContentType);
  }
};

http::HttpError ToHttpError(const KmsError& error) {
  StatusCode code =
      error.code == KmsErrorCode::kInternal ? StatusCode::kInternal : StatusCode::kInvalidArgument;
  return http::HttpError(Status(code, error.message), KmsErrorHttpStatus(error.code),
                         std::string(KmsErrorName(error.code)));
}

// For the resolver, which can only return a Status: the codes the error
// table maps back to the KMS names the resolver produces.
Status ToStatus(const KmsError& error) {
  switch (error.code) {
    case KmsErrorCode::kNotFound:
      return NotFound(error.message);
    case KmsErrorCode::kInvalidCiphertext:
      return Corruption(error.message);
    case KmsErrorCode::kInternal:
      return Internal(error.message);
    default:
      return InvalidArgument(error.message);
  }
}

// ---- JSON.

std::string KmsWording(const json_fields::FieldProblem& problem, std::string_view) {
  if (problem.kind == json_fields::FieldProblem::Kind::kMissing) {
    return "1 validation error detected: Value null at '" + problem.member +
           "' failed to satisfy constraint: Member must not be null";
  }
  if (problem.kind == json_fields::FieldProblem::Kind::kOutOfRange) {
    return "1 validation error detected: Value at '" + problem.member +
           "' failed to satisfy constraint: Member is out of range";
  }
  return "1 validation error detected: Value at '" + problem.member + "' has the wrong type";
}
constexpr json_fields::FieldWording kWording{&KmsWording, {}};

Result<nlohmann::json> ParseBody(const http::Request& request) {
  return json_fields::ParseAwsJsonBody(request.body);
}

http::Response JsonResponse(const nlohmann::json& body) {
  http::Response response = http::Response::Json(200, body.dump());
  response.headers.Set("Content-Type", std::string(kContentType));
  return response;
}

double Seconds(int64_t ms) { return static_cast<double>(ms) / 1000.0; }

Result<EncryptionContext> ReadContext(const nlohmann::json& body, std::string_view member) {
  ST_ASSIGN_OR_RETURN(EncryptionContext context,
                      json_fields::OptionalStringMap(body, member, kWording));
  size_t bytes = 0;
  for (const auto& [k, v] : context) bytes += k.size() + v.size();
  if (context.size() > kMaxContextPairs || bytes > kMaxContextBytes) {
    return Err(InvalidArgument(std::string(member) + " may hold at most 64 pairs and 8192 bytes"));
  }
  return context;
}

Result<std::string> ReadBlob(const nlohmann::json& body, std::string_view member,
                             size_t max_encoded) {
  ST_ASSIGN_OR_RETURN(std::string text, json_fields::RequiredString(body, member, kWording));
  if (text.empty() || text.size() > max_encoded) {
    return Err(InvalidArgument("1 validation error detected: Value at '" + std::string(member) +
                               "' failed to satisfy constraint: Member must have length between "
                               "1 and " +
                               std::to_string(max_encoded * 3 / 4)));
  }
  std::optional<std::string> decoded = common::Base64Decode(text);
  if (!decoded.has_value()) {
    return Err(InvalidArgument(std::string(member) + " is not valid base64"));
  }
  return *decoded;
}

nlohmann::json KeyMetadata(const KmsKey& key) {
  nlohmann::json meta = {
      {"AWSAccountId", key.account_id},
      {"KeyId", key.key_id},
      {"Arn", key.arn},
      {"CreationDate", Seconds(key.created_ms)},
      {"Enabled", key.state == KeyState::kEnabled},
      {"Description", key.description},
      {"KeyUsage", "ENCRYPT_DECRYPT"},
      {"KeyState", std::string(KeyStateName(key.state))},
      {"Origin", "AWS_KMS"},
      {"KeyManager", "CUSTOMER"},
      {"CustomerMasterKeySpec", "SYMMETRIC_DEFAULT"},
      {"KeySpec", "SYMMETRIC_DEFAULT"},
      {"EncryptionAlgorithms", nlohmann::json::array({"SYMMETRIC_DEFAULT"})},
      {"MultiRegion", false},
  };
  if (key.state == KeyState::kPendingDeletion) {
    meta["DeletionDate"] = Seconds(key.deletion_ms);
    meta["PendingDeletionWindowInDays"] = key.pending_window_days;
  }
  return meta;
}

Result<std::map<std::string, std::string>> ReadTags(const nlohmann::json& body) {
  ST_ASSIGN_OR_RETURN(const nlohmann::json* tags,
                      json_fields::OptionalArray(body, "Tags", kWording));
  std::map<std::string, std::string> out;
  if (tags == nullptr) return out;
  if (tags->size() > 50) return Err(InvalidArgument("Tags may hold at most 50 tags"));
  for (const nlohmann::json& tag : *tags) {
    ST_ASSIGN_OR_RETURN(std::string key, json_fields::RequiredString(tag, "TagKey", kWording));
    ST_ASSIGN_OR_RETURN(std::string value, json_fields::RequiredString(tag, "TagValue", kWording));
    out[key] = value;
  }
  return out;
}

nlohmann::json TagList(const std::map<std::string, std::string>& tags) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [k, v] : tags) out.push_back({{"TagKey", k}, {"TagValue", v}});
  return out;
}

// Marker/Limit paging over an ordered list: the marker is the index of the
// next item, as decimal text.
struct Page {
  size_t begin = 0;
  size_t end = 0;
  bool truncated = false;
};
Result<Page> ReadPage(const nlohmann::json& body, size_t total) {
  ST_ASSIGN_OR_RETURN(std::optional<int64_t> limit,
                      json_fields::OptionalInt(body, "Limit", kWording, 1, kMaxListLimit));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> marker,
                      json_fields::OptionalString(body, "Marker", kWording));
  Page page;
  if (marker.has_value()) {
    if (marker->empty() || marker->size() > 9 ||
        marker->find_first_not_of("0123456789") != std::string::npos) {
      return Err(InvalidArgument("Marker is not a marker this service returned"));
    }
    page.begin = std::min<size_t>(std::stoul(*marker), total);
  }
  size_t count = static_cast<size_t>(limit.value_or(100));
  page.end = std::min(total, page.begin + count);
  page.truncated = page.end < total;
  return page;
}

// ---- Operations.

struct Call {
  const KmsDeps& deps;
  const nlohmann::json& body;
  const std::string& account_id;  // The caller's.
  http::RouteContext* context;    // Null in the resolver.
};

// Which request member names the key an operation is authorized on.
enum class KeyArg {
  kNone,         // Account-level: "*".
  kKeyId,        // Required "KeyId".
  kOptionalKey,  // "KeyId" when present, else "*" (ListAliases).
  kTargetKeyId,  // "TargetKeyId" (CreateAlias, UpdateAlias).
  kAliasName,    // The key "AliasName" points to (DeleteAlias).
  kBlob,         // The key in "CiphertextBlob" (Decrypt, ReEncrypt).
};

using Handler = Result<http::Response> (*)(const Call& call);

struct Operation {
  std::string_view name;
  KeyArg key_arg;
  std::string_view context_member;  // The encryption context for condition keys, or "".
  Handler handler;
};

Result<http::Response> Fail(const Call& call, const KmsError& error) {
  return call.context->Fail(ToHttpError(error));
}

// The key a request names, or the KMS error for it.
KmsResult<KmsKey> NamedKey(const Call& call, std::string_view member) {
  Result<std::string> ref = json_fields::RequiredString(call.body, member, kWording);
  if (!ref.has_value()) return KmsErr(KmsErrorCode::kValidation, ref.error().message());
  return call.deps.keys.ResolveKey(call.account_id, *ref);
}

// The key named by the member the router authorized, re-resolved by the
// handler: it must be the key that was authorized (an alias re-pointed
// between the two lookups must not lead to an unauthorized key).
KmsResult<KmsKey> AuthorizedKey(const Call& call, std::string_view member) {
  KmsResult<KmsKey> key = NamedKey(call, member);
  if (key.has_value() && call.context != nullptr && call.context->access.resource != key->arn) {
    return KmsErr(KmsErrorCode::kInternal,
                  "the key changed while the request was authorized; retry the request");
  }
  return key;
}

#define KMS_KEY_OR_FAIL(var, expr) \
  KmsResult<KmsKey> var = (expr);  \
  if (!var.has_value()) return Fail(call, var.error())

#define KMS_OR_FAIL(var, expr) \
  auto var = (expr);           \
  if (!var.has_value()) return Fail(call, var.error())

Result<http::Response> CreateKey(const Call& call) {
  ST_ASSIGN_OR_RETURN(std::optional<std::string> description,
                      json_fields::OptionalString(call.body, "Description", kWording));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> policy,
                      json_fields::OptionalString(call.body, "Policy", kWording));
  for (const char* member : {"KeySpec", "CustomerMasterKeySpec"}) {
    ST_ASSIGN_OR_RETURN(std::optional<std::string> spec,
                        json_fields::OptionalString(call.body, member, kWording));
    if (spec.has_value() && *spec != "SYMMETRIC_DEFAULT") {
      return Fail(call, {KmsErrorCode::kUnsupportedOperation,
                         std::string(member) + " " + *spec +
                             " is not supported: only SYMMETRIC_DEFAULT keys"});
    }
  }
  ST_ASSIGN_OR_RETURN(std::optional<std::string> usage,
                      json_fields::OptionalString(call.body, "KeyUsage", kWording));
  if (usage.has_value() && *usage != "ENCRYPT_DECRYPT") {
    return Fail(call, {KmsErrorCode::kUnsupportedOperation,
                       "KeyUsage " + *usage + " is not supported: only ENCRYPT_DECRYPT"});
  }
  ST_ASSIGN_OR_RETURN(std::optional<std::string> origin,
                      json_fields::OptionalString(call.body, "Origin", kWording));
  if (origin.has_value() && *origin != "AWS_KMS") {
    return Fail(call, {KmsErrorCode::kUnsupportedOperation,
                       "Origin " + *origin + " is not supported: only AWS_KMS"});
  }
  ST_ASSIGN_OR_RETURN(std::optional<bool> multi_region,
                      json_fields::OptionalBool(call.body, "MultiRegion", kWording));
  if (multi_region.value_or(false)) {
    return Fail(call, {KmsErrorCode::kUnsupportedOperation, "multi-Region keys are not supported"});
  }
  ST_ASSIGN_OR_RETURN(auto tags, ReadTags(call.body));
  KMS_KEY_OR_FAIL(key, call.deps.keys.CreateKey(
                           call.account_id, {description.value_or(""), policy, std::move(tags)}));
  return JsonResponse({{"KeyMetadata", KeyMetadata(*key)}});
}

Result<http::Response> DescribeKey(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  return JsonResponse({{"KeyMetadata", KeyMetadata(*key)}});
}

Result<http::Response> ListKeys(const Call& call) {
  KMS_OR_FAIL(keys, call.deps.keys.ListKeys(call.account_id));
  ST_ASSIGN_OR_RETURN(Page page, ReadPage(call.body, keys->size()));
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = page.begin; i < page.end; ++i) {
    list.push_back({{"KeyId", (*keys)[i].key_id}, {"KeyArn", (*keys)[i].arn}});
  }
  nlohmann::json out = {{"Keys", list}, {"Truncated", page.truncated}};
  if (page.truncated) out["NextMarker"] = std::to_string(page.end);
  return JsonResponse(out);
}

Result<http::Response> Encrypt(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  ST_ASSIGN_OR_RETURN(std::string plaintext,
                      ReadBlob(call.body, "Plaintext", kMaxEncodedPlaintext));
  ST_ASSIGN_OR_RETURN(EncryptionContext context, ReadContext(call.body, "EncryptionContext"));
  KMS_OR_FAIL(blob, call.deps.keys.Encrypt(*key, plaintext, context));
  Wipe(plaintext);
  return JsonResponse({{"CiphertextBlob", common::Base64Encode(*blob)},
                       {"KeyId", key->arn},
                       {"EncryptionAlgorithm", "SYMMETRIC_DEFAULT"}});
}

// The key a Decrypt/ReEncrypt caller named, if any (it must match the blob's).
KmsResult<std::optional<KmsKey>> OptionalNamedKey(const Call& call, std::string_view member) {
  Result<std::optional<std::string>> ref = json_fields::OptionalString(call.body, member, kWording);
  if (!ref.has_value()) return KmsErr(KmsErrorCode::kValidation, ref.error().message());
  if (!ref->has_value()) return std::optional<KmsKey>();
  KmsResult<KmsKey> key = call.deps.keys.ResolveKey(call.account_id, **ref);
  if (!key.has_value()) return tl::unexpected<KmsError>(key.error());
  return std::optional<KmsKey>(*key);
}

KmsResult<bool> CheckAlgorithm(const Call& call, std::string_view member) {
  Result<std::optional<std::string>> algorithm =
      json_fields::OptionalString(call.body, member, kWording);
  if (!algorithm.has_value()) return KmsErr(KmsErrorCode::kValidation, algorithm.error().message());
  if (algorithm->has_value() && **algorithm != "SYMMETRIC_DEFAULT") {
    return KmsErr(KmsErrorCode::kValidation,
                  std::string(member) + " must be SYMMETRIC_DEFAULT for a symmetric key");
  }
  return true;
}

Result<http::Response> Decrypt(const Call& call) {
  ST_ASSIGN_OR_RETURN(std::string blob, ReadBlob(call.body, "CiphertextBlob", kMaxEncodedBlob));
  ST_ASSIGN_OR_RETURN(EncryptionContext context, ReadContext(call.body, "EncryptionContext"));
  KMS_OR_FAIL(algorithm, CheckAlgorithm(call, "EncryptionAlgorithm"));
  KMS_OR_FAIL(expected, OptionalNamedKey(call, "KeyId"));
  KMS_OR_FAIL(decrypted, call.deps.keys.Decrypt(call.account_id, blob, context, *expected));
  http::Response response = JsonResponse({{"KeyId", decrypted->key.arn},
                                          {"Plaintext", common::Base64Encode(decrypted->plaintext)},
                                          {"EncryptionAlgorithm", "SYMMETRIC_DEFAULT"}});
  Wipe(decrypted->plaintext);
  return response;
}

Result<http::Response> GenerateDataKeyCommon(const Call& call, bool with_plaintext) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  ST_ASSIGN_OR_RETURN(EncryptionContext context, ReadContext(call.body, "EncryptionContext"));
  ST_ASSIGN_OR_RETURN(std::optional<std::string> spec,
                      json_fields::OptionalString(call.body, "KeySpec", kWording));
  ST_ASSIGN_OR_RETURN(std::optional<int64_t> number,
                      json_fields::OptionalInt(call.body, "NumberOfBytes", kWording, 1, 1024));
  if (spec.has_value() == number.has_value()) {
    return Fail(call,
                {KmsErrorCode::kValidation, "Please specify either number of bytes or key spec."});
  }
  size_t bytes = 0;
  if (spec.has_value()) {
    if (*spec == "AES_256") {
      bytes = 32;
    } else if (*spec == "AES_128") {
      bytes = 16;
    } else {
      return Fail(call, {KmsErrorCode::kValidation, "KeySpec must be AES_256 or AES_128"});
    }
  } else {
    bytes = static_cast<size_t>(*number);
  }
  KMS_OR_FAIL(data_key, call.deps.keys.GenerateDataKey(*key, bytes, context, with_plaintext));
  nlohmann::json out = {{"CiphertextBlob", common::Base64Encode(data_key->ciphertext_blob)},
                        {"KeyId", key->arn}};
  if (with_plaintext) out["Plaintext"] = common::Base64Encode(data_key->plaintext);
  Wipe(data_key->plaintext);
  return JsonResponse(out);
}

Result<http::Response> GenerateDataKey(const Call& call) {
  return GenerateDataKeyCommon(call, true);
}
Result<http::Response> GenerateDataKeyWithoutPlaintext(const Call& call) {
  return GenerateDataKeyCommon(call, false);
}

Result<http::Response> ReEncrypt(const Call& call) {
  ST_ASSIGN_OR_RETURN(std::string blob, ReadBlob(call.body, "CiphertextBlob", kMaxEncodedBlob));
  ST_ASSIGN_OR_RETURN(EncryptionContext source_context,
                      ReadContext(call.body, "SourceEncryptionContext"));
  ST_ASSIGN_OR_RETURN(EncryptionContext destination_context,
                      ReadContext(call.body, "DestinationEncryptionContext"));
  KMS_OR_FAIL(source_algorithm, CheckAlgorithm(call, "SourceEncryptionAlgorithm"));
  KMS_OR_FAIL(destination_algorithm, CheckAlgorithm(call, "DestinationEncryptionAlgorithm"));
  KMS_OR_FAIL(expected, OptionalNamedKey(call, "SourceKeyId"));
  KMS_KEY_OR_FAIL(destination, NamedKey(call, "DestinationKeyId"));
  // The router authorized kms:ReEncryptFrom on the source key; the
  // destination needs kms:ReEncryptTo.
  auth::AccessRequest access{"kms:ReEncryptTo", destination->arn, {}};
  access.condition_keys["kms:CallerAccount"] = {call.account_id};
  AddEncryptionContextKeys(destination_context, access);
  ST_ASSIGN_OR_RETURN(auth::AuthDecision decision,
                      call.deps.authorizer.Authorize(http::CallContextOf(call.context->request),
                                                     call.context->principal, access));
  if (!decision.allowed) return Fail(call, {KmsErrorCode::kAccessDenied, decision.message});
  KMS_OR_FAIL(decrypted, call.deps.keys.Decrypt(call.account_id, blob, source_context, *expected));
  KMS_OR_FAIL(sealed,
              call.deps.keys.Encrypt(*destination, decrypted->plaintext, destination_context));
  Wipe(decrypted->plaintext);
  return JsonResponse({{"CiphertextBlob", common::Base64Encode(*sealed)},
                       {"SourceKeyId", decrypted->key.arn},
                       {"KeyId", destination->arn},
                       {"SourceEncryptionAlgorithm", "SYMMETRIC_DEFAULT"},
                       {"DestinationEncryptionAlgorithm", "SYMMETRIC_DEFAULT"}});
}

Result<http::Response> EnableKey(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  KMS_OR_FAIL(updated, call.deps.keys.SetEnabled(*key, true));
  return JsonResponse(nlohmann::json::object());
}

Result<http::Response> DisableKey(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  KMS_OR_FAIL(updated, call.deps.keys.SetEnabled(*key, false));
  return JsonResponse(nlohmann::json::object());
}

Result<http::Response> ScheduleKeyDeletion(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  ST_ASSIGN_OR_RETURN(std::optional<int64_t> days,
                      json_fields::OptionalInt(call.body, "PendingWindowInDays", kWording, 1, 365));
  KMS_OR_FAIL(updated, call.deps.keys.ScheduleDeletion(*key, static_cast<int>(days.value_or(30))));
  return JsonResponse({{"KeyId", updated->arn},
                       {"DeletionDate", Seconds(updated->deletion_ms)},
                       {"KeyState", "PendingDeletion"},
                       {"PendingWindowInDays", updated->pending_window_days}});
}

Result<http::Response> CancelKeyDeletion(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  KMS_OR_FAIL(updated, call.deps.keys.CancelDeletion(*key));
  return JsonResponse({{"KeyId", updated->arn}});
}

Result<http::Response> EnableKeyRotation(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  ST_ASSIGN_OR_RETURN(std::optional<int64_t> period,
                      json_fields::OptionalInt(call.body, "RotationPeriodInDays", kWording));
  std::optional<int> days;
  if (period.has_value()) {
    days = static_cast<int>(std::clamp<int64_t>(*period, 0, 100000));
  }
  KMS_OR_FAIL(updated, call.deps.keys.SetRotation(*key, true, days));
  return JsonResponse(nlohmann::json::object());
}

Result<http::Response> DisableKeyRotation(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  KMS_OR_FAIL(updated, call.deps.keys.SetRotation(*key, false, std::nullopt));
  return JsonResponse(nlohmann::json::object());
}

Result<http::Response> GetKeyRotationStatus(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  nlohmann::json out = {{"KeyRotationEnabled", key->rotation_enabled}, {"KeyId", key->arn}};
  if (key->rotation_enabled) {
    out["RotationPeriodInDays"] = key->rotation_period_days;
    out["NextRotationDate"] =
        Seconds(key->last_rotation_ms + int64_t{key->rotation_period_days} * 86400000LL);
  }
  return JsonResponse(out);
}

Result<http::Response> RotateKeyOnDemand(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  KMS_OR_FAIL(updated, call.deps.keys.Rotate(*key));
  return JsonResponse({{"KeyId", updated->arn}});
}

KmsResult<bool> CheckPolicyName(const Call& call) {
  Result<std::optional<std::string>> name =
      json_fields::OptionalString(call.body, "PolicyName", kWording);
  if (!name.has_value()) return KmsErr(KmsErrorCode::kValidation, name.error().message());
  if (name->has_value() && **name != "default") {
    return KmsErr(KmsErrorCode::kNotFound, "A key has one policy, named \"default\"");
  }
  return true;
}

Result<http::Response> GetKeyPolicy(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  KMS_OR_FAIL(name, CheckPolicyName(call));
  return JsonResponse({{"Policy", key->policy}, {"PolicyName", "default"}});
}

Result<http::Response> PutKeyPolicy(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  KMS_OR_FAIL(name, CheckPolicyName(call));
  ST_ASSIGN_OR_RETURN(std::string policy,
                      json_fields::RequiredString(call.body, "Policy", kWording));
  KMS_OR_FAIL(updated, call.deps.keys.PutPolicy(*key, policy));
  return JsonResponse(nlohmann::json::object());
}

Result<http::Response> ListKeyPolicies(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  return JsonResponse({{"PolicyNames", nlohmann::json::array({"default"})}, {"Truncated", false}});
}

Result<http::Response> TagResource(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  ST_ASSIGN_OR_RETURN(auto tags, ReadTags(call.body));
  KMS_OR_FAIL(updated, call.deps.keys.Tag(*key, tags));
  return JsonResponse(nlohmann::json::object());
}

Result<http::Response> UntagResource(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  ST_ASSIGN_OR_RETURN(std::vector<std::string> keys,
                      json_fields::RequiredStringArray(call.body, "TagKeys", kWording));
  KMS_OR_FAIL(updated, call.deps.keys.Untag(*key, keys));
  return JsonResponse(nlohmann::json::object());
}

Result<http::Response> ListResourceTags(const Call& call) {
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "KeyId"));
  return JsonResponse({{"Tags", TagList(key->tags)}, {"Truncated", false}});
}

Result<http::Response> CreateAlias(const Call& call) {
  ST_ASSIGN_OR_RETURN(std::string name,
                      json_fields::RequiredString(call.body, "AliasName", kWording));
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "TargetKeyId"));
  KMS_OR_FAIL(alias, call.deps.keys.CreateAlias(call.account_id, name, *key));
  return JsonResponse(nlohmann::json::object());
}

Result<http::Response> UpdateAlias(const Call& call) {
  ST_ASSIGN_OR_RETURN(std::string name,
                      json_fields::RequiredString(call.body, "AliasName", kWording));
  KMS_KEY_OR_FAIL(key, AuthorizedKey(call, "TargetKeyId"));
  KMS_OR_FAIL(alias, call.deps.keys.UpdateAlias(call.account_id, name, *key));
  return JsonResponse(nlohmann::json::object());
}

Result<http::Response> DeleteAlias(const Call& call) {
  ST_ASSIGN_OR_RETURN(std::string name,
                      json_fields::RequiredString(call.body, "AliasName", kWording));
  KMS_OR_FAIL(valid, ValidateAliasName(name));
  KMS_OR_FAIL(deleted, call.deps.keys.DeleteAlias(call.account_id, name));
  return JsonResponse(nlohmann::json::object());
}

Result<http::Response> ListAliases(const Call& call) {
  KMS_OR_FAIL(aliases, call.deps.keys.ListAliases(call.account_id));
  KMS_OR_FAIL(key, OptionalNamedKey(call, "KeyId"));
  std::vector<KmsAlias> selected;
  for (KmsAlias& alias : *aliases) {
    if (!key->has_value() || alias.key_id == (*key)->key_id) selected.push_back(std::move(alias));
  }
  ST_ASSIGN_OR_RETURN(Page page, ReadPage(call.body, selected.size()));
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = page.begin; i < page.end; ++i) {
    const KmsAlias& alias = selected[i];
    list.push_back({{"AliasName", alias.alias_name},
                    {"AliasArn", call.deps.keys.AliasArn(alias.account_id, alias.alias_name)},
                    {"TargetKeyId", alias.key_id},
                    {"CreationDate", Seconds(alias.created_ms)},
                    {"LastUpdatedDate", Seconds(alias.updated_ms)}});
  }
  nlohmann::json out = {{"Aliases", list}, {"Truncated", page.truncated}};
  if (page.truncated) out["NextMarker"] = std::to_string(page.end);
  return JsonResponse(out);
}

#undef KMS_KEY_OR_FAIL
#undef KMS_OR_FAIL

const Operation* FindOperation(std::string_view name) {
  static const Operation kOperations[] = {
      {"CreateKey", KeyArg::kNone, "", CreateKey},
      {"DescribeKey", KeyArg::kKeyId, "", DescribeKey},
      {"ListKeys", KeyArg::kNone, "", ListKeys},
      {"Encrypt", KeyArg::kKeyId, "EncryptionContext", Encrypt},
      {"Decrypt", KeyArg::kBlob, "EncryptionContext", Decrypt},
      {"GenerateDataKey", KeyArg::kKeyId, "EncryptionContext", GenerateDataKey},
      {"GenerateDataKeyWithoutPlaintext", KeyArg::kKeyId, "EncryptionContext",
       GenerateDataKeyWithoutPlaintext},
      {"ReEncrypt", KeyArg::kBlob, "SourceEncryptionContext", ReEncrypt},
      {"EnableKey", KeyArg::kKeyId, "", EnableKey},
      {"DisableKey", KeyArg::kKeyId, "", DisableKey},
      {"ScheduleKeyDeletion", KeyArg::kKeyId, "", ScheduleKeyDeletion},
      {"CancelKeyDeletion", KeyArg::kKeyId, "", CancelKeyDeletion},
      {"EnableKeyRotation", KeyArg::kKeyId, "", EnableKeyRotation},
      {"DisableKeyRotation", KeyArg::kKeyId, "", DisableKeyRotation},
      {"GetKeyRotationStatus", KeyArg::kKeyId, "", GetKeyRotationStatus},
      {"RotateKeyOnDemand", KeyArg::kKeyId, "", RotateKeyOnDemand},
      {"GetKeyPolicy", KeyArg::kKeyId, "", GetKeyPolicy},
      {"PutKeyPolicy", KeyArg::kKeyId, "", PutKeyPolicy},
      {"ListKeyPolicies", KeyArg::kKeyId, "", ListKeyPolicies},
      {"TagResource", KeyArg::kKeyId, "", TagResource},
      {"UntagResource", KeyArg::kKeyId, "", UntagResource},
      {"ListResourceTags", KeyArg::kKeyId, "", ListResourceTags},
      {"CreateAlias", KeyArg::kTargetKeyId, "", CreateAlias},
      {"UpdateAlias", KeyArg::kTargetKeyId, "", UpdateAlias},
      {"DeleteAlias", KeyArg::kAliasName, "", DeleteAlias},
      {"ListAliases", KeyArg::kOptionalKey, "", ListAliases},
  };
  for (const Operation& operation : kOperations) {
    if (operation.name == name) return &operation;
  }
  return nullptr;
}

Result<const Operation*> TargetOperation(const http::Request& request) {
  std::optional<std::string_view> target = request.headers.Get("X-Amz-Target");
  if (!target.has_value() || target->substr(0, kTargetPrefix.size()) != kTargetPrefix) {
    return Err(Status(StatusCode::kUnsupported,
                      "the X-Amz-Target header must be TrentService.<Operation>"));
  }
  std::string_view name = target->substr(kTargetPrefix.size());
  const Operation* operation = FindOperation(name);
  if (operation == nullptr) {
    return Err(Status(StatusCode::kUnsupported, "operation " + std::string(name.substr(0, 64)) +
                                                    " is not supported by this KMS endpoint"));
  }
  return operation;
}

bool CrossAccountOperation(std::string_view name) {
  for (std::string_view allowed :
       {"DescribeKey", "Encrypt", "Decrypt", "ReEncrypt", "GenerateDataKey",
        "GenerateDataKeyWithoutPlaintext", "GetKeyRotationStatus"}) {
    if (name == allowed) return true;
  }
  return false;
}

// The ARN the operation is authorized on.
Result<std::string> ResourceOf(const Operation& operation, const Call& call) {
  auto key_arn = [&](std::string_view member) -> Result<std::string> {
    KmsResult<KmsKey> key = NamedKey(call, member);
    if (!key.has_value()) return Err(ToStatus(key.error()));
    // As AWS KMS: another account's principals may use a key (cryptography,
    // DescribeKey, GetKeyRotationStatus) but never manage it, whatever the
    // key policy says.
    if (key->account_id != call.account_id && !CrossAccountOperation(operation.name)) {
      return Err(NotFound("Key '" + key->arn + "' does not exist"));
    }
    return key->arn;
  };
  switch (operation.key_arg) {
    case KeyArg::kNone:
      return std::string("*");
    case KeyArg::kKeyId:
      return key_arn("KeyId");
    case KeyArg::kTargetKeyId:
      return key_arn("TargetKeyId");
    case KeyArg::kOptionalKey: {
      if (json_fields::FindMember(call.body, "KeyId") == nullptr) return std::string("*");
      return key_arn("KeyId");
    }
    case KeyArg::kAliasName: {
      ST_ASSIGN_OR_RETURN(std::string name,
                          json_fields::RequiredString(call.body, "AliasName", kWording));
      KmsResult<bool> valid = ValidateAliasName(name);
      if (!valid.has_value()) return Err(ToStatus(valid.error()));
      KmsResult<KmsKey> key = call.deps.keys.ResolveKey(call.account_id, name);
      if (!key.has_value()) return Err(ToStatus(key.error()));
      return key->arn;
    }
    case KeyArg::kBlob: {
      ST_ASSIGN_OR_RETURN(std::string blob, ReadBlob(call.body, "CiphertextBlob", kMaxEncodedBlob));
      KmsResult<KmsKey> key = call.deps.keys.KeyOfBlob(call.account_id, blob);
      if (!key.has_value()) return Err(ToStatus(key.error()));
      return key->arn;
    }
  }
  return std::string("*");
}

}  // namespace

void AddEncryptionContextKeys(const EncryptionContext& context, auth::AccessRequest& access) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : context) {
    access.condition_keys["kms:EncryptionContext:" + k] = {v};
    keys.push_back(k);
  }
  if (!keys.empty()) access.condition_keys["kms:EncryptionContextKeys"] = std::move(keys);
}

http::Surface MakeKmsSurface(const KmsDeps& deps_in) {
  auto deps = std::make_shared<const KmsDeps>(deps_in);
  http::AccessResolver resolve = [deps](const http::Request& request, const http::PathParams&,
                                        auth::AccessRequest& access) -> Status {
    ST_ASSIGN_OR_RETURN(const Operation* operation, TargetOperation(request));
    access.action = "kms:" + std::string(operation->name);
    if (operation->name == "ReEncrypt") access.action = "kms:ReEncryptFrom";
    ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseBody(request));
    // The router has authenticated the caller and recorded its ARN.
    std::string account_id = auth::ArnAccount(request.principal_arn);
    Call call{*deps, body, account_id, nullptr};
    ST_ASSIGN_OR_RETURN(access.resource, ResourceOf(*operation, call));
    access.condition_keys["kms:CallerAccount"] = {account_id};
    if (!operation->context_member.empty()) {
      ST_ASSIGN_OR_RETURN(EncryptionContext context, ReadContext(body, operation->context_member));
      AddEncryptionContextKeys(context, access);
    }
    return Status::OK();
  };
  http::RouteHandler handler = [deps](http::RouteContext& context) -> Result<http::Response> {
    ST_ASSIGN_OR_RETURN(const Operation* operation, TargetOperation(context.request));
    context.request.operation = std::string(operation->name);
    ST_ASSIGN_OR_RETURN(nlohmann::json body, ParseBody(context.request));
    return operation->handler(Call{*deps, body, context.principal.account_id, &context});
  };
  std::vector<http::Route> routes;
  routes.push_back(
      http::Route{"POST", "/", {}, "TrentService", http::Requires("kms:*", resolve), handler});
  return http::Surface{"kms", "/kms", std::make_shared<KmsErrorWriter>(), std::move(routes)};
}

}  // namespace st::kms
