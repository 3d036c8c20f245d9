// TableStore: the tables of table buckets, with each table's metadata
// pointer and version token, its resource policy, maintenance and record
// expiration configuration. One of the per-entity interfaces that
// MetadataStore aggregates (metadata_store.h states the shared contract).
// A write that must also change another entity (the delivery commit that
// advances channel offsets with the pointer) goes through a UnitOfWork
// (unit_of_work.h) instead.
//
// Thread-safety: implementations are thread-safe; every method is atomic on
// its own (DeleteTable removes the policy, configuration and tags with the
// row).
#pragma once

#include <optional>
#include <string>

#include "catalog/pagination.h"
#include "catalog/records.h"
#include "common/status.h"

namespace st::catalog {

struct NewTable {
  std::string bucket_arn;
  std::string namespace_name;
  std::string name;
  std::string created_by;  // Account id; also the first modified_by.
  // Set only by the delivery channel that creates its streaming table.
  std::optional<std::string> managed_by_channel;
  // Absent: inherit the bucket's encryption.
  std::optional<EncryptionConfig> encryption;
};

class TableStore {
 public:
  virtual ~TableStore() = default;

  // A table with no metadata yet and a fresh id, ARN, version token and
  // warehouse location. Errors: InvalidArgument, NotFound (bucket or
  // namespace), AlreadyExists.
  virtual Result<Table> CreateTable(const NewTable& table) = 0;
  // Errors: NotFound (bucket, namespace or table).
  virtual Result<Table> GetTable(const std::string& bucket_arn, const std::string& namespace_name,
                                 const std::string& name) = 0;
  // Errors: NotFound.
  virtual Result<Table> GetTableById(const std::string& table_id) = 0;
  // Errors: InvalidArgument (ARN shape), NotFound.
  virtual Result<Table> GetTableByArn(const std::string& table_arn) = 0;
  // The table whose warehouse location is exactly `warehouse_location`
  // ("s3://<id>--table-s3", as Table::warehouse_location holds it); the S3
  // data endpoint finds a bucket's owning table this way. Errors: NotFound.
  virtual Result<Table> GetTableByWarehouseLocation(const std::string& warehouse_location) = 0;
  // Ordered by (namespace, name); `namespace_name` (optional) filters
  // exactly, page.prefix filters table names. Errors: NotFound (bucket).
  virtual Result<Page<Table>> ListTables(const std::string& bucket_arn,
                                         const std::optional<std::string>& namespace_name,
                                         const PageRequest& page) = 0;
  // Deletes the row with its policy, configuration and tags (the API layer
  // purges the files). A streaming table may be deleted by anyone allowed to.
  // Errors: NotFound, Conflict (expected_version_token given and stale).
  virtual Status DeleteTable(const std::string& table_id,
                             const std::optional<std::string>& expected_version_token) = 0;
  // Moves and/or renames; returns the table with its new version token.
  // Errors: InvalidArgument, NotFound (table or target namespace),
  // AlreadyExists (target name taken), Conflict (stale token), AccessDenied
  // (streaming table, writer is not its channel).
  virtual Result<Table> RenameTable(const std::string& table_id,
                                    const std::optional<std::string>& expected_version_token,
                                    const std::string& new_namespace_name,
                                    const std::string& new_name, const TableWriter& writer) = 0;

  // THE compare-and-swap of the metadata pointer, shared by
  // UpdateTableMetadataLocation and Iceberg REST commits: sets
  // metadata_location and a fresh version token iff the current token equals
  // `expected_version_token`. Returns the updated table. Errors:
  // InvalidArgument (empty or over-long location), NotFound, Conflict
  // ("Provided version token does not match the table version token.";
  // nothing changed), AccessDenied (streaming table, writer is not its
  // channel), CommitStateUnknown.
  virtual Result<Table> SwapMetadataLocation(const std::string& table_id,
                                             const std::string& expected_version_token,
                                             const std::string& new_metadata_location,
                                             const TableWriter& writer) = 0;

  // Table resource policy (same shape as the bucket's): Put creates or
  // replaces, Get is NotFound when none is set. Errors: NotFound (table),
  // InvalidArgument.
  virtual Status PutTablePolicy(const std::string& table_id, const std::string& document) = 0;
  virtual Result<std::string> GetTablePolicy(const std::string& table_id) = 0;
  virtual Status DeleteTablePolicy(const std::string& table_id) = 0;

  // Maintenance configuration by type. Errors: NotFound (table), InvalidArgument.
  virtual Status PutTableMaintenance(const std::string& table_id, const std::string& type,
                                     const std::string& value_json) = 0;
  virtual Result<MaintenanceConfigs> GetTableMaintenance(const std::string& table_id) = 0;
  // The record expiration document; Get returns nullopt when never set.
  // Errors: NotFound (table), InvalidArgument.
  virtual Status PutTableRecordExpiration(const std::string& table_id,
                                          const std::string& value_json) = 0;
  virtual Result<std::optional<std::string>> GetTableRecordExpiration(
      const std::string& table_id) = 0;
};

}  // namespace st::catalog
