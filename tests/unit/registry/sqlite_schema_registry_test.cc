#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "catalog/sqlite_metadata_store.h"
#include "common/uuid.h"
#include "registry/confluent_json_compatibility.h"
#include "registry/schema_registry.h"

namespace st::registry {
namespace {

constexpr char kAccount[] = "111122223333";
constexpr char kOther[] = "444455556666";
constexpr char kRegion[] = "us-east-1";
constexpr char kDefinition[] =
    R"({"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}}})";
// The same document, reformatted with members reordered.
constexpr char kReformatted[] = R"({ "properties": { "name": {"type": "string"},
    "id": {"type": "integer"} },
  "type": "object" })";

class SqliteSchemaRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("registry_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "catalog.db").string();
    registry_ = Open();
  }
  void TearDown() override {
    registry_.reset();
    std::filesystem::remove_all(dir_);
  }

  std::unique_ptr<SchemaRegistry> Open() {
    auto opened = OpenSqliteSchemaRegistry(path_, kRegion, clock_, random_);
    EXPECT_TRUE(opened.has_value()) << opened.error().ToString();
    return opened.has_value() ? std::move(opened).value() : nullptr;
  }

  SchemaVersion CreateWithVersion(const std::string& name) {
    NewSchema request;
    request.schema = {kAccount, "", name};
    request.data_format = "JSON";
    request.definition = kDefinition;
    auto created = registry_->CreateSchema(request);
    EXPECT_TRUE(created.has_value()) << created.error().ToString();
    return *created->first_version;
  }

  std::filesystem::path dir_;
  std::string path_;
  ManualClock clock_{std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000))};
  DefaultRandom random_{42};
  std::unique_ptr<SchemaRegistry> registry_;
};

TEST_F(SqliteSchemaRegistryTest, CreateSchemaRegistersVersionOneInTheDefaultRegistry) {
  NewSchema request;
  request.schema = {kAccount, "", "orders"};
  request.data_format = "JSON";
  request.compatibility = "FULL";
  request.description = "order events";
  request.definition = kDefinition;
  auto created = registry_->CreateSchema(request);
  ASSERT_TRUE(created.has_value()) << created.error().ToString();
  EXPECT_EQ(created->schema.registry_name, "default-registry");
  EXPECT_EQ(created->schema.schema_arn,
            "arn:aws:glue:us-east-1:111122223333:schema/default-registry/orders");
  EXPECT_EQ(created->schema.registry_arn,
            "arn:aws:glue:us-east-1:111122223333:registry/default-registry");
  EXPECT_EQ(created->schema.compatibility, "FULL");
  EXPECT_EQ(created->schema.latest_version, 1);
  ASSERT_TRUE(created->first_version.has_value());
  const SchemaVersion& v1 = *created->first_version;
  EXPECT_EQ(v1.version_number, 1);
  EXPECT_EQ(v1.status, "AVAILABLE");
  EXPECT_EQ(v1.data_format, "JSON");
  EXPECT_EQ(v1.definition, kDefinition);
  auto uuid = Uuid::Parse(v1.schema_version_id);
  ASSERT_TRUE(uuid.has_value());
  EXPECT_EQ(uuid->ToString(), v1.schema_version_id);  // Lower case.
  EXPECT_EQ(v1.created_at, clock_.Now());

  auto registry = registry_->GetRegistry(kAccount, "default-registry");
  ASSERT_TRUE(registry.has_value());
  auto all = registry_->ListRegistries(kAccount);
  ASSERT_TRUE(all.has_value());
  ASSERT_EQ(all->size(), 1u);
  EXPECT_EQ((*all)[0].registry_name, "default-registry");
}

