#include "iceberg/types.h"

#include <string_view>

namespace st::iceberg {

#define ST_ICEBERG_PRIMITIVE(Name, Id)            \
  TypePtr Type::Name() {                          \
    static const TypePtr t(new Type(TypeId::Id)); \
    return t;                                     \
  }
ST_ICEBERG_PRIMITIVE(Boolean, kBoolean)
ST_ICEBERG_PRIMITIVE(Int, kInt)
ST_ICEBERG_PRIMITIVE(Long, kLong)
ST_ICEBERG_PRIMITIVE(Float, kFloat)
ST_ICEBERG_PRIMITIVE(Double, kDouble)
ST_ICEBERG_PRIMITIVE(Date, kDate)
ST_ICEBERG_PRIMITIVE(Time, kTime)
ST_ICEBERG_PRIMITIVE(Timestamp, kTimestamp)
ST_ICEBERG_PRIMITIVE(TimestampTz, kTimestampTz)
ST_ICEBERG_PRIMITIVE(String, kString)
ST_ICEBERG_PRIMITIVE(Uuid, kUuid)
ST_ICEBERG_PRIMITIVE(Binary, kBinary)
#undef ST_ICEBERG_PRIMITIVE

TypePtr Type::Decimal(int precision, int scale) {
  ST_CHECK(precision >= 1 && precision <= 38 && scale >= 0 && scale <= precision);
  auto* t = new Type(TypeId::kDecimal);
  t->precision_ = precision;
  t->scale_ = scale;
  return TypePtr(t);
}

TypePtr Type::Fixed(int32_t length) {
  ST_CHECK(length > 0);
  auto* t = new Type(TypeId::kFixed);
  t->length_ = length;
  return TypePtr(t);
}

TypePtr Type::Struct(std::vector<NestedField> fields) {
  auto* t = new Type(TypeId::kStruct);
  t->fields_ = std::move(fields);
  return TypePtr(t);
}

TypePtr Type::List(int32_t element_id, bool element_required, TypePtr element) {
  auto* t = new Type(TypeId::kList);
  t->fields_.push_back(
      NestedField{element_id, "element", element_required, std::move(element), ""});
  return TypePtr(t);
}

TypePtr Type::Map(int32_t key_id, TypePtr key, int32_t value_id, bool value_required,
                  TypePtr value) {
  auto* t = new Type(TypeId::kMap);
  t->fields_.push_back(NestedField{key_id, "key", true, std::move(key), ""});
  t->fields_.push_back(NestedField{value_id, "value", value_required, std::move(value), ""});
  return TypePtr(t);
}

std::string Type::ToString() const {
  switch (id_) {
    case TypeId::kBoolean:
      return "boolean";
    case TypeId::kInt:
      return "int";
    case TypeId::kLong:
      return "long";
    case TypeId::kFloat:
      return "float";
    case TypeId::kDouble:
      return "double";
    case TypeId::kDecimal:
      return "decimal(" + std::to_string(precision_) + "," + std::to_string(scale_) + ")";
    case TypeId::kDate:
      return "date";
    case TypeId::kTime:
      return "time";
    case TypeId::kTimestamp:
      return "timestamp";
    case TypeId::kTimestampTz:
      return "timestamptz";
    case TypeId::kString:
      return "string";
    case TypeId::kUuid:
      return "uuid";
    case TypeId::kFixed:
      return "fixed[" + std::to_string(length_) + "]";
    case TypeId::kBinary:
      return "binary";
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (i) out += ", ";
        out += fields_[i].name + ": " + fields_[i].type->ToString();
      }
      return out + ">";
    }
    case TypeId::kList:
      return "list<" + element().type->ToString() + ">";
    case TypeId::kMap:
      return "map<" + key().type->ToString() + ", " + value().type->ToString() + ">";
  }
  return "unknown";
}

Result<TypePtr> Type::ParsePrimitive(const std::string& text) {
  static const std::pair<const char*, TypePtr (*)()> kNamed[] = {
      {"boolean", &Type::Boolean},
      {"int", &Type::Int},
      {"long", &Type::Long},
      {"float", &Type::Float},
      {"double", &Type::Double},
      {"date", &Type::Date},
      {"time", &Type::Time},
      {"timestamp", &Type::Timestamp},
      {"timestamptz", &Type::TimestampTz},
      {"string", &Type::String},
      {"uuid", &Type::Uuid},
      {"binary", &Type::Binary},
  };
  for (const auto& [name, make] : kNamed) {
    if (text == name) return make();
  }
  // Hand-parsed rather than std::regex: GCC 12 with sanitizers reports false
  // -Wmaybe-uninitialized inside <regex>.
  auto parse_uint = [](std::string_view digits, int max_digits, long* out) {
    if (digits.empty() || static_cast<int>(digits.size()) > max_digits) return false;
    long v = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    *out = v;
    return true;
  };
  auto trim = [](std::string_view v) {
    while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
    while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
    return v;
  };
  std::string_view t(text);
  if (t.starts_with("decimal(") && t.ends_with(")")) {
    std::string_view inner = t.substr(8, t.size() - 9);
    size_t comma = inner.find(',');
    long p = 0, s = 0;
    if (comma == std::string_view::npos || !parse_uint(trim(inner.substr(0, comma)), 2, &p) ||
        !parse_uint(trim(inner.substr(comma + 1)), 2, &s) || p < 1 || p > 38 || s > p) {
      return Err(InvalidArgument("invalid decimal type '" + text +
                                 "': precision must be 1..38 and scale 0..precision"));
    }
    return Decimal(static_cast<int>(p), static_cast<int>(s));
  }
  if (t.starts_with("fixed[") && t.ends_with("]")) {
    long length = 0;
    if (!parse_uint(trim(t.substr(6, t.size() - 7)), 9, &length) || length < 1) {
      return Err(InvalidArgument("invalid fixed type '" + text + "': length must be positive"));
    }
    return Fixed(static_cast<int32_t>(length));
  }
  return Err(InvalidArgument("unknown Iceberg type '" + text + "'"));
}

bool operator==(const NestedField& a, const NestedField& b) {
  return a.id == b.id && a.name == b.name && a.required == b.required && a.doc == b.doc &&
         ((a.type == nullptr) == (b.type == nullptr)) && (!a.type || *a.type == *b.type);
}

bool operator==(const Type& a, const Type& b) {
  return a.id_ == b.id_ && a.precision_ == b.precision_ && a.scale_ == b.scale_ &&
         a.length_ == b.length_ && a.fields_ == b.fields_;
}

}  // namespace st::iceberg
