// How much librdkafka may prefetch for one channel's consumer, as its own
// settings: in one place so that the consumer (rdkafka_client.cc) and the
// raw-consume reference of the delivery benchmarks
// (bench/rdkafka_consume_reference.cc) use the same ones.
//
// What these sizes decide, measured with librdkafka 2.0.2 (Debian's) and its
// statistics (bench/RESULTS.md "Many channels: what holds the memory"):
// - librdkafka checks the queue bound (queued.max.messages.kbytes) before it
//   sends a fetch, and a response, up to fetch.max.bytes of *compressed*
//   record batches, is decompressed whole into the queue. The benchmark's
//   lz4-compressed JSON is about 10:1, so one 12 MiB response put ~120 MB on
//   a queue bounded at 12 MiB: the response size, not the bound, set each
//   channel's memory (20 channels: 1.6 GiB).
// - Once the queue is over its bound, 2.0.2 looks at the partition again only
//   on its broker thread's next wake-up, up to a second later (newer
//   librdkafka has fetch.queue.backoff.ms for this). So a channel whose worker
//   is the slower side reads about (bound + one response) per second: small
//   responses on a small bound cut one channel to 15-18 MB/s.
// Hence: the worker wakes the fetcher itself when the queue runs dry with
// records left (ChannelWorker::WakeFetcherIfBehind), so the bound can stay
// small (a quarter of the channel's fair share of the server-wide budget, at
// most kMaxPrefetchBytes), and responses are a thirty-second of it (1 to 4
// MiB), so the overshoot stays about a third of the bound even at 10:1.
#pragma once

#include <cstdint>

namespace st::delivery {

struct PrefetchSizes {
  int64_t queue_kbytes = 0;           // queued.max.messages.kbytes
  int64_t fetch_max_bytes = 0;        // fetch.max.bytes (one fetch response)
  int64_t partition_fetch_bytes = 0;  // max.partition.fetch.bytes
};

// The largest prefetch bound a channel asks for (a lone channel under the
// default 512 MB budget, or a server without a budget). Since the worker
// wakes the fetcher itself when the queue runs dry
// (ChannelWorker::WakeFetcherIfBehind), a small bound no longer throttles a
// channel to about one bound per second: 32 MiB read 1 GiB at 205-251 MB/s
// and peaked at 140-144 MiB, where 96 MiB without the wake-up read 123-125
// MB/s at 245-247 MiB (bench/RESULTS.md "Waking librdkafka's fetcher").
inline constexpr int64_t kMaxPrefetchBytes = int64_t{32} << 20;

// The prefetch bound of a channel whose fair share of the server-wide
// delivery budget is `fair_share_bytes` (DeliveryMemoryBudget::FairShare(); 0
// when the server has no such bound): a quarter of it, at most
// kMaxPrefetchBytes, which is also the bound without a server-wide budget.
int64_t PrefetchBoundFor(int64_t fair_share_bytes);

// For a consumer whose queue may hold about `max_prefetch_bytes`: that (at
// least 1 MiB, at most 1 GiB, librdkafka's range) for the queue; a
// thirty-second of it per fetch response (1 MiB to 4 MiB: librdkafka wants
// at least message.max.bytes, about 1 MB); 1 MiB per partition (librdkafka's
// default), so one response carries several partitions. A record batch
// larger than these still arrives whole (the broker returns at least one
// batch), so no limit here can stall a channel.
PrefetchSizes PrefetchSizesFor(int64_t max_prefetch_bytes);

}  // namespace st::delivery