TEST_F(SqliteSchemaRegistryTest, RegistriesAndSchemasAreUniqueAndPerAccount) {
  ASSERT_TRUE(registry_->CreateRegistry(kAccount, "reg", "d").has_value());
  auto again = registry_->CreateRegistry(kAccount, "reg", "d");
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().code(), StatusCode::kAlreadyExists);
  EXPECT_TRUE(registry_->CreateRegistry(kOther, "reg", "").has_value());

  NewSchema request;
  request.schema = {kAccount, "reg", "s"};
  request.data_format = "AVRO";
  ASSERT_TRUE(registry_->CreateSchema(request).has_value());
  auto duplicate = registry_->CreateSchema(request);
  ASSERT_FALSE(duplicate.has_value());
  EXPECT_EQ(duplicate.error().code(), StatusCode::kAlreadyExists);

  request.schema = {kAccount, "missing", "s"};
  auto no_registry = registry_->CreateSchema(request);
  ASSERT_FALSE(no_registry.has_value());
  EXPECT_EQ(no_registry.error().code(), StatusCode::kNotFound);

  auto other = registry_->GetSchema({kOther, "reg", "s"});
  ASSERT_FALSE(other.has_value());
  EXPECT_EQ(other.error().message(), "Schema is not found.");

  auto listed = registry_->ListSchemas(kAccount, "reg");
  ASSERT_TRUE(listed.has_value());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].latest_version, 0);
  EXPECT_EQ((*listed)[0].data_format, "AVRO");

  request.schema = {kAccount, "reg", "bad/name"};
  EXPECT_EQ(registry_->CreateSchema(request).error().code(), StatusCode::kInvalidArgument);
  request.schema = {kAccount, "reg", "t"};
  request.data_format = "XML";
  EXPECT_EQ(registry_->CreateSchema(request).error().code(), StatusCode::kInvalidArgument);
  request.data_format = "JSON";
  request.compatibility = "SOMETIMES";
  EXPECT_EQ(registry_->CreateSchema(request).error().code(), StatusCode::kInvalidArgument);
  request.compatibility = "NONE";
  request.definition = "{not json";
  EXPECT_EQ(registry_->CreateSchema(request).error().code(), StatusCode::kInvalidArgument);
}

TEST_F(SqliteSchemaRegistryTest, VersionsCountFromOneAndReuseEqualDefinitions) {
  SchemaVersion v1 = CreateWithVersion("s");
  SchemaRef ref{kAccount, "default-registry", "s"};
  const std::string second = R"({"type":"object","properties":{"id":{"type":"integer"}}})";
  auto v2 = registry_->RegisterSchemaVersion(ref, second);
  ASSERT_TRUE(v2.has_value()) << v2.error().ToString();
  EXPECT_EQ(v2->version_number, 2);
  EXPECT_NE(v2->schema_version_id, v1.schema_version_id);

  auto same = registry_->RegisterSchemaVersion(ref, kReformatted);
  ASSERT_TRUE(same.has_value());
  EXPECT_EQ(same->schema_version_id, v1.schema_version_id);
  EXPECT_EQ(same->version_number, 1);

  auto latest = registry_->GetSchemaVersion(ref, std::nullopt);
  ASSERT_TRUE(latest.has_value());
  EXPECT_EQ(latest->schema_version_id, v2->schema_version_id);
  auto first = registry_->GetSchemaVersion({kAccount, "", "s"}, 1);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->schema_version_id, v1.schema_version_id);
  auto third = registry_->GetSchemaVersion(ref, 3);
  ASSERT_FALSE(third.has_value());
  EXPECT_EQ(third.error().message(), "Schema version is not found.");

  auto by_arn = registry_->GetLatestSchemaVersion(
      "arn:aws:glue:us-east-1:111122223333:schema/default-registry/s");
  ASSERT_TRUE(by_arn.has_value());
  EXPECT_EQ(by_arn->version_number, 2);
  auto other_region = registry_->GetLatestSchemaVersion(
      "arn:aws:glue:eu-west-1:111122223333:schema/default-registry/s");
  EXPECT_EQ(other_region.error().code(), StatusCode::kNotFound);
  EXPECT_EQ(registry_->GetLatestSchemaVersion("arn:aws:s3:::b").error().code(),
            StatusCode::kInvalidArgument);

  std::string upper = v1.schema_version_id;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto by_id = registry_->GetSchemaVersionById(upper);
  ASSERT_TRUE(by_id.has_value());
  EXPECT_EQ(by_id->schema_arn, "arn:aws:glue:us-east-1:111122223333:schema/default-registry/s");
  EXPECT_EQ(by_id->definition, kDefinition);
  auto unknown = registry_->GetSchemaVersionById("00000000-0000-4000-8000-000000000000");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().code(), StatusCode::kNotFound);
  EXPECT_EQ(unknown.error().message(), "Schema version is not found.");
  EXPECT_EQ(registry_->GetSchemaVersionById("nope").error().code(), StatusCode::kInvalidArgument);
}

