// Test fixtures shared by the unit tests and avro_golden_writer: a schema that
// uses every Avro type with Iceberg-style attributes, and values for it.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "avro/schema.h"
#include "common/value.h"

namespace st::avro::testing {

// A byte string written out octet by octet (hand-made encodings).
inline std::string Bytes(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out.push_back(static_cast<char>(b));
  return out;
}

// JSON text of the "everything" schema.
const std::string& EverythingSchemaJson();
// Hand-written records covering extremes, unicode, empties and nulls,
// followed by `generated` pseudo-random ones (deterministic).
std::vector<Value> EverythingRecords(int generated);

// Schema-aware JSON rendering used by the foreign-reader test: records as
// objects by field name, bytes as {"$bytes": hex}, decimals as
// {"$decimal": "<unscaled>"}, non-finite floats as "NaN"/"Infinity"/"-Infinity",
// maps as objects, logical-map arrays as [{"key":..,"value":..}].
std::string ValueToJson(const Node& node, const Value& value);

}  // namespace st::avro::testing
