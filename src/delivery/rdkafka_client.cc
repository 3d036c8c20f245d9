// librdkafka adapter of kafka_client.h: the C++ API (it never throws), and
// the C API where the consumer takes records in batches.
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafkacpp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/kafka_client_properties.h"
#include "common/mutex.h"
#include "delivery/kafka_client.h"
#include "delivery/prefetch_sizes.h"

namespace st::delivery {

namespace {

constexpr int kMetadataTimeoutMs = 10000;
// Records taken from librdkafka per call (RdKafkaConsumer::Refill).
constexpr int kBatchMessages = 256;
// How long Close() lets a group join in progress reach its first assignment
// (RdKafkaConsumer::Close).
constexpr auto kFirstAssignmentWaitOnClose = std::chrono::seconds(3);

Status ConfSet(RdKafka::Conf& conf, const std::string& key, const std::string& value) {
  std::string error;
  if (conf.set(key, value, error) != RdKafka::Conf::CONF_OK) {
    std::string shown = catalog::IsSecretKafkaClientProperty(key) ? "****" : value;
    return InvalidArgument("Kafka client property " + key + "=" + shown + " is not valid: " +
                           error + "; fix the cluster registration's client properties.");
  }
  return Status::OK();
}

Result<std::unique_ptr<RdKafka::Conf>> BaseConf(const catalog::KafkaCluster& cluster) {
  // Checked again here, not only at registration: a cluster stored before a
  // property was forbidden (sasl.kerberos.kinit.cmd runs a shell command)
  // must never reach librdkafka.
  if (Status valid = catalog::ValidateKafkaClientProperties(cluster.client_properties);
      !valid.ok()) {
    return Err(InvalidArgument("The Kafka cluster " + cluster.arn + " cannot be used: " +
                               valid.message() + " Register the cluster again without it."));
  }
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  ST_TRY(ConfSet(*conf, "bootstrap.servers", cluster.bootstrap_servers));
  ST_TRY(ConfSet(*conf, "client.id", "streamtables"));
  ST_TRY(ConfSet(*conf, "log_level", "3"));
  for (const auto& [key, value] : cluster.client_properties) ST_TRY(ConfSet(*conf, key, value));
  return conf;
}

Status KafkaError(RdKafka::ErrorCode code, const std::string& what) {
  return Status(StatusCode::kUnavailable, what + ": " + RdKafka::err2str(code));
}

struct RdMessageFree {
  void operator()(rd_kafka_message_t* m) const { rd_kafka_message_destroy(m); }
};
using RdMessage = std::unique_ptr<rd_kafka_message_t, RdMessageFree>;
struct RdQueueFree {
  void operator()(rd_kafka_queue_t* q) const { rd_kafka_queue_destroy(q); }
};

// Consumes in batches through librdkafka's C API (rd_kafka_consume_batch_queue
// on the consumer's queue): the C++ consume() costs a clock read, a queue
// lock and a wrapper allocation per record. The batch call serves the
// rebalance callbacks like consume() does, in order, and keeps
// max.poll.interval.ms. What it returned is handed out by Poll one record at
// a time and only refilled once drained, so the callbacks never run while
// records of an older assignment wait here.
class RdKafkaConsumer final : public KafkaConsumer, public RdKafka::RebalanceCb {
 public:
  explicit RdKafkaConsumer(ConsumerSpec spec) : spec_(std::move(spec)) {}
  ~RdKafkaConsumer() override { Close(); }

  Status Open(RdKafka::Conf& conf) {
    std::string error;
    if (conf.set("rebalance_cb", static_cast<RdKafka::RebalanceCb*>(this), error) !=
        RdKafka::Conf::CONF_OK) {
      return Internal("cannot install the rebalance callback: " + error);
    }
    consumer_.reset(RdKafka::KafkaConsumer::create(&conf, error));
    if (!consumer_) {
      return Status(StatusCode::kUnavailable, "cannot create a Kafka consumer: " + error);
    }
    RdKafka::ErrorCode code = consumer_->subscribe({spec_.topic});
    if (code != RdKafka::ERR_NO_ERROR) return KafkaError(code, "subscribe to " + spec_.topic);
    return Status::OK();
  }

