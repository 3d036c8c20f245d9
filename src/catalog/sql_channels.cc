// Delivery channels in the SQLite store. Every change bumps `generation` so
// the delivery runtime notices it; status changes may be compare-and-swap.
#include "catalog/arns.h"
#include "catalog/id_generation.h"
#include "catalog/names.h"
#include "catalog/page_token_internal.h"
#include "catalog/sql_metadata_store_internal.h"

namespace st::catalog::sqlstore {

namespace {

constexpr const char* kChannelColumns =
    "arn, channel_id, name, cluster_arn, owner_account_id, topic_name, status, state_code, "
    "state_message, cluster_operation_arn, configuration_json, paused, table_id, generation, "
    "created_at_ms, updated_at_ms";

ChannelStatus StatusFromName(const std::string& name) {
  for (ChannelStatus status :
       {ChannelStatus::kCreating, ChannelStatus::kActive, ChannelStatus::kUpdating,
        ChannelStatus::kDeleting, ChannelStatus::kFailed, ChannelStatus::kSuspending,
        ChannelStatus::kSuspended}) {
    if (name == ChannelStatusName(status)) return status;
  }
  return ChannelStatus::kFailed;
}

// MSK returns the cluster operation only while one is in flight.
bool HasOperation(ChannelStatus status) {
  return status == ChannelStatus::kCreating || status == ChannelStatus::kUpdating ||
         status == ChannelStatus::kDeleting;
}

Channel ReadChannel(const Statement& stmt) {
  Channel out;
  out.arn = stmt.Text(0);
  out.channel_id = stmt.Text(1);
  out.name = stmt.Text(2);
  out.cluster_arn = stmt.Text(3);
  out.owner_account_id = stmt.Text(4);
  out.topic_name = stmt.Text(5);
  out.status = StatusFromName(stmt.Text(6));
  std::optional<std::string> code = stmt.OptionalText(7);
  if (code.has_value()) out.state_info = ChannelStateInfo{*code, stmt.Text(8)};
  out.cluster_operation_arn = stmt.OptionalText(9);
  out.configuration_json = stmt.Text(10);
  out.paused = stmt.Int64(11) != 0;
  out.table_id = stmt.OptionalText(12).value_or("");
  out.generation = stmt.Int64(13);
  out.created_at = FromMillis(stmt.Int64(14));
  out.updated_at = FromMillis(stmt.Int64(15));
  return out;
}

Status ChannelNotFound() { return NotFound("The specified channel does not exist."); }

Result<KafkaClusterArnParts> ClusterParts(const std::string& cluster_arn) {
  return ParseKafkaClusterArn(cluster_arn);
}

}  // namespace

Result<Channel> SqlMetadataStore::LoadChannel(const std::string& channel_arn) {
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(std::string("SELECT ") + kChannelColumns +
                                                   " FROM channels WHERE arn = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, channel_arn).Step());
  if (!found) {
    ST_TRY(ParseKafkaChannelArn(channel_arn));  // A malformed ARN is the better message.
    return Err(ChannelNotFound());
  }
  return ReadChannel(stmt);
}

Result<Channel> SqlMetadataStore::CreateChannel(const NewChannel& channel) {
  ST_TRY(ValidateAccountId(channel.owner_account_id));
  ST_TRY(ValidateChannelName(channel.name));
  ST_TRY(ValidateKafkaTopicName(channel.topic_name));
  if (channel.configuration_json.empty()) {
    return Err(InvalidArgument("The channel '" + channel.name + "' needs a configuration."));
  }
  ST_ASSIGN_OR_RETURN(KafkaClusterArnParts cluster_parts, ClusterParts(channel.cluster_arn));
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Result<Channel> {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_ASSIGN_OR_RETURN(KafkaCluster cluster, LoadCluster(channel.cluster_arn));
    if (cluster.owner_account_id != channel.owner_account_id) {
      return Err(ClusterNotFound(channel.cluster_arn));
    }
    Channel out;
    out.channel_id = NewEntityId(random_);
    out.arn = KafkaChannelArn(cluster_parts, channel.name, out.channel_id);
    out.name = channel.name;
    out.cluster_arn = channel.cluster_arn;
    out.owner_account_id = channel.owner_account_id;
    out.topic_name = channel.topic_name;
    out.status = ChannelStatus::kCreating;
    out.cluster_operation_arn = KafkaClusterOperationArn(cluster_parts, NewEntityId(random_));
    out.configuration_json = channel.configuration_json;
    out.generation = 1;
    out.created_at = FromMillis(NowMs());
    out.updated_at = out.created_at;
    ST_ASSIGN_OR_RETURN(Statement stmt,
                        db_->Prepare(std::string("INSERT INTO channels(") + kChannelColumns +
                                     ") VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, 0, NULL, ?, "
                                     "?, ?)"));
    Status status = stmt.Bind(1, out.arn)
                        .Bind(2, out.channel_id)
                        .Bind(3, out.name)
                        .Bind(4, out.cluster_arn)
                        .Bind(5, out.owner_account_id)
                        .Bind(6, out.topic_name)
                        .Bind(7, ChannelStatusName(out.status))
                        .BindOptional(8, out.cluster_operation_arn)
                        .Bind(9, out.configuration_json)
                        .Bind(10, out.generation)
                        .Bind(11, NowMs())
                        .Bind(12, NowMs())
                        .Run();
    if (status.code() == StatusCode::kAlreadyExists) {
      return Err(AlreadyExists("A channel named '" + channel.name +
                               "' already exists in this cluster; choose another name or delete "
                               "the existing channel first."));
    }
    ST_TRY(status);
    ST_TRY(StartChannelOperation(out));
    ST_TRY(txn.Commit());
    return out;
  });
}

Result<Channel> SqlMetadataStore::GetChannel(const std::string& channel_arn) {
  ConnectionLock lock(*this);
  return LoadChannel(channel_arn);
}

Result<Page<Channel>> SqlMetadataStore::ListChannels(const std::string& cluster_arn,
                                                     const std::optional<std::string>& topic_name,
                                                     const PageRequest& page) {
  ST_TRY(ValidatePageLimit(page.limit));
  // The filter binds a token to cluster, topic filter (absent vs given) and prefix.
  std::string filter =
      cluster_arn + "\n" + (topic_name.has_value() ? "=" + *topic_name : "*") + "\n" + page.prefix;
  ST_ASSIGN_OR_RETURN(std::vector<std::string> after,
                      DecodePageToken(page.continuation_token, "channels", filter));
  if (after.size() > 1) return Err(InvalidArgument("The continuation token is not valid."));
  ConnectionLock lock(*this);
  ST_TRY(LoadCluster(cluster_arn));
  ST_ASSIGN_OR_RETURN(Statement stmt,
                      db_->Prepare(std::string("SELECT ") + kChannelColumns +
                                   " FROM channels WHERE cluster_arn = ?1 AND "
                                   "substr(name, 1, length(?2)) = ?2 AND name > ?3 AND "
                                   "(?4 = 0 OR topic_name = ?5) ORDER BY name LIMIT ?6"));
  stmt.Bind(1, cluster_arn)
      .Bind(2, page.prefix)
      .Bind(3, after.empty() ? std::string() : after[0])
      .Bind(4, static_cast<int64_t>(topic_name.has_value() ? 1 : 0))
      .Bind(5, topic_name.value_or(""))
      .Bind(6, static_cast<int64_t>(page.limit) + 1);
  ST_ASSIGN_OR_RETURN(std::vector<Channel> rows, stmt.ReadRows(ReadChannel));
  return ToPage(std::move(rows), page.limit, [&](const Channel& last) {
    return EncodePageToken("channels", filter, {last.name});
  });
}

Result<std::vector<Channel>> SqlMetadataStore::ListAllChannels() {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(std::string("SELECT ") + kChannelColumns +
                                                   " FROM channels ORDER BY arn"));
  return stmt.ReadRows(ReadChannel);
}

