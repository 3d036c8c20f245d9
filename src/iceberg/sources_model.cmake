set(ICEBERG_MODEL_SOURCES
  types.cc schema.cc table_metadata.cc)
