#include "storage/encrypted_object_store.h"

#include <openssl/rand.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>

#include "common/mutex.h"
#include "storage/envelope.h"

namespace st::storage {

namespace {

// Enough for every header this store writes (key ARN, context ARN and a KMS
// blob): one read finds the whole header almost always.
constexpr int64_t kHeaderProbeBytes = 1024;

Result<std::string> RandomBytes(size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1) {
    return Err(Internal("RAND_bytes failed"));
  }
  return out;
}

void Wipe(std::string& secret) {
  std::memset(secret.data(), 0, secret.size());
  secret.clear();
}

ObjectEncryption EncryptionOf(const EnvelopeHeader& header) {
  return ObjectEncryption{header.sse, header.kms_key_arn, header.context_arn};
}

// Unwrapped data keys by wrapped key, for a short while (bounded).
class KeyCache {
 public:
  KeyCache(const Clock& clock, EncryptedStoreOptions options) : clock_(clock), options_(options) {}
  ~KeyCache() {
    for (auto& [wrapped, entry] : entries_) Wipe(entry.key);
  }

  std::optional<std::string> Get(const std::string& id) EXCLUDES(mu_) {
    common::MutexLock lock(mu_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return std::nullopt;
    if (clock_.Now() >= it->second.expires) {
      Wipe(it->second.key);
      entries_.erase(it);
      return std::nullopt;
    }
    return it->second.key;
  }

  void Put(const std::string& id, const std::string& key) EXCLUDES(mu_) {
    if (options_.max_cached_keys == 0 || options_.key_cache_ttl.count() <= 0) return;
    common::MutexLock lock(mu_);
    auto now = clock_.Now();
    if (entries_.size() >= options_.max_cached_keys) {
      // Drop the expired ones; if none, the one closest to expiring.
      for (auto it = entries_.begin(); it != entries_.end();) {
        if (now >= it->second.expires) {
          Wipe(it->second.key);
          it = entries_.erase(it);
        } else {
          ++it;
        }
      }
      if (entries_.size() >= options_.max_cached_keys) {
        auto oldest = std::min_element(entries_.begin(), entries_.end(), [](auto& a, auto& b) {
          return a.second.expires < b.second.expires;
        });
        Wipe(oldest->second.key);
        entries_.erase(oldest);
      }
    }
    entries_[id] = Entry{key, now + options_.key_cache_ttl};
  }

 private:
  struct Entry {
    std::string key;
    std::chrono::system_clock::time_point expires;
  };
  const Clock& clock_;
  const EncryptedStoreOptions options_;
  common::Mutex mu_;
  std::map<std::string, Entry> entries_ GUARDED_BY(mu_);
};

// Reads exactly [offset, offset + n) or fails.
Status ReadFully(ObjectReader& reader, int64_t offset, char* out, size_t n) {
  size_t done = 0;
  while (done < n) {
    ST_ASSIGN_OR_RETURN(size_t got,
                        reader.ReadAt(offset + static_cast<int64_t>(done), out + done, n - done));
    if (got == 0) {
      return Status(StatusCode::kCorruption,
                    "encrypted object '" + reader.info().key + "' is truncated");
    }
    done += got;
  }
  return Status::OK();
}

// What the header of a stored object says about it.
struct Probe {
  bool encrypted = false;
  std::string header_bytes;
  EnvelopeHeader header;
  int64_t plaintext_bytes = 0;
};

// `read(offset, n)` returns up to n stored bytes from offset.
template <typename ReadFn>
Result<Probe> ProbeObject(int64_t stored_bytes, ReadFn read) {
  Probe probe;
  if (stored_bytes < static_cast<int64_t>(kEnvelopeMagic.size())) return probe;
  ST_ASSIGN_OR_RETURN(std::string prefix, read(0, std::min(stored_bytes, kHeaderProbeBytes)));
  if (!HasEnvelopeMagic(prefix)) return probe;
  // From here on a failure is an error, never plaintext: a truncated
  // envelope must not read as a short plaintext object.
  probe.encrypted = true;
  ST_ASSIGN_OR_RETURN(size_t length, EnvelopeHeaderLength(prefix));
  if (static_cast<int64_t>(length) > stored_bytes) {
    return Err(Status(StatusCode::kCorruption, "encrypted object shorter than its header"));
  }
  if (prefix.size() < length) {
    ST_ASSIGN_OR_RETURN(std::string rest, read(static_cast<int64_t>(prefix.size()),
                                               static_cast<int64_t>(length - prefix.size())));
    prefix += rest;
  }
  if (prefix.size() < length) {
    return Err(Status(StatusCode::kCorruption, "encrypted object header truncated"));
  }
  prefix.resize(length);
  ST_ASSIGN_OR_RETURN(probe.header, ParseEnvelopeHeader(prefix));
  probe.header_bytes = std::move(prefix);
  ST_ASSIGN_OR_RETURN(probe.plaintext_bytes,
                      EnvelopePlaintextSize(stored_bytes, length, probe.header.segment_bytes));
  return probe;
}

void Describe(const Probe& probe, ObjectInfo& info) {
  if (!probe.encrypted) return;
  info.size_bytes = probe.plaintext_bytes;
  info.sse = probe.header.sse;
  info.kms_key_arn = probe.header.kms_key_arn;
}

class DecryptingReader final : public ObjectReader {
 public:
  DecryptingReader(std::unique_ptr<ObjectReader> inner, Probe probe,
                   std::unique_ptr<SegmentCipher> cipher)
      : inner_(std::move(inner)),
        probe_(std::move(probe)),
        cipher_(std::move(cipher)),
        info_(inner_->info()),
        segments_(EnvelopeSegmentCount(probe_.plaintext_bytes, probe_.header.segment_bytes)) {
    Describe(probe_, info_);
  }

