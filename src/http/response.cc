#include "http/response.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace st::http {

namespace {

class FileRangeSource final : public BodySource {
 public:
  FileRangeSource(std::FILE* file, uint64_t remaining) : file_(file), remaining_(remaining) {}
  ~FileRangeSource() override { std::fclose(file_); }

  Result<size_t> Read(char* buffer, size_t capacity) override {
    if (!status_.ok()) return Err(status_);
    if (remaining_ == 0) return size_t{0};
    size_t want = capacity < remaining_ ? capacity : static_cast<size_t>(remaining_);
    size_t got = std::fread(buffer, 1, want, file_);
    if (got == 0) {
      status_ = IoError(std::ferror(file_) ? "read failed while streaming a file range"
                                           : "file ended before the announced range; it was "
                                             "truncated while being served");
      return Err(status_);
    }
    remaining_ -= got;
    return got;
  }

 private:
  std::FILE* file_;
  uint64_t remaining_;
  Status status_;
};

class FdRangeSource final : public BodySource {
 public:
  FdRangeSource(int fd, uint64_t offset, uint64_t length)
      : fd_(fd), first_(offset), next_(offset), end_(offset + length) {}
  ~FdRangeSource() override { ::close(fd_); }

  Result<size_t> Read(char* buffer, size_t capacity) override {
    if (next_ >= end_) return size_t{0};
    size_t want = capacity < end_ - next_ ? capacity : static_cast<size_t>(end_ - next_);
    while (true) {
      ssize_t got = ::pread(fd_, buffer, want, static_cast<off_t>(next_));
      if (got > 0) {
        next_ += static_cast<uint64_t>(got);
        return static_cast<size_t>(got);
      }
      if (got == 0) {
        return Err(IoError("file ended at byte " + std::to_string(next_) +
                           " before the announced range; it was truncated while being served"));
      }
      if (errno != EINTR) return Err(IoError(std::string("read failed: ") + std::strerror(errno)));
    }
  }

  std::optional<FileSpan> File() const override {
    if (next_ != first_) return std::nullopt;  // Partly consumed through Read.
    return FileSpan{fd_, first_, end_ - first_};
  }

 private:
  int fd_;
  uint64_t first_;
  uint64_t next_;
  uint64_t end_;
};

Response WithType(int status, std::string body, const char* type) {
  Response r;
  r.status = status;
  r.body = std::move(body);
  r.headers.Set("Content-Type", type);
  return r;
}

}  // namespace

Result<std::unique_ptr<BodySource>> MakeFileRangeSource(const std::string& path, uint64_t offset,
                                                        uint64_t length) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    int err = errno;
    if (err == ENOENT) return Err(NotFound("file '" + path + "' does not exist"));
    return Err(IoError("cannot open '" + path + "': " + std::strerror(err)));
  }
  if (fseeko(file, static_cast<off_t>(offset), SEEK_SET) != 0) {
    int err = errno;
    std::fclose(file);
    return Err(IoError("cannot seek to " + std::to_string(offset) + " in '" + path +
                       "': " + std::strerror(err)));
  }
  return std::unique_ptr<BodySource>(std::make_unique<FileRangeSource>(file, length));
}

std::unique_ptr<BodySource> MakeFdRangeSource(int fd, uint64_t offset, uint64_t length) {
  return std::make_unique<FdRangeSource>(fd, offset, length);
}

Response Response::Json(int status, std::string body) {
  return WithType(status, std::move(body), "application/json");
}
Response Response::Xml(int status, std::string body) {
  return WithType(status, std::move(body), "application/xml");
}
Response Response::Text(int status, std::string body) {
  return WithType(status, std::move(body), "text/plain; charset=utf-8");
}
Response Response::Empty(int status) {
  Response r;
  r.status = status;
  return r;
}

}  // namespace st::http
