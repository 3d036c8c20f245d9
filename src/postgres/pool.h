// A small thread-safe pool of Connections to one database. Acquire hands a
// connection to one caller at a time; returning it (the Lease's destructor)
// keeps it for the next caller unless it broke. Connections are opened
// lazily, up to max_size; a caller beyond that waits.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <vector>

#include "common/mutex.h"
#include "common/status.h"
#include "postgres/connection.h"

namespace st::postgres {

class Pool {
 public:
  class Lease {
   public:
    Lease(Lease&& other) noexcept
        : pool_(std::exchange(other.pool_, nullptr)), conn_(std::move(other.conn_)) {}
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    Connection* operator->() const { return conn_.get(); }
    Connection& operator*() const { return *conn_; }

   private:
    friend class Pool;
    Lease(Pool& pool, std::unique_ptr<Connection> conn) : pool_(&pool), conn_(std::move(conn)) {}
    Pool* pool_;
    std::unique_ptr<Connection> conn_;
  };

  Pool(ConnectOptions options, size_t max_size)
      : options_(std::move(options)), max_size_(max_size) {}
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  // An idle connection that still looks alive, else a new one. Waits up to
  // the lock timeout for a free slot. Errors: Unavailable (no slot, or the
  // server cannot be reached), Connection::Open's.
  Result<Lease> Acquire();

 private:
  void Return(std::unique_ptr<Connection> conn);

  const ConnectOptions options_;
  const size_t max_size_;
  common::Mutex mu_;
  common::CondVar freed_;
  std::vector<std::unique_ptr<Connection>> idle_ GUARDED_BY(mu_);
  // Connections handed out plus idle ones.
  size_t open_ GUARDED_BY(mu_) = 0;
};

}  // namespace st::postgres