  void rebalance_cb(RdKafka::KafkaConsumer* consumer, RdKafka::ErrorCode err,
                    std::vector<RdKafka::TopicPartition*>& partitions) override {
    // cooperative-sticky is configured, but a group whose other members
    // only speak an eager assignor falls back to eager: ask every time.
    const bool incremental = consumer->rebalance_protocol() == "COOPERATIVE";
    std::vector<catalog::KafkaPartition> ids;
    for (RdKafka::TopicPartition* tp : partitions) {
      ids.push_back(tp->partition());
      touched_[tp->partition()] = std::nullopt;
    }
    if (err == RdKafka::ERR__ASSIGN_PARTITIONS) {
      ever_assigned_ = true;
      Result<catalog::NextOffsets> offsets = spec_.on_assign(ids, incremental);
      if (!offsets.has_value()) {
        callback_error_ = offsets.error();
        if (incremental) {
          // The group state machine waits for this call; the partitions
          // are not tracked by the worker (their records are dropped) and
          // the consumer is remade once Poll returns the error.
          TakeError(consumer->incremental_assign(partitions));
          return;
        }
        consumer->unassign();
        assignment_.clear();
        return;
      }
      for (RdKafka::TopicPartition* tp : partitions) {
        auto it = offsets->find(tp->partition());
        if (it != offsets->end()) {
          tp->set_offset(it->second);
          touched_[tp->partition()] = it->second;
        }
      }
      if (incremental) {
        if (TakeError(consumer->incremental_assign(partitions))) return;
        for (catalog::KafkaPartition p : ids) {
          if (std::find(assignment_.begin(), assignment_.end(), p) == assignment_.end()) {
            assignment_.push_back(p);
          }
        }
      } else {
        consumer->assign(partitions);
        assignment_ = ids;
      }
    } else {
      spec_.on_revoke(ids, incremental, consumer->assignment_lost());
      if (incremental) {
        TakeError(consumer->incremental_unassign(partitions));
        std::erase_if(assignment_, [&](catalog::KafkaPartition p) {
          return std::find(ids.begin(), ids.end(), p) != ids.end();
        });
      } else {
        consumer->unassign();
        assignment_.clear();
      }
    }
  }