  const ObjectInfo& info() const override { return info_; }

  Result<size_t> ReadAt(int64_t offset, char* buffer, size_t capacity) override {
    if (offset < 0) return Err(InvalidArgument("negative read offset in '" + info_.key + "'"));
    const int64_t seg_bytes = probe_.header.segment_bytes;
    size_t done = 0;
    while (done < capacity && offset < info_.size_bytes) {
      int64_t index = offset / seg_bytes;
      if (offset == index * seg_bytes && index != loaded_) {
        // Whole segments that fit: one read, decrypted straight into the
        // caller's buffer (no copy through the segment cache).
        ST_ASSIGN_OR_RETURN(size_t direct,
                            ReadWholeSegments(index, buffer + done, capacity - done));
        if (direct > 0) {
          done += direct;
          offset += static_cast<int64_t>(direct);
          continue;
        }
      }
      ST_TRY(LoadSegment(index));
      int64_t within = offset - index * seg_bytes;
      size_t n = std::min<size_t>(
          capacity - done, static_cast<size_t>(static_cast<int64_t>(plain_.size()) - within));
      std::memcpy(buffer + done, plain_.data() + within, n);
      done += n;
      offset += static_cast<int64_t>(n);
    }
    return done;
  }

 private:
  Status LoadSegment(int64_t index) {
    if (index == loaded_) return Status::OK();
    loaded_ = -1;
    const int64_t seg_bytes = probe_.header.segment_bytes;
    int64_t plain_len = std::min(seg_bytes, probe_.plaintext_bytes - index * seg_bytes);
    int64_t at = static_cast<int64_t>(probe_.header_bytes.size()) +
                 index * (seg_bytes + static_cast<int64_t>(kSegmentTagBytes));
    sealed_.resize(static_cast<size_t>(plain_len) + kSegmentTagBytes);
    ST_TRY(ReadFully(*inner_, at, sealed_.data(), sealed_.size()));
    plain_.resize(static_cast<size_t>(plain_len));
    Status opened =
        cipher_->Open(static_cast<uint64_t>(index), index == segments_ - 1, sealed_, plain_.data());
    if (!opened.ok()) {
      plain_.clear();
      return opened.WithContext("object '" + info_.key + "'");
    }
    loaded_ = index;
    return Status::OK();
  }

  // Plaintext length of segment `index`.
  int64_t SegmentPlainBytes(int64_t index) const {
    const int64_t seg_bytes = probe_.header.segment_bytes;
    return std::min(seg_bytes, probe_.plaintext_bytes - index * seg_bytes);
  }

