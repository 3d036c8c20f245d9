// The store's connection pool (sql_metadata_store_internal.h), and the pause
// between runs of a write that PostgreSQL aborted.
#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "catalog/sql_metadata_store_internal.h"
#include "common/status.h"

namespace st::catalog::sqlstore {

namespace {

// The connections this thread holds, one per pool at most: a short list
// (a thread rarely uses more than one store at a time).
struct HeldConnection {
  const ConnectionPool* pool;
  Connection* connection;
};
thread_local std::vector<HeldConnection> held_connections;

std::vector<HeldConnection>::iterator HeldEntry(const ConnectionPool* pool) {
  return std::find_if(held_connections.begin(), held_connections.end(),
                      [pool](const HeldConnection& held) { return held.pool == pool; });
}

}  // namespace

ConnectionPool::ConnectionPool(std::vector<std::unique_ptr<Connection>> connections)
    : connections_(std::move(connections)) {
  ST_CHECK(!connections_.empty());
  common::MutexLock lock(mu_);
  for (const auto& connection : connections_) free_.push_back(connection.get());
}

// The analysis cannot follow a capability whose holder is a thread-local
// entry; the checks below (ST_CHECK) stand in for it.
void ConnectionPool::Lock() NO_THREAD_SAFETY_ANALYSIS {
  ST_CHECK(!HeldByThisThread());
  Connection* taken = nullptr;
  {
    common::MutexLock lock(mu_);
    while (free_.empty()) returned_.Wait(mu_);
    taken = free_.back();
    free_.pop_back();
  }
  held_connections.push_back({this, taken});
}

void ConnectionPool::Unlock() NO_THREAD_SAFETY_ANALYSIS {
  auto it = HeldEntry(this);
  ST_CHECK(it != held_connections.end());
  Connection* returned = it->connection;
  held_connections.erase(it);
  {
    common::MutexLock lock(mu_);
    free_.push_back(returned);
  }
  returned_.NotifyOne();
}

void ConnectionPool::AssertHeld() const NO_THREAD_SAFETY_ANALYSIS { ST_CHECK(HeldByThisThread()); }

Connection& ConnectionPool::Current() const {
  auto it = HeldEntry(this);
  ST_CHECK(it != held_connections.end());
  return *it->connection;
}

void SqlMetadataStore::BackOffBeforeRewrite(int attempt) {
  const uint64_t cap_ms = uint64_t{1} << std::min(attempt, 8);
  std::this_thread::sleep_for(std::chrono::microseconds(random_.Next64() % (cap_ms * 1000 + 1)));
}

bool ConnectionPool::HeldByThisThread() const { return HeldEntry(this) != held_connections.end(); }

}  // namespace st::catalog::sqlstore
