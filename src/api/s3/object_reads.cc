// GetObject and HeadObject (docs/api-contract-notes.md §4.2): ranges, conditional
// requests, and a body streamed from the object store.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

#include "api/s3/object_etag_internal.h"
#include "api/s3/object_headers_internal.h"
#include "api/s3/s3_errors_internal.h"
#include "api/s3/surface_state_internal.h"
#include "common/mutex.h"

namespace st::api::s3 {

namespace {

// Streams [next, end) of an open object; the reader keeps the version that
// was opened, so the bytes always match the headers already sent.
class ObjectBodySource final : public http::BodySource {
 public:
  ObjectBodySource(std::unique_ptr<storage::ObjectReader> reader, int64_t first, int64_t length)
      : reader_(std::move(reader)), next_(first), end_(first + length) {}

  Result<size_t> Read(char* buffer, size_t capacity) override {
    int64_t want = std::min<int64_t>(static_cast<int64_t>(capacity), end_ - next_);
    if (want <= 0) return size_t{0};
    ST_ASSIGN_OR_RETURN(size_t got, reader_->ReadAt(next_, buffer, static_cast<size_t>(want)));
    if (got == 0) {
      return Err(IoError("object '" + reader_->info().key + "' ended at byte " +
                         std::to_string(next_) + " while being served"));
    }
    next_ += static_cast<int64_t>(got);
    return got;
  }

 private:
  std::unique_ptr<storage::ObjectReader> reader_;
  int64_t next_;
  int64_t end_;
};

// An ObjectBodySource for large encrypted bodies: a second thread reads and
// decrypts the next chunk while the I/O thread writes the previous one to
// the socket (without it the two alternate on one core). Two chunk buffers;
// Read hands out the filled one and releases it once copied.
class ReadAheadBodySource final : public http::BodySource {
 public:
  static constexpr size_t kChunkBytes = 1024 * 1024;
  // Bodies at least this long get the extra thread.
  static constexpr int64_t kMinBytes = 8 * 1024 * 1024;
  // At most this many bodies have a read-ahead thread at once, server-wide;
  // the others are served on the I/O thread alone (slower, never refused).
  // Without the bound every large GET a client opens would be one more
  // thread and 2 MiB of buffers: a cheap way to exhaust the host.
  static constexpr int kMaxConcurrent = 8;

  // The read-ahead source, or the plain one when kMaxConcurrent are busy.
  static std::unique_ptr<http::BodySource> Make(std::unique_ptr<storage::ObjectReader> reader,
                                                int64_t first, int64_t length) {
    if (active_count.fetch_add(1, std::memory_order_acq_rel) >= kMaxConcurrent) {
      active_count.fetch_sub(1, std::memory_order_acq_rel);
      return std::make_unique<ObjectBodySource>(std::move(reader), first, length);
    }
    return std::unique_ptr<http::BodySource>(
        new ReadAheadBodySource(std::move(reader), first, length));
  }

  ~ReadAheadBodySource() override {
    {
      common::MutexLock lock(mu_);
      stop_ = true;
    }
    changed_.NotifyAll();
    worker_.join();
    active_count.fetch_sub(1, std::memory_order_acq_rel);
  }

 private:
  // Only through Make, which counts it.
  ReadAheadBodySource(std::unique_ptr<storage::ObjectReader> reader, int64_t first, int64_t length)
      : source_(std::move(reader), first, length) {
    for (Slot& slot : slots_) slot.bytes.resize(kChunkBytes);
    worker_ = std::thread([this] { Fill(); });
  }

 public:
  Result<size_t> Read(char* buffer, size_t capacity) override {
    common::MutexLock lock(mu_);
    Slot& slot = slots_[reading_];
    while (!slot.ready) changed_.Wait(mu_);
    if (!slot.status.ok()) return Err(slot.status);
    size_t n = std::min(capacity, slot.size - slot.taken);
    // Copying outside the lock is safe: the worker does not touch a ready slot.
    lock.Unlock();
    std::memcpy(buffer, slot.bytes.data() + slot.taken, n);
    lock.Lock();
    slot.taken += n;
    if (slot.taken == slot.size && slot.size != 0) {
      slot.ready = false;
      reading_ ^= 1;
      changed_.NotifyAll();
    }
    return n;
  }

