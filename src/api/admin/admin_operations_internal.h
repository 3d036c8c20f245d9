// Handlers of the admin route table and what they share.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "api/admin/admin_surface.h"
#include "catalog/pagination.h"
#include "catalog/records.h"
#include "http/router.h"

namespace st::api::admin {

using DepsPtr = std::shared_ptr<const AdminDeps>;
using Reply = Result<http::Response>;

std::string KindWord(catalog::IdentityKind kind);  // "User" / "Role"
// "2026-12-03T17:04:05.123Z" (UTC, milliseconds), the admin API's timestamps.
std::string Iso8601(catalog::TimePoint t);

// ?accountId, default the operator account. Errors: InvalidArgument unless 12 digits.
Result<std::string> TargetAccount(const http::Request& request, const AdminDeps& deps);
// The ARN of the identity a route names ({name} under users/ or roles/).
Result<std::string> TargetIdentityArn(const http::Request& request, const http::PathParams& params,
                                      catalog::IdentityKind kind, const AdminDeps& deps);

// The body as a JSON object. Errors: InvalidArgument naming the problem.
Result<nlohmann::json> JsonObjectBody(const http::Request& request);
// A required string member. Errors: InvalidArgument naming the member.
Result<std::string> RequiredString(const nlohmann::json& body, const char* member);

// ?maxResults (1..1000, default 1000) and ?continuationToken. Errors:
// InvalidArgument naming the parameter and the allowed range.
Result<catalog::PageRequest> PageFromQuery(const http::Request& request);

nlohmann::json AccountJson(const catalog::Account& account);
nlohmann::json IdentityJson(const catalog::Identity& identity);
nlohmann::json AccessKeyJson(const catalog::AccessKey& key, bool with_secret);
http::Response JsonReply(int status, const nlohmann::json& body);

Reply CreateAccount(const AdminDeps& deps, http::RouteContext& context);
Reply GetAccount(const AdminDeps& deps, http::RouteContext& context);
Reply ListAccounts(const AdminDeps& deps, http::RouteContext& context);
Reply CreateIdentity(const AdminDeps& deps, catalog::IdentityKind kind,
                     http::RouteContext& context);
Reply ListIdentities(const AdminDeps& deps, catalog::IdentityKind kind,
                     http::RouteContext& context);
Reply GetIdentity(const AdminDeps& deps, catalog::IdentityKind kind, http::RouteContext& context);
Reply DeleteIdentity(const AdminDeps& deps, catalog::IdentityKind kind,
                     http::RouteContext& context);
Reply CreateAccessKey(const AdminDeps& deps, catalog::IdentityKind kind,
                      http::RouteContext& context);
Reply ListAccessKeys(const AdminDeps& deps, catalog::IdentityKind kind,
                     http::RouteContext& context);
Reply DeleteAccessKey(const AdminDeps& deps, catalog::IdentityKind kind,
                      http::RouteContext& context);
Reply ListPolicies(const AdminDeps& deps, catalog::IdentityKind kind, http::RouteContext& context);
Reply PutPolicy(const AdminDeps& deps, catalog::IdentityKind kind, http::RouteContext& context);
Reply GetPolicy(const AdminDeps& deps, catalog::IdentityKind kind, http::RouteContext& context);
Reply DeletePolicy(const AdminDeps& deps, catalog::IdentityKind kind, http::RouteContext& context);

// Kafka clusters (cluster_operations.cc). {cluster} is a cluster ARN or a
// name registered in ?accountId.
Result<std::string> TargetClusterArn(const http::Request& request, const http::PathParams& params,
                                     const AdminDeps& deps);
Reply RegisterKafkaCluster(const AdminDeps& deps, http::RouteContext& context);
Reply ListKafkaClusters(const AdminDeps& deps, http::RouteContext& context);
Reply GetKafkaCluster(const AdminDeps& deps, http::RouteContext& context);
Reply DeleteKafkaCluster(const AdminDeps& deps, http::RouteContext& context);

// Maintenance (maintenance_operations.cc).
Reply RunMaintenanceJob(const AdminDeps& deps, http::RouteContext& context);

}  // namespace st::api::admin
