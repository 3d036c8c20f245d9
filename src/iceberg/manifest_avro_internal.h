// The Avro shapes of manifests and manifest lists (docs/api-contract-notes.md §5.3,
// §5.4) and the conversion of their records to and from the model structs.
// Shared by manifest.cc and manifest_list.cc only.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "avro/schema.h"
#include "common/status.h"
#include "common/value.h"
#include "iceberg/data_file.h"
#include "iceberg/types.h"

namespace st::iceberg::internal {

// Java's AvroSchemaUtil rule: characters outside [A-Za-z0-9_] become "_x<HEX>",
// and a leading digit gets a "_" prefix.
std::string AvroCompatibleName(std::string_view name);

// The Avro type of an Iceberg primitive (spec Appendix A): date → int/date,
// timestamptz → long/timestamp-micros adjust-to-utc true, uuid → fixed[16]/uuid,
// decimal → fixed of the minimum size. Named fixed types are shared through
// `named` so a schema never defines one name twice. Errors: InvalidArgument
// for nested types.
Result<avro::NodePtr> AvroPrimitiveFor(const Type& type,
                                       std::map<std::string, avro::NodePtr>* named);

// `manifest_entry` with data_file `r2` and partition `r102` built from the
// spec's partition type (all fields optional, field-id = partition field id).
Result<avro::Schema> ManifestEntryAvroSchema(const Type& partition_type);
// `manifest_file` (v2 fields 500..519).
const avro::Schema& ManifestFileAvroSchema();

Value ManifestEntryToAvro(const ManifestEntry& entry);
Value ManifestFileToAvro(const ManifestFile& manifest);

// Field access by name in a decoded record, so files written by other
// writers (extra fields, other order) still read. Missing fields read as null.
class RecordLayout {
 public:
  explicit RecordLayout(const avro::Node& record);
  const Value& Get(const Value& record, std::string_view name) const;
  // The layout of a nested record field (through unions/arrays to the record);
  // an empty layout when absent.
  RecordLayout Nested(std::string_view name) const;

 private:
  RecordLayout() = default;
  const avro::Node* node_ = nullptr;
  std::map<std::string, size_t, std::less<>> index_;
};

// Decodes one manifest_entry record (snapshot/sequence numbers as written:
// inheritance is the reader's job). `what` names the file in errors.
// Errors: Corruption.
Result<ManifestEntry> ManifestEntryFromAvro(const RecordLayout& entry_layout,
                                            const RecordLayout& file_layout, const Value& record,
                                            const std::string& what);
Result<ManifestFile> ManifestFileFromAvro(const RecordLayout& layout, const Value& record,
                                          const std::string& what);

}  // namespace st::iceberg::internal
