# Data-file writing: Iceberg schema -> Parquet schema, rows -> Parquet data
# files with Iceberg metrics. Needs st_parquet.
set(ICEBERG_WRITER_SOURCES
  parquet_schema.cc data_file_metrics.cc partitioned_data_files.cc data_file_writer.cc)
set(ICEBERG_WRITER_DEPS st_parquet)
