#include <charconv>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "api/admin/admin_operations_internal.h"
#include "catalog/arns.h"
#include "common/json_fields.h"
#include "common/json_nesting.h"

namespace st::api::admin {

namespace {

bool IsTwelveDigits(std::string_view s) {
  return s.size() == 12 && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// One message for a member that is missing, not a string or empty.
std::string AdminWording(const json_fields::FieldProblem& problem, std::string_view) {
  return "The member '" + problem.member + "' is required and must be a non-empty string.";
}

}  // namespace

std::string Iso8601(catalog::TimePoint t) {
  auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(millis / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buffer[40];
  size_t n = std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buffer + n, sizeof(buffer) - n, ".%03dZ", static_cast<int>(millis % 1000));
  return buffer;
}

std::string KindWord(catalog::IdentityKind kind) {
  return kind == catalog::IdentityKind::kUser ? "User" : "Role";
}

Result<std::string> TargetAccount(const http::Request& request, const AdminDeps& deps) {
  std::optional<std::string_view> account = request.query().Get("accountId");
  if (!account.has_value()) return deps.operator_account_id;
  if (!IsTwelveDigits(*account)) {
    return Err(
        InvalidArgument("accountId '" + std::string(*account) + "' must be exactly 12 digits."));
  }
  return std::string(*account);
}

Result<std::string> TargetIdentityArn(const http::Request& request, const http::PathParams& params,
                                      catalog::IdentityKind kind, const AdminDeps& deps) {
  ST_ASSIGN_OR_RETURN(std::string account, TargetAccount(request, deps));
  const std::string& name = params.Get("name");
  return kind == catalog::IdentityKind::kUser ? catalog::IamUserArn(account, name)
                                              : catalog::IamRoleArn(account, name);
}

Result<nlohmann::json> JsonObjectBody(const http::Request& request) {
  ST_TRY(CheckJsonNesting(request.body, "The request body"));
  nlohmann::json body = nlohmann::json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) {
    return Err(InvalidArgument("The request body is not valid JSON; send a JSON object."));
  }
  if (!body.is_object()) return Err(InvalidArgument("The request body must be a JSON object."));
  return body;
}

Result<std::string> RequiredString(const nlohmann::json& body, const char* member) {
  return json_fields::RequiredNonEmptyString(body, member, {&AdminWording, {}});
}

Result<catalog::PageRequest> PageFromQuery(const http::Request& request) {
  catalog::PageRequest page;
  if (auto token = request.query().Get("continuationToken")) {
    if (token->empty() || token->size() > 2048) {
      return Err(InvalidArgument("The continuationToken must have 1 to 2048 characters."));
    }
    page.continuation_token = std::string(*token);
  }
  if (auto limit = request.query().Get("maxResults")) {
    int value = 0;
    auto [end, error] = std::from_chars(limit->data(), limit->data() + limit->size(), value);
    if (error != std::errc() || end != limit->data() + limit->size() || value < 1 ||
        value > catalog::kMaxPageSize) {
      return Err(InvalidArgument("The parameter maxResults must be an integer from 1 to " +
                                 std::to_string(catalog::kMaxPageSize) + ", not '" +
                                 std::string(*limit) + "'."));
    }
    page.limit = value;
  }
  return page;
}

nlohmann::json AccountJson(const catalog::Account& account) {
  return {{"accountId", account.account_id},
          {"createdAt", Iso8601(account.created_at)},
          {"userCount", account.user_count},
          {"roleCount", account.role_count},
          {"tableBucketCount", account.table_bucket_count}};
}

nlohmann::json IdentityJson(const catalog::Identity& identity) {
  return {{"type", identity.kind == catalog::IdentityKind::kUser ? "user" : "role"},
          {"accountId", identity.account_id},
          {"name", identity.name},
          {"arn", identity.arn},
          {"createdAt", Iso8601(identity.created_at)}};
}

nlohmann::json AccessKeyJson(const catalog::AccessKey& key, bool with_secret) {
  nlohmann::json out = {
      {"accessKeyId", key.access_key_id},
      {"ownerArn", key.owner_arn},
      {"status", key.status == catalog::AccessKeyStatus::kActive ? "Active" : "Inactive"},
      {"createdAt", Iso8601(key.created_at)}};
  if (with_secret) out["secretAccessKey"] = key.secret_access_key;
  return out;
}

http::Response JsonReply(int status, const nlohmann::json& body) {
  return http::Response::Json(status, body.dump());
}

}  // namespace st::api::admin
