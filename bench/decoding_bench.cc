// Decoding throughput: N ~1 KB clickstream JSON records through
// decoding::PartitionedFileWriter into zstd Parquet on a local object store,
// against a baseline that only parses the same bytes with simdjson On-Demand
// (visiting every value), so the ratio shows what shredding + Parquet cost.
//
// Usage: decoding_bench [records=100000] [store_dir=/tmp] [codec=zstd]
#include <simdjson.h>
#include <stdlib.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "avro/encoding.h"
#include "common/random.h"
#include "decoding/channel_schema.h"
#include "decoding/column_buffers_internal.h"
#include "decoding/json_shredder_internal.h"
#include "decoding/partitioned_file_writer.h"
#include "decoding/shred_plan_internal.h"
#include "iceberg/parquet_schema.h"
#include "storage/local_object_store.h"

namespace {

using st::iceberg::NestedField;
using st::iceberg::Type;

st::iceberg::Schema ClickstreamSchema() {
  auto schema = st::iceberg::Schema::Make(
      0,
      {
          {1, "event_time", true, Type::TimestampTz(), ""},
          {2, "event_id", true, Type::Uuid(), ""},
          {3, "user_id", false, Type::Long(), ""},
          {4, "session_id", false, Type::String(), ""},
          {5, "event_type", false, Type::String(), ""},
          {6, "page_url", false, Type::String(), ""},
          {7, "referrer", false, Type::String(), ""},
          {8, "user_agent", false, Type::String(), ""},
          {9, "ip", false, Type::String(), ""},
          {10, "country", false, Type::String(), ""},
          {11, "duration_ms", false, Type::Int(), ""},
          {12, "price", false, Type::Decimal(38, 2), ""},
          {13, "score", false, Type::Double(), ""},
          {14, "is_bot", false, Type::Boolean(), ""},
          {15, "device", false,
           Type::Struct({{16, "os", false, Type::String(), ""},
                         {17, "browser", false, Type::String(), ""},
                         {18, "screen_width", false, Type::Int(), ""}}),
           ""},
          {19, "tags", false, Type::List(20, false, Type::String()), ""},
          {21, "properties", false, Type::Map(22, Type::String(), 23, false, Type::String()), ""},
      });
  return *schema;
}

std::vector<std::string> MakeRecords(int n) {
  static const char* kTypes[] = {"page_view", "click", "add_to_cart", "purchase", "scroll"};
  static const char* kCountries[] = {"US", "DE", "FR", "JP", "BR", "IN", "GB", "CA"};
  static const char* kOs[] = {"iOS", "Android", "Windows", "macOS", "Linux"};
  static const char* kBrowsers[] = {"Safari", "Chrome", "Firefox", "Edge"};
  st::DefaultRandom random(42);
  std::vector<std::string> records;
  records.reserve(n);
  const int64_t base_seconds = 1740832496;
  char buf[2048];
  for (int i = 0; i < n; ++i) {
    const uint64_t r = random.Next64();
    const int64_t t = base_seconds + i / 50;  // ~2000 s span: a couple of hours.
    const int64_t hh = (t / 3600) % 24, mm = (t / 60) % 60, ss = t % 60;
    std::snprintf(
        buf, sizeof(buf),
        R"({"event_time":"2025-03-01T%02lld:%02lld:%02lld.%03dZ",)"
        R"("event_id":"%08x-%04x-4%03x-8%03x-%012llx","user_id":%llu,)"
        R"("session_id":"sess-%016llx","event_type":"%s",)"
        R"("page_url":"https://shop.example.com/catalog/category-%d/product-%llu?utm_source=newsletter&utm_medium=email&utm_campaign=spring-sale-%d",)"
        R"("referrer":"https://www.search.example.org/search?q=product+%llu+reviews&hl=en",)"
        R"("user_agent":"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.%d.%d Safari/537.36",)"
        R"("ip":"%d.%d.%d.%d","country":"%s","duration_ms":%d,"price":%llu.%02d,"score":%.6f,)"
        R"("is_bot":%s,"device":{"os":"%s","browser":"%s","screen_width":%d},)"
        R"("tags":["promo","%s","cohort-%d"],)"
        R"("properties":{"experiment":"exp-%d","variant":"%c","ab_bucket":"%d","cart_items":"%d"},)"
        R"("client_extra":{"sdk":"web-2.14.1","retries":%d}})",
        static_cast<long long>(hh), static_cast<long long>(mm), static_cast<long long>(ss),
        static_cast<int>(r % 1000), static_cast<unsigned>(r >> 32),
        static_cast<unsigned>(r & 0xffff), static_cast<unsigned>((r >> 16) & 0xfff),
        static_cast<unsigned>((r >> 28) & 0xfff),
        static_cast<unsigned long long>(r & 0xffffffffffffULL),
        static_cast<unsigned long long>(r % 1000000), static_cast<unsigned long long>(r),
        kTypes[r % 5], static_cast<int>(r % 40), static_cast<unsigned long long>(r % 100000),
        static_cast<int>(r % 12), static_cast<unsigned long long>(r % 5000),
        100 + static_cast<int>(r % 30), static_cast<int>(r % 6000), static_cast<int>(r % 200),
        static_cast<int>(r % 223) + 1, static_cast<int>((r >> 8) % 256),
        static_cast<int>((r >> 16) % 256), static_cast<int>((r >> 24) % 256), kCountries[r % 8],
        static_cast<int>(r % 60000), static_cast<unsigned long long>(r % 500),
        static_cast<int>(r % 100), static_cast<double>(r % 100000) / 1000.0,
        r % 50 == 0 ? "true" : "false", kOs[r % 5], kBrowsers[r % 4],
        320 + static_cast<int>(r % 2240), kTypes[(r >> 3) % 5], static_cast<int>(r % 30),
        static_cast<int>(r % 20), 'A' + static_cast<char>(r % 3), static_cast<int>(r % 100),
        static_cast<int>(r % 9), static_cast<int>(r % 3));
    records.emplace_back(buf);
  }
  return records;
}

constexpr const char* kAvroSchema = R"({"type":"record","name":"Click","fields":[
  {"name":"event_time","type":{"type":"long","logicalType":"timestamp-micros"}},
  {"name":"event_id","type":{"type":"string","logicalType":"uuid"}},
  {"name":"user_id","type":"long"},{"name":"session_id","type":"string"},
  {"name":"event_type","type":"string"},{"name":"page_url","type":"string"},
  {"name":"referrer","type":"string"},{"name":"user_agent","type":"string"},
  {"name":"ip","type":"string"},{"name":"country","type":"string"},
  {"name":"duration_ms","type":"int"},
  {"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":38,"scale":2}},
  {"name":"score","type":"double"},{"name":"is_bot","type":"boolean"},
  {"name":"device","type":{"type":"record","name":"Device","fields":[
    {"name":"os","type":"string"},{"name":"browser","type":"string"},
    {"name":"screen_width","type":"int"}]}},
  {"name":"tags","type":{"type":"array","items":"string"}},
  {"name":"properties","type":{"type":"map","values":"string"}},
  {"name":"client_extra","type":{"type":"record","name":"Extra","fields":[
    {"name":"sdk","type":"string"},{"name":"retries","type":"int"}]}}]})";

