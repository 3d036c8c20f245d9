// Fakes for the delivery runtime's seams (tests only): an in-memory Kafka
// topic with a group consumer, a record format whose writer writes one small
// file per batch, and an authorizer that denies chosen actions.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "delivery/kafka_client.h"
#include "delivery/record_format.h"
#include "http/router.h"
#include "iceberg/types.h"

namespace st::delivery::testing {

class FakeTopic {
 public:
  explicit FakeTopic(int partitions) : records_(partitions) {}
  // `timestamp_ms` < 0: a fixed 2025-11-30 plus the offset.
  void Produce(int partition, std::string value, int64_t timestamp_ms = -1) {
    std::lock_guard<std::mutex> lock(mu_);
    ConsumedRecord r;
    r.topic = "orders";
    r.partition = partition;
    r.offset = static_cast<int64_t>(records_[partition].size());
    r.timestamp_ms = timestamp_ms >= 0 ? timestamp_ms : 1764489600000 + r.offset;
    r.key = "k" + std::to_string(r.offset);
    r.value = std::move(value);
    records_[partition].push_back(std::move(r));
  }
  catalog::NextOffsets Ends() {
    std::lock_guard<std::mutex> lock(mu_);
    catalog::NextOffsets out;
    for (size_t p = 0; p < records_.size(); ++p) out[int(p)] = int64_t(records_[p].size());
    return out;
  }
  std::optional<ConsumedRecord> At(int partition, int64_t offset) {
    std::lock_guard<std::mutex> lock(mu_);
    if (offset < 0 || offset >= int64_t(records_[partition].size())) return std::nullopt;
    return records_[partition][offset];
  }
  int partitions() const { return int(records_.size()); }

 private:
  std::mutex mu_;
  std::vector<std::vector<ConsumedRecord>> records_;
};

class FakeConsumer final : public KafkaConsumer {
 public:
  FakeConsumer(FakeTopic& topic, ConsumerSpec spec, std::vector<std::string>* seeks)
      : topic_(topic), spec_(std::move(spec)), seeks_(seeks) {}
  Result<std::optional<ConsumedRecord>> Poll(std::chrono::milliseconds timeout) override {
    if (!assigned_) {
      std::vector<catalog::KafkaPartition> all;
      for (int p = 0; p < topic_.partitions(); ++p) all.push_back(p);
      ST_ASSIGN_OR_RETURN(catalog::NextOffsets offsets, spec_.on_assign(all, false));
      positions_ = offsets;
      assigned_ = true;
    }
    for (auto& [partition, position] : positions_) {
      if (auto record = topic_.At(partition, position)) {
        ++position;
        return record;
      }
    }
    std::this_thread::sleep_for(std::min(timeout, std::chrono::milliseconds(5)));
    return std::optional<ConsumedRecord>();
  }
  Status Seek(catalog::KafkaPartition partition, catalog::KafkaOffset offset) override {
    seeks_->push_back(std::to_string(partition) + "@" + std::to_string(offset));
    positions_[partition] = offset;
    return Status::OK();
  }
  std::vector<catalog::KafkaPartition> Assignment() const override {
    std::vector<catalog::KafkaPartition> out;
    for (const auto& [p, pos] : positions_) out.push_back(p);
    return out;
  }
  Status PauseAll() override { return Status::OK(); }
  Status ResumeAll() override { return Status::OK(); }
  Status CommitGroupOffsets(const catalog::NextOffsets&) override { return Status::OK(); }
  catalog::NextOffsets HighWatermarks() override { return topic_.Ends(); }
  void Close() override {}

 private:
  FakeTopic& topic_;
  ConsumerSpec spec_;
  std::vector<std::string>* seeks_;
  bool assigned_ = false;
  catalog::NextOffsets positions_;
};

class FakeProducer final : public KafkaProducer {
 public:
  explicit FakeProducer(std::vector<std::string>* produced) : produced_(produced) {}
  Status Produce(const std::string& topic, const std::optional<std::string>&,
                 const std::optional<std::string>& value,
                 const std::vector<RecordHeader>& headers) override {
    std::string code;
    for (const auto& h : headers) {
      if (h.key == "streamtables.error.code") code = *h.value;
    }
    produced_->push_back(topic + ":" + value.value_or("") + ":" + code);
    return Status::OK();
  }
  Status Flush(std::chrono::milliseconds) override { return Status::OK(); }

 private:
  std::vector<std::string>* produced_;
};

class FakeKafka final : public KafkaClientFactory {
 public:
  explicit FakeKafka(FakeTopic& topic) : topic_(topic) {}
  Result<catalog::NextOffsets> EndOffsets(const catalog::KafkaCluster&,
                                          const std::string& topic) override {
    if (topic != "orders") return Err(NotFound("no topic " + topic));
    return topic_.Ends();
  }
  Result<std::unique_ptr<KafkaConsumer>> NewConsumer(const catalog::KafkaCluster&,
                                                     ConsumerSpec spec) override {
    std::lock_guard<std::mutex> lock(mu_);
    group_ids.push_back(spec.group_id);
    prefetch_bytes.push_back(spec.max_prefetch_bytes);
    return std::unique_ptr<KafkaConsumer>(
        std::make_unique<FakeConsumer>(topic_, std::move(spec), &seeks));
  }
  Result<std::unique_ptr<KafkaProducer>> NewProducer(const catalog::KafkaCluster&) override {
    return std::unique_ptr<KafkaProducer>(std::make_unique<FakeProducer>(&produced));
  }

