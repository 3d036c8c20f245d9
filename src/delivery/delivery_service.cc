#include "delivery/delivery_service.h"

#include <functional>
#include <set>
#include <thread>
#include <vector>

#include "catalog/channel_model.h"
#include "catalog/kafka_client_properties.h"
#include "common/mutex.h"
#include "delivery/channel_metrics.h"
#include "delivery/channel_worker.h"
#include "delivery/kafka_client.h"
#include "delivery/record_format.h"
#include "delivery/service_role.h"

namespace st::delivery {

using catalog::Channel;
using catalog::ChannelStateInfo;
using catalog::ChannelStatus;
using StateCode = catalog::ChannelStateCode;
using StateUpdate = catalog::FieldUpdate<ChannelStateInfo>;

// How long a channel suspended for its KMS key waits before delivery is
// tried again.
constexpr std::chrono::seconds kKmsRetry{5};

struct DeliveryService::Impl {
  Impl(Deps d, Options o)
      : deps(std::move(d)), options(o), memory(options.total_buffer_budget_bytes) {
    ctx = std::make_unique<DeliveryContext>(DeliveryContext{
        deps.store, deps.commits, deps.objects, deps.kafka, deps.record_format, deps.authorizer,
        deps.clock, deps.random, deps.key_root, deps.logger, deps.replica_id});
  }

  void Loop();
  bool Leads() const { return !deps.is_leader || deps.is_leader(); }
  void Reconcile(const Channel& channel);
  void Activate(const Channel& channel);
  void ReconcileActive(const Channel& channel);
  // CAS status change; false when the row moved meanwhile (next pass re-reads
  // it), or when this replica does not lead and is not reporting its
  // worker's fault (nothing is written).
  bool Transition(const Channel& channel, ChannelStatus from, ChannelStatus to, StateUpdate info);
  void Fail(const Channel& channel, ChannelStatus from, StateCode code, std::string message) {
    Fail(channel, from, catalog::MakeStateInfo(code, std::move(message)));
  }
  void Fail(const Channel& channel, ChannelStatus from, ChannelStateInfo info) {
    Transition(channel, from, ChannelStatus::kFailed, std::move(info));
  }
  // The channel's configuration, parsed once per stored document.
  const Result<ChannelConfig>& ConfigOf(const Channel& channel);
  void Suspend(const Channel& channel, ChannelStateInfo info) {
    if (!leading && !reporting_fault) {
      // The holder suspends it; this replica's worker stops now, not a pass later.
      StopWorker(channel.arn);
      return;
    }
    if (Transition(channel, channel.status, ChannelStatus::kSuspending, info)) {
      StopWorker(channel.arn);
      Channel suspending = channel;
      suspending.status = ChannelStatus::kSuspending;
      Transition(suspending, ChannelStatus::kSuspending, ChannelStatus::kSuspended,
                 StateUpdate::Leave());
    }
  }
  void StopWorker(const std::string& arn) {
    auto it = workers.find(arn);
    if (it == workers.end()) return;
    it->second->Stop();
    workers.erase(it);
  }
  // Fails the channel (true) when its stored cluster or role may not be used:
  // a client property forbidden since the cluster was stored, or a service
  // role of another account (a row accepted before PassRole was checked).
  bool RefuseUnsafe(const Channel& channel, const ChannelConfig& config,
                    const catalog::KafkaCluster& cluster);
  void EnsureWorker(const Channel& channel);
  std::shared_ptr<ChannelMetrics> MetricsFor(const Channel& channel, const std::string& cluster);

  Deps deps;
  Options options;
  DeliveryMemoryBudget memory;  // Before the workers, which report to it.
  std::unique_ptr<DeliveryContext> ctx;
  // Reconciler thread only.
  std::map<std::string, std::unique_ptr<ChannelWorker>> workers;
  // Whether this replica led when the current channel's reconciliation
  // began, and whether it is writing its own worker's fault (which any
  // replica may: see the header).
  bool leading = true;
  bool reporting_fault = false;
  struct ParsedConfig {
    std::string text;  // The configuration_json it was parsed from.
    Result<ChannelConfig> config;
  };
  std::map<std::string, ParsedConfig> configs;
  // Channels suspended for their table's KMS key (IsKmsFault), by when they
  // were first seen so: resumed after kKmsRetry to check the key again.
  std::map<std::string, std::chrono::system_clock::time_point> kms_suspended;

  mutable common::Mutex metrics_mu;
  std::map<std::string, std::shared_ptr<ChannelMetrics>> metrics GUARDED_BY(metrics_mu);

