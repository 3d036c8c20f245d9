#include "s3store/s3_object_store.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>

#include "common/percent_encoding.h"
#include "common/xml_text.h"
#include "http_client/http_client.h"
#include "s3store/s3_xml_internal.h"

namespace st::s3store {

namespace {

using http_client::HttpClient;
using http_client::HttpClientOptions;
using http_client::HttpRequest;
using http_client::HttpResponse;
using storage::ObjectInfo;
using storage::ObjectReader;
using storage::ObjectWriter;

// One S3 call before signing.
struct Call {
  std::string method;
  std::string key;    // Store key; "" for a bucket-level call.
  std::string query;  // Encoded, without '?'.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string_view body;
};

struct Reply {
  std::unique_ptr<HttpResponse> response;
  int attempts = 0;  // > 1 when an earlier attempt may have been applied.
};

// Second resolution, as S3's HEAD Last-Modified has it; List's milliseconds
// are cut to match, so one object reports one time whichever call asked.
std::chrono::system_clock::time_point ToSeconds(std::chrono::system_clock::time_point t) {
  return std::chrono::time_point_cast<std::chrono::seconds>(t);
}

class S3ObjectStore;

class S3Reader final : public ObjectReader {
 public:
  S3Reader(S3ObjectStore& store, ObjectInfo info, std::string etag)
      : store_(store), info_(std::move(info)), etag_(std::move(etag)) {}
  const ObjectInfo& info() const override { return info_; }
  Result<size_t> ReadAt(int64_t offset, char* buffer, size_t capacity) override;

 private:
  Status Reopen(int64_t offset);
  // Up to `capacity` bytes at position_ from the open GET (reopened once at
  // position_ when the connection broke). 0 only at the object's end.
  Result<size_t> ReadStream(char* buffer, size_t capacity);

  // A jump forward by at most this much reads and drops the bytes in
  // between rather than starting a new GET.
  static constexpr int64_t kSkipLimit = 256 * 1024;
  // Reads smaller than the window go through it: every stream read costs
  // a few syscalls and a timer, so small sequential reads (the decrypting
  // reader's 64 KiB segments) are served from one larger read. It starts
  // small (a ranged GET of a few bytes reads little more) and doubles while
  // the reads stay sequential. It also serves a read just behind the stream
  // position (the envelope header probe overlaps the first segment).
  static constexpr size_t kFirstWindow = 64 * 1024;
  static constexpr size_t kMaxWindow = 2 * 1024 * 1024;

  S3ObjectStore& store_;
  ObjectInfo info_;
  std::string etag_;
  std::unique_ptr<HttpResponse> body_;
  int64_t position_ = 0;  // Offset of the next byte body_ yields.
  std::string window_;    // Bytes [window_offset_, position_) when body_ is open.
  int64_t window_offset_ = 0;
  size_t window_limit_ = kFirstWindow;
};

class S3Writer final : public ObjectWriter {
 public:
  S3Writer(S3ObjectStore& store, std::string key) : store_(store), key_(std::move(key)) {}
  ~S3Writer() override;
  Status Write(const void* data, size_t size) override;
  int64_t Position() const override { return position_; }
  Status Commit() override;

 private:
  Status Flush();

  S3ObjectStore& store_;
  std::string key_;
  std::string buffer_;
  std::string upload_id_;
  std::vector<std::string> etags_;
  int64_t position_ = 0;
  bool committed_ = false;
  Status status_;
};

class S3ObjectStore final : public storage::ObjectStore {
 public:
  S3ObjectStore(S3StoreOptions options, const Clock& clock, Random& random, Sleeper sleep)
      : options_(std::move(options)),
        clock_(clock),
        random_(random),
        sleep_(std::move(sleep)),
        http_(HttpClientOptions{options_.location.host, options_.location.port,
                                options_.connect_timeout, options_.io_timeout,
                                options_.max_idle_connections, options_.location.tls,
                                options_.ca_file}) {
    if (!sleep_) sleep_ = [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); };
  }

  const S3StoreOptions& options() const { return options_; }

