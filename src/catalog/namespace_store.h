// NamespaceStore: the namespaces of table buckets. One of the per-entity
// interfaces that MetadataStore aggregates (metadata_store.h states the
// shared contract).
//
// Thread-safety: implementations are thread-safe; every method is atomic.
#pragma once

#include <string>

#include "catalog/pagination.h"
#include "catalog/records.h"
#include "common/status.h"

namespace st::catalog {

class NamespaceStore {
 public:
  virtual ~NamespaceStore() = default;

  // Errors: InvalidArgument, NotFound (bucket), AlreadyExists.
  virtual Result<Namespace> CreateNamespace(const std::string& bucket_arn, const std::string& name,
                                            const std::string& created_by) = 0;
  // Errors: NotFound (bucket or namespace).
  virtual Result<Namespace> GetNamespace(const std::string& bucket_arn,
                                         const std::string& name) = 0;
  // Ordered by name. Errors: NotFound (bucket), InvalidArgument.
  virtual Result<Page<Namespace>> ListNamespaces(const std::string& bucket_arn,
                                                 const PageRequest& page) = 0;
  // Errors: NotFound, Conflict (tables remain).
  virtual Status DeleteNamespace(const std::string& bucket_arn, const std::string& name) = 0;
};

}  // namespace st::catalog
