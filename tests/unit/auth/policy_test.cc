// Data-driven policy tests: tests/unit/auth/policy_cases.json holds named
// principals, named policies, evaluation cases and malformed documents.
#include "auth/policy.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "auth/condition_internal.h"
#include "auth/evaluator.h"
#include "auth/time_format_internal.h"
#include "auth/wildcard_internal.h"

namespace st::auth {
namespace {

using Json = nlohmann::json;

Json LoadCases() {
  std::ifstream in(std::string(ST_SOURCE_DIR) + "/tests/unit/auth/policy_cases.json");
  std::stringstream text;
  text << in.rdbuf();
  Json json = Json::parse(text.str(), nullptr, false);
  EXPECT_FALSE(json.is_discarded()) << "policy_cases.json is not valid JSON";
  return json;
}

Principal PrincipalFrom(const Json& j) {
  static const std::map<std::string, PrincipalType> kTypes = {
      {"anonymous", PrincipalType::kAnonymous}, {"root", PrincipalType::kAccountRoot},
      {"user", PrincipalType::kUser},           {"assumed-role", PrincipalType::kAssumedRole},
      {"role", PrincipalType::kRole},           {"service", PrincipalType::kService}};
  Principal p;
  p.type = kTypes.at(j.at("type").get<std::string>());
  p.account_id = j.value("account", "");
  p.arn = j.value("arn", "");
  p.username = j.value("username", "");
  p.role_arn = j.value("role_arn", "");
  p.service = j.value("service", "");
  return p;
}

std::string DecisionName(Decision d) {
  switch (d) {
    case Decision::kAllow:
      return "Allow";
    case Decision::kExplicitDeny:
      return "ExplicitDeny";
    case Decision::kImplicitDeny:
      return "ImplicitDeny";
  }
  return "?";
}

class PolicyCasesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cases_ = LoadCases();
    ASSERT_TRUE(cases_.is_object());
  }
  // Parses policies on first use, as identity or resource policies.
  const Policy& Get(const std::string& name, PolicyKind kind) {
    std::string key = name + (kind == PolicyKind::kIdentity ? "#identity" : "#resource");
    auto it = parsed_.find(key);
    if (it != parsed_.end()) return it->second;
    auto policy = ParsePolicy(cases_.at("policies").at(name).dump(), kind);
    EXPECT_TRUE(policy.has_value()) << name << ": " << policy.error().ToString();
    return parsed_[key] = policy.value_or(Policy{});
  }

  Json cases_;
  std::map<std::string, Policy> parsed_;
};

TEST_F(PolicyCasesTest, EvaluationCases) {
  int checks = 0;
  for (const Json& c : cases_.at("cases")) {
    const std::string name = c.at("name");
    EvaluationInput input;
    input.resource_owner_account_id = c.at("owner");
    const Json identity = c.value("identity", Json::array());
    const Json resource = c.value("resource", Json::array());
    for (const Json& id : identity) {
      const std::string policy_name = id.get<std::string>();
      input.identity_policies.push_back({&Get(policy_name, PolicyKind::kIdentity), policy_name});
    }
    for (const Json& rp : resource) {
      const std::string policy_name = rp.at("policy");
      input.resource_policies.push_back(
          {&Get(policy_name, PolicyKind::kResource), policy_name, rp.at("owner")});
    }
    Principal principal =
        PrincipalFrom(cases_.at("principals").at(c.at("principal").get<std::string>()));
    for (const Json& check : c.at("checks")) {
      auto time = ParseIamDate(check.value("time", "2026-06-01T00:00:00Z"));
      ASSERT_TRUE(time.has_value());
      RequestContext request =
          MakeRequestContext(principal, check.at("action"), check.at("resource"), *time,
                             check.value("source_ip", ""), check.value("secure_transport", true));
      const Json keys = check.value("keys", Json::object());
      for (const auto& [key, value] : keys.items()) {
        if (value.is_array()) {
          request.keys.Set(key, value.get<std::vector<std::string>>());
        } else {
          request.keys.Set(key, value.get<std::string>());
        }
      }
      EvaluationResult result = Evaluate(request, input);
      SCOPED_TRACE(name + " | " + request.action + " on " + request.resource + " | " +
                   result.explanation);
      EXPECT_EQ(DecisionName(result.decision), check.at("expected").get<std::string>());
      EXPECT_FALSE(result.explanation.empty());
      if (check.contains("sid")) {
        ASSERT_TRUE(result.deciding.has_value());
        EXPECT_EQ(result.deciding->sid, check.at("sid").get<std::string>());
      }
      ++checks;
    }
  }
  EXPECT_GT(checks, 60);
}

