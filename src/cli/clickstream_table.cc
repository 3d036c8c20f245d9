#include <array>
#include <string_view>

#include "cli/builtin_tables.h"
#include "iceberg/types.h"

namespace st::cli {
namespace {

using iceberg::NestedField;
using iceberg::Type;

constexpr int64_t kTs20250301 = 1'740'787'200'000'000LL;  // 2025-03-01T00:00:00Z
constexpr int kDays = 10;

template <size_t N>
Value OneOf(RowRandom& r, const std::array<std::string_view, N>& values) {
  return Value::String(std::string(values[static_cast<size_t>(r.Uniform(0, N - 1))]));
}

std::string Hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

}  // namespace

Result<BuiltinTable> MakeClickstreamTable() {
  auto geo = Type::Struct({{19, "lat", false, Type::Double()},
                           {20, "lon", false, Type::Double()},
                           {21, "city", false, Type::String()}});
  std::vector<NestedField> fields = {
      {1, "id", true, Type::Long()},
      {2, "event_id", true, Type::Uuid()},
      {3, "user_id", false, Type::Long()},
      {4, "session_id", false, Type::String()},
      {5, "ts", true, Type::TimestampTz()},
      {6, "event_type", false, Type::String()},
      {7, "page", false, Type::String()},
      {8, "url", false, Type::String()},
      {9, "referrer", false, Type::String()},
      {10, "country", false, Type::String()},
      {11, "device", false, Type::String()},
      {12, "browser", false, Type::String()},
      {13, "os", false, Type::String()},
      {14, "duration_ms", false, Type::Int()},
      {15, "revenue", false, Type::Decimal(18, 2)},
      {16, "is_bot", false, Type::Boolean()},
      {17, "screen_width", false, Type::Int()},
      {18, "geo", false, geo},
      {22, "app_version", false, Type::String()},
      {23, "event_date", false, Type::Date()},
  };
  ST_ASSIGN_OR_RETURN(auto schema, iceberg::Schema::Make(0, std::move(fields)));

  auto make_row = [](RowRandom& r, int64_t index) -> Value {
    static constexpr std::array<std::string_view, 6> kEvents = {
        "page_view", "click", "scroll", "add_to_cart", "purchase", "signup"};
    static constexpr std::array<std::string_view, 8> kPages = {
        "/", "/search", "/product", "/cart", "/checkout", "/account", "/help", "/blog"};
    static constexpr std::array<std::string_view, 5> kReferrers = {
        "https://www.google.com/", "https://duckduckgo.com/", "https://news.ycombinator.com/",
        "https://t.co/", "https://www.bing.com/"};
    static constexpr std::array<std::string_view, 8> kCountries = {"US", "DE", "FR", "JP",
                                                                   "BR", "IN", "GB", "CA"};
    static constexpr std::array<std::string_view, 3> kDevices = {"desktop", "mobile", "tablet"};
    static constexpr std::array<std::string_view, 5> kBrowsers = {"chrome", "firefox", "safari",
                                                                  "edge", "opera"};
    static constexpr std::array<std::string_view, 5> kOs = {"windows", "macos", "linux", "ios",
                                                            "android"};
    static constexpr std::array<std::string_view, 6> kCities = {"Berlin",   "São Paulo", "東京",
                                                                "New York", "Paris",     "Zürich"};
    static constexpr std::array<std::string_view, 4> kVersions = {"1.0.0", "1.1.0", "1.2.3",
                                                                  "2.0.0-beta"};

    int64_t ts = kTs20250301 + r.Uniform(0, kDays * kMicrosPerDay - 1);
    Value page = OneOf(r, kPages);
    Value::Struct row;
    row.push_back(Value::Int64(index));
    row.push_back(Value::Binary(RandomUuidBytes(r)));
    row.push_back(r.OneIn(10) ? Value::Null() : Value::Int64(r.Uniform(1, 50'000)));
    row.push_back(Value::String("s-" + Hex(RandomBytes(r, 6))));
    row.push_back(Value::Int64(ts));
    row.push_back(OneOf(r, kEvents));
    row.push_back(page);
    row.push_back(Value::String("https://shop.example.com" + page.bytes_value()));
    row.push_back(r.OneIn(3) ? Value::Null() : OneOf(r, kReferrers));
    row.push_back(OneOf(r, kCountries));
    row.push_back(OneOf(r, kDevices));
    row.push_back(OneOf(r, kBrowsers));
    row.push_back(OneOf(r, kOs));
    row.push_back(Value::Int32(static_cast<int32_t>(r.Uniform(0, 120'000))));
    row.push_back(r.OneIn(4) ? Value::Decimal(r.Uniform(0, 100'000'00)) : Value::Null());
    row.push_back(Value::Bool(r.OneIn(20)));
    row.push_back(r.OneIn(8) ? Value::Null()
                             : Value::Int32(static_cast<int32_t>(r.Uniform(320, 3840))));
    row.push_back(r.OneIn(7) ? Value::Null()
                             : Value::MakeStruct({Value::Double(r.UnitDouble() * 180 - 90),
                                                  Value::Double(r.UnitDouble() * 360 - 180),
                                                  r.OneIn(9) ? Value::Null() : OneOf(r, kCities)}));
    row.push_back(OneOf(r, kVersions));
    row.push_back(Value::Int32(static_cast<int32_t>(ts / kMicrosPerDay)));
    return Value::MakeStruct(std::move(row));
  };
  return BuiltinTable{std::move(schema), make_row};
}

}  // namespace st::cli
