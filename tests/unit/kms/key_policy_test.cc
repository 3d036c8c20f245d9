// How an IAM identity policy and a key policy combine, as AWS KMS does:
// the key policy must allow (naming the caller, or delegating to its
// account, whose IAM policy must then allow); explicit deny anywhere wins;
// across accounts both must allow. The evaluator's
// resource_policy_required mode, as the server's authorizer uses it for
// key ARNs, with the default key policy KeyService writes.
#include <gtest/gtest.h>

#include "auth/evaluator.h"
#include "auth/policy.h"
#include "kms/key_service.h"

namespace st::kms {
namespace {

constexpr char kOwner[] = "111122223333";
constexpr char kOtherAccount[] = "444455556666";
constexpr char kKeyArn[] =
    "arn:aws:kms:us-east-1:111122223333:key/0b8f9a2e-3c1d-4e5f-8a9b-0c1d2e3f4a5b";

auth::Principal User(const std::string& account, const std::string& name) {
  auth::Principal p;
  p.type = auth::PrincipalType::kUser;
  p.account_id = account;
  p.arn = "arn:aws:iam::" + account + ":user/" + name;
  p.username = name;
  return p;
}

auth::Policy Parse(const std::string& json, auth::PolicyKind kind) {
  auto parsed = auth::ParsePolicy(json, kind);
  EXPECT_TRUE(parsed.has_value()) << parsed.error().ToString();
  return parsed.value_or(auth::Policy{});
}

std::string Allow(const std::string& action, const std::string& condition = "") {
  return R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":")" + action +
         R"(","Resource":"*")" + (condition.empty() ? "" : ",\"Condition\":" + condition) + "}]}";
}

auth::Decision Decide(const auth::Principal& who, const std::string& action,
                      const std::optional<std::string>& identity, const std::string& key_policy,
                      const std::map<std::string, std::string>& keys = {}) {
  auth::RequestContext context = auth::MakeRequestContext(
      who, action, kKeyArn, std::chrono::system_clock::now(), "127.0.0.1", false);
  for (const auto& [k, v] : keys) context.keys.Set(k, v);
  auth::Policy identity_policy;
  auth::Policy resource_policy = Parse(key_policy, auth::PolicyKind::kResource);
  auth::EvaluationInput input;
  if (identity.has_value()) {
    identity_policy = Parse(*identity, auth::PolicyKind::kIdentity);
    input.identity_policies.push_back({&identity_policy, "identity"});
  }
  input.resource_policies.push_back({&resource_policy, "key policy", kOwner});
  input.resource_owner_account_id = kOwner;
  input.resource_policy_required = true;
  return auth::Evaluate(context, input).decision;
}

TEST(KeyPolicyTest, DefaultPolicyDelegatesToIam) {
  std::string policy = DefaultKeyPolicy(kOwner);
  auth::Principal alice = User(kOwner, "alice");
  EXPECT_EQ(Decide(alice, "kms:Decrypt", Allow("kms:Decrypt"), policy), auth::Decision::kAllow);
  EXPECT_EQ(Decide(alice, "kms:Encrypt", Allow("kms:Decrypt"), policy),
            auth::Decision::kImplicitDeny);
  EXPECT_EQ(Decide(alice, "kms:Decrypt", std::nullopt, policy), auth::Decision::kImplicitDeny);
}

TEST(KeyPolicyTest, IamAloneIsNotEnoughWithoutDelegation) {
  std::string policy = R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow",
    "Principal":{"AWS":"arn:aws:iam::111122223333:user/admin"},"Action":"kms:*","Resource":"*"}]})";
  EXPECT_EQ(Decide(User(kOwner, "alice"), "kms:Decrypt", Allow("kms:*"), policy),
            auth::Decision::kImplicitDeny);
  // The key policy alone grants the user it names, without any IAM policy.
  EXPECT_EQ(Decide(User(kOwner, "admin"), "kms:Decrypt", std::nullopt, policy),
            auth::Decision::kAllow);
}