TEST_F(SqliteSchemaRegistryTest, GetSchemaByDefinitionComparesDocumentsAndUsesTheGsrMessages) {
  SchemaVersion v1 = CreateWithVersion("s");
  auto found = registry_->GetSchemaByDefinition({kAccount, "", "s"}, kReformatted);
  ASSERT_TRUE(found.has_value()) << found.error().ToString();
  EXPECT_EQ(found->schema_version_id, v1.schema_version_id);

  auto no_version = registry_->GetSchemaByDefinition(
      {kAccount, "", "s"}, R"({"type":"object","properties":{"x":{"type":"string"}}})");
  ASSERT_FALSE(no_version.has_value());
  EXPECT_EQ(no_version.error().code(), StatusCode::kNotFound);
  EXPECT_EQ(no_version.error().message(), "Schema version is not found.");

  auto no_schema = registry_->GetSchemaByDefinition({kAccount, "", "absent"}, kDefinition);
  ASSERT_FALSE(no_schema.has_value());
  EXPECT_EQ(no_schema.error().code(), StatusCode::kNotFound);
  EXPECT_EQ(no_schema.error().message(), "Schema is not found.");

  auto other_account = registry_->GetSchemaByDefinition({kOther, "", "s"}, kDefinition);
  EXPECT_EQ(other_account.error().message(), "Schema is not found.");
}

TEST_F(SqliteSchemaRegistryTest, TheInjectedValidatorChecksEveryNewDefinition) {
  std::vector<std::string> seen;
  GlueFormatSupport formats;
  formats.validate = [&seen](const std::string& format, const std::string& definition) -> Status {
    seen.push_back(format);
    if (definition.find("bad") != std::string::npos) return InvalidArgument("line 1: bad");
    return Status::OK();
  };
  auto opened = OpenSqliteSchemaRegistry(path_, kRegion, clock_, random_, std::move(formats));
  ASSERT_TRUE(opened.has_value()) << opened.error().ToString();
  SchemaRegistry& registry = **opened;
  NewSchema request;
  request.schema = {kAccount, "", "p"};
  request.data_format = "PROTOBUF";
  request.definition = "bad message";
  auto refused = registry.CreateSchema(request);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.error().message(),
            "Schema definition of PROTOBUF data format is invalid: line 1: bad");
  EXPECT_FALSE(registry.GetSchema(request.schema).has_value());  // Nothing stored.
  request.definition = "message M {}";
  ASSERT_TRUE(registry.CreateSchema(request).has_value());
  auto second = registry.RegisterSchemaVersion(request.schema, "bad again");
  ASSERT_FALSE(second.has_value());
  EXPECT_EQ(second.error().code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(registry.RegisterSchemaVersion(request.schema, "message N {}").has_value());
  EXPECT_EQ(seen, (std::vector<std::string>{"PROTOBUF", "PROTOBUF", "PROTOBUF", "PROTOBUF"}));
}