  std::vector<std::string> group_ids;
  std::vector<int64_t> prefetch_bytes;  // Each consumer's max_prefetch_bytes.
  std::vector<std::string> seeks;
  std::vector<std::string> produced;

 private:
  std::mutex mu_;
  FakeTopic& topic_;
};

// Records whose value is "bad" fail with MALFORMED_JSON; the rest become rows
// streamed as "<partition>:<offset>" lines into one file per Finish, written
// as they arrive (a storage fault shows at Add, as with the real writer).
// Like the real writer, a storage error is sticky: every later Add/Finish
// returns it, and Abort only drops the batch.
class FakeWriter final : public BatchWriter {
 public:
  FakeWriter(iceberg::FileIO& io, std::string data_location, int id)
      : io_(io), data_location_(std::move(data_location)), id_(id) {}
  Result<std::optional<RecordFailure>> Add(const ConsumedRecord& record) override {
    if (!broken_.ok()) return Err(broken_);
    if (record.value == "bad") {
      return std::optional<RecordFailure>(RecordFailure{"MALFORMED_JSON", "not JSON", ""});
    }
    // The fake's `ts` is the Kafka timestamp.
    if (horizon_us_.has_value() && record.timestamp_ms * 1000 < *horizon_us_) {
      return std::optional<RecordFailure>(
          RecordFailure{"RECORD_EXPIRED", "older than " + std::to_string(*horizon_us_), ""});
    }
    if (!sink_) {
      path_ =
          data_location_ + "/w" + std::to_string(id_) + "-f" + std::to_string(files_++) + ".txt";
      auto opened = io_.NewWriter(path_);
      if (!opened.has_value()) return Err(broken_ = opened.error());
      sink_ = std::move(*opened);
    }
    Status written =
        sink_->Write(std::to_string(record.partition) + ":" + std::to_string(record.offset) + "\n");
    if (!written.ok()) return Err(broken_ = written);
    ++rows_;
    return std::optional<RecordFailure>();
  }
  int64_t buffered_bytes() const override { return rows_ * 10; }
  void SetExpirationHorizon(std::optional<int64_t> horizon_us) override {
    horizon_us_ = horizon_us;
  }
  Result<std::vector<iceberg::DataFile>> Finish() override {
    if (!broken_.ok()) return Err(broken_);
    std::vector<iceberg::DataFile> out;
    if (rows_ == 0) return out;
    if (Status committed = sink_->Commit(); !committed.ok()) return Err(broken_ = committed);
    iceberg::DataFile file;
    file.file_path = path_;
    file.record_count = rows_;
    file.file_size_in_bytes = sink_->Position();
    file.partition = Value::MakeStruct({});
    out.push_back(file);
    sink_.reset();
    rows_ = 0;
    return out;
  }
  void Abort() override {
    sink_.reset();  // Uncommitted: discarded.
    rows_ = 0;
  }

 private:
  iceberg::FileIO& io_;
  std::string data_location_;
  int id_;
  std::unique_ptr<storage::ObjectWriter> sink_;
  std::string path_;
  int64_t rows_ = 0;
  int files_ = 0;
  Status broken_;
  std::optional<int64_t> horizon_us_;
};

class FakeFormat final : public RecordFormat {
 public:
  Status Validate(const ChannelConfig&) override { return validate; }
  Result<LayoutOutcome> Layout(const ChannelConfig&, const ConsumedRecord&) override {
    ST_ASSIGN_OR_RETURN(iceberg::Schema schema,
                        iceberg::Schema::Make(
                            0, {iceberg::NestedField{1, "v", false, iceberg::Type::String(), ""}}));
    return LayoutOutcome{TableLayout{schema, iceberg::PartitionSpec::Unpartitioned()},
                         std::nullopt};
  }
  Result<std::unique_ptr<BatchWriter>> NewWriter(const ChannelConfig&,
                                                 const iceberg::TableMetadata&,
                                                 const std::string& data_location,
                                                 iceberg::FileIO& io, Random&) override {
    return std::unique_ptr<BatchWriter>(
        std::make_unique<FakeWriter>(io, data_location, writers_made++));
  }
  Status validate = Status::OK();
  std::atomic<int> writers_made{0};
};

class FakeAuthorizer final : public auth::Authorizer {
 public:
  Result<auth::AuthDecision> Authorize(const auth::CallContext&, const auth::Principal& principal,
                                       const auth::AccessRequest& access) const override {
    std::lock_guard<std::mutex> lock(mu_);
    asked.insert(principal.arn + " " + access.action);
    if (denied.count(access.action)) return auth::AuthDecision{false, "denied by test"};
    return auth::AuthDecision{true, ""};
  }
  std::set<std::string> denied;
  mutable std::set<std::string> asked;
  mutable std::mutex mu_;
};

}  // namespace st::delivery::testing
