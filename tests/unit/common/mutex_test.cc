#include "common/mutex.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

namespace st::common {
namespace {

using std::chrono::milliseconds;

class Counter {
 public:
  void Add(int n) EXCLUDES(mu_) {
    MutexLock lock(mu_);
    AddLocked(n);
  }
  int Total() const EXCLUDES(mu_) {
    MutexLock lock(mu_);
    return total_;
  }

 private:
  void AddLocked(int n) REQUIRES(mu_) {
    mu_.AssertHeld();
    total_ += n;
  }
  mutable Mutex mu_;
  int total_ GUARDED_BY(mu_) = 0;
};

TEST(MutexTest, MutexLockSerializesWriters) {
  Counter counter;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&counter] {
      for (int i = 0; i < 10000; ++i) counter.Add(1);
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(counter.Total(), 40000);
}

TEST(MutexTest, TryLockFailsWhileHeldElsewhere) {
  Mutex mu;
  MutexLock lock(mu);
  bool other_got_it = true;
  std::thread other([&mu, &other_got_it] {
    if (mu.TryLock()) {
      mu.Unlock();
    } else {
      other_got_it = false;
    }
  });
  other.join();
  EXPECT_FALSE(other_got_it);
}

TEST(MutexTest, MutexLockCanDropAndRetakeTheMutex) {
  Mutex mu;
  MutexLock lock(mu);
  lock.Unlock();
  if (mu.TryLock()) {  // Free while dropped.
    mu.Unlock();
  } else {
    ADD_FAILURE() << "the mutex is still held after MutexLock::Unlock";
  }
  lock.Lock();
  mu.AssertHeld();
}

TEST(MutexDeathTest, AssertHeldAbortsWhenNotHeld) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Mutex mu;
  EXPECT_DEATH(mu.AssertHeld(), "owner_");
}

TEST(MutexDeathTest, AssertHeldAbortsWhenAnotherThreadHoldsIt) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Mutex mu;
  MutexLock lock(mu);
  EXPECT_DEATH(std::thread([&mu] { mu.AssertHeld(); }).join(), "owner_");
}

TEST(CondVarTest, WaitReturnsLockedAfterNotify) {
  Mutex mu;
  CondVar cv;
  bool ready = false;  // Guarded by mu (a local: the analysis cannot see that).
  std::thread producer([&] {
    MutexLock lock(mu);
    ready = true;
    cv.NotifyAll();
  });
  {
    MutexLock lock(mu);
    while (!ready) cv.Wait(mu);
    mu.AssertHeld();
  }
  producer.join();
}

TEST(CondVarTest, WaitForTimesOutWithoutNotify) {
  Mutex mu;
  CondVar cv;
  MutexLock lock(mu);
  auto started = std::chrono::steady_clock::now();
  while (cv.WaitFor(mu, milliseconds(20))) {
  }  // Spurious wake-ups return true; only the timeout ends the loop.
  EXPECT_GE(std::chrono::steady_clock::now() - started, milliseconds(20));
  mu.AssertHeld();
}

}  // namespace
}  // namespace st::common
