#include "postgres/pool.h"

namespace st::postgres {

namespace {
Status Unavailable(std::string message) {
  return Status(StatusCode::kUnavailable, std::move(message));
}
}  // namespace

Pool::Lease::~Lease() {
  if (pool_ != nullptr && conn_ != nullptr) pool_->Return(std::move(conn_));
}

Result<Pool::Lease> Pool::Acquire() {
  const auto deadline = std::chrono::steady_clock::now() + options_.lock_timeout;
  {
    common::MutexLock lock(mu_);
    while (true) {
      while (!idle_.empty()) {
        std::unique_ptr<Connection> conn = std::move(idle_.back());
        idle_.pop_back();
        if (conn->LooksAlive()) return Lease(*this, std::move(conn));
        // Dropped while idle (server restarted, backend terminated).
        --open_;
      }
      if (open_ < max_size_) {
        ++open_;
        break;
      }
      if (!freed_.WaitUntil(mu_, deadline)) {
        return Err(Unavailable(options_.label + ": all " + std::to_string(max_size_) +
                               " connections are busy; retry"));
      }
    }
  }
  // Connect outside the lock: it takes a network round trip or several.
  Result<std::unique_ptr<Connection>> conn = Connection::Open(options_);
  if (!conn.has_value()) {
    common::MutexLock lock(mu_);
    --open_;
    freed_.NotifyOne();
    return Err(conn.error());
  }
  return Lease(*this, *std::move(conn));
}

void Pool::Return(std::unique_ptr<Connection> conn) {
  common::MutexLock lock(mu_);
  if (conn->broken()) {
    --open_;
  } else {
    idle_.push_back(std::move(conn));
  }
  freed_.NotifyOne();
}

}  // namespace st::postgres