  // Decrypts the whole segments from `first` on that fit in `capacity`
  // (at most kDirectSegments) into `out`; 0 when not even one fits.
  Result<size_t> ReadWholeSegments(int64_t first, char* out, size_t capacity) {
    constexpr int64_t kDirectSegments = 32;
    const int64_t sealed_bytes =
        static_cast<int64_t>(probe_.header.segment_bytes) + static_cast<int64_t>(kSegmentTagBytes);
    int64_t count = 0;
    size_t plain_total = 0;
    while (count < kDirectSegments && first + count < segments_) {
      size_t n = static_cast<size_t>(SegmentPlainBytes(first + count));
      if (plain_total + n > capacity) break;
      plain_total += n;
      ++count;
    }
    if (count == 0) return size_t{0};
    const int64_t at = static_cast<int64_t>(probe_.header_bytes.size()) + first * sealed_bytes;
    const size_t stored = plain_total + static_cast<size_t>(count) * kSegmentTagBytes;
    sealed_.resize(stored);
    ST_TRY(ReadFully(*inner_, at, sealed_.data(), stored));
    size_t written = 0;
    for (int64_t i = 0; i < count; ++i) {
      const int64_t index = first + i;
      const size_t n = static_cast<size_t>(SegmentPlainBytes(index));
      std::string_view sealed(sealed_.data() + static_cast<size_t>(i * sealed_bytes),
                              n + kSegmentTagBytes);
      Status opened = cipher_->Open(static_cast<uint64_t>(index), index == segments_ - 1, sealed,
                                    out + written);
      if (!opened.ok()) {
        std::memset(out, 0, written);
        return Err(opened.WithContext("object '" + info_.key + "'"));
      }
      written += n;
    }
    return written;
  }

  std::unique_ptr<ObjectReader> inner_;
  Probe probe_;
  std::unique_ptr<SegmentCipher> cipher_;
  ObjectInfo info_;
  int64_t segments_;
  int64_t loaded_ = -1;
  std::string sealed_;
  std::string plain_;
};

class EncryptingWriter final : public ObjectWriter {
 public:
  EncryptingWriter(std::unique_ptr<ObjectWriter> inner, std::unique_ptr<SegmentCipher> cipher,
                   uint32_t segment_bytes)
      : inner_(std::move(inner)), cipher_(std::move(cipher)), segment_bytes_(segment_bytes) {}

  Status Write(const void* data, size_t size) override {
    if (!status_.ok()) return status_;
    const char* p = static_cast<const char*>(data);
    position_ += static_cast<int64_t>(size);
    while (size > 0) {
      // A full pending segment is sealed only once more bytes arrive: until
      // then it may be the final one.
      if (pending_.size() == segment_bytes_) {
        status_ = SealPending(false);
        if (!status_.ok()) return status_;
      }
      size_t n = std::min(size, segment_bytes_ - pending_.size());
      pending_.append(p, n);
      p += n;
      size -= n;
    }
    return Status::OK();
  }

  int64_t Position() const override { return position_; }

  Status Commit() override {
    ST_TRY(status_);
    ST_TRY(SealPending(true));
    return inner_->Commit();
  }

 private:
  Status SealPending(bool final) {
    sealed_.clear();
    ST_TRY(cipher_->Seal(next_index_++, final, pending_, sealed_));
    pending_.clear();
    return inner_->Write(sealed_);
  }

  std::unique_ptr<ObjectWriter> inner_;
  std::unique_ptr<SegmentCipher> cipher_;
  const size_t segment_bytes_;
  std::string pending_;
  std::string sealed_;
  uint64_t next_index_ = 0;
  int64_t position_ = 0;
  Status status_;
};

class EncryptedObjectStore final : public ObjectStore {
 public:
  EncryptedObjectStore(ObjectStore& inner, const EncryptionResolver& resolver,
                       DataKeyProvider& keys, const Clock& clock, EncryptedStoreOptions options)
      : inner_(inner), resolver_(resolver), keys_(keys), cache_(clock, options) {}

  Status Put(std::string_view key, std::string_view bytes) override {
    ST_TRY(ValidateObjectKey(key));
    ST_ASSIGN_OR_RETURN(std::optional<std::string> sealed, SealWhole(key, bytes));
    return inner_.Put(key, sealed ? *sealed : bytes);
  }

  Status PutIfAbsent(std::string_view key, std::string_view bytes) override {
    ST_TRY(ValidateObjectKey(key));
    ST_ASSIGN_OR_RETURN(std::optional<std::string> sealed, SealWhole(key, bytes));
    return inner_.PutIfAbsent(key, sealed ? *sealed : bytes);
  }