Result<Channel> SqlMetadataStore::UpdateChannel(const std::string& channel_arn,
                                                const ChannelChange& change) {
  if (change.configuration_json.has_value() && change.configuration_json->empty()) {
    return Err(InvalidArgument("A channel configuration cannot be empty."));
  }
  if (change.state_info.has_value() && change.state_info->has_value() &&
      (*change.state_info)->code.empty()) {
    return Err(InvalidArgument("A channel state needs a code."));
  }
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Result<Channel> {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_ASSIGN_OR_RETURN(Channel channel, LoadChannel(channel_arn));
    const std::optional<std::string> previous_operation = channel.cluster_operation_arn;
    if (change.expected_status.has_value() && *change.expected_status != channel.status) {
      return Err(Conflict(std::string("The channel is ") + ChannelStatusName(channel.status) +
                          ", not " + ChannelStatusName(*change.expected_status) +
                          "; re-read it and retry."));
    }
    if (change.status.has_value() && *change.status != channel.status) {
      channel.status = *change.status;
      if (!change.cluster_operation_arn.has_value()) {
        if (HasOperation(channel.status)) {
          ST_ASSIGN_OR_RETURN(KafkaClusterArnParts cluster, ClusterParts(channel.cluster_arn));
          channel.cluster_operation_arn = KafkaClusterOperationArn(cluster, NewEntityId(random_));
        } else {
          channel.cluster_operation_arn.reset();
        }
      }
    }
    if (change.state_info.has_value()) channel.state_info = *change.state_info;
    if (change.cluster_operation_arn.has_value()) {
      channel.cluster_operation_arn = *change.cluster_operation_arn;
    }
    if (change.configuration_json.has_value())
      channel.configuration_json = *change.configuration_json;
    if (change.paused.has_value()) channel.paused = *change.paused;
    if (change.table_id.has_value()) channel.table_id = *change.table_id;
    channel.generation += 1;
    channel.updated_at = FromMillis(NowMs());
    ST_ASSIGN_OR_RETURN(
        Statement stmt,
        db_->Prepare("UPDATE channels SET status = ?, state_code = ?, state_message = ?, "
                     "cluster_operation_arn = ?, configuration_json = ?, paused = ?, table_id = ?, "
                     "generation = ?, updated_at_ms = ? WHERE arn = ?"));
    std::optional<std::string> code;
    std::optional<std::string> message;
    if (channel.state_info.has_value()) {
      code = channel.state_info->code;
      message = channel.state_info->message;
    }
    std::optional<std::string> table_id;
    if (!channel.table_id.empty()) table_id = channel.table_id;
    ST_TRY(stmt.Bind(1, ChannelStatusName(channel.status))
               .BindOptional(2, code)
               .BindOptional(3, message)
               .BindOptional(4, channel.cluster_operation_arn)
               .Bind(5, channel.configuration_json)
               .Bind(6, static_cast<int64_t>(channel.paused ? 1 : 0))
               .BindOptional(7, table_id)
               .Bind(8, channel.generation)
               .Bind(9, NowMs())
               .Bind(10, channel_arn)
               .Run());
    if (previous_operation != channel.cluster_operation_arn) {
      if (previous_operation.has_value()) ST_TRY(EndChannelOperation(*previous_operation, channel));
      ST_TRY(StartChannelOperation(channel));
    }
    ST_TRY(txn.Commit());
    return channel;
  });
}

Status SqlMetadataStore::DeleteChannel(const std::string& channel_arn) {
  ConnectionLock lock(*this);
  return RunWrite([&]() REQUIRES(mu_) -> Status {
    Transaction txn(*db_);
    ST_TRY(txn.status());
    ST_ASSIGN_OR_RETURN(Channel channel, LoadChannel(channel_arn));
    if (channel.cluster_operation_arn.has_value()) {
      ST_TRY(EndChannelOperation(*channel.cluster_operation_arn, channel));
    }
    for (const char* sql : {"DELETE FROM tags WHERE resource_arn = ?",
                            "DELETE FROM channel_offset_starts WHERE channel_arn = ?",
                            "DELETE FROM channels WHERE arn = ?"}) {
      ST_ASSIGN_OR_RETURN(Statement stmt, db_->Prepare(sql));
      ST_TRY(stmt.Bind(1, channel_arn).Run());
    }
    return txn.Commit();
  });
}

}  // namespace st::catalog::sqlstore
