// UnitOfWork conformance (unit_of_work.h): commit makes every staged write
// visible at once, rollback leaves nothing, a stale table pointer or a
// failed offset fence is the same Conflict as a single-entity call, and the
// delivery commit (CommitWithOffsets) keeps its errors and its atomicity
// under concurrent writers.
#pragma once

#include <atomic>
#include <thread>
#include <vector>

#include "catalog/unit_of_work.h"
#include "conformance/store_conformance.h"

namespace st::catalog::conformance {

class UnitOfWorkConformance : public StoreConformance {
 protected:
  void SetUp() override {
    StoreConformance::SetUp();
    if (HasFatalFailure()) return;
    table_ = MakeTable("bucket1", "stream", channel_);
    ASSERT_TRUE(store_->InitChannelOffsets(channel_, {{0, 100}}, 0).ok());
  }
  UnitOfWorkSource& units() { return *store_; }
  std::string Location(int version) const {
    return table_.warehouse_location + "/metadata/0000" + std::to_string(version) +
           ".metadata.json";
  }
  TableWriter Writer() const { return {kAccount, channel_}; }

  const std::string channel_ = "arn:aws:kafka:us-east-1:111122223333:channel/c/u/ch/id";
  Table table_;
};

TEST_P(UnitOfWorkConformance, CommitMakesEveryWriteVisibleAtOnce) {
  auto unit = units().BeginUnitOfWork();
  ASSERT_TRUE(unit.has_value()) << unit.error().ToString();
  ASSERT_TRUE((*unit)
                  ->channel_offsets()
                  .AdvanceChannelOffsets(channel_, table_.table_id, {{0, {100, 150}}, {3, {0, 7}}})
                  .ok());
  auto swapped = (*unit)->tables().SwapMetadataLocation(table_.table_id, table_.version_token,
                                                        Location(0), Writer());
  ASSERT_TRUE(swapped.has_value()) << swapped.error().ToString();
  // The unit reads its own writes; another store on the database does not
  // see them yet.
  EXPECT_EQ((*unit)->tables().LoadTable(table_.table_id)->metadata_location, Location(0));
  std::unique_ptr<MetadataStore> other = OpenAnother();
  ASSERT_NE(other, nullptr);
  EXPECT_FALSE(other->GetTableById(table_.table_id)->metadata_location.has_value());
  EXPECT_EQ(other->GetChannelOffset(channel_, 0).value(), 100);

  ASSERT_TRUE((*unit)->Commit().ok());
  unit->reset();
  EXPECT_EQ(other->GetTableById(table_.table_id)->version_token, swapped->version_token);
  EXPECT_EQ(other->GetChannelOffsets(channel_).value(), (NextOffsets{{0, 150}, {3, 7}}));
  EXPECT_EQ(store_->GetTableById(table_.table_id)->metadata_location, Location(0));
}

TEST_P(UnitOfWorkConformance, DestroyingWithoutCommitRollsBack) {
  {
    auto unit = units().BeginUnitOfWork();
    ASSERT_TRUE(unit.has_value());
    ASSERT_TRUE((*unit)
                    ->channel_offsets()
                    .AdvanceChannelOffsets(channel_, table_.table_id, {{0, {100, 150}}})
                    .ok());
    ASSERT_TRUE(
        (*unit)
            ->tables()
            .SwapMetadataLocation(table_.table_id, table_.version_token, Location(0), Writer())
            .has_value());
    ASSERT_TRUE((*unit)->tables().DeleteTable(table_.table_id, std::nullopt).ok());
    ASSERT_TRUE((*unit)->channel_offsets().DeleteChannelOffsets(channel_).ok());
  }
  auto table = store_->GetTableById(table_.table_id);
  ASSERT_TRUE(table.has_value());
  EXPECT_EQ(table->version_token, table_.version_token);
  EXPECT_FALSE(table->metadata_location.has_value());
  EXPECT_EQ(store_->GetChannelOffsets(channel_).value(), (NextOffsets{{0, 100}}));
}

TEST_P(UnitOfWorkConformance, DeletesTableAndChannelStateTogether) {
  auto unit = units().BeginUnitOfWork();
  ASSERT_TRUE(unit.has_value());
  ASSERT_TRUE((*unit)->tables().DeleteTable(table_.table_id, table_.version_token).ok());
  ASSERT_TRUE((*unit)->channel_offsets().DeleteChannelOffsets(channel_).ok());
  EXPECT_EQ((*unit)->tables().LoadTable(table_.table_id).error().code(), StatusCode::kNotFound);
  ASSERT_TRUE((*unit)->Commit().ok());
  unit->reset();
  EXPECT_EQ(store_->GetTableById(table_.table_id).error().code(), StatusCode::kNotFound);
  EXPECT_EQ(store_->GetChannelOffsets(channel_).error().code(), StatusCode::kNotFound);
}

TEST_P(UnitOfWorkConformance, StalePointerIsTheUsualConflictAndSticks) {
  ASSERT_TRUE(
      store_->SwapMetadataLocation(table_.table_id, table_.version_token, Location(0), Writer())
          .has_value());
  auto unit = units().BeginUnitOfWork();
  ASSERT_TRUE(unit.has_value());
  ASSERT_TRUE((*unit)
                  ->channel_offsets()
                  .AdvanceChannelOffsets(channel_, table_.table_id, {{0, {100, 150}}})
                  .ok());
  auto stale = (*unit)->tables().SwapMetadataLocation(table_.table_id, table_.version_token,
                                                      Location(1), Writer());
  ASSERT_FALSE(stale.has_value());
  EXPECT_EQ(stale.error().code(), StatusCode::kConflict);
  EXPECT_EQ(stale.error().message(),
            "Provided version token does not match the table version token.");
  // The failure sticks: nothing after it happens, Commit returns it.
  EXPECT_EQ((*unit)->channel_offsets().DeleteChannelOffsets(channel_).code(),
            StatusCode::kConflict);
  Status committed = (*unit)->Commit();
  EXPECT_EQ(committed.code(), StatusCode::kConflict);
  EXPECT_EQ(committed.message(), stale.error().message());
  unit->reset();
  EXPECT_EQ(store_->GetChannelOffset(channel_, 0).value(), 100);
  EXPECT_EQ(store_->GetTableById(table_.table_id)->metadata_location, Location(0));
}

TEST_P(UnitOfWorkConformance, FinishedUnitRefusesFurtherUse) {
  auto unit = units().BeginUnitOfWork();
  ASSERT_TRUE(unit.has_value());
  ASSERT_TRUE((*unit)->Commit().ok());
  EXPECT_EQ((*unit)->Commit().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ((*unit)->tables().LoadTable(table_.table_id).error().code(),
            StatusCode::kFailedPrecondition);
}

TEST_P(UnitOfWorkConformance, DeliveryCommitErrors) {
  MetadataStore& store = *store_;
  const std::string other_channel = channel_ + "-other";
  // Validation comes first.
  EXPECT_EQ(store
                .CommitWithOffsets(table_.table_id, table_.version_token, Location(0), channel_, {},
                                   kAccount)
                .error()
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store
                .CommitWithOffsets(table_.table_id, table_.version_token, Location(0), channel_,
                                   {{0, {100, 99}}}, kAccount)
                .error()
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(store
                .CommitWithOffsets("nope", table_.version_token, Location(0), channel_,
                                   {{0, {100, 101}}}, kAccount)
                .error()
                .code(),
            StatusCode::kNotFound);
  EXPECT_EQ(store
                .CommitWithOffsets(table_.table_id, table_.version_token, Location(0),
                                   other_channel, {{0, {100, 101}}}, kAccount)
                .error()
                .code(),
            StatusCode::kAccessDenied);
  Table uninitialised = MakeTable("bucket1", "other", other_channel);
  EXPECT_EQ(store
                .CommitWithOffsets(uninitialised.table_id, uninitialised.version_token, Location(0),
                                   other_channel, {{0, {0, 1}}}, kAccount)
                .error()
                .code(),
            StatusCode::kFailedPrecondition);
  auto fenced = store.CommitWithOffsets(table_.table_id, table_.version_token, Location(0),
                                        channel_, {{0, {90, 101}}}, kAccount);
  ASSERT_FALSE(fenced.has_value());
  EXPECT_EQ(fenced.error().code(), StatusCode::kConflict);
  auto stale = store.CommitWithOffsets(table_.table_id, "stale-token", Location(0), channel_,
                                       {{0, {100, 101}}}, kAccount);
  ASSERT_FALSE(stale.has_value());
  EXPECT_EQ(stale.error().code(), StatusCode::kConflict);
  EXPECT_EQ(stale.error().message(),
            "Provided version token does not match the table version token.");
  // None of it changed anything.
  EXPECT_EQ(store.GetChannelOffsets(channel_).value(), (NextOffsets{{0, 100}}));
  EXPECT_EQ(store.GetTableById(table_.table_id)->version_token, table_.version_token);

  auto ok = store.CommitWithOffsets(table_.table_id, table_.version_token, Location(0), channel_,
                                    {{0, {100, 101}}, {1, {0, 4}}}, kAccount);
  ASSERT_TRUE(ok.has_value()) << ok.error().ToString();
  EXPECT_EQ(ok->metadata_location, Location(0));
  EXPECT_EQ(ok->modified_by, kAccount);
  EXPECT_EQ(store.GetChannelOffsets(channel_).value(), (NextOffsets{{0, 101}, {1, 4}}));
}

// Delivery threads and HTTP handler threads share one store: of several
// writers racing from the same token and offsets, exactly one commits each
// round, and the pointer and offsets always move together.
TEST_P(UnitOfWorkConformance, ConcurrentDeliveryCommitsHaveOneWinnerPerRound) {
  constexpr int kThreads = 4;
  constexpr int kRounds = 8;
  for (int round = 0; round < kRounds; ++round) {
    auto table = store_->GetTableById(table_.table_id);
    ASSERT_TRUE(table.has_value());
    const KafkaOffset from = 100 + round;
    std::atomic<int> won{0};
    std::atomic<int> conflicted{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        auto result = store_->CommitWithOffsets(table->table_id, table->version_token,
                                                Location(round) + "-" + std::to_string(t), channel_,
                                                {{0, {from, from + 1}}}, kAccount);
        if (result.has_value()) {
          ++won;
        } else if (result.error().code() == StatusCode::kConflict) {
          ++conflicted;
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(won.load(), 1);
    EXPECT_EQ(conflicted.load(), kThreads - 1);
    EXPECT_EQ(store_->GetChannelOffset(channel_, 0).value(), from + 1);
  }
}

}  // namespace st::catalog::conformance
