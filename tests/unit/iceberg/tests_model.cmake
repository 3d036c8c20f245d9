set(ICEBERG_MODEL_TESTS schema_test.cc transform_test.cc)
