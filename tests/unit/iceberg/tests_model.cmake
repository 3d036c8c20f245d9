set(ICEBERG_MODEL_TESTS schema_test.cc)
