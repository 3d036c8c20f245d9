// The Iceberg REST error types this surface sends beyond what a StatusCode
// implies (docs/api-contract-notes.md §3.7): clients map a 404 by its `type` to
// NoSuchNamespace vs NoSuchTable, and a 409 on a namespace drop must read
// NamespaceNotEmptyException, not CommitFailedException. Everything else
// keeps the IcebergErrorWriter defaults (400 BadRequest, 403 Forbidden, 409
// AlreadyExists / CommitFailed, 500 CommitStateUnknown, ...).
#pragma once

#include <optional>
#include <string>

#include "catalog/metadata_store.h"
#include "http/http_error.h"

namespace st::api::iceberg_rest {

http::HttpError NoSuchWarehouse(const std::string& bucket_arn);
http::HttpError NoSuchNamespace(const std::string& namespace_name);
http::HttpError NoSuchTable(const std::string& namespace_name, const std::string& table_name);

// For a failure of an operation on a namespace, or of creating a table in it
// (table_name given). A NotFound is turned into the most specific missing object, found by
// asking the store which of bucket, namespace and table is absent; a
// Conflict on a namespace (no table given) is NamespaceNotEmptyException and
// an AlreadyExists on one says "Namespace already exists".
http::HttpError OperationError(catalog::MetadataStore& store, const Status& status,
                               const std::string& bucket_arn, const std::string& namespace_name,
                               const std::optional<std::string>& table_name);

// For a failure of an operation on an existing table (load, exists, drop,
// commit, rename's source). The Iceberg REST spec answers these with
// NoSuchTableException whether the table or its namespace is missing (only a
// missing warehouse is named as such); other codes as OperationError.
http::HttpError TableLookupError(catalog::MetadataStore& store, const Status& status,
                                 const std::string& bucket_arn, const std::string& namespace_name,
                                 const std::string& table_name);

}  // namespace st::api::iceberg_rest