  // Lending hands the I/O thread a view of the filled slot itself (no copy
  // into the server's chunk); the slot goes back to the worker only on the
  // next Lend, once the server has written the bytes.
  bool CanLend() const override { return true; }
  Result<std::string_view> Lend(size_t max) override {
    common::MutexLock lock(mu_);
    if (lent_ > 0) {
      Slot& done = slots_[reading_];
      done.taken += lent_;
      lent_ = 0;
      if (done.taken == done.size) {
        done.ready = false;
        reading_ ^= 1;
        changed_.NotifyAll();
      }
    }
    Slot& slot = slots_[reading_];
    while (!slot.ready) changed_.Wait(mu_);
    if (!slot.status.ok()) return Err(slot.status);
    lent_ = std::min(max, slot.size - slot.taken);
    return std::string_view(slot.bytes.data() + slot.taken, lent_);
  }

 private:
  struct Slot {
    std::string bytes;
    size_t size = 0;   // Filled bytes; 0 with ready = the end.
    size_t taken = 0;  // Bytes already handed to Read.
    bool ready = false;
    Status status;
  };

  void Fill() {
    for (int index = 0;; index ^= 1) {
      Slot& slot = slots_[index];
      {
        common::MutexLock lock(mu_);
        while (slot.ready && !stop_) changed_.Wait(mu_);
        if (stop_) return;
      }
      // Only this thread touches a slot that is not ready.
      size_t filled = 0;
      Status status;
      while (filled < kChunkBytes) {
        Result<size_t> got = source_.Read(slot.bytes.data() + filled, kChunkBytes - filled);
        if (!got.has_value()) {
          status = got.error();
          break;
        }
        if (*got == 0) break;
        filled += *got;
      }
      common::MutexLock lock(mu_);
      slot.size = filled;
      slot.taken = 0;
      slot.status = status;
      slot.ready = true;
      changed_.NotifyAll();
      if (filled == 0 || !status.ok()) return;  // The end (or an error) is the last slot.
    }
  }

