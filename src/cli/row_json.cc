#include "cli/row_json.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "common/base64.h"
#include "common/uuid.h"

namespace st::cli {
namespace {

__extension__ typedef unsigned __int128 UInt128;
using iceberg::Type;
using iceberg::TypeId;
using Json = nlohmann::ordered_json;  // Fields in schema order.

Json FloatingJson(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

Status Mismatch(const Type& type, const Value& value) {
  return InvalidArgument("row value of kind " + std::to_string(static_cast<int>(value.kind())) +
                         " does not match type " + type.ToString());
}

Result<Json> ToJson(const Type& type, const Value& value) {
  if (value.is_null()) return Json(nullptr);
  auto expect = [&](Value::Kind kind) -> Status {
    return value.kind() == kind ? Status::OK() : Mismatch(type, value);
  };
  switch (type.id()) {
    case TypeId::kBoolean:
      ST_TRY(expect(Value::Kind::kBool));
      return Json(value.bool_value());
    case TypeId::kInt:
    case TypeId::kDate:
      ST_TRY(expect(Value::Kind::kInt32));
      return Json(value.int32_value());
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      ST_TRY(expect(Value::Kind::kInt64));
      return Json(value.int64_value());
    case TypeId::kFloat:
      ST_TRY(expect(Value::Kind::kFloat));
      return FloatingJson(static_cast<double>(value.float_value()));
    case TypeId::kDouble:
      ST_TRY(expect(Value::Kind::kDouble));
      return FloatingJson(value.double_value());
    case TypeId::kDecimal:
      ST_TRY(expect(Value::Kind::kDecimal));
      return Json(DecimalToString(value.decimal_value(), type.scale()));
    case TypeId::kString:
      ST_TRY(expect(Value::Kind::kString));
      return Json(value.bytes_value());
    case TypeId::kUuid: {
      ST_TRY(expect(Value::Kind::kBinary));
      if (value.bytes_value().size() != 16) return Err(Mismatch(type, value));
      Uuid uuid;
      for (size_t i = 0; i < 16; ++i) uuid.bytes[i] = static_cast<uint8_t>(value.bytes_value()[i]);
      return Json(uuid.ToString());
    }
    case TypeId::kFixed:
    case TypeId::kBinary:
      ST_TRY(expect(Value::Kind::kBinary));
      return Json(common::Base64Encode(value.bytes_value()));
    case TypeId::kStruct: {
      ST_TRY(expect(Value::Kind::kStruct));
      const auto& fields = type.fields();
      const auto& values = value.struct_value();
      if (fields.size() != values.size()) return Err(Mismatch(type, value));
      Json out = Json::object();
      for (size_t i = 0; i < fields.size(); ++i) {
        ST_ASSIGN_OR_RETURN(out[fields[i].name], ToJson(*fields[i].type, values[i]));
      }
      return out;
    }
    case TypeId::kList: {
      ST_TRY(expect(Value::Kind::kList));
      Json out = Json::array();
      for (const auto& element : value.list_value()) {
        ST_ASSIGN_OR_RETURN(Json j, ToJson(*type.element().type, element));
        out.push_back(std::move(j));
      }
      return out;
    }
    case TypeId::kMap: {
      ST_TRY(expect(Value::Kind::kMap));
      Json out = Json::array();
      for (const auto& [k, v] : value.map_value()) {
        ST_ASSIGN_OR_RETURN(Json jk, ToJson(*type.key().type, k));
        ST_ASSIGN_OR_RETURN(Json jv, ToJson(*type.value().type, v));
        out.push_back(Json::array({std::move(jk), std::move(jv)}));
      }
      return out;
    }
  }
  return Err(Mismatch(type, value));
}

}  // namespace

std::string DecimalToString(Int128 unscaled, int scale) {
  bool negative = unscaled < 0;
  // Work on the unsigned magnitude: -(2^127) has no positive Int128.
  UInt128 magnitude =
      negative ? UInt128{0} - static_cast<UInt128>(unscaled) : static_cast<UInt128>(unscaled);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale)) {
      digits.insert(0, static_cast<size_t>(scale) + 1 - digits.size(), '0');
    }
    digits.insert(digits.size() - static_cast<size_t>(scale), ".");
  }
  return negative ? "-" + digits : digits;
}

Result<std::string> RowToJsonLine(const iceberg::Schema& schema, const Value& row) {
  ST_ASSIGN_OR_RETURN(Json json, ToJson(*schema.AsStruct(), row));
  try {
    return json.dump();
  } catch (const nlohmann::json::exception& e) {
    return Err(InvalidArgument(std::string("row is not valid UTF-8 JSON: ") + e.what()));
  }
}

}  // namespace st::cli