  Status Put(std::string_view key, std::string_view bytes) override {
    ST_TRY(storage::ValidateObjectKey(key));
    if (static_cast<int64_t>(bytes.size()) >= options_.multipart_threshold) {
      S3Writer writer(*this, std::string(key));
      ST_TRY(writer.Write(bytes.data(), bytes.size()));
      return writer.Commit();
    }
    return PutSingle(key, bytes, false);
  }

  Status PutIfAbsent(std::string_view key, std::string_view bytes) override {
    ST_TRY(storage::ValidateObjectKey(key));
    return PutSingle(key, bytes, true);
  }

  Result<std::unique_ptr<ObjectWriter>> NewWriter(std::string_view key) override {
    ST_TRY(storage::ValidateObjectKey(key));
    return std::unique_ptr<ObjectWriter>(new S3Writer(*this, std::string(key)));
  }

  Result<std::string> Get(std::string_view key) override {
    ST_TRY(storage::ValidateObjectKey(key));
    ST_ASSIGN_OR_RETURN(Reply reply, Send(Call{"GET", std::string(key), "", {}, {}}));
    ST_TRY(ExpectStatus(reply, {200}, key));
    return reply.response->ReadAll(std::numeric_limits<size_t>::max());
  }

  Result<std::string> GetRange(std::string_view key, int64_t offset, int64_t length) override {
    ST_TRY(storage::ValidateObjectKey(key));
    if (offset < 0 || length < 0) {
      return Err(InvalidArgument("negative range in '" + std::string(key) + "'"));
    }
    if (length == 0) {
      ST_ASSIGN_OR_RETURN(ObjectInfo info, Head(key));
      if (offset > info.size_bytes) return Err(BeyondEnd(key, offset, info.size_bytes));
      return std::string();
    }
    ST_ASSIGN_OR_RETURN(Reply reply, Send(Call{"GET",
                                               std::string(key),
                                               "",
                                               {{"Range", "bytes=" + std::to_string(offset) + "-" +
                                                              std::to_string(offset + length - 1)}},
                                               {}}));
    if (reply.response->status() == 416) {
      // At the very end is an empty read; beyond it an error.
      ST_ASSIGN_OR_RETURN(ObjectInfo info, Head(key));
      if (offset == info.size_bytes) return std::string();
      return Err(BeyondEnd(key, offset, info.size_bytes));
    }
    ST_TRY(ExpectStatus(reply, {200, 206}, key));
    ST_ASSIGN_OR_RETURN(std::string bytes,
                        reply.response->ReadAll(std::numeric_limits<size_t>::max()));
    // A server that ignores Range sends the whole object (200).
    if (reply.response->status() == 200) {
      if (offset > static_cast<int64_t>(bytes.size())) {
        return Err(BeyondEnd(key, offset, static_cast<int64_t>(bytes.size())));
      }
      bytes = bytes.substr(static_cast<size_t>(offset), static_cast<size_t>(length));
    }
    return bytes;
  }

  Result<std::unique_ptr<ObjectReader>> OpenReader(std::string_view key) override {
    ST_TRY(storage::ValidateObjectKey(key));
    std::string etag;
    ST_ASSIGN_OR_RETURN(ObjectInfo info, HeadWithEtag(key, &etag));
    return std::unique_ptr<ObjectReader>(new S3Reader(*this, std::move(info), std::move(etag)));
  }

  Result<ObjectInfo> Head(std::string_view key) override {
    ST_TRY(storage::ValidateObjectKey(key));
    return HeadWithEtag(key, nullptr);
  }

