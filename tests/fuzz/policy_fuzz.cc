// IAM policy documents from outside bytes (table bucket / table policies and
// identity policies): ParsePolicy as both kinds, then Evaluate every parsed
// policy for a few requests (same account, cross account, anonymous, a
// service; condition keys of every kind the operators read) so wildcard,
// ARN, condition and policy-variable matching see hostile patterns.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "auth/evaluator.h"
#include "auth/policy.h"

namespace {

using st::auth::Principal;
using st::auth::PrincipalType;

std::vector<st::auth::RequestContext> MakeContexts() {
  auto now = std::chrono::system_clock::time_point(std::chrono::seconds(1764547200));
  Principal alice{.type = PrincipalType::kUser,
                  .account_id = "111122223333",
                  .arn = "arn:aws:iam::111122223333:user/eng/alice",
                  .username = "alice"};
  Principal session{.type = PrincipalType::kAssumedRole,
                    .account_id = "444455556666",
                    .arn = "arn:aws:sts::444455556666:assumed-role/reader/s1",
                    .role_arn = "arn:aws:iam::444455556666:role/reader"};
  Principal service{.type = PrincipalType::kService, .service = "kafka.amazonaws.com"};
  Principal anonymous;
  const std::string table =
      "arn:aws:s3tables:us-east-1:111122223333:bucket/b/table/0e6b0f3c-3a4e-4a4d-9f7b-1d2c3e4f5a6b";
  std::vector<st::auth::RequestContext> contexts;
  contexts.push_back(
      st::auth::MakeRequestContext(alice, "s3tables:GetTableData", table, now, "10.1.2.3", false));
  contexts.push_back(st::auth::MakeRequestContext(session, "s3tables:PutTableData", table, now,
                                                  "2001:db8::1", true));
  contexts.push_back(st::auth::MakeRequestContext(
      service, "s3tables:CreateTable", "arn:aws:s3tables:us-east-1:111122223333:bucket/b", now, "",
      true));
  contexts.push_back(st::auth::MakeRequestContext(
      anonymous, "s3:GetObject", "arn:aws:s3:::b/metadata/x.json", now, "192.168.0.1", false));
  for (auto& context : contexts) {
    context.keys.Set("s3tables:namespace", "ns");
    context.keys.Set("s3tables:tableName", "orders");
    context.keys.Set("aws:ResourceTag/team", "data");
    context.keys.Set("aws:TagKeys", std::vector<std::string>{"team", "env"});
    context.keys.Set("s3tables:maxKeys", "1000");
    context.keys.Set("aws:MultiFactorAuthPresent", "true");
    context.keys.Set("s3tables:blob", "aGVsbG8=");
  }
  return contexts;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<st::auth::RequestContext> contexts = MakeContexts();
  std::string_view json(reinterpret_cast<const char*>(data), size);
  auto identity = st::auth::ParsePolicy(json, st::auth::PolicyKind::kIdentity);
  auto resource = st::auth::ParsePolicy(json, st::auth::PolicyKind::kResource);
  st::auth::EvaluationInput input;
  input.resource_owner_account_id = "111122223333";
  if (identity.has_value()) input.identity_policies.push_back({&*identity, "identity"});
  if (resource.has_value()) {
    input.resource_policies.push_back({&*resource, "table policy", "111122223333"});
  }
  if (input.identity_policies.empty() && input.resource_policies.empty()) return 0;
  for (const auto& context : contexts) (void)st::auth::Evaluate(context, input);
  return 0;
}
