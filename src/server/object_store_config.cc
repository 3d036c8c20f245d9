#include "server/object_store_config.h"

#include <cstdlib>

#include "common/clock.h"
#include "common/random.h"
#include "s3store/s3_object_store.h"
#include "storage/local_object_store.h"

namespace st::server {

Result<std::unique_ptr<storage::ObjectStore>> OpenObjectStore(const ServerConfig& config,
                                                              const DataDirLayout& layout) {
  if (config.object_store.empty()) return storage::OpenLocalObjectStore(layout.objects_dir);
  s3store::S3StoreOptions options;
  ST_ASSIGN_OR_RETURN(options.location, s3store::ParseS3Url(config.object_store));
  ST_ASSIGN_OR_RETURN(options.credentials, s3store::CredentialsFromEnvironment());
  // A private CA for an https endpoint, named the way AWS's SDKs and CLI
  // take it.
  if (const char* bundle = std::getenv("AWS_CA_BUNDLE"); bundle != nullptr) {
    options.ca_file = bundle;
  }
  return s3store::OpenS3ObjectStore(std::move(options), SystemClock::Default(),
                                    DefaultRandom::Default());
}

}  // namespace st::server