TEST_F(PolicyCasesTest, MalformedPolicies) {
  for (const Json& c : cases_.at("malformed")) {
    const std::string name = c.at("name");
    std::string text = c.contains("text") ? c.at("text").get<std::string>() : c.at("policy").dump();
    PolicyKind kind = c.at("kind") == "resource" ? PolicyKind::kResource : PolicyKind::kIdentity;
    auto policy = ParsePolicy(text, kind);
    ASSERT_FALSE(policy.has_value()) << name << " parsed";
    EXPECT_EQ(policy.error().code(), StatusCode::kInvalidArgument) << name;
    EXPECT_NE(policy.error().message().find("MalformedPolicyDocument: "), std::string::npos)
        << name;
    EXPECT_NE(policy.error().message().find(c.at("error_contains").get<std::string>()),
              std::string::npos)
        << name << ": " << policy.error().message();
  }
}

TEST_F(PolicyCasesTest, PublicPolicies) {
  for (const Json& c : cases_.at("public")) {
    const std::string name = c.at("name");
    auto policy = ParsePolicy(c.at("policy").dump(), PolicyKind::kResource);
    ASSERT_TRUE(policy.has_value()) << name << ": " << policy.error().ToString();
    std::optional<std::string> reason = PublicAccessReason(*policy);
    EXPECT_EQ(reason.has_value(), c.at("public").get<bool>())
        << name << ": " << reason.value_or("");
    if (reason) {
      EXPECT_NE(reason->find("Statement[0]"), std::string::npos) << *reason;
    }
  }
}

TEST(PolicyParse, DuplicateKeysAreRefusedNotLastWins) {
  // nlohmann alone would read this as Allow.
  auto policy =
      ParsePolicy(R"({"Statement":{"Effect":"Deny","Effect":"Allow","Action":"*","Resource":"*"}})",
                  PolicyKind::kIdentity);
  ASSERT_FALSE(policy.has_value());
  EXPECT_EQ(policy.error().message(),
            "MalformedPolicyDocument: duplicate key \"Effect\" in Statement; each element may "
            "appear only once");
  // Equal values in different objects are fine.
  EXPECT_TRUE(ParsePolicy(R"({"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"},)"
                          R"({"Effect":"Allow","Action":"*","Resource":"*"}]})",
                          PolicyKind::kIdentity)
                  .has_value());
}

TEST(PolicyParse, CidrPrefixOutsideIntRangeIsMalformedNotUndefined) {
  // Found by the policy fuzzer: the prefix was cast to int before its range
  // was checked (UBSan: 8.11112e+12 is outside the range of int).
  for (const char* value : {"10.0.0.0/8111122223333", "10.0.0.0/-1", "10.0.0.0/1e300",
                            "10.0.0.0/nan", "10.0.0.0/33", "::1/129", "10.0.0.0/8.5"}) {
    EXPECT_TRUE(ValidateConditionValue(ConditionOperator::kIpAddress, value).has_value()) << value;
    EXPECT_TRUE(ValidateConditionValue(ConditionOperator::kNotIpAddress, value).has_value())
        << value;
  }
  EXPECT_FALSE(ValidateConditionValue(ConditionOperator::kIpAddress, "10.0.0.0/8").has_value());
  EXPECT_FALSE(ValidateConditionValue(ConditionOperator::kIpAddress, "::1/128").has_value());
}

TEST(PolicyParse, ModelOfProductSamplePolicyAndForms) {
  auto policy = ParsePolicy(R"({
    "Version": "2012-10-17", "Id": "p1",
    "Statement": {"Sid": "S", "Effect": "Deny",
      "NotPrincipal": {"AWS": ["111122223333", "arn:aws:iam::111122223333:role/r"], "Service": "kafka.amazonaws.com"},
      "NotAction": "s3tables:Get*", "NotResource": ["arn:aws:s3tables:us-east-1:111122223333:bucket/b"],
      "Condition": {"ForAnyValue:StringLikeIfExists": {"aws:TagKeys": ["a*", 1, true]}}}})",
                            PolicyKind::kResource);
  ASSERT_TRUE(policy.has_value()) << policy.error().ToString();
  EXPECT_EQ(policy->version, "2012-10-17");
  EXPECT_EQ(policy->id, "p1");
  ASSERT_EQ(policy->statements.size(), 1u);
  const Statement& st = policy->statements[0];
  EXPECT_EQ(st.effect, Effect::kDeny);
  EXPECT_TRUE(st.not_principal && st.not_action && st.not_resource);
  ASSERT_TRUE(st.principal.has_value());
  EXPECT_EQ(st.principal->aws.size(), 2u);
  EXPECT_EQ(st.principal->services, std::vector<std::string>{"kafka.amazonaws.com"});
  ASSERT_EQ(st.conditions.size(), 1u);
  EXPECT_EQ(st.conditions[0].op, ConditionOperator::kStringLike);
  EXPECT_EQ(st.conditions[0].qualifier, SetQualifier::kForAnyValue);
  EXPECT_TRUE(st.conditions[0].if_exists);
  EXPECT_EQ(st.conditions[0].values, (std::vector<std::string>{"a*", "1", "true"}));

  auto legacy = ParsePolicy(R"({"Statement": []})", PolicyKind::kIdentity);
  ASSERT_TRUE(legacy.has_value());
  EXPECT_EQ(legacy->version, "2008-10-17");
}

