// A mutex, a scoped lock and a condition variable that clang's thread-safety
// analysis understands (common/thread_annotations.h). Use these instead of
// std::mutex / std::lock_guard / std::condition_variable in any class whose
// fields a lock guards, and mark those fields GUARDED_BY(mu_).
//
// Thread-safety: all three are for use from many threads at once; that is
// their point. None is copyable or movable.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "common/thread_annotations.h"

namespace st::common {

// std::mutex with annotations. Not recursive: locking it twice on one thread
// deadlocks (the analysis reports it when it can see it).
class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ACQUIRE() {
    mu_.lock();
    owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  }
  void Unlock() RELEASE() {
    owner_.store(std::thread::id(), std::memory_order_relaxed);
    mu_.unlock();
  }
  // True (and locked) when the mutex was free.
  bool TryLock() TRY_ACQUIRE(true) {
    if (!mu_.try_lock()) return false;
    owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
    return true;
  }
  // Aborts unless the calling thread holds the mutex; for functions the
  // analysis cannot prove are called locked (callbacks). Tells the analysis
  // the mutex is held from here on.
  void AssertHeld() const ASSERT_CAPABILITY(this);

 private:
  friend class CondVar;
  std::mutex mu_;
  // Who holds mu_, for AssertHeld only (std::thread::id() when nobody does).
  std::atomic<std::thread::id> owner_{};
};

// Holds a Mutex from construction to destruction. Unlock() / Lock() let a
// scope drop the mutex around slow work (I/O, a callback) and take it back;
// the destructor unlocks only if the lock is held then.
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) ACQUIRE(mu) : mu_(mu) { mu_.Lock(); }
  ~MutexLock() RELEASE() {
    if (held_) mu_.Unlock();
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  void Unlock() RELEASE() {
    held_ = false;
    mu_.Unlock();
  }
  void Lock() ACQUIRE() {
    mu_.Lock();
    held_ = true;
  }

 private:
  Mutex& mu_;
  bool held_ = true;
};

// std::condition_variable over a common::Mutex. The waits return with the
// mutex held again and may wake spuriously, so wait in a loop on the guarded
// condition:
//
//   common::MutexLock lock(mu_);
//   while (!stop_) cv_.Wait(mu_);
//
// (There are no predicate overloads: the analysis does not know a predicate
// lambda runs under the lock, so the loop is both clearer and checked.)
class CondVar {
 public:
  CondVar() = default;
  CondVar(const CondVar&) = delete;
  CondVar& operator=(const CondVar&) = delete;

  void Wait(Mutex& mu) REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    mu.owner_.store(std::thread::id(), std::memory_order_relaxed);
    cv_.wait(lock);
    mu.owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
    lock.release();  // mu stays locked; its owner (the MutexLock) unlocks it.
  }
  // False when `deadline` passed (a wake-up and the deadline may coincide:
  // check the condition either way).
  template <typename Clock, typename Duration>
  bool WaitUntil(Mutex& mu, std::chrono::time_point<Clock, Duration> deadline) REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    mu.owner_.store(std::thread::id(), std::memory_order_relaxed);
    std::cv_status status = cv_.wait_until(lock, deadline);
    mu.owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
    lock.release();
    return status == std::cv_status::no_timeout;
  }
  // As WaitUntil(now + timeout), on the steady clock.
  template <typename Rep, typename Period>
  bool WaitFor(Mutex& mu, std::chrono::duration<Rep, Period> timeout) REQUIRES(mu) {
    return WaitUntil(mu, std::chrono::steady_clock::now() + timeout);
  }

  void NotifyOne() { cv_.notify_one(); }
  void NotifyAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace st::common