// The same records as MakeRecords (same generator), Avro-encoded behind the
// Confluent framing (schema id 1).
std::vector<std::string> MakeAvroRecords(int n) {
  static const char* kTypes[] = {"page_view", "click", "add_to_cart", "purchase", "scroll"};
  static const char* kCountries[] = {"US", "DE", "FR", "JP", "BR", "IN", "GB", "CA"};
  static const char* kOs[] = {"iOS", "Android", "Windows", "macOS", "Linux"};
  static const char* kBrowsers[] = {"Safari", "Chrome", "Firefox", "Edge"};
  auto schema = *st::avro::Schema::Parse(kAvroSchema);
  st::DefaultRandom random(42);
  std::vector<std::string> records;
  records.reserve(n);
  const int64_t base_seconds = 1740832496;
  char buf[512];
  using st::Value;
  auto str = [](const char* fmt, auto... args) {
    char b[512];
    std::snprintf(b, sizeof(b), fmt, args...);
    return Value::String(b);
  };
  for (int i = 0; i < n; ++i) {
    const uint64_t r = random.Next64();
    const int64_t t = base_seconds + i / 50;
    std::snprintf(buf, sizeof(buf), "%08x-%04x-4%03x-8%03x-%012llx", static_cast<unsigned>(r >> 32),
                  static_cast<unsigned>(r & 0xffff), static_cast<unsigned>((r >> 16) & 0xfff),
                  static_cast<unsigned>((r >> 28) & 0xfff),
                  static_cast<unsigned long long>(r & 0xffffffffffffULL));
    Value::Struct fields = {
        Value::Int64(t * 1000000 + static_cast<int64_t>(r % 1000) * 1000),
        Value::String(buf),
        Value::Int64(static_cast<int64_t>(r % 1000000)),
        str("sess-%016llx", static_cast<unsigned long long>(r)),
        Value::String(kTypes[r % 5]),
        str("https://shop.example.com/catalog/category-%d/product-%llu?utm_source=newsletter&utm_"
            "medium=email&utm_campaign=spring-sale-%d",
            static_cast<int>(r % 40), static_cast<unsigned long long>(r % 100000),
            static_cast<int>(r % 12)),
        str("https://www.search.example.org/search?q=product+%llu+reviews&hl=en",
            static_cast<unsigned long long>(r % 5000)),
        str("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/%d.0.%d.%d Safari/537.36",
            100 + static_cast<int>(r % 30), static_cast<int>(r % 6000), static_cast<int>(r % 200)),
        str("%d.%d.%d.%d", static_cast<int>(r % 223) + 1, static_cast<int>((r >> 8) % 256),
            static_cast<int>((r >> 16) % 256), static_cast<int>((r >> 24) % 256)),
        Value::String(kCountries[r % 8]),
        Value::Int32(static_cast<int32_t>(r % 60000)),
        Value::Decimal(static_cast<st::Int128>((r % 500) * 100 + r % 100)),
        Value::Double(static_cast<double>(r % 100000) / 1000.0),
        Value::Bool(r % 50 == 0),
        Value::MakeStruct({Value::String(kOs[r % 5]), Value::String(kBrowsers[r % 4]),
                           Value::Int32(320 + static_cast<int32_t>(r % 2240))}),
        Value::MakeList({Value::String("promo"), Value::String(kTypes[(r >> 3) % 5]),
                         str("cohort-%d", static_cast<int>(r % 30))}),
        Value::MakeMap({{Value::String("experiment"), str("exp-%d", static_cast<int>(r % 20))},
                        {Value::String("variant"), str("%c", 'A' + static_cast<char>(r % 3))},
                        {Value::String("ab_bucket"), str("%d", static_cast<int>(r % 100))},
                        {Value::String("cart_items"), str("%d", static_cast<int>(r % 9))}}),
        Value::MakeStruct({Value::String("web-2.14.1"), Value::Int32(static_cast<int32_t>(r % 3))}),
    };
    std::string out("\0\0\0\0\1", 5);
    if (!st::avro::Encode(schema, Value::MakeStruct(std::move(fields)), &out).ok()) std::abort();
    records.push_back(std::move(out));
  }
  return records;
}