  Result<std::vector<ObjectInfo>> List(std::string_view prefix) override {
    std::vector<ObjectInfo> out;
    std::string token;
    const std::string root = RootPrefix();
    while (true) {
      std::string query = "list-type=2&prefix=" + PercentEncode(root + std::string(prefix));
      if (!token.empty()) query += "&continuation-token=" + PercentEncode(token);
      ST_ASSIGN_OR_RETURN(Reply reply, Send(Call{"GET", "", query, {}, {}}));
      ST_TRY(ExpectStatus(reply, {200}, prefix));
      ST_ASSIGN_OR_RETURN(std::string xml, reply.response->ReadAll());
      std::optional<ListPage> page = ParseListObjectsV2(xml);
      if (!page.has_value()) {
        return Err(IoError("listing '" + std::string(prefix) + "': not a ListObjectsV2 reply"));
      }
      for (ListedObject& object : page->objects) {
        if (object.key.rfind(root, 0) != 0) continue;
        ObjectInfo info;
        info.key = object.key.substr(root.size());
        if (!storage::ValidateObjectKey(info.key).ok()) continue;  // Not one of ours.
        info.size_bytes = object.size;
        info.last_modified = ToSeconds(object.last_modified);
        out.push_back(std::move(info));
      }
      if (!page->truncated || page->next_token.empty()) break;
      token = page->next_token;
    }
    // S3 lists in UTF-8 binary order, which is byte order: already sorted.
    std::sort(out.begin(), out.end(),
              [](const ObjectInfo& a, const ObjectInfo& b) { return a.key < b.key; });
    return out;
  }

  Status Delete(std::string_view key) override {
    ST_TRY(storage::ValidateObjectKey(key));
    ST_ASSIGN_OR_RETURN(Reply reply, Send(Call{"DELETE", std::string(key), "", {}, {}}));
    if (reply.response->status() == 404) return Status::OK();
    return ExpectStatus(reply, {200, 204}, key);
  }

  // ---- Used by the reader and the writer.

  // Signs and sends `call`, retrying transport failures and retryable
  // statuses; returns the first final reply (its body unread).
  Result<Reply> Send(const Call& call) {
    Reply reply;
    Status last;
    for (int attempt = 1; attempt <= options_.retry.max_attempts; ++attempt) {
      if (attempt > 1) sleep_(BackoffDelay(options_.retry, attempt - 1, random_));
      reply.attempts = attempt;
      Result<std::unique_ptr<HttpResponse>> sent = SendOnce(call);
      if (!sent.has_value()) {
        last = sent.error();
        continue;
      }
      if (IsRetryableStatus((*sent)->status())) {
        std::string body = (*sent)->ReadAll().value_or("");
        last = ErrorFromReply((*sent)->status(), body, call.method + " " + ObjectName(call.key));
        continue;
      }
      reply.response = std::move(sent).value();
      return reply;
    }
    // Named as the object store, so a stalled channel's stateInfo says what
    // is unreachable (the transport error alone names only host:port).
    return Err(last.WithContext("object store " + ObjectName(call.key) + ": " + call.method +
                                " failed after " + std::to_string(options_.retry.max_attempts) +
                                " attempts"));
  }

  // OK when the reply has one of `ok`; otherwise its S3 error as a Status.
  Status ExpectStatus(Reply& reply, std::initializer_list<int> ok, std::string_view key) {
    int status = reply.response->status();
    if (std::find(ok.begin(), ok.end(), status) != ok.end()) return Status::OK();
    std::string body = reply.response->ReadAll().value_or("");
    return ErrorFromReply(status, body, ObjectName(key));
  }

  Result<std::string> CreateUpload(const std::string& key) {
    ST_ASSIGN_OR_RETURN(Reply reply, Send(Call{"POST", key, "uploads=", {}, {}}));
    ST_TRY(ExpectStatus(reply, {200}, key));
    ST_ASSIGN_OR_RETURN(std::string xml, reply.response->ReadAll());
    std::optional<std::string> id = XmlElementText(xml, "UploadId");
    if (!id.has_value() || id->empty()) {
      return Err(IoError("CreateMultipartUpload of '" + key + "' returned no UploadId"));
    }
    return *id;
  }

  Result<std::string> UploadPart(const std::string& key, const std::string& upload_id, int number,
                                 std::string_view bytes) {
    std::string query =
        "partNumber=" + std::to_string(number) + "&uploadId=" + PercentEncode(upload_id);
    ST_ASSIGN_OR_RETURN(Reply reply, Send(Call{"PUT", key, query, {}, bytes}));
    ST_TRY(ExpectStatus(reply, {200}, key));
    std::string etag = reply.response->Header("ETag");
    ST_TRY(reply.response->ReadAll());
    if (etag.empty()) return Err(IoError("UploadPart of '" + key + "' returned no ETag"));
    return etag;
  }

