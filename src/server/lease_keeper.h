// LeaseKeeper: holds one catalog lease (catalog/lease_store.h) for this
// replica, so that work which must run once among replicas sharing a
// catalog runs only where IsLeader() is true: channel status transitions
// (delivery) and the maintenance schedule.
//
// Timing (the defaults): the lease lives `ttl` (15 s) on the database's
// clock and is renewed every `renew_interval` (5 s) on a thread of its own;
// a replica that does not hold it tries to take it at the same pace.
// Locally, leadership ends `renew_deadline` (10 s < ttl) after the start of
// the last renewal that succeeded, measured on this process's steady
// clock. The database set the expiry after that start, ttl later, so a
// holder that cannot renew (catalog unreachable, process stalled) stops
// acting at least ttl - renew_deadline before another replica can take the
// lease. Take-over after a holder dies without releasing is at most
// ttl + renew_interval (≈ 20 s); after a clean Stop() (which releases) it is
// at most renew_interval.
//
// Thread-safety: IsLeader, epoch and MetricsText are thread-safe; Start,
// Stop and TickOnce are called from one thread (or Start/Stop only).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

#include "catalog/lease_store.h"
#include "common/logger.h"
#include "common/mutex.h"

namespace st::server {

struct LeaseKeeperOptions {
  // One lease covers all run-once work: a second lease would let two
  // replicas each lead part of it, which nothing here needs.
  std::string name = "coordinator";
  std::chrono::milliseconds ttl{15000};
  std::chrono::milliseconds renew_interval{5000};
  // Must be below ttl (see the file comment); two renewals may fail first.
  std::chrono::milliseconds renew_deadline{10000};
  // This process's monotonic time; tests pass their own.
  std::function<std::chrono::steady_clock::time_point()> now = [] {
    return std::chrono::steady_clock::now();
  };
};

// streamtables_lease_holder{lease="<name>"} 0|1 and
// streamtables_lease_epoch{lease="<name>"} <epoch>, Prometheus text.
std::string LeaseMetricsText(const std::string& name, bool held, int64_t epoch);

class LeaseKeeper {
 public:
  // `store` and `logger` outlive the keeper; `holder` is the replica id.
  LeaseKeeper(catalog::LeaseStore& store, std::string holder, Logger& logger,
              LeaseKeeperOptions options);
  ~LeaseKeeper();  // Stops.
  LeaseKeeper(const LeaseKeeper&) = delete;
  LeaseKeeper& operator=(const LeaseKeeper&) = delete;

  // One acquire-or-renew attempt now, then the renewal thread. Idempotent.
  void Start();
  // Stops the thread and releases the lease when held, so another replica
  // takes it at its next attempt. Idempotent.
  void Stop();

  // One acquire-or-renew attempt (what the thread does every renew_interval).
  void TickOnce();

  // Whether this replica may act as the leader now (see the file comment).
  bool IsLeader() const;
  // The epoch of the lease while held (its fencing token), 0 otherwise.
  int64_t epoch() const;
  // LeaseMetricsText of this lease now.
  std::string MetricsText() const;

 private:
  void Loop();

  catalog::LeaseStore& store_;
  const std::string holder_;
  Logger& logger_;
  const LeaseKeeperOptions options_;
  // Leadership: held_ with its local deadline (steady-clock ticks).
  std::atomic<bool> held_{false};
  std::atomic<int64_t> epoch_{0};
  std::atomic<std::chrono::steady_clock::rep> deadline_{0};
  bool logged_leader_ = false;  // TickOnce's thread only.
  common::Mutex mu_;
  common::CondVar wake_;
  bool stop_ GUARDED_BY(mu_) = false;
  std::thread thread_;  // Start and Stop only.
};

}  // namespace st::server
