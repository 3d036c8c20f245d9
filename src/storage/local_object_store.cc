#include "storage/local_object_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace st::storage {

namespace fs = std::filesystem;

namespace {

// Hidden temp files start with this; List() skips them.
constexpr std::string_view kTempMarker = ".st-tmp-";

Status ErrnoStatus(const std::string& what, const std::string& path, int err) {
  if (err == ENOENT) return NotFound(what + " '" + path + "': no such object");
  return IoError(what + " '" + path + "': " + std::strerror(err));
}

// Objects are table data: files 0600 and directories 0700, whatever the umask.
constexpr mode_t kObjectFileMode = 0600;
constexpr mode_t kObjectDirMode = 0700;

// create_directories with mode 0700 for each directory it makes.
Status MakeDirectories(const fs::path& dir) {
  if (dir.empty()) return Status::OK();
  if (::mkdir(dir.c_str(), kObjectDirMode) == 0 || errno == EEXIST) return Status::OK();
  if (errno != ENOENT)
    return IoError("create directory '" + dir.string() + "': " + std::strerror(errno));
  ST_TRY(MakeDirectories(dir.parent_path()));
  if (::mkdir(dir.c_str(), kObjectDirMode) == 0 || errno == EEXIST) return Status::OK();
  return IoError("create directory '" + dir.string() + "': " + std::strerror(errno));
}

Status WriteAll(int fd, const void* data, size_t size, const std::string& path) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus("write", path, errno);
    }
    p += n;
    size -= static_cast<size_t>(n);
  }
  return Status::OK();
}

Status FsyncDir(const fs::path& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return ErrnoStatus("open directory", dir.string(), errno);
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  return rc == 0 ? Status::OK() : ErrnoStatus("fsync directory", dir.string(), err);
}

class LocalObjectWriter final : public ObjectWriter {
 public:
  LocalObjectWriter(fs::path target, fs::path temp, int fd, bool if_absent)
      : target_(std::move(target)), temp_(std::move(temp)), fd_(fd), if_absent_(if_absent) {}
  ~LocalObjectWriter() override {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) {
      std::error_code ec;
      fs::remove(temp_, ec);
    }
  }

  Status Write(const void* data, size_t size) override {
    if (!status_.ok()) return status_;
    if (fd_ < 0) return FailedPrecondition("write to committed object '" + target_.string() + "'");
    status_ = WriteAll(fd_, data, size, temp_.string());
    if (status_.ok()) position_ += static_cast<int64_t>(size);
    return status_;
  }
  int64_t Position() const override { return position_; }

  Status Commit() override {
    if (!status_.ok()) return status_;
    if (fd_ < 0) return FailedPrecondition("object '" + target_.string() + "' already committed");
    if (::fsync(fd_) != 0) return status_ = ErrnoStatus("fsync", temp_.string(), errno);
    ::close(fd_);
    fd_ = -1;
    if (if_absent_) {
      // link() fails with EEXIST instead of replacing: create-if-absent without a race.
      if (::link(temp_.c_str(), target_.c_str()) != 0) {
        int err = errno;
        std::error_code ec;
        fs::remove(temp_, ec);
        if (err == EEXIST)
          return status_ = AlreadyExists("object '" + target_.string() + "' already exists");
        return status_ = ErrnoStatus("link", target_.string(), err);
      }
      std::error_code ec;
      fs::remove(temp_, ec);
    } else if (::rename(temp_.c_str(), target_.c_str()) != 0) {
      return status_ = ErrnoStatus("rename", target_.string(), errno);
    }
    committed_ = true;
    return status_ = FsyncDir(target_.parent_path());
  }

 private:
  fs::path target_;
  fs::path temp_;
  int fd_;
  bool if_absent_;
  bool committed_ = false;
  int64_t position_ = 0;
  Status status_;
};

// Holds the file open: a rename over the key or a delete does not disturb
// a read in progress (POSIX keeps the old inode alive).
class LocalObjectReader final : public ObjectReader {
 public:
  LocalObjectReader(int fd, ObjectInfo info) : fd_(fd), info_(std::move(info)) {}
  ~LocalObjectReader() override { ::close(fd_); }

