// Registered Kafka clusters in the SQLite store.
#include <nlohmann/json.hpp>

#include "catalog/arns.h"
#include "catalog/id_generation.h"
#include "catalog/names.h"
#include "catalog/sql_metadata_store_internal.h"

namespace st::catalog::sqlstore {

namespace {

constexpr const char* kClusterColumns =
    "arn, name, cluster_uuid, owner_account_id, region, bootstrap_servers, client_properties, "
    "created_at_ms";

std::string EncodeProperties(const std::map<std::string, std::string>& properties) {
  nlohmann::json doc = nlohmann::json::object();
  for (const auto& [key, value] : properties) doc[key] = value;
  return doc.dump();
}

std::map<std::string, std::string> DecodeProperties(const std::string& text) {
  std::map<std::string, std::string> out;
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return out;
  for (const auto& [key, value] : doc.items()) {
    if (value.is_string()) out[key] = value.get<std::string>();
  }
  return out;
}

KafkaCluster ReadCluster(const Statement& stmt) {
  KafkaCluster out;
  out.arn = stmt.Text(0);
  out.name = stmt.Text(1);
  out.cluster_uuid = stmt.Text(2);
  out.owner_account_id = stmt.Text(3);
  out.region = stmt.Text(4);
  out.bootstrap_servers = stmt.Text(5);
  out.client_properties = DecodeProperties(stmt.Text(6));
  out.created_at = FromMillis(stmt.Int64(7));
  return out;
}

}  // namespace

Status ClusterNotFound(const std::string& cluster_arn) {
  return NotFound("The Kafka cluster '" + cluster_arn +
                  "' does not exist; register it with `streamtables cluster register`.");
}

Result<KafkaCluster> SqlMetadataStore::LoadCluster(const std::string& cluster_arn) {
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(std::string("SELECT ") + kClusterColumns +
                                                   " FROM kafka_clusters WHERE arn = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, cluster_arn).Step());
  if (!found) {
    ST_TRY(ParseKafkaClusterArn(cluster_arn));  // A malformed ARN is the better message.
    return Err(ClusterNotFound(cluster_arn));
  }
  return ReadCluster(stmt);
}

Result<KafkaCluster> SqlMetadataStore::CreateKafkaCluster(const NewKafkaCluster& cluster) {
  ST_TRY(ValidateAccountId(cluster.owner_account_id));
  ST_TRY(ValidateKafkaClusterName(cluster.name));
  if (cluster.region.empty()) return Err(InvalidArgument("A Kafka cluster needs a region."));
  if (cluster.bootstrap_servers.empty()) {
    return Err(InvalidArgument("The Kafka cluster '" + cluster.name +
                               "' needs bootstrap servers (host:port[,host:port...])."));
  }
  ConnectionLock lock(*this);
  KafkaCluster out;
  out.name = cluster.name;
  out.cluster_uuid = NewEntityId(random_);
  out.arn = KafkaClusterArn(cluster.region, cluster.owner_account_id, out.name, out.cluster_uuid);
  out.owner_account_id = cluster.owner_account_id;
  out.region = cluster.region;
  out.bootstrap_servers = cluster.bootstrap_servers;
  out.client_properties = cluster.client_properties;
  out.created_at = FromMillis(NowMs());
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare(std::string("INSERT INTO kafka_clusters(") + kClusterColumns +
                                   ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
  Status status = stmt.Bind(1, out.arn)
                      .Bind(2, out.name)
                      .Bind(3, out.cluster_uuid)
                      .Bind(4, out.owner_account_id)
                      .Bind(5, out.region)
                      .Bind(6, out.bootstrap_servers)
                      .Bind(7, EncodeProperties(out.client_properties))
                      .Bind(8, NowMs())
                      .Run();
  if (status.code() == StatusCode::kAlreadyExists) {
    return Err(AlreadyExists("A Kafka cluster named '" + cluster.name +
                             "' is already registered in this account; choose another name."));
  }
  ST_TRY(status);
  return out;
}

Result<KafkaCluster> SqlMetadataStore::GetKafkaCluster(const std::string& cluster_arn) {
  ConnectionLock lock(*this);
  return LoadCluster(cluster_arn);
}

Result<std::vector<KafkaCluster>> SqlMetadataStore::ListKafkaClusters(
    const std::string& owner_account_id) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->Prepare(std::string("SELECT ") + kClusterColumns +
                   " FROM kafka_clusters WHERE owner_account_id = ? ORDER BY name"));
  stmt.Bind(1, owner_account_id);
  return stmt.ReadRows(ReadCluster);
}

Status SqlMetadataStore::DeleteKafkaCluster(const std::string& cluster_arn) {
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Status {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_TRY(LoadCluster(cluster_arn));
    ST_ASSIGN_OR_RETURN(Statement count,
                        db_->Prepare("SELECT count(*) FROM channels WHERE cluster_arn = ?"));
    ST_ASSIGN_OR_RETURN(bool row, count.Bind(1, cluster_arn).Step());
    if (row && count.Int64(0) > 0) {
      return Conflict("The Kafka cluster still has " + std::to_string(count.Int64(0)) +
                      " delivery channel(s); delete them first.");
    }
    ST_ASSIGN_OR_RETURN(Statement tags, db_->Prepare("DELETE FROM tags WHERE resource_arn = ?"));
    ST_TRY(tags.Bind(1, cluster_arn).Run());
    ST_ASSIGN_OR_RETURN(Statement del, db_->Prepare("DELETE FROM kafka_clusters WHERE arn = ?"));
    ST_TRY(del.Bind(1, cluster_arn).Run());
    return txn.Commit();
  });
}

}  // namespace st::catalog::sqlstore
