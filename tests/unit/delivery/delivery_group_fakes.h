// A consumer group fake for the rebalance tests (tests only): each member's
// partitions change only when the test says so, and the change reaches the
// member inside its next Poll as an incremental (cooperative) assign or
// revoke, as librdkafka delivers them.
#pragma once

#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "delivery/kafka_client.h"
#include "delivery_fakes.h"

namespace st::delivery::testing {

class GroupMember final : public KafkaConsumer {
 public:
  GroupMember(FakeTopic& topic, ConsumerSpec spec) : topic_(topic), spec_(std::move(spec)) {}

  // Queued for the next Poll (thread-safe).
  void Assign(std::vector<catalog::KafkaPartition> partitions) { Queue({true, partitions}); }
  void Revoke(std::vector<catalog::KafkaPartition> partitions) { Queue({false, partitions}); }
  std::vector<std::string> seeks() const {
    std::lock_guard<std::mutex> lock(mu_);
    return seeks_;
  }
  const ConsumerSpec& spec() const { return spec_; }

  Result<std::optional<ConsumedRecord>> Poll(std::chrono::milliseconds timeout) override {
    while (std::optional<Change> change = Next()) {
      if (change->assign) {
        ST_ASSIGN_OR_RETURN(catalog::NextOffsets offsets,
                            spec_.on_assign(change->partitions, true));
        for (catalog::KafkaPartition p : change->partitions) positions_[p] = offsets.at(p);
      } else {
        spec_.on_revoke(change->partitions, true, false);
        for (catalog::KafkaPartition p : change->partitions) positions_.erase(p);
      }
    }
    // Round-robin over the partitions so every one advances.
    for (size_t i = 0; i < positions_.size(); ++i) {
      auto it = positions_.begin();
      std::advance(it, static_cast<long>((next_ + i) % positions_.size()));
      if (auto record = topic_.At(it->first, it->second)) {
        ++it->second;
        next_ = (next_ + i + 1) % positions_.size();
        return record;
      }
    }
    std::this_thread::sleep_for(std::min(timeout, std::chrono::milliseconds(2)));
    return std::optional<ConsumedRecord>();
  }
  Status Seek(catalog::KafkaPartition partition, catalog::KafkaOffset offset) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      seeks_.push_back(std::to_string(partition) + "@" + std::to_string(offset));
    }
    positions_[partition] = offset;
    return Status::OK();
  }
  std::vector<catalog::KafkaPartition> Assignment() const override {
    std::vector<catalog::KafkaPartition> out;
    for (const auto& [p, position] : positions_) out.push_back(p);
    return out;
  }
  Status PauseAll() override { return Status::OK(); }
  Status ResumeAll() override { return Status::OK(); }
  Status CommitGroupOffsets(const catalog::NextOffsets&) override { return Status::OK(); }
  catalog::NextOffsets HighWatermarks() override { return topic_.Ends(); }
  void Close() override {
    if (positions_.empty()) return;
    std::vector<catalog::KafkaPartition> all = Assignment();
    spec_.on_revoke(all, true, false);
    positions_.clear();
  }

 private:
  struct Change {
    bool assign = false;
    std::vector<catalog::KafkaPartition> partitions;
  };
  void Queue(Change change) {
    std::lock_guard<std::mutex> lock(mu_);
    changes_.push_back(std::move(change));
  }
  std::optional<Change> Next() {
    std::lock_guard<std::mutex> lock(mu_);
    if (changes_.empty()) return std::nullopt;
    Change out = std::move(changes_.front());
    changes_.pop_front();
    return out;
  }

  FakeTopic& topic_;
  ConsumerSpec spec_;
  mutable std::mutex mu_;
  std::deque<Change> changes_;
  std::vector<std::string> seeks_;
  std::map<catalog::KafkaPartition, catalog::KafkaOffset> positions_;  // Owner thread only.
  size_t next_ = 0;
};

// Hands out GroupMembers keyed by group.instance.id (one per worker).
class GroupKafka final : public KafkaClientFactory {
 public:
  explicit GroupKafka(FakeTopic& topic) : topic_(topic) {}
  Result<catalog::NextOffsets> EndOffsets(const catalog::KafkaCluster&,
                                          const std::string&) override {
    return topic_.Ends();
  }
  Result<std::unique_ptr<KafkaConsumer>> NewConsumer(const catalog::KafkaCluster&,
                                                     ConsumerSpec spec) override {
    std::lock_guard<std::mutex> lock(mu_);
    const std::string id = spec.group_instance_id;
    auto member = std::make_unique<GroupMember>(topic_, std::move(spec));
    members_[id] = member.get();
    return std::unique_ptr<KafkaConsumer>(std::move(member));
  }
  Result<std::unique_ptr<KafkaProducer>> NewProducer(const catalog::KafkaCluster&) override {
    return std::unique_ptr<KafkaProducer>(std::make_unique<FakeProducer>(&produced_));
  }
  // The member of `instance_id`, or null before its worker made it.
  GroupMember* Member(const std::string& instance_id) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = members_.find(instance_id);
    return it == members_.end() ? nullptr : it->second;
  }

 private:
  std::mutex mu_;
  FakeTopic& topic_;
  std::map<std::string, GroupMember*> members_;
  std::vector<std::string> produced_;
};

}  // namespace st::delivery::testing
