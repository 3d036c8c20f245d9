#include "storage/object_store.h"

#include <algorithm>
#include <cstring>

namespace st::storage {

namespace {

// Serves each ReadAt with one GetRange call: correct for any store, though a
// replaced object may show through between reads.
class RangeObjectReader final : public ObjectReader {
 public:
  RangeObjectReader(ObjectStore& store, ObjectInfo info) : store_(store), info_(std::move(info)) {}

  const ObjectInfo& info() const override { return info_; }

  Result<size_t> ReadAt(int64_t offset, char* buffer, size_t capacity) override {
    if (offset < 0) return Err(InvalidArgument("negative read offset in '" + info_.key + "'"));
    if (offset >= info_.size_bytes || capacity == 0) return size_t{0};
    int64_t want = std::min<int64_t>(static_cast<int64_t>(capacity), info_.size_bytes - offset);
    ST_ASSIGN_OR_RETURN(std::string bytes, store_.GetRange(info_.key, offset, want));
    std::memcpy(buffer, bytes.data(), bytes.size());
    return bytes.size();
  }

 private:
  ObjectStore& store_;
  ObjectInfo info_;
};

}  // namespace

Result<std::unique_ptr<ObjectReader>> ObjectStore::OpenReader(std::string_view key) {
  ST_TRY(ValidateObjectKey(key));
  ST_ASSIGN_OR_RETURN(ObjectInfo info, Head(key));
  return std::unique_ptr<ObjectReader>(new RangeObjectReader(*this, std::move(info)));
}

}  // namespace st::storage
