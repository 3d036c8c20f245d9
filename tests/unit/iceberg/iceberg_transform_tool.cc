// Test-only tool driven by tests/integration/test_transforms_pyiceberg.py.
// Reads JSON lines {"type": "<iceberg type>", "transform": "<transform>",
// "value": V} and prints one JSON line per input: {"result": R, "human": H}
// or {"error": "..."}. V and R encode values as: integers for int, long,
// date (days), time and timestamps (micros); the unscaled integer as a
// decimal string for decimal; the text for string; lower-case hex for uuid,
// fixed and binary; null for null.
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "iceberg/transform.h"
#include "iceberg/types.h"

namespace st::iceberg {
namespace {

using nlohmann::json;

std::string FromHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

std::string ToHex(const std::string& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    out.push_back(kHex[static_cast<uint8_t>(c) >> 4]);
    out.push_back(kHex[static_cast<uint8_t>(c) & 15]);
  }
  return out;
}

Int128 ParseInt128(const std::string& text) {
  Int128 v = 0;
  size_t i = text[0] == '-' ? 1 : 0;
  for (; i < text.size(); ++i) v = v * 10 + (text[i] - '0');
  return text[0] == '-' ? -v : v;
}

std::string Int128Text(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string digits;
  while (v != 0) {
    const int d = static_cast<int>(v % 10);
    digits.insert(digits.begin(), static_cast<char>('0' + (d < 0 ? -d : d)));
    v /= 10;
  }
  return negative ? "-" + digits : digits;
}

Value Decode(const Type& type, const json& v) {
  if (v.is_null()) return Value::Null();
  switch (type.id()) {
    case TypeId::kInt:
    case TypeId::kDate:
      return Value::Int32(v.get<int32_t>());
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return Value::Int64(v.get<int64_t>());
    case TypeId::kDecimal:
      return Value::Decimal(ParseInt128(v.get<std::string>()));
    case TypeId::kString:
      return Value::String(v.get<std::string>());
    default:
      return Value::Binary(FromHex(v.get<std::string>()));
  }
}

json Encode(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull:
      return nullptr;
    case Value::Kind::kInt32:
      return v.int32_value();
    case Value::Kind::kInt64:
      return v.int64_value();
    case Value::Kind::kDecimal:
      return Int128Text(v.decimal_value());
    case Value::Kind::kString:
      return v.bytes_value();
    case Value::Kind::kBinary:
      return ToHex(v.bytes_value());
    default:
      return "unsupported value kind";
  }
}

json Run(const json& in) {
  auto type = Type::ParsePrimitive(in.at("type").get<std::string>());
  if (!type.has_value()) return {{"error", type.error().ToString()}};
  auto transform = Transform::Parse(in.at("transform").get<std::string>());
  if (!transform.has_value()) return {{"error", transform.error().ToString()}};
  auto result = transform->Apply(**type, Decode(**type, in.at("value")));
  if (!result.has_value()) return {{"error", result.error().ToString()}};
  const TypePtr result_type = transform->ResultType(*type);
  return {{"result", Encode(*result)}, {"human", transform->ToHumanString(*result_type, *result)}};
}

}  // namespace
}  // namespace st::iceberg

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    nlohmann::json out;
    try {
      out = st::iceberg::Run(nlohmann::json::parse(line));
    } catch (const std::exception& e) {
      out = {{"error", std::string("bad input line: ") + e.what()}};
    }
    std::cout << out.dump() << '\n';
  }
  return 0;
}
