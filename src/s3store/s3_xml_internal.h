// ListObjectsV2 replies and S3 times, read with common/xml_text.h (S3
// replies are flat and machine-written). Exposed for the unit tests.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace st::s3store {

struct ListedObject {
  std::string key;
  int64_t size = 0;
  std::chrono::system_clock::time_point last_modified;
};

struct ListPage {
  std::vector<ListedObject> objects;
  bool truncated = false;
  std::string next_token;  // NextContinuationToken.
};

// Parses a ListObjectsV2 reply; nullopt when it is not one.
std::optional<ListPage> ParseListObjectsV2(std::string_view xml);

// "2026-12-03T06:42:24.000Z" or an HTTP-date ("Thu, 03 Dec 2026 06:42:24
// GMT"); nullopt when neither.
std::optional<std::chrono::system_clock::time_point> ParseS3Time(std::string_view text);

}  // namespace st::s3store