  Result<std::unique_ptr<ObjectWriter>> NewWriter(std::string_view key) override {
    ST_TRY(ValidateObjectKey(key));
    ST_ASSIGN_OR_RETURN(ObjectEncryption encryption, resolver_.ForNewObject(key));
    ST_ASSIGN_OR_RETURN(std::unique_ptr<ObjectWriter> inner, inner_.NewWriter(key));
    if (encryption.sse == SseKind::kNone) return inner;
    ST_ASSIGN_OR_RETURN(Sealing sealing, StartSealing(encryption, key));
    ST_TRY(inner->Write(sealing.header_bytes));
    return std::unique_ptr<ObjectWriter>(
        new EncryptingWriter(std::move(inner), std::move(sealing.cipher), kDefaultSegmentBytes));
  }

  Result<std::string> Get(std::string_view key) override {
    ST_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> reader, OpenReader(key));
    std::string out(static_cast<size_t>(reader->info().size_bytes), '\0');
    size_t done = 0;
    while (done < out.size()) {
      ST_ASSIGN_OR_RETURN(size_t got, reader->ReadAt(static_cast<int64_t>(done), out.data() + done,
                                                     out.size() - done));
      if (got == 0) break;
      done += got;
    }
    out.resize(done);
    return out;
  }

  Result<std::string> GetRange(std::string_view key, int64_t offset, int64_t length) override {
    ST_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> reader, OpenReader(key));
    const int64_t size = reader->info().size_bytes;
    if (offset < 0 || offset > size || length < 0) {
      return Err(InvalidArgument("range " + std::to_string(offset) + "+" + std::to_string(length) +
                                 " outside '" + std::string(key) + "'"));
    }
    std::string out(static_cast<size_t>(std::min(length, size - offset)), '\0');
    size_t done = 0;
    while (done < out.size()) {
      ST_ASSIGN_OR_RETURN(size_t got, reader->ReadAt(offset + static_cast<int64_t>(done),
                                                     out.data() + done, out.size() - done));
      if (got == 0) break;
      done += got;
    }
    out.resize(done);
    return out;
  }

  Result<std::unique_ptr<ObjectReader>> OpenReader(std::string_view key) override {
    ST_ASSIGN_OR_RETURN(std::unique_ptr<ObjectReader> inner, inner_.OpenReader(key));
    ObjectReader& raw = *inner;
    ST_ASSIGN_OR_RETURN(Probe probe,
                        ProbeObject(raw.info().size_bytes,
                                    [&raw](int64_t offset, int64_t n) -> Result<std::string> {
                                      std::string out(static_cast<size_t>(n), '\0');
                                      ST_TRY(ReadFully(raw, offset, out.data(), out.size()));
                                      return out;
                                    }));
    if (!probe.encrypted) return inner;
    ST_ASSIGN_OR_RETURN(std::string data_key, Unwrap(probe.header, key));
    Result<std::unique_ptr<SegmentCipher>> cipher =
        SegmentCipher::Make(data_key, probe.header_bytes, probe.header.nonce_prefix);
    Wipe(data_key);
    if (!cipher.has_value()) return Err(cipher.error());
    return std::unique_ptr<ObjectReader>(
        new DecryptingReader(std::move(inner), std::move(probe), *std::move(cipher)));
  }

  Result<ObjectInfo> Head(std::string_view key) override {
    ST_ASSIGN_OR_RETURN(ObjectInfo info, inner_.Head(key));
    ST_TRY(DescribeStored(info));
    return info;
  }

  Result<std::vector<ObjectInfo>> List(std::string_view prefix) override {
    ST_ASSIGN_OR_RETURN(std::vector<ObjectInfo> infos, inner_.List(prefix));
    std::vector<ObjectInfo> out;
    out.reserve(infos.size());
    for (ObjectInfo& info : infos) {
      Status described = DescribeStored(info);
      // Gone since the listing: as if listed a moment later.
      if (described.code() == StatusCode::kNotFound) continue;
      ST_TRY(described);
      out.push_back(std::move(info));
    }
    return out;
  }

  Status Delete(std::string_view key) override { return inner_.Delete(key); }

 private:
  struct Sealing {
    std::string header_bytes;
    std::unique_ptr<SegmentCipher> cipher;
  };