  const ObjectInfo& info() const override { return info_; }

  Result<size_t> ReadAt(int64_t offset, char* buffer, size_t capacity) override {
    if (offset < 0) return Err(InvalidArgument("negative read offset in '" + info_.key + "'"));
    while (true) {
      ssize_t n = ::pread(fd_, buffer, capacity, offset);
      if (n >= 0) return static_cast<size_t>(n);
      if (errno != EINTR) return Err(ErrnoStatus("read", info_.key, errno));
    }
  }

 private:
  int fd_;
  ObjectInfo info_;
};

class LocalObjectStore final : public ObjectStore {
 public:
  explicit LocalObjectStore(fs::path root) : root_(std::move(root)) {}

  Status Put(std::string_view key, std::string_view bytes) override {
    return PutImpl(key, bytes, false);
  }
  Status PutIfAbsent(std::string_view key, std::string_view bytes) override {
    return PutImpl(key, bytes, true);
  }

  Result<std::unique_ptr<ObjectWriter>> NewWriter(std::string_view key) override {
    return OpenWriter(key, false);
  }

  Result<std::string> Get(std::string_view key) override {
    ST_TRY(ValidateObjectKey(key));
    ST_ASSIGN_OR_RETURN(ObjectInfo info, Head(key));
    return GetRange(key, 0, info.size_bytes);
  }

  Result<std::string> GetRange(std::string_view key, int64_t offset, int64_t length) override {
    ST_TRY(ValidateObjectKey(key));
    fs::path path = root_ / std::string(key);
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return Err(ErrnoStatus("open", std::string(key), errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      return Err(NotFound("object '" + std::string(key) + "' is not a regular file"));
    }
    if (offset < 0 || length < 0 || (offset > st.st_size)) {
      ::close(fd);
      return Err(InvalidArgument("range offset " + std::to_string(offset) + " is beyond object '" +
                                 std::string(key) + "' of " + std::to_string(st.st_size) +
                                 " bytes"));
    }
    int64_t n = std::min<int64_t>(length, st.st_size - offset);
    std::string out(static_cast<size_t>(n), '\0');
    int64_t done = 0;
    while (done < n) {
      ssize_t r = ::pread(fd, out.data() + done, static_cast<size_t>(n - done), offset + done);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        int err = r < 0 ? errno : EIO;
        ::close(fd);
        return Err(ErrnoStatus("read", std::string(key), err));
      }
      done += r;
    }
    ::close(fd);
    return out;
  }