  common::Mutex mu;
  common::CondVar cv;  // Signalled by Stop().
  bool stop GUARDED_BY(mu) = false;
  std::function<void()> reconcile;
  // The reconciler; Start and Stop may race (a signal handler's shutdown
  // against startup), so it is taken out under mu and joined outside it
  // (Loop waits on mu).
  std::thread thread GUARDED_BY(mu);
};

const Result<ChannelConfig>& DeliveryService::Impl::ConfigOf(const Channel& channel) {
  auto it = configs.find(channel.arn);
  if (it == configs.end() || it->second.text != channel.configuration_json) {
    ParsedConfig parsed{
        channel.configuration_json,
        catalog::ParseChannelConfig(channel.configuration_json, catalog::ChannelDocument::kStored)};
    it = configs.insert_or_assign(channel.arn, std::move(parsed)).first;
  }
  return it->second.config;
}

bool DeliveryService::Impl::Transition(const Channel& channel, ChannelStatus from, ChannelStatus to,
                                       StateUpdate info) {
  if (!leading && !reporting_fault) return false;  // The lease holder makes this change.
  catalog::ChannelChange change;
  change.expected_status = from;
  change.status = to;
  change.state_info = std::move(info);
  if (to != ChannelStatus::kCreating && to != ChannelStatus::kUpdating &&
      to != ChannelStatus::kDeleting) {
    change.cluster_operation_arn = catalog::FieldUpdate<std::string>::Clear();
  }
  Result<Channel> updated = deps.store.UpdateChannel(channel.arn, change);
  if (!updated.has_value()) {
    deps.logger.Log(LogLevel::kInfo, "channel_transition_skipped",
                    {{"channel", channel.arn},
                     {"to", catalog::ChannelStatusName(to)},
                     {"error", updated.error().ToString()}});
    return false;
  }
  deps.logger.Log(LogLevel::kInfo, "channel_status",
                  {{"channel", channel.arn},
                   {"from", catalog::ChannelStatusName(from)},
                   {"to", catalog::ChannelStatusName(to)}});
  return true;
}

std::shared_ptr<ChannelMetrics> DeliveryService::Impl::MetricsFor(const Channel& channel,
                                                                  const std::string& cluster) {
  common::MutexLock lock(metrics_mu);
  auto& slot = metrics[channel.arn];
  if (!slot) {
    slot = std::make_shared<ChannelMetrics>();
    slot->channel = channel.name;
    slot->channel_arn = channel.arn;
    slot->cluster = cluster;
    slot->topic = channel.topic_name;
  }
  return slot;
}

bool DeliveryService::Impl::RefuseUnsafe(const Channel& channel, const ChannelConfig& config,
                                         const catalog::KafkaCluster& cluster) {
  if (Status valid = catalog::ValidateKafkaClientProperties(cluster.client_properties);
      !valid.ok()) {
    Fail(channel, channel.status, StateCode::kInvalidClientProperty,
         "The Kafka cluster " + cluster.arn + " cannot be used: " + valid.message() +
             " Register the cluster again without it and create a new channel.");
    return true;
  }
  if (config.service_execution_role.account_id != channel.owner_account_id) {
    Fail(channel, channel.status, StateCode::kAccessDenied,
         "The service execution role " + config.service_execution_role.arn +
             " belongs to account " + config.service_execution_role.account_id +
             ", not to the channel's account " + channel.owner_account_id +
             "; a channel can only pass a role of its own account (iam:PassRole). Create a new "
             "channel with a role of account " +
             channel.owner_account_id + ".");
    return true;
  }
  return false;
}

void DeliveryService::Impl::Activate(const Channel& channel) {
  const ChannelStatus kFrom = ChannelStatus::kCreating;
  const Result<ChannelConfig>& config = ConfigOf(channel);
  if (!config.has_value()) {
    return Fail(channel, kFrom, StateCode::kInvalidConfiguration, config.error().message());
  }
  Result<catalog::KafkaCluster> cluster = deps.store.GetKafkaCluster(channel.cluster_arn);
  if (!cluster.has_value()) {
    if (cluster.error().code() == StatusCode::kNotFound) {
      return Fail(channel, kFrom, StateCode::kClusterNotFound,
                  "The Kafka cluster " + channel.cluster_arn + " is not registered.");
    }
    return;  // Transient: next pass.
  }
  if (RefuseUnsafe(channel, *config, *cluster)) return;
  Result<catalog::TableBucket> bucket = deps.store.GetTableBucket(config->table_bucket_arn);
  if (!bucket.has_value()) {
    if (bucket.error().code() == StatusCode::kNotFound ||
        bucket.error().code() == StatusCode::kInvalidArgument) {
      return Fail(channel, kFrom, StateCode::kTableBucketNotFound,
                  "The table bucket " + config->table_bucket_arn +
                      " (catalog.warehouseLocation) does not exist; create it first.");
    }
    return;
  }
  Result<catalog::GeneralPurposeBucket> dlq =
      deps.store.GetGeneralPurposeBucket(config->dlq_bucket_name);
  if (!dlq.has_value()) {
    if (dlq.error().code() == StatusCode::kNotFound) {
      return Fail(channel, kFrom, StateCode::kDlqBucketNotFound,
                  "The dead-letter queue bucket " + config->dlq_bucket_arn +
                      " does not exist; create it first.");
    }
    return;
  }
  if (Status valid = ctx->format.Validate(*config); !valid.ok()) {
    switch (valid.code()) {
      case StatusCode::kNotFound:
        return Fail(channel, kFrom, StateCode::kSchemaNotFound, valid.message());
      case StatusCode::kInvalidArgument:
      case StatusCode::kUnsupported:
        return Fail(channel, kFrom, StateCode::kInvalidSchema, valid.message());
      default:
        return;
    }
  }
  const std::string dlq_resource =
      config->dlq_bucket_arn + "/" + config->dlq_prefix() + channel.name + "/";
  for (const auto& [action, resource] : std::vector<std::pair<std::string, std::string>>{
           {"s3tables:CreateTable", config->table_bucket_arn}, {"s3:PutObject", dlq_resource}}) {
    Status allowed = AuthorizeAsRole(deps.authorizer, config->service_execution_role.arn,
                                     config->service_execution_role.account_id, action, resource,
                                     action == "s3:PutObject"
                                         ? std::map<std::string, std::vector<std::string>>{}
                                         : std::map<std::string, std::vector<std::string>>{
                                               {"s3tables:namespace", {config->namespace_name}},
                                               {"s3tables:tableName", {config->table_name}},
                                               {"aws:RequestTag/TableName", {config->table_name}},
                                               {"aws:TagKeys", {"TableName"}}});
    if (allowed.code() == StatusCode::kAccessDenied) {
      return Fail(channel, kFrom, StateCode::kAccessDenied, allowed.message());
    }
    if (!allowed.ok()) return;
  }
  Result<catalog::NextOffsets> ends = ctx->kafka.EndOffsets(*cluster, channel.topic_name);
  if (!ends.has_value()) {
    if (ends.error().code() == StatusCode::kNotFound) {
      return Fail(channel, kFrom, StateCode::kTopicNotFound, ends.error().message());
    }
    deps.logger.Log(LogLevel::kWarn, "end_offsets_failed",
                    {{"channel", channel.arn}, {"error", ends.error().ToString()}});
    return;
  }
  Status init = deps.store.InitChannelOffsets(channel.arn, *ends, 0);
  if (!init.ok() && init.code() != StatusCode::kAlreadyExists) {
    deps.logger.Log(LogLevel::kWarn, "init_offsets_failed",
                    {{"channel", channel.arn}, {"error", init.ToString()}});
    return;
  }
  if (Transition(channel, kFrom, ChannelStatus::kActive, StateUpdate::Clear())) {
    Channel active = channel;
    active.status = ChannelStatus::kActive;
    EnsureWorker(active);  // Records produced from now on are the channel's.
  }
}

void DeliveryService::Impl::EnsureWorker(const Channel& channel) {
  if (workers.count(channel.arn) != 0) return;
  const Result<ChannelConfig>& config = ConfigOf(channel);
  if (!config.has_value()) {
    return Fail(channel, channel.status, StateCode::kInvalidConfiguration,
                config.error().message());
  }
  Result<catalog::KafkaCluster> cluster = deps.store.GetKafkaCluster(channel.cluster_arn);
  if (!cluster.has_value()) return;
  if (RefuseUnsafe(channel, *config, *cluster)) return;
  WorkerOptions worker_options;
  worker_options.buffer_budget_bytes = options.buffer_budget_bytes;
  worker_options.shared_budget = &memory;
  worker_options.poll_timeout = options.poll_timeout;
  worker_options.max_backoff = options.max_backoff;
  auto worker = std::make_unique<ChannelWorker>(*ctx, worker_options, channel, *config, *cluster,
                                                MetricsFor(channel, cluster->name));
  worker->Start();
  workers.emplace(channel.arn, std::move(worker));
}

void DeliveryService::Impl::ReconcileActive(const Channel& channel) {
  if (channel.paused) {
    return Suspend(channel,
                   catalog::MakeStateInfo(StateCode::kPaused,
                                          "Delivery is paused; resume the channel to continue."));
  }
  if (!channel.table_id.empty()) {
    Result<catalog::Table> table = deps.store.GetTableById(channel.table_id);
    if (!table.has_value() && table.error().code() == StatusCode::kNotFound) {
      std::string name = "(unknown)";
      if (const Result<ChannelConfig>& config = ConfigOf(channel); config.has_value()) {
        name =
            config->namespace_name + "." + config->table_name + " in " + config->table_bucket_arn;
      }
      return Suspend(channel, catalog::MakeStateInfo(StateCode::kTableDeleted,
                                                     "The destination table " + name +
                                                         " was deleted; create a new channel to "
                                                         "deliver to a new table."));
    }
  }
  auto it = workers.find(channel.arn);
  if (it != workers.end()) {
    if (std::optional<WorkerFault> fault = it->second->fault(); fault.has_value()) {
      StopWorker(channel.arn);
      reporting_fault = true;
      if (fault->status == ChannelStatus::kFailed) {
        Fail(channel, ChannelStatus::kActive, fault->info);
      } else {
        Suspend(channel, fault->info);
      }
      reporting_fault = false;
    }
    return;
  }
  EnsureWorker(channel);
}

void DeliveryService::Impl::Reconcile(const Channel& channel) {
  leading = Leads();
  switch (channel.status) {
    case ChannelStatus::kCreating:
      // Start offsets and the first status change: the lease holder's.
      if (leading) Activate(channel);
      return;
    case ChannelStatus::kUpdating: {
      StopWorker(channel.arn);
      const Result<ChannelConfig>& config = ConfigOf(channel);
      if (!config.has_value()) {
        return Fail(channel, ChannelStatus::kUpdating, StateCode::kInvalidConfiguration,
                    config.error().message());
      }
      if (Transition(channel, ChannelStatus::kUpdating, ChannelStatus::kActive,
                     StateUpdate::Leave())) {
        Channel active = channel;
        active.status = ChannelStatus::kActive;
        EnsureWorker(active);
      }
      return;
    }
    case ChannelStatus::kActive:
      return ReconcileActive(channel);
    case ChannelStatus::kSuspending:
      StopWorker(channel.arn);
      Transition(channel, ChannelStatus::kSuspending, ChannelStatus::kSuspended,
                 StateUpdate::Leave());
      return;
    case ChannelStatus::kSuspended:
      StopWorker(channel.arn);
      if (!channel.paused && channel.state_info.has_value() &&
          catalog::HasStateCode(channel.state_info, StateCode::kAccessDenied) &&
          IsKmsFault(Status(StatusCode::kAccessDenied, channel.state_info->message))) {
        // Suspended for its KMS key: try again every kKmsRetry; a worker that
        // still cannot use the key suspends it again, and the catalog
        // offsets make sure nothing is lost or doubled meanwhile.
        const auto now = deps.clock.Now();
        auto [it, fresh] = kms_suspended.emplace(channel.arn, now);
        if (!fresh && now - it->second >= kKmsRetry &&
            Transition(channel, ChannelStatus::kSuspended, ChannelStatus::kActive,
                       StateUpdate::Clear())) {
          kms_suspended.erase(it);
          Channel active = channel;
          active.status = ChannelStatus::kActive;
          active.state_info.reset();
          EnsureWorker(active);
        }
        return;
      }
      if (!channel.paused && catalog::HasStateCode(channel.state_info, StateCode::kPaused) &&
          Transition(channel, ChannelStatus::kSuspended, ChannelStatus::kActive,
                     StateUpdate::Clear())) {
        Channel active = channel;
        active.status = ChannelStatus::kActive;
        active.state_info.reset();
        EnsureWorker(active);
      }
      return;
    case ChannelStatus::kFailed:
      StopWorker(channel.arn);
      return;
    case ChannelStatus::kDeleting: {
      StopWorker(channel.arn);
      if (!leading) return;  // The holder removes offsets and row.
      Status offsets = deps.store.DeleteChannelOffsets(channel.arn);
      Status deleted = offsets.ok() ? deps.store.DeleteChannel(channel.arn) : offsets;
      if (!deleted.ok() && deleted.code() != StatusCode::kNotFound) {
        deps.logger.Log(LogLevel::kWarn, "channel_delete_failed",
                        {{"channel", channel.arn}, {"error", deleted.ToString()}});
        return;
      }
      deps.logger.Log(LogLevel::kInfo, "channel_deleted", {{"channel", channel.arn}});
      configs.erase(channel.arn);
      common::MutexLock lock(metrics_mu);
      metrics.erase(channel.arn);
      return;
    }
  }
}

DeliveryService::DeliveryService(Deps deps, Options options)
    : impl_(std::make_unique<Impl>(std::move(deps), options)) {}

DeliveryService::~DeliveryService() { Stop(); }

void DeliveryService::ReconcileOnce() {
  Result<std::vector<Channel>> channels = impl_->deps.store.ListAllChannels();
  if (!channels.has_value()) {
    impl_->deps.logger.Log(LogLevel::kWarn, "list_channels_failed",
                           {{"error", channels.error().ToString()}});
    return;
  }
  std::set<std::string> seen;
  for (const Channel& channel : *channels) {
    seen.insert(channel.arn);
    impl_->Reconcile(channel);
  }
  std::vector<std::string> gone;
  for (const auto& [arn, worker] : impl_->workers) {
    if (seen.count(arn) == 0) gone.push_back(arn);
  }
  for (const std::string& arn : gone) impl_->StopWorker(arn);
  for (auto it = impl_->configs.begin(); it != impl_->configs.end();) {
    it = seen.count(it->first) == 0 ? impl_->configs.erase(it) : std::next(it);
  }
  common::MutexLock lock(impl_->metrics_mu);
  for (auto it = impl_->metrics.begin(); it != impl_->metrics.end();) {
    it = seen.count(it->first) == 0 ? impl_->metrics.erase(it) : std::next(it);
  }
}

void DeliveryService::Impl::Loop() {
  common::MutexLock lock(mu);
  while (!stop) {
    lock.Unlock();
    // ReconcileOnce lives on the outer class; the loop reaches it through the owner.
    reconcile();
    lock.Lock();
    const auto deadline = std::chrono::steady_clock::now() + options.reconcile_interval;
    while (!stop && cv.WaitUntil(mu, deadline)) {
    }
  }
}

void DeliveryService::Start() {
  common::MutexLock lock(impl_->mu);
  if (impl_->thread.joinable()) return;
  impl_->stop = false;
  impl_->reconcile = [this] { ReconcileOnce(); };
  impl_->thread = std::thread([this] { impl_->Loop(); });
}

void DeliveryService::Stop() {
  std::thread reconciler;
  {
    common::MutexLock lock(impl_->mu);
    impl_->stop = true;
    reconciler = std::move(impl_->thread);
  }
  impl_->cv.NotifyAll();
  if (reconciler.joinable()) reconciler.join();
  for (auto& [arn, worker] : impl_->workers) worker->Stop();
  impl_->workers.clear();
}

std::string DeliveryService::MetricsText() const {
  std::vector<std::shared_ptr<const ChannelMetrics>> all;
  {
    common::MutexLock lock(impl_->metrics_mu);
    for (const auto& [arn, m] : impl_->metrics) all.push_back(m);
  }
  std::string text = RenderMetrics(all, impl_->deps.clock.NowMillis());
  text +=
      "# HELP streamtables_delivery_buffered_bytes Bytes all channel workers hold before their "
      "next commit.\n# TYPE streamtables_delivery_buffered_bytes gauge\n"
      "streamtables_delivery_buffered_bytes " +
      std::to_string(impl_->memory.held_bytes()) + "\n";
  text +=
      "# HELP streamtables_delivery_buffer_budget_bytes The server-wide bound on them (0: "
      "none).\n# TYPE streamtables_delivery_buffer_budget_bytes gauge\n"
      "streamtables_delivery_buffer_budget_bytes " +
      std::to_string(impl_->memory.total_bytes()) + "\n";
  return text;
}

std::optional<ChannelStateInfo> DeliveryService::LiveStateInfo(
    const std::string& channel_arn) const {
  std::shared_ptr<const ChannelMetrics> m;
  {
    common::MutexLock lock(impl_->metrics_mu);
    auto it = impl_->metrics.find(channel_arn);
    if (it == impl_->metrics.end()) return std::nullopt;
    m = it->second;
  }
  return StallStateInfo(*m, impl_->deps.clock.NowMillis(), impl_->options.max_backoff.count());
}

std::map<std::string, ChannelMetrics::Quarantined> DeliveryService::QuarantinedVersions(
    const std::string& channel_arn) const {
  std::shared_ptr<const ChannelMetrics> m;
  {
    common::MutexLock lock(impl_->metrics_mu);
    auto it = impl_->metrics.find(channel_arn);
    if (it == impl_->metrics.end()) return {};
    m = it->second;
  }
  return m->quarantined();
}

}  // namespace st::delivery
