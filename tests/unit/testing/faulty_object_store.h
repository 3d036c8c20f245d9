// Tests only: an ObjectStore that forwards to a real one but fails chosen
// writes the way a full or broken disk does (EIO / ENOSPC), for the faults a
// real local store cannot be made to produce on demand. Every write call
// (Put, PutIfAbsent, NewWriter and each Write / Commit of a streaming
// writer) takes one failure from the budget while any is left; reads,
// lists and deletes always pass (a full disk still reads and unlinks).
#pragma once

#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "storage/object_store.h"

namespace st::fault_injection {

class FaultyObjectStore final : public storage::ObjectStore {
 public:
  // Not owned; must outlive this store.
  explicit FaultyObjectStore(storage::ObjectStore& inner) : inner_(inner) {}

  // The next `count` write calls fail with `error_number`'s text (ENOSPC,
  // EIO, ...); kForever: every write until Heal(). With `key_part`, only
  // writes of keys containing it count. Not to be called while writes run.
  static constexpr int kForever = -1;
  void FailNextWrites(int count, int error_number = ENOSPC, std::string key_part = "") {
    errno_ = error_number;
    key_part_ = std::move(key_part);
    budget_ = count;
  }
  void Heal() { budget_ = 0; }
  // Write calls failed so far.
  int failures() const { return failures_; }

  Status Put(std::string_view key, std::string_view bytes) override {
    ST_TRY(Inject("put", key));
    return inner_.Put(key, bytes);
  }
  Status PutIfAbsent(std::string_view key, std::string_view bytes) override {
    ST_TRY(Inject("put", key));
    return inner_.PutIfAbsent(key, bytes);
  }
  Result<std::unique_ptr<storage::ObjectWriter>> NewWriter(std::string_view key) override {
    ST_TRY(Inject("create", key));
    ST_ASSIGN_OR_RETURN(std::unique_ptr<storage::ObjectWriter> inner, inner_.NewWriter(key));
    return std::unique_ptr<storage::ObjectWriter>(
        std::make_unique<Writer>(*this, std::string(key), std::move(inner)));
  }
  Result<std::string> Get(std::string_view key) override { return inner_.Get(key); }
  Result<std::string> GetRange(std::string_view key, int64_t offset, int64_t length) override {
    return inner_.GetRange(key, offset, length);
  }
  Result<std::unique_ptr<storage::ObjectReader>> OpenReader(std::string_view key) override {
    return inner_.OpenReader(key);
  }
  Result<storage::ObjectInfo> Head(std::string_view key) override { return inner_.Head(key); }
  Result<std::vector<storage::ObjectInfo>> List(std::string_view prefix) override {
    return inner_.List(prefix);
  }
  Status Delete(std::string_view key) override { return inner_.Delete(key); }

 private:
  class Writer final : public storage::ObjectWriter {
   public:
    Writer(FaultyObjectStore& store, std::string key, std::unique_ptr<storage::ObjectWriter> inner)
        : store_(store), key_(std::move(key)), inner_(std::move(inner)) {}
    using OutputStream::Write;
    Status Write(const void* data, size_t size) override {
      ST_TRY(store_.Inject("write", key_));
      return inner_->Write(data, size);
    }
    int64_t Position() const override { return inner_->Position(); }
    Status Commit() override {
      ST_TRY(store_.Inject("commit", key_));
      return inner_->Commit();
    }

   private:
    FaultyObjectStore& store_;
    std::string key_;
    std::unique_ptr<storage::ObjectWriter> inner_;
  };

  Status Inject(const char* what, std::string_view key) {
    int left = budget_.load();
    if (left == 0 || key.find(key_part_) == std::string_view::npos) return Status::OK();
    while (left != 0) {
      if (left == kForever || budget_.compare_exchange_weak(left, left - 1)) {
        ++failures_;
        return IoError(std::string(what) + " '" + std::string(key) +
                       "' (injected): " + std::strerror(errno_.load()));
      }
    }
    return Status::OK();
  }

  storage::ObjectStore& inner_;
  std::atomic<int> budget_{0};
  std::string key_part_;  // Written only while budget_ is 0.
  std::atomic<int> errno_{ENOSPC};
  std::atomic<int> failures_{0};
};

}  // namespace st::fault_injection