  Result<std::unique_ptr<ObjectReader>> OpenReader(std::string_view key) override {
    ST_TRY(ValidateObjectKey(key));
    fs::path path = root_ / std::string(key);
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      // "a/b" where "a" is an object: that key does not exist either.
      int err = errno == ENOTDIR ? ENOENT : errno;
      return Err(ErrnoStatus("open", std::string(key), err));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      return Err(NotFound("object '" + std::string(key) + "' does not exist"));
    }
    // The whole file is read front to back by the S3 endpoint.
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    return std::unique_ptr<ObjectReader>(new LocalObjectReader(fd, Info(std::string(key), st)));
  }

  Result<ObjectInfo> Head(std::string_view key) override {
    ST_TRY(ValidateObjectKey(key));
    fs::path path = root_ / std::string(key);
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return Err(ErrnoStatus("stat", std::string(key), errno));
    if (!S_ISREG(st.st_mode))
      return Err(NotFound("object '" + std::string(key) + "' does not exist"));
    return Info(std::string(key), st);
  }

  Result<std::vector<ObjectInfo>> List(std::string_view prefix) override {
    std::vector<ObjectInfo> out;
    // Walk only the deepest directory the prefix names fully.
    std::string p(prefix);
    size_t slash = p.rfind('/');
    fs::path start = slash == std::string::npos ? root_ : root_ / p.substr(0, slash);
    std::error_code ec;
    if (!fs::is_directory(start, ec)) return out;
    for (fs::recursive_directory_iterator it(start, ec), end; it != end && !ec; it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;
      std::string name = it->path().filename().string();
      if (name.rfind(kTempMarker, 0) == 0) continue;
      std::string key = fs::relative(it->path(), root_, ec).generic_string();
      if (key.rfind(p, 0) != 0) continue;
      struct stat st {};
      if (::stat(it->path().c_str(), &st) != 0) continue;  // Deleted meanwhile.
      out.push_back(Info(key, st));
    }
    if (ec) return Err(IoError("list '" + p + "': " + ec.message()));
    std::sort(out.begin(), out.end(),
              [](const ObjectInfo& a, const ObjectInfo& b) { return a.key < b.key; });
    return out;
  }

  Status Delete(std::string_view key) override {
    ST_TRY(ValidateObjectKey(key));
    fs::path path = root_ / std::string(key);
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
      return ErrnoStatus("delete", std::string(key), errno);
    return Status::OK();
  }

 private:
  static ObjectInfo Info(std::string key, const struct stat& st) {
    ObjectInfo info;
    info.key = std::move(key);
    info.size_bytes = st.st_size;
    info.last_modified = std::chrono::system_clock::time_point(
        std::chrono::duration_cast<std::chrono::system_clock::duration>(
            std::chrono::seconds(st.st_mtim.tv_sec) +
            std::chrono::nanoseconds(st.st_mtim.tv_nsec)));
    return info;
  }

  Status PutImpl(std::string_view key, std::string_view bytes, bool if_absent) {
    ST_ASSIGN_OR_RETURN(auto writer, OpenWriter(key, if_absent));
    ST_TRY(writer->Write(bytes.data(), bytes.size()));
    return writer->Commit();
  }

  Result<std::unique_ptr<ObjectWriter>> OpenWriter(std::string_view key, bool if_absent) {
    ST_TRY(ValidateObjectKey(key));
    fs::path target = root_ / std::string(key);
    Status made = MakeDirectories(target.parent_path());
    if (!made.ok()) return Err(made.WithContext("object '" + std::string(key) + "'"));
    static std::atomic<uint64_t> counter{0};
    fs::path temp = target.parent_path() /
                    (std::string(kTempMarker) + std::to_string(::getpid()) + "-" +
                     std::to_string(counter.fetch_add(1)) + "-" + target.filename().string());
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, kObjectFileMode);
    if (fd < 0) return Err(ErrnoStatus("create", temp.string(), errno));
    return std::unique_ptr<ObjectWriter>(new LocalObjectWriter(target, temp, fd, if_absent));
  }

  fs::path root_;
};

}  // namespace

Status ValidateObjectKey(std::string_view key) {
  if (key.empty()) return InvalidArgument("object key is empty");
  if (key.front() == '/')
    return InvalidArgument("object key '" + std::string(key) + "' must not start with '/'");
  size_t start = 0;
  while (start <= key.size()) {
    size_t end = key.find('/', start);
    if (end == std::string_view::npos) end = key.size();
    std::string_view seg = key.substr(start, end - start);
    if (seg.empty() || seg == "." || seg == "..") {
      return InvalidArgument("object key '" + std::string(key) +
                             "' has an empty, '.' or '..' path segment");
    }
    if (seg.rfind(kTempMarker, 0) == 0) {
      return InvalidArgument("object key '" + std::string(key) +
                             "' uses the reserved prefix .st-tmp-");
    }
    start = end + 1;
  }
  return Status::OK();
}

Result<std::unique_ptr<ObjectStore>> OpenLocalObjectStore(const std::string& root_dir) {
  Status made = MakeDirectories(fs::path(root_dir));
  if (!made.ok()) return Err(made.WithContext("object store root"));
  std::error_code ec;
  fs::path root = fs::absolute(root_dir, ec);
  if (ec) return Err(IoError("resolve '" + root_dir + "': " + ec.message()));
  return std::unique_ptr<ObjectStore>(new LocalObjectStore(root));
}

}  // namespace st::storage
