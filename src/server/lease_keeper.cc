#include "server/lease_keeper.h"

namespace st::server {

std::string LeaseMetricsText(const std::string& name, bool held, int64_t epoch) {
  const std::string labels = "{lease=\"" + name + "\"}";
  return "# HELP streamtables_lease_holder Whether this replica holds the lease (1) or not (0).\n"
         "# TYPE streamtables_lease_holder gauge\nstreamtables_lease_holder" +
         labels + (held ? " 1\n" : " 0\n") +
         "# HELP streamtables_lease_epoch The lease's epoch while this replica holds it, else 0.\n"
         "# TYPE streamtables_lease_epoch gauge\nstreamtables_lease_epoch" +
         labels + " " + std::to_string(epoch) + "\n";
}

LeaseKeeper::LeaseKeeper(catalog::LeaseStore& store, std::string holder, Logger& logger,
                         LeaseKeeperOptions options)
    : store_(store), holder_(std::move(holder)), logger_(logger), options_(std::move(options)) {}

LeaseKeeper::~LeaseKeeper() { Stop(); }

void LeaseKeeper::TickOnce() {
  // The local deadline counts from before the request: the database's
  // expiry was set after this instant, so ours ends first.
  const auto started = options_.now();
  Result<catalog::Lease> lease = store_.TryAcquireOrRenew(options_.name, holder_, options_.ttl);
  if (!lease.has_value()) {
    // Leadership runs out at the deadline of the last success (IsLeader).
    logger_.Log(LogLevel::kWarn, "lease_renew_failed",
                {{"lease", options_.name}, {"error", lease.error().ToString()}});
  } else if (lease->holder == holder_) {
    deadline_ = (started + options_.renew_deadline).time_since_epoch().count();
    epoch_ = lease->epoch;
    held_ = true;
  } else {
    held_ = false;
    epoch_ = 0;
  }
  const bool leader = IsLeader();
  if (leader != logged_leader_) {
    logged_leader_ = leader;
    logger_.Log(LogLevel::kInfo, leader ? "lease_acquired" : "lease_lost",
                {{"lease", options_.name},
                 {"replica_id", holder_},
                 {"epoch", lease.has_value() ? lease->epoch : int64_t{0}},
                 {"holder", lease.has_value() ? lease->holder : std::string("(unknown)")}});
  }
}

bool LeaseKeeper::IsLeader() const {
  return held_ && options_.now().time_since_epoch().count() < deadline_.load();
}

int64_t LeaseKeeper::epoch() const { return IsLeader() ? epoch_.load() : 0; }

std::string LeaseKeeper::MetricsText() const {
  const bool leader = IsLeader();
  return LeaseMetricsText(options_.name, leader, leader ? epoch_.load() : 0);
}

void LeaseKeeper::Start() {
  {
    common::MutexLock lock(mu_);
    if (thread_.joinable()) return;
    stop_ = false;
  }
  TickOnce();  // A lone replica leads from its first reconcile pass on.
  thread_ = std::thread([this] { Loop(); });
}

void LeaseKeeper::Loop() {
  while (true) {
    {
      common::MutexLock lock(mu_);
      const auto deadline = std::chrono::steady_clock::now() + options_.renew_interval;
      while (!stop_ && wake_.WaitUntil(mu_, deadline)) {
      }
      if (stop_) return;
    }
    TickOnce();
  }
}

void LeaseKeeper::Stop() {
  {
    common::MutexLock lock(mu_);
    stop_ = true;
  }
  wake_.NotifyAll();
  if (thread_.joinable()) thread_.join();
  if (!held_.exchange(false)) return;
  epoch_ = 0;
  if (Status released = store_.Release(options_.name, holder_); !released.ok()) {
    logger_.Log(LogLevel::kWarn, "lease_release_failed",
                {{"lease", options_.name}, {"error", released.ToString()}});
    return;
  }
  logger_.Log(LogLevel::kInfo, "lease_released",
              {{"lease", options_.name}, {"replica_id", holder_}});
}

}  // namespace st::server