  Result<std::optional<ConsumedRecord>> Poll(std::chrono::milliseconds timeout) override {
    if (next_ == batch_.size()) {
      ST_TRY(Refill(timeout));
      if (batch_.empty()) return std::optional<ConsumedRecord>();
    }
    // Handed out one at a time; each is freed as it is converted (the batch
    // holds the fetch buffers it points into).
    RdMessage msg = std::move(batch_[next_++]);
    if (next_ == batch_.size()) {
      batch_.clear();
      next_ = 0;
    }
    const rd_kafka_message_t* m = msg.get();
    ConsumedRecord record;
    // The subscribed topic (one per consumer): the topic's name would be one
    // more allocation per record on the delivery hot path.
    record.topic = spec_.topic;
    record.partition = m->partition;
    record.offset = m->offset;
    rd_kafka_timestamp_type_t timestamp_type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
    record.timestamp_ms = rd_kafka_message_timestamp(m, &timestamp_type);
    if (m->key != nullptr) record.key.emplace(static_cast<const char*>(m->key), m->key_len);
    if (m->payload != nullptr) {
      record.value.emplace(static_cast<const char*>(m->payload), m->len);
    }
    rd_kafka_headers_t* headers = nullptr;
    if (rd_kafka_message_headers(m, &headers) == RD_KAFKA_RESP_ERR_NO_ERROR && headers != nullptr) {
      const char* name = nullptr;
      const void* value = nullptr;
      size_t size = 0;
      for (size_t i = 0;
           rd_kafka_header_get_all(headers, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR;
           ++i) {
        RecordHeader out{name, std::nullopt};
        if (value != nullptr) out.value.emplace(static_cast<const char*>(value), size);
        record.headers.push_back(std::move(out));
      }
    }
    return std::optional<ConsumedRecord>(std::move(record));
  }

  Status Seek(catalog::KafkaPartition partition, catalog::KafkaOffset offset) override {
    // What this consumer took from librdkafka before the seek is older than
    // the new position (librdkafka drops what it still queues itself).
    DropBuffered([partition](int32_t p) { return p == partition; });
    return SeekFetcher(partition, offset);
  }

  std::vector<catalog::KafkaPartition> Assignment() const override { return assignment_; }

  Status PauseAll() override { return PauseResume(true); }
  Status ResumeAll() override { return PauseResume(false); }

  Status CommitGroupOffsets(const catalog::NextOffsets& next) override {
    std::vector<RdKafka::TopicPartition*> tps;
    for (const auto& [partition, offset] : next) {
      tps.push_back(RdKafka::TopicPartition::create(spec_.topic, partition, offset));
    }
    RdKafka::ErrorCode code = consumer_->commitAsync(tps);
    RdKafka::TopicPartition::destroy(tps);
    if (code != RdKafka::ERR_NO_ERROR) return KafkaError(code, "commit group offsets");
    return Status::OK();
  }

  catalog::NextOffsets HighWatermarks() override {
    catalog::NextOffsets out;
    for (catalog::KafkaPartition p : assignment_) {
      int64_t low = 0, high = 0;
      if (consumer_->get_watermark_offsets(spec_.topic, p, &low, &high) == RdKafka::ERR_NO_ERROR &&
          high >= 0) {
        out[p] = high;
      }
    }
    return out;
  }

  void Close() override {
    if (consumer_ && !closed_) {
      closed_ = true;
      batch_.clear();
      next_ = 0;
      // librdkafka before 2.3.0 (Debian's is 2.0.2) aborts the whole process
      // when a cooperative-sticky consumer is destroyed after joining its
      // group but before its first assignment (an assert on the sticky
      // assignor's state, librdkafka issue 4312): a channel stopped or
      // remade right after it started would take every tenant's server
      // down. Let a join in progress reach its assignment first; records
      // polled meanwhile are dropped (nothing was handed to the worker).
      const auto deadline = std::chrono::steady_clock::now() + kFirstAssignmentWaitOnClose;
      while (!ever_assigned_ && std::chrono::steady_clock::now() < deadline) {
        std::unique_ptr<RdKafka::Message> dropped(consumer_->consume(50));
      }
      // The queue handle holds a reference the consumer's close waits for.
      queue_.reset();
      consumer_->close();
    }
  }

 private:
  // Takes what librdkafka has ready (without waiting), or waits up to
  // `timeout` for one record: a batch call waits until the batch is full, so
  // waiting for more than one would hold a trickle of records back for the
  // whole timeout. Error events (timeouts, transient broker errors) are
  // skipped: librdkafka recovers by itself; a fatal one is returned.
  Status Refill(std::chrono::milliseconds timeout) {
    batch_.clear();
    next_ = 0;
    if (!queue_) queue_.reset(rd_kafka_queue_get_consumer(consumer_->c_ptr()));
    if (!queue_) return Internal("the consumer of " + spec_.topic + " has no queue");
    rd_kafka_message_t* raw[kBatchMessages];
    touched_.clear();
    ssize_t n = rd_kafka_consume_batch_queue(queue_.get(), 0, raw, kBatchMessages);
    if (n == 0 && timeout.count() > 0) {
      n = rd_kafka_consume_batch_queue(queue_.get(), static_cast<int>(timeout.count()), raw, 1);
    }
    if (n < 0) {
      return KafkaError(static_cast<RdKafka::ErrorCode>(rd_kafka_last_error()),
                        "consume " + spec_.topic);
    }
    std::optional<Status> fatal;
    batch_.reserve(kBatchMessages);
    for (ssize_t i = 0; i < n; ++i) {
      RdMessage m(raw[i]);
      if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
        batch_.push_back(std::move(m));
      } else if (m->err == RD_KAFKA_RESP_ERR__FATAL && !fatal.has_value()) {
        fatal = KafkaError(RdKafka::ERR__FATAL, "the consumer of " + spec_.topic + " failed");
      }
    }
    if (callback_error_.has_value()) {
      batch_.clear();
      Status error = std::move(*callback_error_);
      callback_error_.reset();
      return error;
    }
    if (fatal.has_value()) {
      batch_.clear();
      return *fatal;
    }
    if (!touched_.empty()) ST_TRY(DropStale());
    return Status::OK();
  }

