// Built while the decoding and registry modules are absent: every channel
// fails at CREATING with a message saying so.
#include "delivery/record_format.h"

namespace st::delivery {

namespace {

Status Missing() {
  return Unsupported(
      "This server was built without the decoding and registry modules; records cannot be "
      "decoded.");
}

class UnavailableRecordFormat final : public RecordFormat {
 public:
  Status Validate(const ChannelConfig&) override { return Missing(); }
  Result<LayoutOutcome> Layout(const ChannelConfig&, const ConsumedRecord&) override {
    return Err(Missing());
  }
  Result<std::unique_ptr<BatchWriter>> NewWriter(const ChannelConfig&,
                                                 const iceberg::TableMetadata&, const std::string&,
                                                 iceberg::FileIO&, Random&) override {
    return Err(Missing());
  }
};

}  // namespace

std::unique_ptr<RecordFormat> NewDecodingRecordFormat(registry::SchemaRegistry&) {
  return std::make_unique<UnavailableRecordFormat>();
}

}  // namespace st::delivery
