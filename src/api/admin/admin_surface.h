// The identity admin API (JSON, mounted at /admin on the API endpoint,
// SigV4-signed for the service s3tables like the control plane): accounts,
// IAM users and roles, their access keys and inline identity policies.
//
// Every route names an IAM action (iam:CreateUser, iam:PutUserPolicy, ...)
// on the identity's ARN (arn:aws:iam::<account>:user/<name>), so the
// bootstrap admin's `Action: *` policy allows them all and nothing else does
// unless granted. The account is the `accountId` query parameter, default the
// operator (server default) account.
//
//   POST   /admin/accounts                         {"accountId"}        iam:CreateAccount
//   GET    /admin/accounts   ?maxResults=1..1000&continuationToken      iam:ListAccounts
//   GET    /admin/accounts/{accountId}                                  iam:GetAccount
//   POST   /admin/{users|roles}                    {"name"}             iam:CreateUser|Role
//   GET    /admin/{users|roles}                                         iam:ListUsers|Roles
//   GET    /admin/{users|roles}/{name}                                  iam:GetUser|Role
//   DELETE /admin/{users|roles}/{name}                                  iam:DeleteUser|Role
//   POST   /admin/{users|roles}/{name}/access-keys                      iam:CreateAccessKey
//   GET    /admin/{users|roles}/{name}/access-keys                      iam:ListAccessKeys
//   DELETE /admin/{users|roles}/{name}/access-keys/{accessKeyId}        iam:DeleteAccessKey
//   GET    /admin/{users|roles}/{name}/policies                         iam:ListUserPolicies|Role..
//   PUT    /admin/{users|roles}/{name}/policies/{policyName} {"policyDocument"}
//   iam:PutUserPolicy|.. GET    /admin/{users|roles}/{name}/policies/{policyName}
//   iam:GetUserPolicy|.. DELETE /admin/{users|roles}/{name}/policies/{policyName}
//   iam:DeleteUserPolicy|..
//   POST   /admin/kafka-clusters  {"name","bootstrapServers","clientProperties"}
//   kafka:CreateClusterV2 GET    /admin/kafka-clusters kafka:ListClustersV2 GET
//   /admin/kafka-clusters/{cluster}   (ARN or name)              kafka:DescribeClusterV2 DELETE
//   /admin/kafka-clusters/{cluster}   (409 while channels remain) kafka:DeleteCluster Cluster
//   routes authorize on the cluster ARN (arn:aws:kafka:<region>:<account>:cluster/<name>/* for
//   create and list); clientProperties may hold only the properties listed in
//   catalog/kafka_client_properties.h, each value checked (400 naming the property otherwise;
//   secrets are masked as "****" in responses).
//
//   POST   /admin/maintenance/run ?tableArn=<table ARN>&job=<job name>
//   s3tables:PutTableMaintenanceConfiguration on the table: runs the job now
//   (catalog::ParseMaintenanceJob names) and returns the recorded run,
//   {"tableARN", "job", "status": "Successful"|"Failed", "lastRunTimestamp",
//   "failureMessage"?, "deletedDataFiles", "deletedRecords", "removedFilesSize"};
//   400 for an unknown job, 404 for
//   an unknown table, 409 ConflictException when the job is disabled.
//
// Account routes authorize on the operator account's root
// (arn:aws:iam::<operator>:root). An account is {"accountId", "createdAt",
// "userCount", "roleCount", "tableBucketCount"}; ListAccounts returns
// {"accounts": [...], "continuationToken"} ordered by id, the token only when
// more pages follow.
//
// Errors use the S3 Tables JSON shape; an invalid policy document is 400
// MalformedPolicyDocument, a duplicate 409 ConflictException, a missing
// identity 404 NotFoundException.
#pragma once

#include <functional>
#include <string>

#include "catalog/maintenance_job_store.h"
#include "catalog/metadata_store.h"
#include "http/router.h"

namespace st::api::admin {

// `store` must outlive the mounted router and be thread-safe.
struct AdminDeps {
  catalog::MetadataStore& store;
  // The server's default account: the default for `accountId`.
  std::string operator_account_id;
  // The region of registered Kafka clusters' ARNs.
  std::string region = "us-east-1";
  // Runs one maintenance job on a table now (the maintenance service's
  // RunNow, by table id); null: the route answers Unsupported.
  std::function<Result<catalog::MaintenanceJobState>(const std::string& table_id,
                                                     catalog::MaintenanceJob job)>
      run_maintenance = nullptr;
};

// The surface "admin" at prefix "/admin".
http::Surface MakeAdminSurface(const AdminDeps& deps);

}  // namespace st::api::admin