  ObjectBodySource source_;  // Used by the worker thread only.
  Slot slots_[2];
  common::Mutex mu_;
  common::CondVar changed_;
  bool stop_ GUARDED_BY(mu_) = false;
  int reading_ = 0;  // The slot Read takes from; Read's thread only.
  size_t lent_ = 0;  // Bytes of slots_[reading_] the last Lend handed out.
  std::thread worker_;
  static inline std::atomic<int> active_count{0};
};

// The object's own file, opened for sendfile, when it is still exactly the
// version `info` describes (same size and nanosecond mtime; the local store
// replaces objects by rename, so a newer version has a newer mtime); null
// otherwise, and the caller streams through the ObjectReader.
std::unique_ptr<http::BodySource> LocalFileBody(const S3State& state, const std::string& store_key,
                                                const storage::ObjectInfo& info, int64_t first,
                                                int64_t length) {
  // An encrypted object's file holds ciphertext: it is served decrypted.
  if (state.local_object_dir.empty() || info.sse != storage::SseKind::kNone) return nullptr;
  std::string path = state.local_object_dir + "/" + store_key;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st {};
  bool same = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == info.size_bytes &&
              std::chrono::system_clock::time_point(
                  std::chrono::duration_cast<std::chrono::system_clock::duration>(
                      std::chrono::seconds(st.st_mtim.tv_sec) +
                      std::chrono::nanoseconds(st.st_mtim.tv_nsec))) == info.last_modified;
  if (!same) {
    ::close(fd);
    return nullptr;
  }
  return http::MakeFdRangeSource(fd, static_cast<uint64_t>(first), static_cast<uint64_t>(length));
}

bool EtagListMatches(std::string_view list, const std::string& etag) {
  std::string_view unquoted_etag = std::string_view(etag).substr(1, etag.size() - 2);
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.substr(0, 2) == "W/") item.remove_prefix(2);
    if (item.size() >= 2 && item.front() == '"' && item.back() == '"') {
      item = item.substr(1, item.size() - 2);
    }
    if (item == "*" || item == unquoted_etag) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

std::chrono::system_clock::time_point WholeSeconds(std::chrono::system_clock::time_point t) {
  return std::chrono::time_point_cast<std::chrono::seconds>(t);
}

// RFC 9110 §13.2.2 order: If-Match, If-Unmodified-Since, If-None-Match,
// If-Modified-Since. Returns 304/412 as a response, nullopt to proceed.
std::optional<http::Response> CheckConditions(const http::RouteContext& context,
                                              const std::string& etag,
                                              std::chrono::system_clock::time_point modified) {
  const http::Headers& headers = context.request.headers;
  auto if_match = headers.Get("If-Match");
  if (if_match.has_value() && !EtagListMatches(*if_match, etag)) {
    return context.Fail(PreconditionFailed("If-Match"));
  }
  auto if_unmodified = headers.Get("If-Unmodified-Since");
  if (!if_match.has_value() && if_unmodified.has_value()) {
    auto date = ParseHttpDate(*if_unmodified);
    if (date.has_value() && WholeSeconds(modified) > *date) {
      return context.Fail(PreconditionFailed("If-Unmodified-Since"));
    }
  }
  auto if_none_match = headers.Get("If-None-Match");
  bool not_modified = if_none_match.has_value() && EtagListMatches(*if_none_match, etag);
  auto if_modified = headers.Get("If-Modified-Since");
  if (!if_none_match.has_value() && if_modified.has_value()) {
    auto date = ParseHttpDate(*if_modified);
    not_modified = date.has_value() && WholeSeconds(modified) <= *date;
  }
  if (!not_modified) return std::nullopt;
  http::Response response = http::Response::Empty(304);
  response.headers.Set("ETag", etag);
  response.headers.Set("Last-Modified", HttpDate(modified));
  return response;
}

// kms:Decrypt on `key_arn` for the caller, as S3 asks KMS on its behalf.
// nullopt when allowed (or when the surface has no authorizer).
Result<std::optional<http::HttpError>> CheckKmsDecrypt(const S3State& state,
                                                       const http::RouteContext& context,
                                                       const ObjectAddress& address,
                                                       const std::string& key_arn) {
  if (state.authorizer == nullptr) return std::optional<http::HttpError>();
  auth::AccessRequest access;
  access.action = "kms:Decrypt";
  access.resource = key_arn;
  access.condition_keys["kms:ViaService"] = {"s3." + state.region + ".amazonaws.com"};
  access.condition_keys["kms:CallerAccount"] = {context.principal.account_id};
  if (IsWarehouseBucket(address.bucket)) {
    Result<catalog::Table> table = OwningTable(state, address.bucket);
    if (table.has_value()) {
      access.condition_keys["kms:EncryptionContext:aws:s3:arn"] = {table->arn};
      access.condition_keys["kms:EncryptionContextKeys"] = {"aws:s3:arn",
                                                            "streamtables:object-key"};
    }
  }
  ST_ASSIGN_OR_RETURN(auth::AuthDecision decision,
                      state.authorizer->Authorize(auth::CallContext{context.request.request_id,
                                                                    context.request.remote_address},
                                                  context.principal, access));
  if (decision.allowed) return std::optional<http::HttpError>();
  return std::optional<http::HttpError>(
      AccessDenied(decision.message.empty()
                       ? "User: " + context.principal.arn +
                             " is not authorized to perform: kms:Decrypt on resource: " + key_arn
                       : decision.message));
}

Result<http::Response> ServeObject(const S3State& state, http::RouteContext& context,
                                   bool with_body) {
  ST_ASSIGN_OR_RETURN(ObjectAddress address, AddressOf(state, context.request));
  ST_TRY(CheckBucketExists(state, address.bucket));
  if (address.key.empty()) return context.Fail(NoSuchKey(address.key));
  std::string store_key = StoreKey(state, address.bucket, address.key);
  Result<storage::ObjectInfo> head = state.objects.Head(store_key);
  if (!head.has_value()) {
    if (head.error().code() == StatusCode::kNotFound) return context.Fail(NoSuchKey(address.key));
    return context.Fail(KmsAwareError(head.error()));
  }
  // HeadObject reads no data, so it needs no key; GetObject of an SSE-KMS
  // object needs kms:Decrypt too, checked before the key is unwrapped.
  std::unique_ptr<storage::ObjectReader> reader;
  if (with_body) {
    if (head->sse == storage::SseKind::kSseKms) {
      ST_ASSIGN_OR_RETURN(std::optional<http::HttpError> refused,
                          CheckKmsDecrypt(state, context, address, head->kms_key_arn));
      if (refused.has_value()) return context.Fail(*refused);
    }
    Result<std::unique_ptr<storage::ObjectReader>> opened = state.objects.OpenReader(store_key);
    if (!opened.has_value()) {
      if (opened.error().code() == StatusCode::kNotFound) {
        return context.Fail(NoSuchKey(address.key));
      }
      return context.Fail(KmsAwareError(opened.error()));
    }
    reader = std::move(opened).value();
  }
  const storage::ObjectInfo info = reader ? reader->info() : *head;
  std::string etag =
      EtagOf(state.objects, state.key_root, address.bucket + "/" + address.key, info);
  if (auto early = CheckConditions(context, etag, info.last_modified)) return std::move(*early);

  std::optional<std::string_view> range_header = context.request.headers.Get("Range");
  Result<std::optional<ByteRange>> range = ResolveRange(range_header, info.size_bytes);
  if (!range.has_value()) {
    return context.Fail(InvalidRange(std::string(*range_header), info.size_bytes));
  }
  ByteRange selected = range->value_or(ByteRange{0, info.size_bytes});

  http::Response response;
  response.status = range->has_value() ? 206 : 200;
  response.headers.Set("Content-Type", "binary/octet-stream");
  response.headers.Set("ETag", etag);
  response.headers.Set("Last-Modified", HttpDate(info.last_modified));
  response.headers.Set("Accept-Ranges", "bytes");
  SetEncryptionHeaders(info, response);
  if (range->has_value()) {
    response.headers.Set("Content-Range", "bytes " + std::to_string(selected.first) + "-" +
                                              std::to_string(selected.first + selected.length - 1) +
                                              "/" + std::to_string(info.size_bytes));
  }
  response.stream_length = static_cast<uint64_t>(selected.length);
  if (with_body && selected.length > 0 && info.sse != storage::SseKind::kNone) {
    // Opens the first segment the range touches before any header goes out,
    // so a segment that does not authenticate is an error response, not a
    // cut-off body (later segments can still only cut the body short).
    char first_byte = 0;
    Result<size_t> probed = reader->ReadAt(selected.first, &first_byte, 1);
    if (!probed.has_value()) return context.Fail(KmsAwareError(probed.error()));
  }
  if (with_body && selected.length > 0) {
    response.stream = LocalFileBody(state, store_key, info, selected.first, selected.length);
    if (response.stream == nullptr) {
      if (selected.length >= ReadAheadBodySource::kMinBytes) {
        response.stream =
            ReadAheadBodySource::Make(std::move(reader), selected.first, selected.length);
      } else {
        response.stream =
            std::make_unique<ObjectBodySource>(std::move(reader), selected.first, selected.length);
      }
    }
  }
  return response;
}

}  // namespace

// A read error as the S3 error a client matches on: a KMS refusal
// ("KMS.<Exception>: ...", server/object_encryption.h) keeps the KMS name as
// its code (S3 sends "KMS.DisabledException" and the like), 400 for a key in
// the wrong state, 403 for a refusal; anything else as it is.
http::HttpError KmsAwareError(const Status& error) {
  const std::string& message = error.message();
  if (message.rfind("KMS.", 0) != 0) return error;
  std::string code = message.substr(0, message.find(':'));
  int http_status = error.code() == StatusCode::kAccessDenied ? 403
                    : error.code() == StatusCode::kInternal   ? 500
                                                              : 400;
  return http::HttpError(error, http_status, code);
}

// x-amz-server-side-encryption (and the key for SSE-KMS), as S3 sends them.
void SetEncryptionHeaders(const storage::ObjectInfo& info, http::Response& response) {
  if (info.sse == storage::SseKind::kSseS3) {
    response.headers.Set("x-amz-server-side-encryption", "AES256");
  } else if (info.sse == storage::SseKind::kSseKms) {
    response.headers.Set("x-amz-server-side-encryption", "aws:kms");
    response.headers.Set("x-amz-server-side-encryption-aws-kms-key-id", info.kms_key_arn);
  }
}

Result<http::Response> GetObject(const S3State& state, http::RouteContext& context) {
  return ServeObject(state, context, true);
}

Result<http::Response> HeadObject(const S3State& state, http::RouteContext& context) {
  return ServeObject(state, context, false);
}

}  // namespace st::api::s3
