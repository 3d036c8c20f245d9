#include "api/iceberg_rest/rest_errors_internal.h"

namespace st::api::iceberg_rest {

http::HttpError NoSuchWarehouse(const std::string& bucket_arn) {
  return http::HttpError(
      NotFound("The table bucket " + bucket_arn +
               " does not exist; check the warehouse ARN or create the table bucket first."),
      404, "NoSuchWarehouseException");
}

http::HttpError NoSuchNamespace(const std::string& namespace_name) {
  // Iceberg clients hand this message to their callers verbatim, and the
  // REST Compatibility Kit compares it exactly: "Namespace does not exist: <ns>".
  return http::HttpError(NotFound("Namespace does not exist: " + namespace_name), 404,
                         "NoSuchNamespaceException");
}

http::HttpError NoSuchTable(const std::string& namespace_name, const std::string& table_name) {
  return http::HttpError(
      NotFound("Table does not exist: " + namespace_name + "." + table_name + "."), 404,
      "NoSuchTableException");
}

http::HttpError OperationError(catalog::MetadataStore& store, const Status& status,
                               const std::string& bucket_arn, const std::string& namespace_name,
                               const std::optional<std::string>& table_name) {
  if (status.code() == StatusCode::kNotFound) {
    Result<catalog::TableBucket> bucket = store.GetTableBucket(bucket_arn);
    if (!bucket.has_value() && bucket.error().code() == StatusCode::kNotFound) {
      return NoSuchWarehouse(bucket_arn);
    }
    Result<catalog::Namespace> ns = store.GetNamespace(bucket_arn, namespace_name);
    if (!ns.has_value() && ns.error().code() == StatusCode::kNotFound) {
      return NoSuchNamespace(namespace_name);
    }
    if (table_name.has_value()) return NoSuchTable(namespace_name, *table_name);
    return http::HttpError(status, 404, "NotFoundException");
  }
  if (status.code() == StatusCode::kAlreadyExists && !table_name.has_value()) {
    return http::HttpError(
        AlreadyExists("Namespace already exists: " + namespace_name + " (table bucket " +
                      bucket_arn + "); pick another name or use the existing one."),
        409, "AlreadyExistsException");
  }
  if (status.code() == StatusCode::kConflict && !table_name.has_value()) {
    return http::HttpError(Status(StatusCode::kConflict, "Namespace " + namespace_name +
                                                             " is not empty: drop its tables "
                                                             "first."),
                           409, "NamespaceNotEmptyException");
  }
  return http::HttpError(status);
}

http::HttpError TableLookupError(catalog::MetadataStore& store, const Status& status,
                                 const std::string& bucket_arn, const std::string& namespace_name,
                                 const std::string& table_name) {
  if (status.code() == StatusCode::kNotFound) {
    Result<catalog::TableBucket> bucket = store.GetTableBucket(bucket_arn);
    if (!bucket.has_value() && bucket.error().code() == StatusCode::kNotFound) {
      return NoSuchWarehouse(bucket_arn);
    }
    return NoSuchTable(namespace_name, table_name);
  }
  return OperationError(store, status, bucket_arn, namespace_name, table_name);
}

}  // namespace st::api::iceberg_rest
