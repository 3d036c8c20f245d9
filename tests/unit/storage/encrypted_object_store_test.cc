#include "storage/encrypted_object_store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "storage/envelope.h"
#include "storage/local_object_store.h"

namespace st::storage {
namespace {

// Wraps a data key by prefixing what it is bound to: enough to check the
// store hands the provider the right object and encryption on both sides.
class TestKeys final : public DataKeyProvider {
 public:
  Result<DataKey> NewDataKey(const ObjectEncryption& encryption,
                             std::string_view object_key) override {
    ++generated;
    std::string key(kDataKeyBytes, '\0');
    for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<char>(rng_());
    return DataKey{key, Binding(encryption, object_key) + key};
  }
  Result<std::string> UnwrapDataKey(const ObjectEncryption& encryption, std::string_view object_key,
                                    std::string_view wrapped) override {
    ++unwrapped;
    if (!fail_with.ok()) return Err(fail_with);
    std::string binding = Binding(encryption, object_key);
    if (wrapped.substr(0, binding.size()) != binding) return Err(Corruption("wrong binding"));
    return std::string(wrapped.substr(binding.size()));
  }
  Status CheckKeyUsable(const ObjectEncryption& /*encryption*/) override { return check_with; }
  int generated = 0;
  int unwrapped = 0;
  Status fail_with;
  Status check_with;