  Status CompleteUpload(const std::string& key, const std::string& upload_id,
                        const std::vector<std::string>& etags, int64_t total_bytes) {
    std::string xml = "<CompleteMultipartUpload>";
    for (size_t i = 0; i < etags.size(); ++i) {
      xml += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" + etags[i] +
             "</ETag></Part>";
    }
    xml += "</CompleteMultipartUpload>";
    ST_ASSIGN_OR_RETURN(Reply reply, Send(Call{"POST",
                                               key,
                                               "uploadId=" + PercentEncode(upload_id),
                                               {{"Content-Type", "application/xml"}},
                                               xml}));
    if (reply.response->status() == 404 && reply.attempts > 1) {
      // An earlier attempt may have completed the upload (then it is gone).
      ST_TRY(reply.response->ReadAll());
      Result<ObjectInfo> stored = Head(key);
      if (stored.has_value() && stored->size_bytes == total_bytes) return Status::OK();
      return IoError("CompleteMultipartUpload of '" + key + "': the upload vanished");
    }
    ST_TRY(ExpectStatus(reply, {200}, key));
    // S3 may answer 200 and put the failure in the body.
    ST_ASSIGN_OR_RETURN(std::string body, reply.response->ReadAll());
    if (body.find("<Error>") != std::string::npos)
      return ErrorFromReply(500, body, ObjectName(key));
    return Status::OK();
  }

  void AbortUpload(const std::string& key, const std::string& upload_id) {
    Result<Reply> reply = Send(Call{"DELETE", key, "uploadId=" + PercentEncode(upload_id), {}, {}});
    if (reply.has_value()) (void)reply->response->ReadAll();
  }

  Status PutSingle(std::string_view key, std::string_view bytes, bool if_absent) {
    Call call{"PUT", std::string(key), "", {}, bytes};
    if (if_absent) call.headers.emplace_back("If-None-Match", "*");
    ST_ASSIGN_OR_RETURN(Reply reply, Send(call));
    if (if_absent && reply.response->status() == 412) {
      ST_TRY(reply.response->ReadAll());
      if (reply.attempts > 1) {
        // Maybe our own earlier attempt: then the stored bytes are ours.
        Result<std::string> stored = Get(key);
        if (stored.has_value() && *stored == bytes) return Status::OK();
      }
      return AlreadyExists("object '" + std::string(key) + "' already exists");
    }
    ST_TRY(ExpectStatus(reply, {200}, key));
    ST_TRY(reply.response->ReadAll());
    return Status::OK();
  }

  Result<std::unique_ptr<HttpResponse>> GetFrom(const std::string& key, int64_t offset,
                                                const std::string& etag) {
    Call call{"GET", key, "", {{"Range", "bytes=" + std::to_string(offset) + "-"}}, {}};
    if (!etag.empty()) call.headers.emplace_back("If-Match", etag);
    ST_ASSIGN_OR_RETURN(Reply reply, Send(call));
    if (reply.response->status() == 412) {
      return Err(IoError("object '" + key + "' was replaced while being read"));
    }
    ST_TRY(ExpectStatus(reply, {206}, key));
    return std::move(reply.response);
  }

 private:
  std::string RootPrefix() const {
    return options_.location.prefix.empty() ? "" : options_.location.prefix + "/";
  }

  std::string ObjectName(std::string_view key) const {
    return "s3://" + options_.location.bucket + "/" + RootPrefix() + std::string(key);
  }

  static Status BeyondEnd(std::string_view key, int64_t offset, int64_t size) {
    return InvalidArgument("range offset " + std::to_string(offset) + " is beyond object '" +
                           std::string(key) + "' of " + std::to_string(size) + " bytes");
  }

