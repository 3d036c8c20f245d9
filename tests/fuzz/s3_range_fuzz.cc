// S3 GetObject header values from outside bytes: the Range header resolved
// against several object sizes (ResolveRange must give a range inside the
// object or refuse), and If-Modified-Since style HTTP dates (ParseHttpDate,
// whose result must print and parse back to itself).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

#include "api/s3/object_headers_internal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view header(reinterpret_cast<const char*>(data), size);
  for (int64_t object_size :
       {int64_t{0}, int64_t{1}, int64_t{1000}, std::numeric_limits<int64_t>::max()}) {
    auto range = st::api::s3::ResolveRange(header, object_size);
    if (!range.has_value() || !range->has_value()) continue;
    const auto& r = **range;
    if (r.first < 0 || r.length < 1 || r.first >= object_size || r.length > object_size - r.first) {
      fprintf(stderr, "Range '%.*s' on %lld bytes resolved to first=%lld length=%lld\n",
              static_cast<int>(header.size()), header.data(), static_cast<long long>(object_size),
              static_cast<long long>(r.first), static_cast<long long>(r.length));
      abort();
    }
  }
  auto date = st::api::s3::ParseHttpDate(header);
  if (date.has_value()) {
    std::string text = st::api::s3::HttpDate(*date);
    auto again = st::api::s3::ParseHttpDate(text);
    if (!again.has_value() || *again != *date) {
      fprintf(stderr, "HTTP date '%s' does not parse back\n", text.c_str());
      abort();
    }
  }
  return 0;
}
