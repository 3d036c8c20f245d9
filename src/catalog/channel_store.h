// ChannelStore: delivery channels (status, configuration, generation;
// compare-and-swap on status) and their create/update/delete operations.
// The configuration is stored as the JSON text it was given. One of the
// per-entity interfaces that MetadataStore aggregates (metadata_store.h
// states the shared contract); the channel's Kafka offsets are the
// ChannelOffsetStore's (channel_offset_store.h).
//
// Thread-safety: implementations are thread-safe; every method is atomic
// (UpdateChannel's status check and its write are one step, so the API and
// the delivery runtime may race on a channel's status safely).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/channel_records.h"
#include "catalog/pagination.h"
#include "common/status.h"

namespace st::catalog {

class ChannelStore {
 public:
  virtual ~ChannelStore() = default;

  // A channel in CREATING with a fresh ARN, a fresh cluster_operation_arn
  // and generation 1. Errors: InvalidArgument, NotFound (cluster, also when
  // it belongs to another account), AlreadyExists (name taken in the cluster).
  virtual Result<Channel> CreateChannel(const NewChannel& channel) = 0;
  // Errors: InvalidArgument (ARN shape), NotFound.
  virtual Result<Channel> GetChannel(const std::string& channel_arn) = 0;
  // The cluster's channels ordered by name; page.prefix filters names and
  // `topic_name` (optional) filters topics exactly. Errors: NotFound (cluster).
  virtual Result<Page<Channel>> ListChannels(const std::string& cluster_arn,
                                             const std::optional<std::string>& topic_name,
                                             const PageRequest& page) = 0;
  // Every channel of every account (the delivery runtime reconciles them).
  virtual Result<std::vector<Channel>> ListAllChannels() = 0;
  // Applies `change` and bumps generation; returns the new row. A status
  // change without an explicit cluster_operation_arn mints a fresh one when
  // entering CREATING/UPDATING/DELETING and clears it otherwise (MSK returns
  // it only while an operation is in flight). The operation it clears ends:
  // FAILED (with the channel's state info) when the channel became FAILED,
  // else COMPLETED. Errors: NotFound, Conflict (expected_status differs;
  // nothing changed), InvalidArgument.
  virtual Result<Channel> UpdateChannel(const std::string& channel_arn,
                                        const ChannelChange& change) = 0;
  // Removes the row, its tags and its offsets; its operation in flight (the
  // delete) ends COMPLETED. Errors: NotFound.
  virtual Status DeleteChannel(const std::string& channel_arn) = 0;
  // An operation minted by CreateChannel/UpdateChannel, in flight or ended;
  // ended ones are kept for 30 days. Errors: NotFound.
  virtual Result<ChannelOperation> GetChannelOperation(const std::string& operation_arn) = 0;
};

}  // namespace st::catalog