  // A rebalance callback ran during the last batch call, after some records
  // may have been collected: those of a partition it revoked are no longer
  // this consumer's, and those of a partition it (re)assigned may be from
  // the assignment before (a revoke and an assign of it both served in one
  // call; the eager protocol always does that), fetched ahead past the
  // offset the worker now starts it at. librdkafka drops such records only
  // while they are still in its own queue. A record
  // is the same at an offset whichever fetch brought it, so what matters is
  // that the worker sees a (re)assigned partition continue from the offset
  // its assignment named: records before it go, records that continue it
  // stay, and at the first one that does not (a gap: possibly stale) the
  // rest of that partition goes and it is sought back to where it stopped.
  Status DropStale() {
    std::map<catalog::KafkaPartition, std::optional<catalog::KafkaOffset>> touched;
    touched.swap(touched_);
    std::map<catalog::KafkaPartition, catalog::KafkaOffset> expected;
    for (const auto& [p, offset] : touched) {
      if (offset.has_value() &&
          std::find(assignment_.begin(), assignment_.end(), p) != assignment_.end()) {
        expected[p] = *offset;
      }
    }
    std::vector<catalog::KafkaPartition> cut;
    std::vector<RdMessage> kept;
    kept.reserve(batch_.size());
    for (size_t i = next_; i < batch_.size(); ++i) {
      RdMessage& m = batch_[i];
      const catalog::KafkaPartition p = m->partition;
      if (!touched.contains(p)) {
        kept.push_back(std::move(m));
        continue;
      }
      auto e = expected.find(p);
      if (e == expected.end() || std::find(cut.begin(), cut.end(), p) != cut.end() ||
          m->offset < e->second) {
        continue;  // Revoked, cut, or before where the worker starts it.
      }
      if (m->offset == e->second) {
        ++e->second;
        kept.push_back(std::move(m));
      } else {
        cut.push_back(p);
      }
    }
    batch_ = std::move(kept);
    next_ = 0;
    // The records kept before the cut stay: the fetcher restarts after them.
    for (catalog::KafkaPartition p : cut) ST_TRY(SeekFetcher(p, expected[p]));
    return Status::OK();
  }

  // Moves librdkafka's fetch position only (what this consumer holds stays).
  Status SeekFetcher(catalog::KafkaPartition partition, catalog::KafkaOffset offset) {
    std::unique_ptr<RdKafka::TopicPartition> tp(
        RdKafka::TopicPartition::create(spec_.topic, partition, offset));
    RdKafka::ErrorCode code = consumer_->seek(*tp, 5000);
    if (code != RdKafka::ERR_NO_ERROR) {
      return KafkaError(code, "seek " + spec_.topic + "/" + std::to_string(partition));
    }
    return Status::OK();
  }

  template <typename Pred>
  void DropBuffered(Pred drop) {
    auto first = batch_.begin() + static_cast<std::ptrdiff_t>(next_);
    batch_.erase(
        std::remove_if(first, batch_.end(), [&](const RdMessage& m) { return drop(m->partition); }),
        batch_.end());
    if (next_ == batch_.size()) {
      batch_.clear();
      next_ = 0;
    }
  }

  // Keeps an incremental (un)assign failure for Poll to return; true if any.
  bool TakeError(RdKafka::Error* error) {
    if (error == nullptr) return false;
    if (!callback_error_.has_value()) {
      callback_error_ = Status(StatusCode::kUnavailable,
                               "rebalance of " + spec_.topic + " failed: " + error->str());
    }
    delete error;
    return true;
  }

  Status PauseResume(bool pause) {
    std::vector<RdKafka::TopicPartition*> tps;
    for (catalog::KafkaPartition p : assignment_) {
      tps.push_back(RdKafka::TopicPartition::create(spec_.topic, p));
    }
    RdKafka::ErrorCode code = pause ? consumer_->pause(tps) : consumer_->resume(tps);
    RdKafka::TopicPartition::destroy(tps);
    if (code != RdKafka::ERR_NO_ERROR) return KafkaError(code, pause ? "pause" : "resume");
    return Status::OK();
  }

  ConsumerSpec spec_;
  std::unique_ptr<RdKafka::KafkaConsumer> consumer_;
  std::unique_ptr<rd_kafka_queue_t, RdQueueFree> queue_;  // Before consumer_'s close.
  std::vector<RdMessage> batch_;  // Taken from librdkafka; batch_[next_..] not yet polled.
  size_t next_ = 0;
  // Partitions a rebalance callback (re)assigned, with the offset it named,
  // or revoked (nullopt), during the current batch call.
  std::map<catalog::KafkaPartition, std::optional<catalog::KafkaOffset>> touched_;
  std::vector<catalog::KafkaPartition> assignment_;
  std::optional<Status> callback_error_;
  bool closed_ = false;
  bool ever_assigned_ = false;  // The group has handed this consumer partitions once.
};

class DeliveryCounter final : public RdKafka::DeliveryReportCb {
 public:
  void dr_cb(RdKafka::Message& message) override {
    if (message.err() != RdKafka::ERR_NO_ERROR) {
      common::MutexLock lock(mu_);
      ++failed_;
      last_error_ = message.errstr();
    }
  }
  // Failures since the last call, with the last error text.
  std::pair<int, std::string> Take() {
    common::MutexLock lock(mu_);
    auto out = std::make_pair(failed_, last_error_);
    failed_ = 0;
    return out;
  }

