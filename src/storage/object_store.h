// ObjectStore: the blob storage every table file lives in (local directory by
// default; an S3-compatible store at scale).
//
// Keys are relative '/'-separated paths ("wh/t1/data/x.parquet"): no leading
// '/', no empty, "." or ".." segments (InvalidArgument otherwise). Writes are
// atomic: a reader sees either no object or the whole object, never a prefix.
// Implementations are thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/output_stream.h"
#include "common/status.h"

namespace st::storage {

// Server-side encryption of a stored object (encrypted_object_store.h).
enum class SseKind { kNone, kSseS3, kSseKms };

struct ObjectInfo {
  std::string key;
  int64_t size_bytes = 0;  // Of the plaintext, for an encrypted object.
  std::chrono::system_clock::time_point last_modified;
  SseKind sse = SseKind::kNone;  // kNone: stored as plaintext.
  std::string kms_key_arn;       // For kSseKms: the key its data key is wrapped under.
};

// A streaming upload. Nothing is visible until Commit() succeeds; destroying
// an uncommitted writer discards what was written.
class ObjectWriter : public OutputStream {
 public:
  // Makes the object visible (replacing any previous one). Errors: Io.
  virtual Status Commit() = 0;
};

// A streaming read of one object. A reader of the local store keeps seeing
// the version it opened even when the key is replaced or deleted meanwhile,
// so info() always describes the bytes ReadAt returns. Not thread-safe: use
// one reader per stream.
class ObjectReader {
 public:
  virtual ~ObjectReader() = default;
  // Key, size and modification time of the opened object.
  virtual const ObjectInfo& info() const = 0;
  // Copies up to `capacity` bytes starting at `offset` into `buffer`; returns
  // how many (0 at or beyond the end). Errors: InvalidArgument (negative
  // offset), Io.
  virtual Result<size_t> ReadAt(int64_t offset, char* buffer, size_t capacity) = 0;
};

class ObjectStore {
 public:
  virtual ~ObjectStore() = default;

  // Atomically creates or replaces `key` with `bytes`. Errors: InvalidArgument, Io.
  virtual Status Put(std::string_view key, std::string_view bytes) = 0;
  // Like Put, but fails with AlreadyExists if `key` exists (used for metadata
  // files, which must never be overwritten).
  virtual Status PutIfAbsent(std::string_view key, std::string_view bytes) = 0;
  // A streaming writer for large objects. Errors: InvalidArgument, Io.
  virtual Result<std::unique_ptr<ObjectWriter>> NewWriter(std::string_view key) = 0;
  // Whole object. Errors: NotFound, Io.
  virtual Result<std::string> Get(std::string_view key) = 0;
  // Up to `length` bytes from `offset` (fewer at the end). Errors: NotFound,
  // InvalidArgument (offset beyond the end), Io.
  virtual Result<std::string> GetRange(std::string_view key, int64_t offset, int64_t length) = 0;
  // Opens `key` for streaming reads, so large objects never sit in memory.
  // The default implementation reads through Head and GetRange (no snapshot
  // guarantee); the local store reads one open file. Errors: InvalidArgument,
  // NotFound, Io.
  virtual Result<std::unique_ptr<ObjectReader>> OpenReader(std::string_view key);
  // Errors: NotFound, Io.
  virtual Result<ObjectInfo> Head(std::string_view key) = 0;
  // Every object whose key starts with `prefix`, sorted by key.
  virtual Result<std::vector<ObjectInfo>> List(std::string_view prefix) = 0;
  // Removes `key`; OK if it did not exist (deletes are idempotent).
  virtual Status Delete(std::string_view key) = 0;
};

// Checks the key rules above. Errors: InvalidArgument naming the key.
Status ValidateObjectKey(std::string_view key);

}  // namespace st::storage
