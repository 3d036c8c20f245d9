# Tests of the data-file writer side (parquet_schema, data_file_metrics, data_file_writer).
set(ICEBERG_WRITER_TESTS
  parquet_schema_test.cc data_file_metrics_test.cc data_file_writer_test.cc)
set(ICEBERG_WRITER_TEST_DEPS st_storage st_parquet)
