set(ICEBERG_FILES_TESTS
  file_io_test.cc manifest_test.cc manifest_list_test.cc append_test.cc rewrite_test.cc
  expire_snapshots_test.cc table_commit_test.cc)
set(ICEBERG_FILES_TEST_DEPS st_avro st_storage)

# For tests/integration/test_manifests_fastavro.py.
add_executable(st_manifest_scenario_tool manifest_scenario_tool.cc)
target_link_libraries(st_manifest_scenario_tool PRIVATE st_iceberg st_avro st_storage
  nlohmann_json::nlohmann_json)
