// Kafka clusters, delivery channels and general-purpose buckets in SQLite.
// Placeholder bodies until the channel tables land.
#include "catalog/sqlite_metadata_store_internal.h"

namespace st::catalog::sqlite {

namespace {
Status NotYet(const char* what) {
  return Unsupported(std::string(what) + " is not implemented in the SQLite catalog yet");
}
}  // namespace

Result<KafkaCluster> SqliteMetadataStore::CreateKafkaCluster(const NewKafkaCluster&) {
  return Err(NotYet("CreateKafkaCluster"));
}
Result<KafkaCluster> SqliteMetadataStore::GetKafkaCluster(const std::string&) {
  return Err(NotYet("GetKafkaCluster"));
}
Result<std::vector<KafkaCluster>> SqliteMetadataStore::ListKafkaClusters(const std::string&) {
  return Err(NotYet("ListKafkaClusters"));
}
Status SqliteMetadataStore::DeleteKafkaCluster(const std::string&) {
  return NotYet("DeleteKafkaCluster");
}
Result<Channel> SqliteMetadataStore::CreateChannel(const NewChannel&) {
  return Err(NotYet("CreateChannel"));
}
Result<Channel> SqliteMetadataStore::GetChannel(const std::string&) {
  return Err(NotYet("GetChannel"));
}
Result<Page<Channel>> SqliteMetadataStore::ListChannels(const std::string&,
                                                        const std::optional<std::string>&,
                                                        const PageRequest&) {
  return Err(NotYet("ListChannels"));
}
Result<std::vector<Channel>> SqliteMetadataStore::ListAllChannels() {
  return Err(NotYet("ListAllChannels"));
}
Result<Channel> SqliteMetadataStore::UpdateChannel(const std::string&, const ChannelChange&) {
  return Err(NotYet("UpdateChannel"));
}
Status SqliteMetadataStore::DeleteChannel(const std::string&) { return NotYet("DeleteChannel"); }
Result<GeneralPurposeBucket> SqliteMetadataStore::CreateGeneralPurposeBucket(const std::string&,
                                                                             const std::string&,
                                                                             const std::string&) {
  return Err(NotYet("CreateGeneralPurposeBucket"));
}
Result<GeneralPurposeBucket> SqliteMetadataStore::GetGeneralPurposeBucket(const std::string&) {
  return Err(NotYet("GetGeneralPurposeBucket"));
}
Result<std::vector<GeneralPurposeBucket>> SqliteMetadataStore::ListGeneralPurposeBuckets(
    const std::string&) {
  return Err(NotYet("ListGeneralPurposeBuckets"));
}
Status SqliteMetadataStore::DeleteGeneralPurposeBucket(const std::string&) {
  return NotYet("DeleteGeneralPurposeBucket");
}

}  // namespace st::catalog::sqlite