 private:
  common::Mutex mu_;  // dr_cb runs on librdkafka's thread.
  int failed_ GUARDED_BY(mu_) = 0;
  std::string last_error_ GUARDED_BY(mu_);
};

class RdKafkaProducer final : public KafkaProducer {
 public:
  Status Open(RdKafka::Conf& conf) {
    std::string error;
    if (conf.set("dr_cb", static_cast<RdKafka::DeliveryReportCb*>(&reports_), error) !=
        RdKafka::Conf::CONF_OK) {
      return Internal("cannot install the delivery report callback: " + error);
    }
    producer_.reset(RdKafka::Producer::create(&conf, error));
    if (!producer_) {
      return Status(StatusCode::kUnavailable, "cannot create a Kafka producer: " + error);
    }
    return Status::OK();
  }
  ~RdKafkaProducer() override {
    if (producer_) producer_->flush(1000);
  }

  Status Produce(const std::string& topic, const std::optional<std::string>& key,
                 const std::optional<std::string>& value,
                 const std::vector<RecordHeader>& headers) override {
    RdKafka::Headers* rd_headers = RdKafka::Headers::create();
    for (const RecordHeader& h : headers) {
      if (h.value.has_value()) {
        rd_headers->add(h.key, h.value->data(), h.value->size());
      } else {
        rd_headers->add(h.key, nullptr, 0);
      }
    }
    RdKafka::ErrorCode code = producer_->produce(
        topic, RdKafka::Topic::PARTITION_UA, RdKafka::Producer::RK_MSG_COPY,
        value ? const_cast<char*>(value->data()) : nullptr, value ? value->size() : 0,
        key ? key->data() : nullptr, key ? key->size() : 0, 0, rd_headers, nullptr);
    if (code != RdKafka::ERR_NO_ERROR) {
      delete rd_headers;  // Ownership passes to librdkafka only on success.
      return KafkaError(code, "produce to the dead-letter topic " + topic);
    }
    producer_->poll(0);
    return Status::OK();
  }

  Status Flush(std::chrono::milliseconds timeout) override {
    RdKafka::ErrorCode code = producer_->flush(static_cast<int>(timeout.count()));
    auto [failed, last_error] = reports_.Take();
    if (code != RdKafka::ERR_NO_ERROR) return KafkaError(code, "flush the dead-letter topic");
    if (failed > 0) {
      return Status(StatusCode::kUnavailable, std::to_string(failed) +
                                                  " dead-letter topic records were not "
                                                  "delivered: " +
                                                  last_error);
    }
    return Status::OK();
  }

