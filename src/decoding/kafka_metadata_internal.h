// Fills the `_kafka` metadata struct of one row from the Kafka record, and
// the single `value` column of the BYTE_ARRAY / STRING formats.
#pragma once

#include "common/status.h"
#include "decoding/column_buffers_internal.h"
#include "decoding/record.h"
#include "decoding/shred_plan_internal.h"

namespace st::decoding {

// Emits null levels for every leaf of `node` at definition level `def`.
void EmitNulls(const ShredNode& node, int16_t def, int16_t rep, ColumnBuffers& out);

class KafkaMetadataWriter {
 public:
  // Errors: InvalidArgument when `_kafka` does not have the ChannelTableSchema
  // shape (partition int, offset long, timestamp timestamptz, key binary or
  // string, headers map<string, binary>). A string key (keyConverter STRING)
  // must be UTF-8. A KeyHasSchema format: `key` has any type or is absent,
  // and Write leaves it to the caller (key_node()).
  static Result<KafkaMetadataWriter> Make(const ShredNode& kafka,
                                          KeyFormat key_format = KeyFormat::kBytes);

  // A typed key's node (nullptr while the table has no `_kafka.key`).
  const ShredNode* key_node() const { return key_; }

  // Writes the record's metadata (fill) or a null `_kafka` (!fill). False
  // with TYPE_MISMATCH in `error` when a header key, or the key of a string
  // `_kafka.key`, is not UTF-8.
  bool Write(const KafkaRecord& record, bool fill, ColumnBuffers& out, RecordError* error) const;

 private:
  const ShredNode* kafka_ = nullptr;
  const ShredNode* partition_ = nullptr;
  const ShredNode* offset_ = nullptr;
  const ShredNode* timestamp_ = nullptr;
  const ShredNode* key_ = nullptr;
  bool key_text_ = false;   // `_kafka.key` is a string.
  bool key_typed_ = false;  // Decoded by the caller (KeyHasSchema).
  const ShredNode* headers_ = nullptr;
};

// Writes a BYTE_ARRAY / STRING record value into the single `value` column
// `node`. False with TYPE_MISMATCH when a STRING value is not UTF-8.
bool WriteRawValue(const ShredNode& node, std::string_view value, bool text, ColumnBuffers& out,
                   RecordError* error);

}  // namespace st::decoding
