set(ICEBERG_FILES_SOURCES)
# st_avro, st_parquet, st_storage once the file side uses them.
set(ICEBERG_FILES_DEPS)
