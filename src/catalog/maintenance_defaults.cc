#include "catalog/maintenance_defaults.h"

namespace st::catalog {

MaintenanceConfigs EffectiveTableMaintenance(MaintenanceConfigs stored) {
  stored.emplace(kIcebergCompaction, kDefaultCompactionValue);
  stored.emplace(kIcebergSnapshotManagement, kDefaultSnapshotManagementValue);
  return stored;
}

MaintenanceConfigs EffectiveTableBucketMaintenance(MaintenanceConfigs stored) {
  stored.emplace(kIcebergUnreferencedFileRemoval, kDefaultUnreferencedFileRemovalValue);
  return stored;
}

}  // namespace st::catalog