TEST(KeyPolicyTest, ExplicitDenyWins) {
  std::string policy = R"({"Version":"2012-10-17","Statement":[
    {"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111122223333:root"},"Action":"kms:*","Resource":"*"},
    {"Effect":"Deny","Principal":"*","Action":"kms:Decrypt","Resource":"*"}]})";
  auth::Principal alice = User(kOwner, "alice");
  EXPECT_EQ(Decide(alice, "kms:Decrypt", Allow("kms:*"), policy), auth::Decision::kExplicitDeny);
  EXPECT_EQ(Decide(alice, "kms:Encrypt", Allow("kms:*"), policy), auth::Decision::kAllow);
  std::string deny_identity = R"({"Version":"2012-10-17","Statement":[
    {"Effect":"Deny","Action":"kms:*","Resource":"*"}]})";
  EXPECT_EQ(Decide(alice, "kms:Encrypt", deny_identity, DefaultKeyPolicy(kOwner)),
            auth::Decision::kExplicitDeny);
}

TEST(KeyPolicyTest, CrossAccountNeedsBoth) {
  auth::Principal bob = User(kOtherAccount, "bob");
  std::string grant_other = R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow",
    "Principal":{"AWS":"444455556666"},"Action":"kms:Decrypt","Resource":"*"}]})";
  EXPECT_EQ(Decide(bob, "kms:Decrypt", Allow("kms:Decrypt"), DefaultKeyPolicy(kOwner)),
            auth::Decision::kImplicitDeny);
  EXPECT_EQ(Decide(bob, "kms:Decrypt", std::nullopt, grant_other), auth::Decision::kImplicitDeny);
  EXPECT_EQ(Decide(bob, "kms:Decrypt", Allow("kms:Decrypt"), grant_other), auth::Decision::kAllow);
  EXPECT_TRUE(PolicyMentionsAccount(grant_other, kOtherAccount));
  EXPECT_FALSE(PolicyMentionsAccount(DefaultKeyPolicy(kOwner), kOtherAccount));
}

TEST(KeyPolicyTest, EncryptionContextAndViaServiceConditions) {
  std::string policy = DefaultKeyPolicy(kOwner);
  auth::Principal alice = User(kOwner, "alice");
  std::string identity =
      Allow("kms:Decrypt", R"({"StringEquals":{"kms:EncryptionContext:table":"orders",
        "kms:CallerAccount":"111122223333"}})");
  EXPECT_EQ(Decide(alice, "kms:Decrypt", identity, policy,
                   {{"kms:EncryptionContext:table", "orders"}, {"kms:CallerAccount", kOwner}}),
            auth::Decision::kAllow);
  EXPECT_EQ(Decide(alice, "kms:Decrypt", identity, policy,
                   {{"kms:EncryptionContext:table", "other"}, {"kms:CallerAccount", kOwner}}),
            auth::Decision::kImplicitDeny);
  // kms:ViaService: set by the S3 read path (later); a direct call has none.
  std::string via =
      Allow("kms:Decrypt", R"({"StringEquals":{"kms:ViaService":"s3.us-east-1.amazonaws.com"}})");
  EXPECT_EQ(Decide(alice, "kms:Decrypt", via, policy), auth::Decision::kImplicitDeny);
  EXPECT_EQ(
      Decide(alice, "kms:Decrypt", via, policy, {{"kms:ViaService", "s3.us-east-1.amazonaws.com"}}),
      auth::Decision::kAllow);
}

TEST(KeyPolicyTest, KeyArns) {
  auto parts = ParseKeyArn(kKeyArn);
  ASSERT_TRUE(parts.has_value());
  EXPECT_EQ(parts->account_id, kOwner);
  EXPECT_EQ(parts->key_id, "0b8f9a2e-3c1d-4e5f-8a9b-0c1d2e3f4a5b");
  EXPECT_FALSE(ParseKeyArn("arn:aws:kms:us-east-1:111122223333:alias/x").has_value());
  EXPECT_FALSE(ParseKeyArn("arn:aws:s3:::bucket").has_value());
}

}  // namespace
}  // namespace st::kms
