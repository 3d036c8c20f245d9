// Test-only tool driven by tests/integration/test_metadata_pyiceberg.py.
//   iceberg_metadata_tool roundtrip      stdin: metadata JSON → stdout: our v2 serialization
//   iceberg_metadata_tool apply NOW_MS   stdin: {"base": <metadata JSON or null>,
//                                                "requirements": [...], "updates": [...]}
//                                        → stdout: the new metadata JSON
// Errors go to stderr as "<status>" with exit code 1.
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "iceberg/table_metadata.h"
#include "iceberg/table_update.h"

namespace st::iceberg {
namespace {

Result<std::string> Apply(const std::string& input, int64_t now_ms) {
  const nlohmann::json request = nlohmann::json::parse(input);
  std::optional<TableMetadata> base;
  if (!request.at("base").is_null()) {
    ST_ASSIGN_OR_RETURN(base, ParseTableMetadata(request.at("base").dump()));
  }
  ST_ASSIGN_OR_RETURN(auto requirements, TableRequirementsFromJson(request.at("requirements")));
  ST_ASSIGN_OR_RETURN(auto updates, TableUpdatesFromJson(request.at("updates")));
  ST_TRY(CheckRequirements(requirements, base ? &*base : nullptr));
  ST_ASSIGN_OR_RETURN(TableMetadata next,
                      ApplyUpdates(base ? *base : TableMetadata{}, updates, now_ms));
  return SerializeTableMetadata(next);
}

Result<std::string> Run(int argc, char** argv, const std::string& input) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "roundtrip") {
    ST_ASSIGN_OR_RETURN(TableMetadata m, ParseTableMetadata(input));
    return SerializeTableMetadata(m);
  }
  if (mode == "apply" && argc > 2) return Apply(input, std::stoll(argv[2]));
  return Err(InvalidArgument("usage: iceberg_metadata_tool roundtrip | apply NOW_MS"));
}

}  // namespace
}  // namespace st::iceberg

int main(int argc, char** argv) {
  const std::string input((std::istreambuf_iterator<char>(std::cin)),
                          std::istreambuf_iterator<char>());
  try {
    auto out = st::iceberg::Run(argc, argv, input);
    if (!out.has_value()) {
      std::cerr << out.error().ToString() << '\n';
      return 1;
    }
    std::cout << *out << '\n';
  } catch (const std::exception& e) {
    std::cerr << "bad input: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