TEST_F(SqliteSchemaRegistryTest, ListSchemaVersionsPages) {
  CreateWithVersion("s");
  SchemaRef ref{kAccount, "", "s"};
  for (int i = 0; i < 2; ++i) {
    std::string definition =
        R"({"type":"object","properties":{"f)" + std::to_string(i) + R"(":{"type":"string"}}})";
    ASSERT_TRUE(registry_->RegisterSchemaVersion(ref, definition).has_value());
  }
  auto first = registry_->ListSchemaVersions(ref, "", 2);
  ASSERT_TRUE(first.has_value());
  ASSERT_EQ(first->versions.size(), 2u);
  EXPECT_EQ(first->versions[0].version_number, 1);
  EXPECT_EQ(first->versions[1].version_number, 2);
  ASSERT_FALSE(first->next_token.empty());
  auto second = registry_->ListSchemaVersions(ref, first->next_token, 2);
  ASSERT_TRUE(second.has_value());
  ASSERT_EQ(second->versions.size(), 1u);
  EXPECT_EQ(second->versions[0].version_number, 3);
  EXPECT_TRUE(second->next_token.empty());
  EXPECT_EQ(registry_->ListSchemaVersions(ref, "x", 2).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(registry_->ListSchemaVersions(ref, "", 0).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(registry_->ListSchemaVersions({kAccount, "", "absent"}, "", 2).error().message(),
            "Schema is not found.");
}

TEST_F(SqliteSchemaRegistryTest, SharesTheCatalogFileAndSurvivesReopen) {
  catalog::SqliteStoreOptions options;
  options.path = path_;
  auto store = catalog::OpenSqliteMetadataStore(options, clock_, random_);
  ASSERT_TRUE(store.has_value()) << store.error().ToString();
  SchemaVersion v1 = CreateWithVersion("s");
  registry_.reset();
  registry_ = Open();
  ASSERT_NE(registry_, nullptr);
  auto again = registry_->GetSchemaVersionById(v1.schema_version_id);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->definition, kDefinition);
}

// The catalog and the registry write the same file through two connections:
// WAL and the busy timeout let both make progress without errors.
TEST_F(SqliteSchemaRegistryTest, WritesAlongsideTheCatalogConnection) {
  catalog::SqliteStoreOptions options;
  options.path = path_;
  auto store = catalog::OpenSqliteMetadataStore(options, clock_, random_);
  ASSERT_TRUE(store.has_value()) << store.error().ToString();
  CreateWithVersion("s");
  constexpr int kWrites = 40;
  std::thread catalog_writer([&] {
    for (int i = 0; i < kWrites; ++i) {
      Status created = (*store)->CreateAccount(std::to_string(100000000000 + i));
      EXPECT_TRUE(created.ok()) << created.ToString();
    }
  });
  for (int i = 0; i < kWrites; ++i) {
    std::string definition =
        R"({"type":"object","properties":{"g)" + std::to_string(i) + R"(":{"type":"string"}}})";
    auto version = registry_->RegisterSchemaVersion({kAccount, "", "s"}, definition);
    ASSERT_TRUE(version.has_value()) << version.error().ToString();
    EXPECT_EQ(version->version_number, i + 2);
  }
  catalog_writer.join();
  EXPECT_EQ(registry_->GetSchema({kAccount, "", "s"})->latest_version, kWrites + 1);
}

// An Avro record "R" with the given fields (JSON text of each field).
std::string AvroRecord(const std::string& fields) {
  return R"({"type":"record","name":"R","fields":[)" + fields + "]}";
}

// Glue's RegisterSchemaVersion refuses a version that does not meet the
// schema's compatibility mode, naming the version, the mode and why; the
// _ALL modes compare with every version, the others with the latest;
// DISABLED takes no new version, but an equal definition still finds its
// version; NONE takes anything.
TEST_F(SqliteSchemaRegistryTest, NewVersionsMeetTheSchemasCompatibilityMode) {
  const std::string a_int = R"({"name":"a","type":"int"})";
  const std::string b_int = R"({"name":"b","type":"int"})";
  const std::string b_string = R"({"name":"b","type":"string"})";
  const std::string b_string_default = R"({"name":"b","type":"string","default":"x"})";
  auto create = [&](const std::string& name, const std::string& mode,
                    const std::string& definition) {
    NewSchema request;
    request.schema = {kAccount, "", name};
    request.data_format = "AVRO";
    request.compatibility = mode;
    request.definition = definition;
    auto created = registry_->CreateSchema(request);
    ASSERT_TRUE(created.has_value()) << created.error().ToString();
  };
  auto refusal = [&](const std::string& name, const std::string& definition) {
    auto refused = registry_->RegisterSchemaVersion({kAccount, "", name}, definition);
    EXPECT_FALSE(refused.has_value()) << name << ": " << definition;
    if (refused.has_value()) return std::string();
    EXPECT_EQ(refused.error().code(), StatusCode::kInvalidArgument);
    return refused.error().message();
  };
  auto version = [&](const std::string& name, const std::string& definition) -> int64_t {
    auto added = registry_->RegisterSchemaVersion({kAccount, "", name}, definition);
    EXPECT_TRUE(added.has_value()) << name << ": " << added.error().ToString();
    return added.has_value() ? added->version_number : -1;
  };

  // BACKWARD: the new definition reads the latest version's data.
  create("backward", "BACKWARD", AvroRecord(a_int));
  EXPECT_EQ(refusal("backward", AvroRecord(a_int + "," + b_string)),
            "Schema definition is not compatible with version 1 of schema 'backward' under "
            "compatibility BACKWARD: new schema cannot read data written with the old one, at /b: "
            "reader field 'b' has no default value and is missing in the writer")
      << "the message names the version, the mode and the first reason";
  EXPECT_EQ(version("backward", AvroRecord(a_int + "," + b_string_default)), 2);

  // FORWARD: the latest version reads the new one's data.
  create("forward", "FORWARD", AvroRecord(a_int + "," + b_int));
  EXPECT_NE(refusal("forward", AvroRecord(a_int)).find("under compatibility FORWARD"),
            std::string::npos);
  const std::string c_long = R"({"name":"c","type":"long"})";
  EXPECT_EQ(version("forward", AvroRecord(a_int + "," + b_int + "," + c_long)), 2);

  // BACKWARD against the latest only, BACKWARD_ALL against every version: v3
  // reads v2's data (no b, so its default) but not v1's (b an int).
  for (const std::string mode : {"BACKWARD", "BACKWARD_ALL"}) {
    const std::string name = "transitive-" + mode;
    create(name, mode, AvroRecord(a_int + "," + b_int));
    EXPECT_EQ(version(name, AvroRecord(a_int)), 2);
    const std::string v3 = AvroRecord(a_int + "," + b_string_default);
    if (mode == "BACKWARD") {
      EXPECT_EQ(version(name, v3), 3);
    } else {
      EXPECT_NE(refusal(name, v3).find("not compatible with version 1 of schema '" + name +
                                       "' under compatibility BACKWARD_ALL"),
                std::string::npos);
    }
  }

  // FULL: both ways.
  create("full", "FULL", AvroRecord(a_int));
  EXPECT_FALSE(refusal("full", AvroRecord(a_int + "," + b_string)).empty());  // Not backward.
  EXPECT_EQ(version("full", AvroRecord(a_int + "," + b_string_default)), 2);

  // DISABLED: no new version; the same definition finds version 1.
  create("disabled", "DISABLED", AvroRecord(a_int));
  EXPECT_EQ(refusal("disabled", AvroRecord(a_int + "," + b_string_default)),
            "Schema 'disabled' has compatibility DISABLED: it takes no new versions; change its "
            "compatibility to register one");
  EXPECT_EQ(version("disabled", AvroRecord(a_int)), 1);

  // NONE: anything.
  create("none", "NONE", AvroRecord(a_int));
  EXPECT_EQ(version("none", AvroRecord(b_string)), 2);

  // Refused versions are not stored.
  auto listed = registry_->ListSchemaVersions({kAccount, "", "backward"}, "", 100);
  ASSERT_TRUE(listed.has_value());
  EXPECT_EQ(listed->versions.size(), 2u);
}

// JSON (and PROTOBUF) versions are compared by the injected checkers; a
// registry opened without one does not compare that format.
TEST_F(SqliteSchemaRegistryTest, JsonVersionsAreComparedByTheInjectedChecker) {
  const std::string v1 = R"({"type":"object","properties":{"a":{"type":"string"}}})";
  const std::string v2 = R"({"type":"object","properties":{"a":{"type":"integer"}}})";
  NewSchema request;
  request.schema = {kAccount, "", "j"};
  request.data_format = "JSON";
  request.definition = v1;
  ASSERT_TRUE(registry_->CreateSchema(request).has_value());
  EXPECT_TRUE(registry_->RegisterSchemaVersion(request.schema, v2).has_value());  // Unchecked.

  GlueFormatSupport formats;
  formats.checkers.json = confluent::MakeJsonSchemaCompatibilityChecker();
  registry_.reset();
  auto opened = OpenSqliteSchemaRegistry(path_, kRegion, clock_, random_, std::move(formats));
  ASSERT_TRUE(opened.has_value()) << opened.error().ToString();
  request.schema = {kAccount, "", "k"};
  ASSERT_TRUE((*opened)->CreateSchema(request).has_value());
  auto refused = (*opened)->RegisterSchemaVersion(request.schema, v2);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.error().message().find(
                "not compatible with version 1 of schema 'k' under compatibility BACKWARD: "),
            std::string::npos)
      << refused.error().message();
}

}  // namespace
}  // namespace st::registry
