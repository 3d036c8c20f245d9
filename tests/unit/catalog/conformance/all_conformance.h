// Every per-entity conformance suite of the catalog's store interfaces. A
// backend's test file includes this once and instantiates them all:
//
//   ST_INSTANTIATE_STORE_CONFORMANCE(Sqlite, MakeSqliteBackend);
//
// where the factory returns a fresh std::unique_ptr<StoreBackend> per test.
#pragma once

#include "conformance/channel_store_conformance.h"
#include "conformance/identity_store_conformance.h"
#include "conformance/lease_store_conformance.h"
#include "conformance/maintenance_job_store_conformance.h"
#include "conformance/store_conformance.h"
#include "conformance/table_bucket_store_conformance.h"
#include "conformance/table_store_conformance.h"
#include "conformance/unit_of_work_conformance.h"

#define ST_INSTANTIATE_ONE_CONFORMANCE_(backend, suite, factory) \
  INSTANTIATE_TEST_SUITE_P(backend, suite,                       \
                           ::testing::Values(::st::catalog::conformance::BackendFactory(factory)))

#define ST_INSTANTIATE_STORE_CONFORMANCE(backend, factory)                                 \
  ST_INSTANTIATE_ONE_CONFORMANCE_(backend, IdentityStoreConformance, factory);             \
  ST_INSTANTIATE_ONE_CONFORMANCE_(backend, TableBucketStoreConformance, factory);          \
  ST_INSTANTIATE_ONE_CONFORMANCE_(backend, NamespaceStoreConformance, factory);            \
  ST_INSTANTIATE_ONE_CONFORMANCE_(backend, TableStoreConformance, factory);                \
  ST_INSTANTIATE_ONE_CONFORMANCE_(backend, TagStoreConformance, factory);                  \
  ST_INSTANTIATE_ONE_CONFORMANCE_(backend, KafkaClusterStoreConformance, factory);         \
  ST_INSTANTIATE_ONE_CONFORMANCE_(backend, ChannelStoreConformance, factory);              \
  ST_INSTANTIATE_ONE_CONFORMANCE_(backend, ChannelOffsetStoreConformance, factory);        \
  ST_INSTANTIATE_ONE_CONFORMANCE_(backend, GeneralPurposeBucketStoreConformance, factory); \
  ST_INSTANTIATE_ONE_CONFORMANCE_(backend, MaintenanceJobStoreConformance, factory);       \
  ST_INSTANTIATE_ONE_CONFORMANCE_(backend, LeaseStoreConformance, factory);                \
  ST_INSTANTIATE_ONE_CONFORMANCE_(backend, UnitOfWorkConformance, factory)
