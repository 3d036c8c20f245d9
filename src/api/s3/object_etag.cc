#include <openssl/evp.h>

#include <chrono>

#include "api/s3/object_etag_internal.h"
#include "common/base64.h"

namespace st::api::s3 {

namespace {

constexpr std::string_view kEtagRoot = "s3-object-etags/";

std::string RecordKey(const std::string& key_root, const std::string& bucket_relative_key) {
  return key_root + std::string(kEtagRoot) + bucket_relative_key;
}

int64_t MtimeNanos(const storage::ObjectInfo& info) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(info.last_modified.time_since_epoch())
      .count();
}

std::string Fingerprint(const storage::ObjectInfo& info) {
  return std::to_string(info.size_bytes) + " " + std::to_string(MtimeNanos(info));
}

}  // namespace

struct Md5::Impl {
  EVP_MD_CTX* ctx = nullptr;
};

Md5::Md5() : impl_(std::make_unique<Impl>()) {
  impl_->ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(impl_->ctx, EVP_md5(), nullptr);
}

Md5::~Md5() { EVP_MD_CTX_free(impl_->ctx); }

void Md5::Update(std::string_view bytes) {
  EVP_DigestUpdate(impl_->ctx, bytes.data(), bytes.size());
}

std::string Md5::Finish() {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_DigestFinal_ex(impl_->ctx, out, &size);
  return std::string(reinterpret_cast<const char*>(out), size);
}

std::string Md5Raw(std::string_view bytes) {
  Md5 md5;
  md5.Update(bytes);
  return md5.Finish();
}

std::string HexLower(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::string EtagOf(storage::ObjectStore& objects, const std::string& key_root,
                   const std::string& bucket_relative_key, const storage::ObjectInfo& info) {
  Result<std::string> record = objects.Get(RecordKey(key_root, bucket_relative_key));
  if (record.has_value()) {
    std::string fingerprint = Fingerprint(info) + " ";
    if (record->rfind(fingerprint, 0) == 0) return "\"" + record->substr(fingerprint.size()) + "\"";
  }
  return "\"" + HexLower(Md5Raw("streamtables-etag\n" + info.key + "\n" + Fingerprint(info))) +
         "\"";
}

void RecordEtag(storage::ObjectStore& objects, const std::string& key_root,
                const std::string& bucket_relative_key, const std::string& store_key,
                const std::string& etag) {
  Result<storage::ObjectInfo> info = objects.Head(store_key);
  if (!info.has_value()) return;
  (void)objects.Put(RecordKey(key_root, bucket_relative_key), Fingerprint(*info) + " " + etag);
}

void ForgetEtag(storage::ObjectStore& objects, const std::string& key_root,
                const std::string& bucket_relative_key) {
  (void)objects.Delete(RecordKey(key_root, bucket_relative_key));
}

void ForgetBucketEtags(storage::ObjectStore& objects, const std::string& key_root,
                       const std::string& bucket) {
  Result<std::vector<storage::ObjectInfo>> records =
      objects.List(RecordKey(key_root, bucket + "/"));
  if (!records.has_value()) return;
  for (const storage::ObjectInfo& record : *records) (void)objects.Delete(record.key);
}

}  // namespace st::api::s3
