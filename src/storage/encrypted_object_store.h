// Encryption at rest for every object a store holds (issue 11 item 2): a
// decorator over any ObjectStore that seals each new object in the segmented
// envelope of envelope.h under a fresh per-object data key, and opens it on
// read. Readers above it (Iceberg, maintenance, the REST catalog, the S3
// endpoint) see plaintext: sizes, ranges and bytes are the plaintext's.
//
// Which protection a new object gets is the EncryptionResolver's decision
// (the server answers it from the owning table's encryption configuration);
// where data keys come from is the DataKeyProvider's (a server-managed key
// for SSE-S3, the KMS for SSE-KMS). Storage depends on neither the catalog
// nor the KMS: the composition root wires both in.
//
// Objects written before encryption existed (no envelope magic) still read
// as plaintext, and ObjectInfo::sse says kNone for them.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "common/clock.h"
#include "storage/object_store.h"

namespace st::storage {

// How a new object is to be protected.
struct ObjectEncryption {
  SseKind sse = SseKind::kSseS3;
  std::string kms_key_arn;  // For kSseKms.
  // Bound to the wrapped data key as encryption context (the owning table's
  // ARN, or the general-purpose bucket's), and recorded in the header.
  std::string context_arn;
};

// Thread-safe.
class EncryptionResolver {
 public:
  virtual ~EncryptionResolver() = default;
  // The protection for a new object at `key`. kNone writes plaintext.
  // Errors are the resolver's (the write fails; nothing is stored).
  virtual Result<ObjectEncryption> ForNewObject(std::string_view key) const = 0;
};

struct DataKey {
  std::string plaintext;  // 32 bytes, AES-256.
  std::string wrapped;    // Opaque; stored in the object's header.
};

// Thread-safe. Errors carry the reason a caller can act on (a disabled KMS
// key is kFailedPrecondition, a key the server may not use kAccessDenied,
// both naming the key).
class DataKeyProvider {
 public:
  virtual ~DataKeyProvider() = default;
  // A fresh data key for the object `object_key` protected as `encryption`.
  virtual Result<DataKey> NewDataKey(const ObjectEncryption& encryption,
                                     std::string_view object_key) = 0;
  // The plaintext of a key NewDataKey wrapped for the same object and
  // encryption. Errors: Corruption when it does not authenticate.
  virtual Result<std::string> UnwrapDataKey(const ObjectEncryption& encryption,
                                            std::string_view object_key,
                                            std::string_view wrapped) = 0;
  // Called instead of UnwrapDataKey when the store still holds the unwrapped
  // key: fails when the wrapping key may no longer be used (a disabled KMS
  // key), so revocation takes effect at once although unwrapping is cached.
  virtual Status CheckKeyUsable(const ObjectEncryption& /*encryption*/) { return Status::OK(); }
};

struct EncryptedStoreOptions {
  // Unwrapped data keys are kept this long (and at most max_cached_keys of
  // them), so the ranged reads of one file do not each unwrap through the
  // KMS; a cache hit still asks DataKeyProvider::CheckKeyUsable.
  std::chrono::milliseconds key_cache_ttl{5000};
  size_t max_cached_keys = 1024;
};

// `inner`, `resolver`, `keys` and `clock` must outlive the store.
std::unique_ptr<ObjectStore> NewEncryptedObjectStore(ObjectStore& inner,
                                                     const EncryptionResolver& resolver,
                                                     DataKeyProvider& keys, const Clock& clock,
                                                     EncryptedStoreOptions options = {});

}  // namespace st::storage
