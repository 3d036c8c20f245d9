set(ICEBERG_MODEL_TESTS
  schema_test.cc transform_test.cc partition_spec_test.cc conversions_test.cc
  json_serde_test.cc table_metadata_test.cc table_update_test.cc)