  static Status ErrorFromReply(int status, std::string_view body, const std::string& what) {
    std::string code = XmlElementText(body, "Code").value_or("HTTP " + std::to_string(status));
    std::string message = what + ": " + code;
    if (auto text = XmlElementText(body, "Message"); text.has_value() && !text->empty()) {
      message += " (" + *text + ")";
    }
    if (status == 404) return NotFound(message);
    if (status == 403) return Status(StatusCode::kAccessDenied, message);
    if (status == 503 || status == 429) return Status(StatusCode::kUnavailable, message);
    return IoError(message);
  }

  Result<ObjectInfo> HeadWithEtag(std::string_view key, std::string* etag) {
    ST_ASSIGN_OR_RETURN(Reply reply, Send(Call{"HEAD", std::string(key), "", {}, {}}));
    if (reply.response->status() == 404) {
      return Err(NotFound("object '" + std::string(key) + "' does not exist"));
    }
    ST_TRY(ExpectStatus(reply, {200}, key));
    ObjectInfo info;
    info.key = std::string(key);
    info.size_bytes = std::strtoll(reply.response->Header("Content-Length").c_str(), nullptr, 10);
    info.last_modified = ToSeconds(
        ParseS3Time(reply.response->Header("Last-Modified")).value_or(info.last_modified));
    if (etag != nullptr) *etag = reply.response->Header("ETag");
    return info;
  }

  Result<std::unique_ptr<HttpResponse>> SendOnce(const Call& call) {
    std::string path = "/" + options_.location.bucket;
    if (!call.key.empty()) path += "/" + PercentEncode(RootPrefix() + call.key, "/");
    std::string host = options_.location.host + ":" + options_.location.port;
    std::vector<std::pair<std::string_view, std::string_view>> view_headers;
    view_headers.emplace_back("host", host);
    for (const auto& [name, value] : call.headers) view_headers.emplace_back(name, value);
    auth::HttpRequestView view;
    view.method = call.method;
    view.raw_path = path;
    view.raw_query = call.query;
    view.headers = std::move(view_headers);
    view.body = call.body;
    auth::SigningOptions signing;
    signing.region = options_.location.region;
    signing.service = "s3";
    signing.time = clock_.Now();
    signing.payload = auth::PayloadSigning::kHashBody;
    signing.add_content_sha256_header = true;
    ST_ASSIGN_OR_RETURN(auto added, auth::SignRequest(view, options_.credentials, signing));
    HttpRequest request;
    request.method = call.method;
    request.target = call.query.empty() ? path : path + "?" + call.query;
    request.headers = call.headers;
    for (auto& header : added) request.headers.push_back(std::move(header));
    request.body = call.body;
    return http_.Send(request);
  }

