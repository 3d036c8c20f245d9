// How much librdkafka may prefetch for one channel's consumer, as its own
// settings: in one place so that the consumer (rdkafka_client.cc) and the
// raw-consume reference of the delivery benchmarks
// (bench/rdkafka_consume_reference.cc) use the same ones.
//
// Sizing the fetches from the server-wide budget as well (an eighth of the
// prefetch bound per response) was measured and did not move the memory of
// 20 channels (1,527 vs 1,564 MiB peak RSS, bench/RESULTS.md "many
// channels"), so the fetches stay as large as one fast channel wants.
#pragma once

#include <cstdint>

namespace st::delivery {

struct PrefetchSizes {
  int64_t queue_kbytes = 0;           // queued.max.messages.kbytes
  int64_t fetch_max_bytes = 0;        // fetch.max.bytes (one fetch response)
  int64_t partition_fetch_bytes = 0;  // max.partition.fetch.bytes
};

// For a consumer whose queue may hold about `max_prefetch_bytes`: that (at
// least 1 MiB, at most 1 GiB, librdkafka's range) for the queue; fetches of
// 4 MiB per partition — one round trip per few MB instead of per 1 MB
// partition slice keeps the decoder fed — and at least 8 MiB per response.
PrefetchSizes PrefetchSizesFor(int64_t max_prefetch_bytes);

}  // namespace st::delivery
