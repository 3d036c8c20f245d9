set(ICEBERG_FILES_TESTS
  file_io_test.cc manifest_test.cc manifest_list_test.cc append_test.cc rewrite_test.cc
  expire_snapshots_test.cc table_commit_test.cc)
set(ICEBERG_FILES_TEST_DEPS st_avro st_storage)