  const S3StoreOptions options_;
  const Clock& clock_;
  Random& random_;
  Sleeper sleep_;
  HttpClient http_;
};

// ---- S3Reader

Result<size_t> S3Reader::ReadAt(int64_t offset, char* buffer, size_t capacity) {
  if (offset < 0) return Err(InvalidArgument("negative read offset in '" + info_.key + "'"));
  if (offset >= info_.size_bytes || capacity == 0) return size_t{0};
  capacity = static_cast<size_t>(
      std::min<int64_t>(static_cast<int64_t>(capacity), info_.size_bytes - offset));
  auto from_window = [&]() -> std::optional<size_t> {
    if (offset < window_offset_ || offset >= window_offset_ + static_cast<int64_t>(window_.size()))
      return std::nullopt;
    size_t within = static_cast<size_t>(offset - window_offset_);
    size_t n = std::min(capacity, window_.size() - within);
    std::memcpy(buffer, window_.data() + within, n);
    return n;
  };
  if (auto n = from_window()) return *n;
  if (body_ != nullptr && offset > position_ && offset - position_ <= kSkipLimit) {
    std::string skipped(static_cast<size_t>(offset - position_), '\0');
    size_t done = 0;
    while (body_ != nullptr && done < skipped.size()) {
      Result<size_t> got = body_->Read(skipped.data() + done, skipped.size() - done);
      if (!got.has_value() || *got == 0) {
        body_.reset();
        break;
      }
      done += *got;
      position_ += static_cast<int64_t>(*got);
    }
  }
  if (body_ == nullptr || offset != position_) {
    window_.clear();
    ST_TRY(Reopen(offset));
    window_limit_ = kFirstWindow;
  }
  if (capacity >= window_limit_) {
    // Large reads go straight into the caller's buffer.
    window_.clear();
    ST_ASSIGN_OR_RETURN(size_t got, ReadStream(buffer, capacity));
    if (got == 0) return Err(IoError("object '" + info_.key + "' ended early"));
    return got;
  }
  window_.resize(static_cast<size_t>(
      std::min<int64_t>(static_cast<int64_t>(window_limit_), info_.size_bytes - position_)));
  window_offset_ = position_;
  ST_ASSIGN_OR_RETURN(size_t got, ReadStream(window_.data(), window_.size()));
  window_.resize(got);
  if (got == 0) return Err(IoError("object '" + info_.key + "' ended early"));
  window_limit_ = std::min(window_limit_ * 2, kMaxWindow);
  return *from_window();
}

Status S3Reader::Reopen(int64_t offset) {
  body_.reset();
  ST_ASSIGN_OR_RETURN(body_, store_.GetFrom(info_.key, offset, etag_));
  position_ = offset;
  return Status::OK();
}

Result<size_t> S3Reader::ReadStream(char* buffer, size_t capacity) {
  for (int attempt = 0;; ++attempt) {
    Result<size_t> got = body_->Read(buffer, capacity);
    if (got.has_value() && (*got > 0 || position_ >= info_.size_bytes)) {
      position_ += static_cast<int64_t>(*got);
      return got;
    }
    // The connection broke (or ended) mid-body: one fresh GET from here,
    // still If-Match, so it is the same version.
    if (attempt > 0) {
      if (!got.has_value()) return got;
      return Err(IoError("object '" + info_.key + "' ended at byte " + std::to_string(position_) +
                         " of " + std::to_string(info_.size_bytes)));
    }
    ST_TRY(Reopen(position_));
  }
}

// ---- S3Writer

S3Writer::~S3Writer() {
  if (!committed_ && !upload_id_.empty()) store_.AbortUpload(key_, upload_id_);
}

Status S3Writer::Write(const void* data, size_t size) {
  if (!status_.ok()) return status_;
  if (committed_) return FailedPrecondition("write to committed object '" + key_ + "'");
  const char* p = static_cast<const char*>(data);
  const size_t part = static_cast<size_t>(store_.options().part_bytes);
  while (size > 0) {
    size_t n = std::min(size, part - buffer_.size());
    buffer_.append(p, n);
    p += n;
    size -= n;
    position_ += static_cast<int64_t>(n);
    if (buffer_.size() == part) ST_TRY(status_ = Flush());
  }
  return status_;
}

Status S3Writer::Flush() {
  if (upload_id_.empty()) {
    ST_ASSIGN_OR_RETURN(upload_id_, store_.CreateUpload(key_));
  }
  Result<std::string> etag =
      store_.UploadPart(key_, upload_id_, static_cast<int>(etags_.size()) + 1, buffer_);
  if (!etag.has_value()) return etag.error();
  etags_.push_back(*std::move(etag));
  buffer_.clear();
  return Status::OK();
}

Status S3Writer::Commit() {
  if (!status_.ok()) return status_;
  if (committed_) return FailedPrecondition("object '" + key_ + "' already committed");
  if (upload_id_.empty()) {
    // Small enough for one PUT: visible at once, never partially.
    status_ = store_.PutSingle(key_, buffer_, false);
  } else {
    if (!buffer_.empty()) status_ = Flush();
    if (status_.ok()) status_ = store_.CompleteUpload(key_, upload_id_, etags_, position_);
  }
  if (!status_.ok()) return status_;  // The destructor aborts the upload.
  committed_ = true;
  buffer_.clear();
  buffer_.shrink_to_fit();
  return status_;
}

std::string QueryValue(std::string_view query, std::string_view name) {
  size_t at = 0;
  while (at <= query.size()) {
    size_t end = query.find('&', at);
    if (end == std::string_view::npos) end = query.size();
    std::string_view pair = query.substr(at, end - at);
    size_t eq = pair.find('=');
    if (pair.substr(0, eq) == name) {
      return eq == std::string_view::npos ? "" : std::string(pair.substr(eq + 1));
    }
    at = end + 1;
  }
  return "";
}

}  // namespace

