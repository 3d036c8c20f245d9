// A physical reference for the delivery benchmarks (issue 15): what it costs
// this machine just to consume a topic with librdkafka, configured as a
// channel's consumer is (src/delivery/rdkafka_client.cc: the fetch sizes of
// delivery/prefetch_sizes.h for a lone channel under the default budget), touching
// every value byte and keeping nothing. Prints wall MB/s and the process's
// CPU-seconds per GB (librdkafka's own threads included).
//
//   rdkafka_consume_reference BOOTSTRAP TOPIC RECORDS [PREFETCH_BYTES] [batch]
//
// One record per C++ consume() call, or with `batch` up to 256 per
// rd_kafka_consume_batch_queue call on the consumer's queue, as the channel's
// consumer takes them (RdKafkaConsumer::Refill).
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafkacpp.h>
#include <time.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "delivery/prefetch_sizes.h"

namespace {

double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

bool Set(RdKafka::Conf& conf, const std::string& key, const std::string& value) {
  std::string error;
  if (conf.set(key, value, error) != RdKafka::Conf::CONF_OK) {
    std::fprintf(stderr, "%s: %s\n", key.c_str(), error.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: rdkafka_consume_reference BOOTSTRAP TOPIC RECORDS [PREFETCH] [batch]\n");
    return 2;
  }
  const long long want = std::atoll(argv[3]);
  // A lone channel's bound under the default budget (channel_worker.cc).
  const long long prefetch = argc > 4 && std::atoll(argv[4]) > 0
                                 ? std::atoll(argv[4])
                                 : st::delivery::PrefetchBoundFor(int64_t{512} << 20);
  const bool batch = argc > 5 && std::string(argv[5]) == "batch";
  st::delivery::PrefetchSizes sizes = st::delivery::PrefetchSizesFor(prefetch);
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  const std::string group = "consume-reference-" + std::to_string(::time(nullptr));
  if (!Set(*conf, "bootstrap.servers", argv[1]) || !Set(*conf, "group.id", group) ||
      !Set(*conf, "enable.auto.commit", "false") || !Set(*conf, "auto.offset.reset", "earliest") ||
      !Set(*conf, "queued.max.messages.kbytes", std::to_string(sizes.queue_kbytes)) ||
      !Set(*conf, "fetch.max.bytes", std::to_string(sizes.fetch_max_bytes)) ||
      !Set(*conf, "max.partition.fetch.bytes", std::to_string(sizes.partition_fetch_bytes))) {
    return 2;
  }
  std::string error;
  std::unique_ptr<RdKafka::KafkaConsumer> consumer(
      RdKafka::KafkaConsumer::create(conf.get(), error));
  if (!consumer) {
    std::fprintf(stderr, "consumer: %s\n", error.c_str());
    return 2;
  }
  if (consumer->subscribe({argv[2]}) != RdKafka::ERR_NO_ERROR) return 2;
  long long got = 0;
  double bytes = 0;
  unsigned long long sink = 0;
  double cpu0 = 0;
  auto wall0 = std::chrono::steady_clock::now();
  bool started = false;
  auto last = std::chrono::steady_clock::now();
  auto take = [&](const void* payload, size_t len) {
    if (!started) {  // From the first record: the group join is not consumption.
      started = true;
      cpu0 = CpuSeconds();
      wall0 = std::chrono::steady_clock::now();
    }
    const auto* p = static_cast<const unsigned char*>(payload);
    for (size_t i = 0; i < len; i += 64) sink += p[i];
    bytes += static_cast<double>(len);
    ++got;
  };
  rd_kafka_queue_t* queue = batch ? rd_kafka_queue_get_consumer(consumer->c_ptr()) : nullptr;
  constexpr int kBatch = 256;
  rd_kafka_message_t* raw[kBatch];
  while (got < want) {
    bool any = false;
    if (batch) {
      ssize_t n = rd_kafka_consume_batch_queue(queue, 0, raw, kBatch);
      if (n == 0) n = rd_kafka_consume_batch_queue(queue, 1000, raw, 1);
      for (ssize_t i = 0; i < n; ++i) {
        if (raw[i]->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
          take(raw[i]->payload, raw[i]->len);
          any = true;
        }
        rd_kafka_message_destroy(raw[i]);
      }
    } else {
      std::unique_ptr<RdKafka::Message> msg(consumer->consume(1000));
      if (msg->err() == RdKafka::ERR_NO_ERROR) {
        take(msg->payload(), msg->len());
        any = true;
      }
    }
    if (any) {
      last = std::chrono::steady_clock::now();
    } else if (std::chrono::steady_clock::now() - last > std::chrono::seconds(60)) {
      std::fprintf(stderr, "no record for 60 s after %lld\n", got);
      return 1;
    }
  }
  double cpu = CpuSeconds() - cpu0;
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  if (queue != nullptr) rd_kafka_queue_destroy(queue);
  std::printf("librdkafka %s: %lld records, %.1f MB/s, %.3f CPU-s/GB (sink %llu)\n",
              batch ? "batch consume" : "consume", got, bytes / 1e6 / wall, cpu / (bytes / 1e9),
              sink);
  consumer->close();
  return 0;
}