 private:
  DeliveryCounter reports_;
  std::unique_ptr<RdKafka::Producer> producer_;
};

class RdKafkaClientFactory final : public KafkaClientFactory {
 public:
  Result<catalog::NextOffsets> EndOffsets(const catalog::KafkaCluster& cluster,
                                          const std::string& topic) override {
    ST_ASSIGN_OR_RETURN(std::unique_ptr<RdKafka::Conf> conf, BaseConf(cluster));
    std::string error;
    std::unique_ptr<RdKafka::Producer> handle(RdKafka::Producer::create(conf.get(), error));
    if (!handle) return Err(StatusCode::kUnavailable, "cannot create a Kafka client: " + error);
    std::unique_ptr<RdKafka::Topic> rd_topic(
        RdKafka::Topic::create(handle.get(), topic, nullptr, error));
    if (!rd_topic)
      return Err(StatusCode::kUnavailable, "cannot open topic " + topic + ": " + error);
    RdKafka::Metadata* raw = nullptr;
    RdKafka::ErrorCode code = handle->metadata(false, rd_topic.get(), &raw, kMetadataTimeoutMs);
    std::unique_ptr<RdKafka::Metadata> metadata(raw);
    if (code != RdKafka::ERR_NO_ERROR) {
      return Err(KafkaError(
          code, "read the metadata of topic " + topic + " from " + cluster.bootstrap_servers));
    }
    catalog::NextOffsets out;
    for (const RdKafka::TopicMetadata* t : *metadata->topics()) {
      if (t->topic() != topic) continue;
      if (t->err() == RdKafka::ERR_UNKNOWN_TOPIC_OR_PART || t->partitions()->empty()) {
        return Err(NotFound("The topic " + topic + " does not exist on cluster " + cluster.name +
                            "; create it first."));
      }
      if (t->err() != RdKafka::ERR_NO_ERROR) {
        return Err(KafkaError(t->err(), "metadata of topic " + topic));
      }
      for (const RdKafka::PartitionMetadata* p : *t->partitions()) {
        int64_t low = 0, high = 0;
        code = handle->query_watermark_offsets(topic, p->id(), &low, &high, kMetadataTimeoutMs);
        if (code != RdKafka::ERR_NO_ERROR) {
          return Err(KafkaError(code, "end offset of " + topic + "/" + std::to_string(p->id())));
        }
        out[p->id()] = high;
      }
    }
    if (out.empty()) {
      return Err(NotFound("The topic " + topic + " does not exist on cluster " + cluster.name +
                          "; create it first."));
    }
    return out;
  }

  Result<std::unique_ptr<KafkaConsumer>> NewConsumer(const catalog::KafkaCluster& cluster,
                                                     ConsumerSpec spec) override {
    ST_ASSIGN_OR_RETURN(std::unique_ptr<RdKafka::Conf> conf, BaseConf(cluster));
    ST_TRY(ConfSet(*conf, "group.id", spec.group_id));
    // A restarted server takes the channel's partitions over at once instead
    // of waiting for the dead member's session to expire; each replica is its
    // own static member (see ConsumerSpec::group_instance_id).
    ST_TRY(ConfSet(*conf, "group.instance.id",
                   spec.group_instance_id.empty() ? spec.group_id : spec.group_instance_id));
    // Incremental rebalancing: a member joining or leaving moves only the
    // partitions that change owner; the others keep their buffered rows. A
    // cluster registered with an assignor of its own keeps it (eager ones
    // work too, see rebalance_cb).
    if (!cluster.client_properties.contains("partition.assignment.strategy")) {
      ST_TRY(ConfSet(*conf, "partition.assignment.strategy", "cooperative-sticky"));
    }
    ST_TRY(ConfSet(*conf, "enable.auto.commit", "false"));
    ST_TRY(ConfSet(*conf, "enable.auto.offset.store", "false"));
    ST_TRY(ConfSet(*conf, "auto.offset.reset", "earliest"));
    ST_TRY(ConfSet(*conf, "session.timeout.ms", "10000"));
    ST_TRY(ConfSet(*conf, "max.poll.interval.ms", "600000"));
    PrefetchSizes sizes = PrefetchSizesFor(spec.max_prefetch_bytes);
    ST_TRY(ConfSet(*conf, "queued.max.messages.kbytes", std::to_string(sizes.queue_kbytes)));
    ST_TRY(ConfSet(*conf, "fetch.max.bytes", std::to_string(sizes.fetch_max_bytes)));
    ST_TRY(
        ConfSet(*conf, "max.partition.fetch.bytes", std::to_string(sizes.partition_fetch_bytes)));
    auto consumer = std::make_unique<RdKafkaConsumer>(std::move(spec));
    ST_TRY(consumer->Open(*conf));
    return std::unique_ptr<KafkaConsumer>(std::move(consumer));
  }

  Result<std::unique_ptr<KafkaProducer>> NewProducer(
      const catalog::KafkaCluster& cluster) override {
    ST_ASSIGN_OR_RETURN(std::unique_ptr<RdKafka::Conf> conf, BaseConf(cluster));
    ST_TRY(ConfSet(*conf, "enable.idempotence", "true"));
    auto producer = std::make_unique<RdKafkaProducer>();
    ST_TRY(producer->Open(*conf));
    return std::unique_ptr<KafkaProducer>(std::move(producer));
  }
};

}  // namespace

std::unique_ptr<KafkaClientFactory> NewRdKafkaClientFactory() {
  return std::make_unique<RdKafkaClientFactory>();
}

}  // namespace st::delivery
