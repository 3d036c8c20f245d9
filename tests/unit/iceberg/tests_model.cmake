set(ICEBERG_MODEL_TESTS
  schema_test.cc transform_test.cc partition_spec_test.cc conversions_test.cc
  json_serde_test.cc table_metadata_test.cc table_update_test.cc table_paths_test.cc)

# Test-only tool for tests/integration/test_transforms_pyiceberg.py.
add_executable(iceberg_transform_tool ${CMAKE_CURRENT_LIST_DIR}/iceberg_transform_tool.cc)
target_link_libraries(iceberg_transform_tool PRIVATE st_iceberg nlohmann_json::nlohmann_json)
add_executable(iceberg_metadata_tool ${CMAKE_CURRENT_LIST_DIR}/iceberg_metadata_tool.cc)
target_link_libraries(iceberg_metadata_tool PRIVATE st_iceberg nlohmann_json::nlohmann_json)