double CpuSeconds() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// Visits every value, as a decoder must.
bool Visit(simdjson::ondemand::value value, uint64_t* sink) {
  using simdjson::ondemand::json_type;
  json_type type;
  if (value.type().get(type)) return false;
  switch (type) {
    case json_type::object: {
      simdjson::ondemand::object object;
      if (value.get_object().get(object)) return false;
      for (auto field : object) {
        std::string_view key;
        if (field.unescaped_key().get(key)) return false;
        *sink += key.size();
        if (!Visit(field.value(), sink)) return false;
      }
      return true;
    }
    case json_type::array: {
      simdjson::ondemand::array array;
      if (value.get_array().get(array)) return false;
      for (auto element : array) {
        simdjson::ondemand::value v;
        if (std::move(element).get(v)) return false;
        if (!Visit(v, sink)) return false;
      }
      return true;
    }
    case json_type::string: {
      std::string_view s;
      if (value.get_string().get(s)) return false;
      *sink += s.size();
      return true;
    }
    case json_type::number: {
      double d;
      if (value.get_double().get(d)) return false;
      *sink += static_cast<uint64_t>(d);
      return true;
    }
    case json_type::boolean: {
      bool b;
      if (value.get_bool().get(b)) return false;
      *sink += b;
      return true;
    }
    case json_type::null:
      return true;
  }
  return true;
}

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  std::string tmpl = std::string(argc > 2 ? argv[2] : "/tmp") + "/st_decoding_bench_XXXXXX";
  if (mkdtemp(tmpl.data()) == nullptr) return 1;
  const std::string root = tmpl;

  const auto records = MakeRecords(n);
  int64_t bytes = 0;
  for (const auto& r : records) bytes += static_cast<int64_t>(r.size());
  const double mb = static_cast<double>(bytes) / 1e6;
  // The kernel of the JSON shredder's On-Demand walk (every json row below:
  // PartitionedFileWriter's shredders use ProcessJsonKernel()), and
  // simdjson's active implementation (stage 1 and string unescaping).
  const std::string kernel(st::decoding::JsonKernelName(st::decoding::ProcessJsonKernel()));
  std::printf(
      "records: %d, bytes: %.1f MB (avg %.0f B/record), simdjson kernel: %s (shredder walk; "
      "stage 1 + strings: %s)\n",
      n, mb, static_cast<double>(bytes) / n, kernel.c_str(),
      simdjson::get_active_implementation()->name().c_str());

  // Baseline: parse only.
  {
    simdjson::ondemand::parser parser;
    std::string padded;
    uint64_t sink = 0;
    auto start = std::chrono::steady_clock::now();
    for (const auto& r : records) {
      padded.assign(r);
      padded.resize(r.size() + simdjson::SIMDJSON_PADDING);
      simdjson::ondemand::document doc;
      if (parser.iterate(padded.data(), r.size(), padded.size()).get(doc)) return 2;
      simdjson::ondemand::object object;
      if (doc.get_object().get(object)) return 2;
      for (auto field : object) {
        std::string_view key;
        if (field.unescaped_key().get(key)) return 2;
        if (!Visit(field.value(), &sink)) return 2;
      }
    }
    const double s = Seconds(start);
    std::printf(
        "baseline simdjson on-demand parse+visit (walk compiled here: %s): %.3f s, %.1f MB/s, "
        "%.0f records/s (sink %llu)\n",
        SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION), s, mb / s, n / s,
        static_cast<unsigned long long>(sink % 10));
  }

  // Decode only: the JSON shredder into column buffers (no Parquet, no
  // compression), cleared every 8192 rows as a row group would be.
  {
    auto schema = *st::decoding::ChannelTableSchema(st::decoding::ValueFormat::kJson,
                                                    ClickstreamSchema(), false, std::nullopt);
    auto parquet_schema = *st::iceberg::ToParquetSchema(schema);
    auto plan = *st::decoding::MakeShredPlan(schema, parquet_schema);
    st::decoding::JsonShredder shredder(plan, 0);
    st::decoding::ColumnBuffers buffers(parquet_schema);
    st::decoding::RecordError error;
    const double cpu0 = CpuSeconds();
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) {
      if (!shredder.Shred(records[i], buffers, &error)) {
        std::fprintf(stderr, "record %d: %s\n", i, error.message.c_str());
        return 2;
      }
      buffers.AddRow();
      if (buffers.rows() == 8192) buffers.Clear();
    }
    const double s = Seconds(start);
    const double cpu = CpuSeconds() - cpu0;
    std::printf(
        "json decode only (shredder into column buffers, kernel %s): %.3f s, %.1f MB/s, "
        "%.0f records/s, %.2f CPU-s/GB\n",
        std::string(st::decoding::JsonKernelName(shredder.kernel())).c_str(), s, mb / s, n / s,
        cpu / (mb / 1000.0));
  }

  // Decode + write Parquet: the JSON records, then the same records as Avro.
  auto store = st::storage::OpenLocalObjectStore(root);
  if (!store) return 3;
  st::iceberg::FileIO io(**store, "s3://bench/", "");
  const auto avro_records = MakeAvroRecords(n);
  int64_t avro_bytes = 0;
  for (const auto& r : avro_records) avro_bytes += static_cast<int64_t>(r.size());
  double cpu_per_gb[2] = {0, 0};
  for (int pass = 0; pass < 2; ++pass) {
    const bool avro = pass == 1;
    const auto& input = avro ? avro_records : records;
    const auto format =
        avro ? st::decoding::ValueFormat::kAvroConfluent : st::decoding::ValueFormat::kJson;
    st::DefaultRandom random(1);
    auto schema =
        *st::decoding::ChannelTableSchema(format, ClickstreamSchema(), true, "event_time");
    auto spec = *st::decoding::ChannelPartitionSpec(schema, false, "event_time");
    st::decoding::WriterOptions options{
        .format = format,
        .schema = schema,
        .spec = spec,
        .data_location = avro ? "s3://bench/avro/data" : "s3://bench/json/data"};
    options.writer_schemas = [](int32_t) -> st::Result<st::decoding::WriterSchema> {
      return st::decoding::WriterSchema{st::decoding::WriterSchemaType::kAvro, kAvroSchema};
    };
    if (argc > 3) options.codec = argv[3];
    auto writer = st::decoding::PartitionedFileWriter::Make(options, io, random);
    if (!writer) {
      std::fprintf(stderr, "%s\n", writer.error().ToString().c_str());
      return 3;
    }
    int64_t max_buffered = 0;
    const double cpu0 = CpuSeconds();
    auto start = std::chrono::steady_clock::now();
    st::decoding::KafkaRecord record;
    record.topic = "clicks";
    for (int i = 0; i < n; ++i) {
      record.offset = i;
      record.timestamp_ms = 1740832496000 + i;
      record.value = input[i];
      auto added = (*writer)->Add(record);
      if (!added || *added) {
        std::fprintf(stderr, "record %d: %s\n", i,
                     added ? (*added)->message.c_str() : added.error().ToString().c_str());
        return 4;
      }
      if (i % 1024 == 0) max_buffered = std::max(max_buffered, (*writer)->buffered_bytes());
    }
    auto files = (*writer)->Finish();
    const double s = Seconds(start);
    const double cpu = CpuSeconds() - cpu0;
    if (!files) return 5;
    int64_t out_bytes = 0;
    for (const auto& f : *files) out_bytes += f.file_size_in_bytes;
    const double in_mb = static_cast<double>(avro ? avro_bytes : bytes) / 1e6;
    // CPU per GB of the JSON text (the same records), so both rows compare.
    cpu_per_gb[pass] = cpu / (mb / 1000.0);
    std::printf(
        "%s decode + %s Parquet: %.3f s, %.1f MB/s of input (%.1f MB), %.1f MB/s of "
        "JSON-equivalent, "
        "%.0f records/s, %.2f CPU-s/GB (JSON-equivalent bytes); %zu files, %.1f MB out, max "
        "buffered %.1f MB\n",
        avro ? "avro" : "json", options.codec.c_str(), s, in_mb / s, in_mb, mb / s, n / s,
        cpu_per_gb[pass], files->size(), static_cast<double>(out_bytes) / 1e6,
        static_cast<double>(max_buffered) / 1e6);
  }
  std::printf("avro/json CPU ratio: %.2f\n", cpu_per_gb[1] / cpu_per_gb[0]);
  std::filesystem::remove_all(root);
  return 0;
}