Result<S3Location> ParseS3Url(std::string_view url) {
  constexpr std::string_view kScheme = "s3://";
  if (url.rfind(kScheme, 0) != 0) {
    return Err(
        InvalidArgument("object store '" + std::string(url) + "' does not start with s3://"));
  }
  std::string_view rest = url.substr(kScheme.size());
  std::string_view query;
  if (size_t q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  S3Location location;
  size_t slash = rest.find('/');
  location.bucket = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) location.prefix = std::string(rest.substr(slash + 1));
  while (!location.prefix.empty() && location.prefix.back() == '/') location.prefix.pop_back();
  if (location.bucket.empty()) {
    return Err(InvalidArgument("object store '" + std::string(url) + "' names no bucket"));
  }
  if (!location.prefix.empty()) {
    Status valid = storage::ValidateObjectKey(location.prefix);
    if (!valid.ok()) return Err(valid.WithContext("object store prefix"));
  }
  for (size_t at = 0; at < query.size();) {
    size_t end = query.find('&', at);
    if (end == std::string_view::npos) end = query.size();
    std::string_view name = query.substr(at, query.substr(at, end - at).find('='));
    if (name != "endpoint" && name != "region") {
      return Err(InvalidArgument("object store parameter '" + std::string(name) +
                                 "' is unknown (endpoint and region are)"));
    }
    at = end + 1;
  }
  std::string endpoint = QueryValue(query, "endpoint");
  if (std::string region = QueryValue(query, "region"); !region.empty()) location.region = region;
  constexpr std::string_view kHttp = "http://";
  constexpr std::string_view kHttps = "https://";
  location.tls = endpoint.rfind(kHttps, 0) == 0;
  if (!location.tls && endpoint.rfind(kHttp, 0) != 0) {
    return Err(InvalidArgument("object store '" + std::string(url) +
                               "' needs endpoint=http://host:port or https://host:port"));
  }
  std::string authority = endpoint.substr(location.tls ? kHttps.size() : kHttp.size());
  authority = authority.substr(0, authority.find('/'));
  size_t colon = authority.rfind(':');
  location.host = authority.substr(0, colon);
  location.port = colon != std::string::npos ? authority.substr(colon + 1)
                  : location.tls             ? "443"
                                             : "80";
  if (location.host.empty()) {
    return Err(InvalidArgument("object store endpoint '" + endpoint + "' has no host"));
  }
  return location;
}

Result<auth::SigningCredentials> CredentialsFromEnvironment() {
  const char* id = std::getenv("AWS_ACCESS_KEY_ID");
  const char* secret = std::getenv("AWS_SECRET_ACCESS_KEY");
  if (id == nullptr || secret == nullptr || *id == '\0' || *secret == '\0') {
    return Err(
        InvalidArgument("the S3 object store needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in "
                        "the environment"));
  }
  auth::SigningCredentials credentials{id, secret, ""};
  if (const char* token = std::getenv("AWS_SESSION_TOKEN")) credentials.session_token = token;
  return credentials;
}

Result<std::unique_ptr<storage::ObjectStore>> OpenS3ObjectStore(S3StoreOptions options,
                                                                const Clock& clock, Random& random,
                                                                Sleeper sleep) {
  if (options.part_bytes < (int64_t{5} << 20)) {
    return Err(InvalidArgument("S3 multipart parts must be at least 5 MiB"));
  }
  if (options.multipart_threshold < options.part_bytes)
    options.multipart_threshold = options.part_bytes;
  return std::unique_ptr<storage::ObjectStore>(
      new S3ObjectStore(std::move(options), clock, random, std::move(sleep)));
}

}  // namespace st::s3store