  Result<Sealing> StartSealing(const ObjectEncryption& encryption, std::string_view key) {
    ST_ASSIGN_OR_RETURN(DataKey data_key, keys_.NewDataKey(encryption, key));
    EnvelopeHeader header;
    header.sse = encryption.sse;
    header.kms_key_arn = encryption.sse == SseKind::kSseKms ? encryption.kms_key_arn : "";
    header.context_arn = encryption.context_arn;
    header.wrapped_key = data_key.wrapped;
    ST_ASSIGN_OR_RETURN(header.nonce_prefix, RandomBytes(kNoncePrefixBytes));
    Sealing sealing;
    Result<std::string> header_bytes = SerializeEnvelopeHeader(header);
    if (!header_bytes.has_value()) {
      Wipe(data_key.plaintext);
      return Err(header_bytes.error());
    }
    sealing.header_bytes = *std::move(header_bytes);
    Result<std::unique_ptr<SegmentCipher>> cipher =
        SegmentCipher::Make(data_key.plaintext, sealing.header_bytes, header.nonce_prefix);
    Wipe(data_key.plaintext);
    if (!cipher.has_value()) return Err(cipher.error());
    sealing.cipher = *std::move(cipher);
    return sealing;
  }

  // The enveloped bytes of `bytes`, or nullopt when `key` is stored as plaintext.
  Result<std::optional<std::string>> SealWhole(std::string_view key, std::string_view bytes) {
    ST_ASSIGN_OR_RETURN(ObjectEncryption encryption, resolver_.ForNewObject(key));
    if (encryption.sse == SseKind::kNone) return std::optional<std::string>();
    ST_ASSIGN_OR_RETURN(Sealing sealing, StartSealing(encryption, key));
    std::string out = std::move(sealing.header_bytes);
    out.reserve(static_cast<size_t>(
        EnvelopeStoredSize(static_cast<int64_t>(bytes.size()), out.size(), kDefaultSegmentBytes)));
    int64_t segments =
        EnvelopeSegmentCount(static_cast<int64_t>(bytes.size()), kDefaultSegmentBytes);
    for (int64_t i = 0; i < segments; ++i) {
      std::string_view part =
          bytes.substr(static_cast<size_t>(i) * kDefaultSegmentBytes, kDefaultSegmentBytes);
      ST_TRY(sealing.cipher->Seal(static_cast<uint64_t>(i), i == segments - 1, part, out));
    }
    return std::optional<std::string>(std::move(out));
  }

  Result<std::string> Unwrap(const EnvelopeHeader& header, std::string_view key) {
    // The cache key binds the object key too: a wrapped key copied into
    // another object's header must still go through the provider (which
    // checks the encryption context) before it is trusted there.
    std::string id = std::string(key) + '\0' + header.kms_key_arn + '\0' + header.context_arn +
                     '\0' + header.wrapped_key;
    if (std::optional<std::string> cached = cache_.Get(id)) {
      Status usable = keys_.CheckKeyUsable(EncryptionOf(header));
      if (!usable.ok()) {
        Wipe(*cached);
        return Err(usable);
      }
      return *std::move(cached);
    }
    ST_ASSIGN_OR_RETURN(std::string data_key,
                        keys_.UnwrapDataKey(EncryptionOf(header), key, header.wrapped_key));
    if (data_key.size() != kDataKeyBytes) {
      Wipe(data_key);
      return Err(Status(StatusCode::kCorruption, "unwrapped data key of the wrong size"));
    }
    cache_.Put(id, data_key);
    return data_key;
  }

  Status DescribeStored(ObjectInfo& info) {
    std::string key = info.key;
    ST_ASSIGN_OR_RETURN(Probe probe,
                        ProbeObject(info.size_bytes, [this, &key](int64_t offset, int64_t n) {
                          return inner_.GetRange(key, offset, n);
                        }));
    Describe(probe, info);
    return Status::OK();
  }

  ObjectStore& inner_;
  const EncryptionResolver& resolver_;
  DataKeyProvider& keys_;
  KeyCache cache_;
};

}  // namespace

std::unique_ptr<ObjectStore> NewEncryptedObjectStore(ObjectStore& inner,
                                                     const EncryptionResolver& resolver,
                                                     DataKeyProvider& keys, const Clock& clock,
                                                     EncryptedStoreOptions options) {
  return std::make_unique<EncryptedObjectStore>(inner, resolver, keys, clock, options);
}

}  // namespace st::storage