 private:
  static std::string Binding(const ObjectEncryption& e, std::string_view key) {
    return std::to_string(static_cast<int>(e.sse)) + "|" + e.kms_key_arn + "|" + e.context_arn +
           "|" + std::string(key) + "|";
  }
  std::mt19937 rng_{7};
};

class FixedResolver final : public EncryptionResolver {
 public:
  Result<ObjectEncryption> ForNewObject(std::string_view key) const override {
    if (key.rfind("plain/", 0) == 0) return ObjectEncryption{SseKind::kNone, "", ""};
    if (key.rfind("kms/", 0) == 0) {
      return ObjectEncryption{SseKind::kSseKms, "arn:aws:kms:us-east-1:111122223333:key/k1",
                              "arn:table"};
    }
    return ObjectEncryption{SseKind::kSseS3, "", "arn:table"};
  }
};

class ManualClock final : public Clock {
 public:
  std::chrono::system_clock::time_point Now() const override { return now; }
  std::chrono::system_clock::time_point now{std::chrono::seconds(1'700'000'000)};
};

std::string Pattern(size_t n) {
  std::string out(n, '\0');
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<char>((i * 131 + i / 7) & 0xff);
  return out;
}

class EncryptedObjectStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::path(::testing::TempDir()) /
            ("st-enc-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(root_);
    inner_ = OpenLocalObjectStore(root_.string()).value();
    store_ = NewEncryptedObjectStore(*inner_, resolver_, keys_, clock_);
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  std::string Raw(const std::string& key) { return inner_->Get(key).value(); }

  std::filesystem::path root_;
  std::unique_ptr<ObjectStore> inner_;
  FixedResolver resolver_;
  TestKeys keys_;
  ManualClock clock_;
  std::unique_ptr<ObjectStore> store_;
};

TEST_F(EncryptedObjectStoreTest, RoundTripsAtSegmentBoundaries) {
  const size_t s = kDefaultSegmentBytes;
  for (size_t n : {size_t{0}, size_t{1}, s - 1, s, s + 1, 2 * s, 3 * s + 17}) {
    std::string key = "kms/obj-" + std::to_string(n);
    std::string plain = Pattern(n);
    ASSERT_TRUE(store_->Put(key, plain).ok());
    std::string raw = Raw(key);
    ASSERT_TRUE(HasEnvelopeMagic(raw));
    if (n >= 64) {
      EXPECT_EQ(raw.find(plain.substr(n / 2, 64)), std::string::npos);
    }
    EXPECT_EQ(store_->Get(key).value(), plain) << n;
    ObjectInfo info = store_->Head(key).value();
    EXPECT_EQ(info.size_bytes, static_cast<int64_t>(n));
    EXPECT_EQ(info.sse, SseKind::kSseKms);
    EXPECT_EQ(info.kms_key_arn, "arn:aws:kms:us-east-1:111122223333:key/k1");
    std::vector<ObjectInfo> listed = store_->List(key).value();
    ASSERT_EQ(listed.size(), 1u);
    EXPECT_EQ(listed[0].size_bytes, static_cast<int64_t>(n));
  }
}

TEST_F(EncryptedObjectStoreTest, StreamingWriterMatchesPut) {
  const size_t s = kDefaultSegmentBytes;
  for (size_t n : {size_t{0}, s, 2 * s + 5}) {
    std::string plain = Pattern(n);
    std::unique_ptr<ObjectWriter> w = store_->NewWriter("sse/w" + std::to_string(n)).value();
    // Odd chunk sizes so writes straddle segment boundaries.
    for (size_t at = 0; at < n; at += 1000) {
      ASSERT_TRUE(w->Write(plain.data() + at, std::min<size_t>(1000, n - at)).ok());
    }
    EXPECT_EQ(w->Position(), static_cast<int64_t>(n));
    ASSERT_TRUE(w->Commit().ok());
    EXPECT_EQ(store_->Get("sse/w" + std::to_string(n)).value(), plain);
    EXPECT_EQ(store_->Head("sse/w" + std::to_string(n))->sse, SseKind::kSseS3);
  }
}

TEST_F(EncryptedObjectStoreTest, RandomRangesEqualThePlaintext) {
  std::string plain = Pattern(5 * kDefaultSegmentBytes + 123);
  ASSERT_TRUE(store_->Put("kms/r", plain).ok());
  std::mt19937 rng(1);
  for (int i = 0; i < 2000; ++i) {
    int64_t off = static_cast<int64_t>(rng() % plain.size());
    int64_t len = static_cast<int64_t>(rng() % (3 * kDefaultSegmentBytes));
    EXPECT_EQ(store_->GetRange("kms/r", off, len).value(),
              plain.substr(static_cast<size_t>(off), static_cast<size_t>(len)));
  }
  EXPECT_EQ(store_->GetRange("kms/r", static_cast<int64_t>(plain.size()), 10).value(), "");
  EXPECT_FALSE(store_->GetRange("kms/r", static_cast<int64_t>(plain.size()) + 1, 10).has_value());
  // One unwrap served every range (the key cache), until it expires.
  EXPECT_EQ(keys_.unwrapped, 1);
  clock_.now += std::chrono::seconds(6);
  EXPECT_TRUE(store_->GetRange("kms/r", 0, 1).has_value());
  EXPECT_EQ(keys_.unwrapped, 2);
}

TEST_F(EncryptedObjectStoreTest, EveryTamperedByteFailsTheRead) {
  std::string plain = Pattern(kDefaultSegmentBytes + 300);
  ASSERT_TRUE(store_->Put("sse/t", plain).ok());
  std::string raw = Raw("sse/t");
  std::mt19937 rng(3);
  for (int i = 0; i < 200; ++i) {
    size_t at = i < 100 ? static_cast<size_t>(i) : rng() % raw.size();
    std::string bad = raw;
    bad[at] = static_cast<char>(bad[at] ^ (1 + (rng() % 255)));
    ASSERT_TRUE(inner_->Put("sse/t2", bad).ok());
    Result<std::string> got = store_->Get("sse/t2");
    if (got.has_value()) {
      // Only a flip that turned the magic into something else reads as
      // (different, plaintext) bytes; never the sealed plaintext, never a
      // wrong plaintext of the right length.
      EXPECT_LT(at, kEnvelopeMagic.size()) << at;
      EXPECT_NE(*got, plain);
    }
  }
}

TEST_F(EncryptedObjectStoreTest, TruncationAndReorderingFail) {
  const size_t s = kDefaultSegmentBytes;
  std::string plain = Pattern(3 * s);
  ASSERT_TRUE(store_->Put("sse/x", plain).ok());
  std::string raw = Raw("sse/x");
  size_t header = *EnvelopeHeaderLength(raw);
  size_t sealed = s + kSegmentTagBytes;
  // Dropped last segment (aligned), a byte short, a byte more.
  for (std::string bad : {raw.substr(0, header + 2 * sealed), raw.substr(0, raw.size() - 1),
                          raw + "x", raw.substr(0, header), raw.substr(0, 10)}) {
    ASSERT_TRUE(inner_->Put("sse/y", bad).ok());
    EXPECT_FALSE(store_->Get("sse/y").has_value()) << bad.size();
  }
  // Segments 0 and 1 swapped.
  std::string swapped = raw.substr(0, header) + raw.substr(header + sealed, sealed) +
                        raw.substr(header, sealed) + raw.substr(header + 2 * sealed);
  ASSERT_TRUE(inner_->Put("sse/x", swapped).ok());
  EXPECT_FALSE(store_->Get("sse/x").has_value());
  EXPECT_FALSE(store_->GetRange("sse/x", 0, 10).has_value());
  // The untouched last segment still reads: only what was touched fails.
  EXPECT_EQ(store_->GetRange("sse/x", static_cast<int64_t>(2 * s), 10).value(),
            plain.substr(2 * s, 10));
  // Moved to another key: the provider refuses the binding.
  ASSERT_TRUE(inner_->Put("sse/moved", raw).ok());
  ASSERT_TRUE(inner_->Put("sse/x", raw).ok());
  EXPECT_EQ(store_->Get("sse/x").value(), plain);
  EXPECT_FALSE(store_->Get("sse/moved").has_value());
}

TEST_F(EncryptedObjectStoreTest, PlaintextObjectsStillRead) {
  ASSERT_TRUE(inner_->Put("legacy/a", "PAR1 old bytes").ok());
  ASSERT_TRUE(store_->Put("plain/b", "kept plain").ok());
  EXPECT_EQ(Raw("plain/b"), "kept plain");
  EXPECT_EQ(store_->Get("legacy/a").value(), "PAR1 old bytes");
  EXPECT_EQ(store_->Head("legacy/a")->sse, SseKind::kNone);
  EXPECT_EQ(store_->GetRange("legacy/a", 5, 3).value(), "old");
}

TEST_F(EncryptedObjectStoreTest, KeyErrorsFailReadsAndPutIfAbsentStaysAtomic) {
  ASSERT_TRUE(store_->PutIfAbsent("kms/m", "v1").ok());
  EXPECT_EQ(store_->PutIfAbsent("kms/m", "v2").code(), StatusCode::kAlreadyExists);
  clock_.now += std::chrono::seconds(10);
  keys_.fail_with = FailedPrecondition("KMS.DisabledException: key disabled");
  Result<std::string> got = store_->Get("kms/m");
  ASSERT_FALSE(got.has_value());
  EXPECT_EQ(got.error().code(), StatusCode::kFailedPrecondition);
  // Head needs no key.
  EXPECT_EQ(store_->Head("kms/m")->size_bytes, 2);
  keys_.fail_with = Status::OK();
  EXPECT_EQ(store_->Get("kms/m").value(), "v1");
  // A cached data key still asks whether its key may be used.
  keys_.check_with = FailedPrecondition("KMS.DisabledException: key disabled");
  EXPECT_EQ(store_->Get("kms/m").error().code(), StatusCode::kFailedPrecondition);
  keys_.check_with = Status::OK();
  EXPECT_EQ(store_->Get("kms/m").value(), "v1");
}

TEST(EnvelopeTest, SizesInvertAndHeaderParses) {
  const uint32_t s = kDefaultSegmentBytes;
  for (int64_t n :
       {int64_t{0}, int64_t{1}, int64_t{s} - 1, int64_t{s}, int64_t{s} + 1, int64_t{10} * s}) {
    EXPECT_EQ(EnvelopePlaintextSize(EnvelopeStoredSize(n, 100, s), 100, s).value(), n);
  }
  EXPECT_FALSE(EnvelopePlaintextSize(100 + 15, 100, s).has_value());
  EXPECT_FALSE(EnvelopePlaintextSize(100 + s + 16 + 16, 100, s).has_value());
  EnvelopeHeader h;
  h.sse = SseKind::kSseKms;
  h.nonce_prefix = "12345678";
  h.kms_key_arn = "arn:k";
  h.context_arn = "arn:t";
  h.wrapped_key = "wrapped";
  std::string bytes = SerializeEnvelopeHeader(h).value();
  EXPECT_EQ(EnvelopeHeaderLength(bytes).value(), bytes.size());
  EnvelopeHeader back = ParseEnvelopeHeader(bytes).value();
  EXPECT_EQ(back.kms_key_arn, "arn:k");
  EXPECT_EQ(back.wrapped_key, "wrapped");
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    EXPECT_FALSE(ParseEnvelopeHeader(bytes.substr(0, cut)).has_value());
  }
}

}  // namespace
}  // namespace st::storage
