set(ICEBERG_MODEL_SOURCES
  types.cc schema.cc table_metadata.cc
  transform.cc transform_human_string.cc bucket_hash.cc
  partition_spec.cc conversions.cc
  json_reader.cc json_serde.cc table_metadata_json.cc
  table_update_json.cc table_requirement.cc table_update_apply.cc)
