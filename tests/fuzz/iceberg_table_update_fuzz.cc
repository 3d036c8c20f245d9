// Iceberg REST commit bodies from outside bytes: {"requirements": [...],
// "updates": [...]} through TableRequirementsFromJson / TableUpdatesFromJson,
// then what a commit does with them: CheckRequirements and ApplyUpdates
// against a real table (tests/unit/iceberg/golden/pyiceberg_v2.metadata.json)
// and against an empty one (a create), and AddMetadataLogEntry.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>

#include "iceberg/table_metadata.h"
#include "iceberg/table_update.h"

namespace ice = st::iceberg;

namespace {

ice::TableMetadata LoadBase() {
  std::ifstream in(std::string(ST_SOURCE_DIR) +
                   "/tests/unit/iceberg/golden/pyiceberg_v2.metadata.json");
  std::stringstream text;
  text << in.rdbuf();
  auto metadata = ice::ParseTableMetadata(text.str());
  if (!metadata.has_value()) {
    fprintf(stderr, "base metadata: %s\n", metadata.error().ToString().c_str());
    abort();
  }
  return *metadata;
}

void Commit(const ice::TableMetadata* base, const std::vector<ice::TableRequirement>& requirements,
            const std::vector<ice::TableUpdate>& updates) {
  if (!ice::CheckRequirements(requirements, base).ok() && base != nullptr) return;
  ice::TableMetadata empty;
  auto next = ice::ApplyUpdates(base != nullptr ? *base : empty, updates, 1764547200000);
  if (!next.has_value()) return;
  // With no updates ApplyUpdates returns the base as it is (an empty one
  // base stays empty, which is not valid metadata).
  if (!updates.empty() && !next->Validate().ok()) {
    fprintf(stderr, "ApplyUpdates returned metadata that fails Validate: %s\n",
            next->Validate().ToString().c_str());
    abort();
  }
  (void)ice::AddMetadataLogEntry(*next, {"s3://bucket/t/metadata/00000.metadata.json", 1});
  (void)ice::SerializeTableMetadata(*next);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ice::TableMetadata base = LoadBase();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return 0;
  std::vector<ice::TableRequirement> requirements;
  std::vector<ice::TableUpdate> updates;
  if (auto it = json.find("requirements"); it != json.end()) {
    auto parsed = ice::TableRequirementsFromJson(*it);
    if (!parsed.has_value()) return 0;
    requirements = std::move(*parsed);
  }
  if (auto it = json.find("updates"); it != json.end()) {
    auto parsed = ice::TableUpdatesFromJson(*it);
    if (!parsed.has_value()) return 0;
    updates = std::move(*parsed);
  }
  for (const auto& requirement : requirements) (void)ice::TableRequirementToJson(requirement);
  for (const auto& update : updates) (void)ice::TableUpdateToJson(update);
  Commit(&base, requirements, updates);
  Commit(nullptr, requirements, updates);
  return 0;
}