TEST(Wildcard, GlobsAndArns) {
  EXPECT_TRUE(WildcardMatch("s3tables:Get*", "s3tables:GetTable", false));
  EXPECT_TRUE(WildcardMatch("S3TABLES:get*", "s3tables:GetTable", true));
  EXPECT_FALSE(WildcardMatch("S3TABLES:get*", "s3tables:GetTable", false));
  EXPECT_TRUE(WildcardMatch("a*b*c", "aXXbYYbc", false));
  EXPECT_FALSE(WildcardMatch("a*b*c", "aXXbYYbcd", false));
  EXPECT_TRUE(WildcardMatch("*", "", false));
  EXPECT_FALSE(WildcardMatch("?", "", false));
  EXPECT_TRUE(
      ArnMatch("arn:aws:s3tables:*:*:bucket/*", "arn:aws:s3tables:us-east-1:1:bucket/b/table/t"));
  EXPECT_FALSE(ArnMatch("arn:aws:s3tables:*:1:bucket/*", "arn:aws:s3tables:us-east-1:2:bucket/b"));
  // A '*' in one component does not swallow the next.
  EXPECT_FALSE(
      ArnMatch("arn:aws:s3tables:*:*:bucket/b", "arn:aws:s3tables:us-east-1:1:2:bucket/b"));
  EXPECT_TRUE(WildcardMatch("arn:aws:s3tables:*:*:bucket/b",
                            "arn:aws:s3tables:us-east-1:1:2:bucket/b", false));
  EXPECT_TRUE(ArnMatch("arn:aws:*:*:*:*", "arn:aws:s3tables:us-east-1:1:bucket/b"));
  EXPECT_TRUE(ArnMatch("arn:aws:s3:::bucket/a:b*", "arn:aws:s3:::bucket/a:b/c"));
}

TEST(PolicyVariables, SubstitutionDefaultsAndEscapes) {
  ConditionKeys keys;
  keys.Set("aws:username", "alice");
  keys.Set("aws:TagKeys", std::vector<std::string>{"a", "b"});
  EXPECT_EQ(SubstitutePolicyVariables("home/${AWS:UserName}/*", keys), "home/alice/*");
  EXPECT_EQ(SubstitutePolicyVariables("${s3tables:namespace, 'default'}-x", keys), "default-x");
  EXPECT_EQ(SubstitutePolicyVariables("a${*}b${?}${$}", keys), "a*b?$");
  EXPECT_EQ(SubstitutePolicyVariables("${s3tables:namespace}", keys), std::nullopt);
  EXPECT_EQ(SubstitutePolicyVariables("${aws:TagKeys}", keys), std::nullopt);  // Multi-valued.
  EXPECT_EQ(SubstitutePolicyVariables("no vars ${", keys), "no vars ${");
}

TEST(Conditions, OperatorsOnSingleValues) {
  ConditionKeys keys;
  keys.Set("aws:CurrentTime", "2026-06-01T12:00:00Z");
  keys.Set("aws:EpochTime", "1780315200");
  keys.Set("s3:max-keys", "10");
  keys.Set("aws:SecureTransport", "TRUE");
  auto holds = [&](ConditionOperator op, std::string key, std::string value,
                   SetQualifier qualifier = SetQualifier::kNone, bool if_exists = false) {
    Condition c;
    c.op = op;
    c.key = std::move(key);
    c.values = {std::move(value)};
    c.qualifier = qualifier;
    c.if_exists = if_exists;
    return EvaluateCondition(c, keys, true);
  };
  EXPECT_TRUE(holds(ConditionOperator::kDateLessThan, "aws:CurrentTime", "1780315201"));
  EXPECT_TRUE(holds(ConditionOperator::kDateEquals, "aws:EpochTime", "2026-06-01T14:00:00+02:00"));
  EXPECT_TRUE(holds(ConditionOperator::kNumericLessThanEquals, "s3:max-keys", "10"));
  EXPECT_FALSE(holds(ConditionOperator::kNumericGreaterThan, "s3:max-keys", "10.5"));
  EXPECT_TRUE(holds(ConditionOperator::kBool, "aws:SecureTransport", "true"));
  EXPECT_TRUE(holds(ConditionOperator::kNull, "aws:SourceIp", "true"));
  EXPECT_FALSE(holds(ConditionOperator::kNull, "aws:SourceIp", "false"));
  EXPECT_TRUE(holds(ConditionOperator::kStringNotEquals, "aws:SourceIp", "x"));
  EXPECT_FALSE(holds(ConditionOperator::kStringEquals, "aws:SourceIp", "x"));
  EXPECT_TRUE(
      holds(ConditionOperator::kStringEquals, "aws:SourceIp", "x", SetQualifier::kNone, true));
  EXPECT_TRUE(
      holds(ConditionOperator::kStringEquals, "aws:SourceIp", "x", SetQualifier::kForAllValues));
  EXPECT_FALSE(
      holds(ConditionOperator::kStringEquals, "aws:SourceIp", "x", SetQualifier::kForAnyValue));
}

}  // namespace
}  // namespace st::auth
