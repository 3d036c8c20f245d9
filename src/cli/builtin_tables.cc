#include "cli/builtin_tables.h"

#include "common/utf8.h"

namespace st::cli {

std::string RandomUnicodeString(RowRandom& random, int max_code_points) {
  int n = static_cast<int>(random.Uniform(0, max_code_points));
  std::string out;
  for (int i = 0; i < n; ++i) {
    uint32_t cp = 0;
    switch (random.Uniform(0, 9)) {
      case 0:  // Latin-1 supplement and beyond: 2 bytes.
        cp = static_cast<uint32_t>(random.Uniform(0x80, 0x7FF));
        break;
      case 1:  // CJK: 3 bytes.
        cp = static_cast<uint32_t>(random.Uniform(0x4E00, 0x9FFF));
        break;
      case 2:  // Emoji and other supplementary planes: 4 bytes.
        cp = random.OneIn(8) ? 0x10FFFF : static_cast<uint32_t>(random.Uniform(0x1F300, 0x1FAFF));
        break;
      default:
        cp = static_cast<uint32_t>(random.Uniform(0x20, 0x7E));
    }
    AppendUtf8(out, cp);
  }
  return out;
}

std::string RandomBytes(RowRandom& random, int length) {
  std::string out(static_cast<size_t>(length), '\0');
  for (auto& c : out) c = static_cast<char>(random.Uniform(0, 255));
  return out;
}

std::string RandomUuidBytes(RowRandom& random) {
  std::string out = RandomBytes(random, 16);
  out[6] = static_cast<char>((out[6] & 0x0F) | 0x40);
  out[8] = static_cast<char>((out[8] & 0x3F) | 0x80);
  return out;
}

std::vector<std::string> BuiltinTableNames() { return {"all-types", "nested", "clickstream"}; }

Result<BuiltinTable> MakeBuiltinTable(std::string_view name) {
  if (name == "all-types") return MakeAllTypesTable();
  if (name == "nested") return MakeNestedTable();
  if (name == "clickstream") return MakeClickstreamTable();
  return Err(InvalidArgument("unknown built-in schema '" + std::string(name) +
                             "'; use one of all-types, nested, clickstream"));
}

}  // namespace st::cli
