set(ICEBERG_FILES_SOURCES
  file_io.cc table_paths.cc
  manifest_avro_schema.cc manifest_avro_values.cc manifest_metadata.cc
  manifest.cc manifest_list.cc
  snapshot_producer.cc file_removal.cc append.cc rewrite.cc expire_snapshots.cc
  table_commit.cc)
set(ICEBERG_FILES_DEPS st_avro st_storage)
