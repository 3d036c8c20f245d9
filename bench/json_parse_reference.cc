// A physical reference for the delivery benchmarks (issue 15): how fast this
// machine parses the channel's JSON records with simdjson alone, nothing
// else, on one core. Reads newline-separated records from a file (what
// bench/peer_delivery_bench.py produces) and parses each of them twice:
//   - with simdjson's DOM parser, which the shared library dispatches at
//     run time to the best kernel this CPU has (e.g. haswell = AVX2);
//   - with the On-Demand API as our decoder uses it (compiled into this
//     binary, so its kernel is the one chosen at compile time).
// Prints one line per parser: kernel, MB/s and CPU-seconds per GB.
#include <simdjson.h>
#include <time.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {

double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

void Report(const char* what, const char* kernel, double bytes, double cpu_s, uint64_t sink) {
  std::printf("%s (kernel %s): %.1f MB/s, %.3f CPU-s/GB (sink %llu)\n", what, kernel,
              bytes / 1e6 / cpu_s, cpu_s / (bytes / 1e9), static_cast<unsigned long long>(sink));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: json_parse_reference RECORDS_FILE [REPEAT]\n");
    return 2;
  }
  const int repeat = argc > 2 ? std::atoi(argv[2]) : 1;
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", argv[1]);
    return 2;
  }
  std::vector<simdjson::padded_string> records;
  double bytes = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    bytes += static_cast<double>(line.size());
    records.emplace_back(line);
  }
  bytes *= repeat;

  simdjson::dom::parser dom;
  uint64_t sink = 0;
  double t0 = CpuSeconds();
  for (int r = 0; r < repeat; ++r) {
    for (const simdjson::padded_string& rec : records) {
      simdjson::dom::element doc;
      if (dom.parse(rec).get(doc)) return 1;
      simdjson::dom::object obj;
      if (doc.get(obj)) return 1;
      sink += obj.size();
    }
  }
  Report("simdjson DOM parse", simdjson::get_active_implementation()->name().c_str(), bytes,
         CpuSeconds() - t0, sink);

  simdjson::ondemand::parser od;
  sink = 0;
  t0 = CpuSeconds();
  for (int r = 0; r < repeat; ++r) {
    for (const simdjson::padded_string& rec : records) {
      simdjson::ondemand::document doc;
      if (od.iterate(rec).get(doc)) return 1;
      simdjson::ondemand::object obj;
      if (doc.get_object().get(obj)) return 1;
      // Visit every field as the decoder does (the raw value, not parsed).
      for (auto field : obj) {
        simdjson::ondemand::value value;
        if (field.value().get(value)) return 1;
        sink += value.raw_json_token().size();
      }
    }
  }
  Report("simdjson On-Demand parse+visit", simdjson::builtin_implementation()->name().c_str(),
         bytes, CpuSeconds() - t0, sink);
  return 0;
}
