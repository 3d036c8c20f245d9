#include "delivery/memory_budget.h"

#include <gtest/gtest.h>

namespace st::delivery {
namespace {

TEST(DeliveryMemoryBudgetTest, UnderTheBoundNobodyCommitsEarlyWhateverItHolds) {
  DeliveryMemoryBudget budget(100);
  auto a = budget.Join();
  auto b = budget.Join();
  a->Report(90);  // Far above its fair share of 50, but the total is under 100.
  b->Report(5);
  EXPECT_EQ(budget.held_bytes(), 95);
  EXPECT_FALSE(a->OverShare());
  EXPECT_FALSE(b->OverShare());
}

TEST(DeliveryMemoryBudgetTest, AtTheBoundOnlyThoseAtOrAboveTheFairShareCommit) {
  DeliveryMemoryBudget budget(120);
  auto big = budget.Join();
  auto fair = budget.Join();
  auto small = budget.Join();
  EXPECT_EQ(budget.FairShare(), 40);
  big->Report(70);
  fair->Report(40);
  small->Report(10);
  EXPECT_EQ(budget.held_bytes(), 120);
  EXPECT_TRUE(big->OverShare());
  EXPECT_TRUE(fair->OverShare());
  EXPECT_FALSE(small->OverShare());  // It keeps filling: the others free memory.
  big->Report(0);                    // Committed.
  EXPECT_EQ(budget.held_bytes(), 50);
  EXPECT_FALSE(fair->OverShare());
}

TEST(DeliveryMemoryBudgetTest, LeavingGivesBackWhatWasHeldAndRaisesTheShare) {
  DeliveryMemoryBudget budget(100);
  auto a = budget.Join();
  {
    auto b = budget.Join();
    b->Report(60);
    a->Report(40);
    EXPECT_EQ(budget.FairShare(), 50);
    EXPECT_TRUE(b->OverShare());
    EXPECT_FALSE(a->OverShare());
  }
  EXPECT_EQ(budget.held_bytes(), 40);
  EXPECT_EQ(budget.FairShare(), 100);
  a->Report(100);
  EXPECT_TRUE(a->OverShare());
}

TEST(DeliveryMemoryBudgetTest, ZeroMeansNoServerWideBound) {
  DeliveryMemoryBudget budget(0);
  auto a = budget.Join();
  a->Report(int64_t{1} << 40);
  EXPECT_FALSE(a->OverShare());
  EXPECT_EQ(budget.FairShare(), 0);
  EXPECT_EQ(budget.held_bytes(), int64_t{1} << 40);
}

TEST(DeliveryMemoryBudgetTest, NothingHeldNeverCommitsAndNegativeReportsCountAsZero) {
  DeliveryMemoryBudget budget(10);
  auto a = budget.Join();
  auto b = budget.Join();
  a->Report(10);
  b->Report(-5);
  EXPECT_EQ(budget.held_bytes(), 10);
  EXPECT_FALSE(b->OverShare());
  EXPECT_TRUE(a->OverShare());
}

}  // namespace
}  // namespace st::delivery
