// Channel operations (MSK cluster operations) in the SQLite store: one row per
// create, update or delete, kept after it ends so DescribeClusterOperationV2
// can report how it finished, as MSK's docs tell callers to poll it.
#include "catalog/sql_metadata_store_internal.h"

namespace st::catalog::sqlstore {

namespace {

constexpr int64_t kEndedOperationRetentionMs = 30LL * 24 * 60 * 60 * 1000;
constexpr int64_t kOperationPruneIntervalMs = 60LL * 60 * 1000;

const char* OperationType(ChannelStatus status) {
  switch (status) {
    case ChannelStatus::kCreating:
      return "CREATE_CHANNEL";
    case ChannelStatus::kUpdating:
      return "UPDATE_CHANNEL";
    default:
      return "DELETE_CHANNEL";
  }
}

}  // namespace

Status SqlMetadataStore::StartChannelOperation(const Channel& channel) {
  if (!channel.cluster_operation_arn.has_value()) return Status::OK();
  // Ended operations older than the retention go as new ones start, so the
  // table stays as small as the recent activity. It runs in the API call's
  // transaction on whichever replica serves it, with no lease: deleting rows
  // past a cutoff is idempotent, so replicas racing on it delete the same
  // rows at most once between them. At most once per interval per process:
  // on PostgreSQL the range read puts a SERIALIZABLE read lock on the whole
  // table, so pruning on every operation made concurrent channel changes
  // abort one another (CI saw a DeleteChannel fail with a 503 that way).
  const int64_t now = NowMs();
  int64_t due = next_operation_prune_ms_.load(std::memory_order_relaxed);
  if (now >= due && next_operation_prune_ms_.compare_exchange_strong(
                        due, now + kOperationPruneIntervalMs, std::memory_order_relaxed)) {
    ST_ASSIGN_OR_RETURN(Statement prune, db_->Prepare("DELETE FROM channel_operations WHERE "
                                                      "end_ms IS NOT NULL AND end_ms < ?"));
    ST_TRY(prune.Bind(1, now - kEndedOperationRetentionMs).Run());
  }
  ST_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->Prepare("INSERT INTO channel_operations(arn, owner_account_id, cluster_arn, "
                   "channel_arn, operation_type, state, start_ms) VALUES (?, ?, ?, ?, ?, "
                   "'PENDING', ?)"));
  return stmt.Bind(1, *channel.cluster_operation_arn)
      .Bind(2, channel.owner_account_id)
      .Bind(3, channel.cluster_arn)
      .Bind(4, channel.arn)
      .Bind(5, std::string_view(OperationType(channel.status)))
      .Bind(6, NowMs())
      .Run();
}

Status SqlMetadataStore::EndChannelOperation(const std::string& operation_arn,
                                             const Channel& channel) {
  bool failed = channel.status == ChannelStatus::kFailed;
  std::optional<std::string> code;
  std::optional<std::string> message;
  if (failed && channel.state_info.has_value()) {
    code = channel.state_info->code;
    message = channel.state_info->message;
  }
  ST_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->Prepare("UPDATE channel_operations SET state = ?, end_ms = ?, error_code = ?, "
                   "error_message = ? WHERE arn = ? AND end_ms IS NULL"));
  return stmt.Bind(1, std::string_view(failed ? "FAILED" : "COMPLETED"))
      .Bind(2, NowMs())
      .BindOptional(3, code)
      .BindOptional(4, message)
      .Bind(5, operation_arn)
      .Run();
}

Result<ChannelOperation> SqlMetadataStore::GetChannelOperation(const std::string& operation_arn) {
  ConnectionLock lock(*this);
  ST_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->Prepare("SELECT arn, owner_account_id, cluster_arn, channel_arn, operation_type, "
                   "state, start_ms, end_ms, error_code, error_message FROM channel_operations "
                   "WHERE arn = ?"));
  ST_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, operation_arn).Step());
  if (!found) {
    return Err(NotFound("The cluster operation '" + operation_arn + "' does not exist."));
  }
  ChannelOperation out;
  out.arn = stmt.Text(0);
  out.owner_account_id = stmt.Text(1);
  out.cluster_arn = stmt.Text(2);
  out.channel_arn = stmt.Text(3);
  out.type = stmt.Text(4);
  out.state = stmt.Text(5);
  out.start_time = FromMillis(stmt.Int64(6));
  if (!stmt.IsNull(7)) out.end_time = FromMillis(stmt.Int64(7));
  std::optional<std::string> code = stmt.OptionalText(8);
  if (code.has_value()) {
    out.error = ChannelStateInfo{*code, stmt.OptionalText(9).value_or("")};
  }
  return out;
}

}  // namespace st::catalog::sqlstore
