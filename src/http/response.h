// An HTTP response as handlers build it: status, headers, and either an
// in-memory body or a streamed one (large S3 GETs never sit in memory).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "http/headers.h"

namespace st::http {

// Bytes [offset, offset + length) of an open regular file.
struct FileSpan {
  int fd = -1;  // Owned by the BodySource that reports it.
  uint64_t offset = 0;
  uint64_t length = 0;
};

// A pull source for a streamed response body. The server calls Read on one
// I/O thread at a time until it returns 0. An error after the status line has
// gone out cannot be reported to the client: the server logs it and closes
// the connection, so the client sees a short body and retries.
class BodySource {
 public:
  virtual ~BodySource() = default;
  // Copies up to `capacity` bytes into `buffer`; returns how many, 0 at end.
  virtual Result<size_t> Read(char* buffer, size_t capacity) = 0;
  // When a source is a plain file range, the server may send it with
  // sendfile(2) (no copy through user space) instead of calling Read, when
  // the response has a stream_length equal to the span's length. The fd must
  // stay open until the source is destroyed.
  virtual std::optional<FileSpan> File() const { return std::nullopt; }
  // A source that already holds its next bytes in a buffer of its own may
  // lend them instead of copying them into the server's (CanLend true):
  // Lend returns a view of up to `max` next bytes (empty at the end), valid
  // until the next Lend call or the source's destruction, and those bytes
  // count as consumed. The server then uses Lend only, never Read.
  virtual bool CanLend() const { return false; }
  virtual Result<std::string_view> Lend(size_t /*max*/) {
    return Err(Status(StatusCode::kInternal, "this body source does not lend"));
  }
};

// Streams bytes [offset, offset + length) of the file at `path`. The file is
// opened now, so a missing file is reported before any status is sent.
// Errors: kNotFound (no such file), kIo (cannot open or seek).
Result<std::unique_ptr<BodySource>> MakeFileRangeSource(const std::string& path, uint64_t offset,
                                                        uint64_t length);
// Streams bytes [offset, offset + length) of `fd` (a regular file; the source
// takes ownership and closes it) with pread, exposing File() for sendfile.
std::unique_ptr<BodySource> MakeFdRangeSource(int fd, uint64_t offset, uint64_t length);

struct Response {
  int status = 200;
  Headers headers;
  // The body when `stream` is null. Content-Length is set from it.
  std::string body;
  // When set, the body is pulled from here. With `stream_length` the server
  // sends Content-Length (and the source must produce exactly that many
  // bytes); without it, chunked transfer-coding.
  std::unique_ptr<BodySource> stream;
  std::optional<uint64_t> stream_length;
  // HEAD responses never carry a body. Their Content-Length is
  // `stream_length` if set, else a Content-Length header the handler set
  // (with an empty body), else body.size(). Otherwise the server always
  // computes Content-Length / Transfer-Encoding / Connection itself.

  // Convenience constructors; they set Content-Type.
  static Response Json(int status, std::string body);
  static Response Xml(int status, std::string body);
  static Response Text(int status, std::string body);
  static Response Empty(int status);
};

}  // namespace st::http
