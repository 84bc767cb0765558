// QueueStats beyond the counts of GetQueueAttributes: the empty receives (short polls that found
// nothing, long polls that ended empty) and the age of the oldest stored message, the two series
// CloudWatch keeps for SQS (NumberOfEmptyReceives, ApproximateAgeOfOldestMessage) that the window's
// charts draw. Time is a ManualClock; nothing sleeps.
#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace inflight::engine {
namespace {

class QueueStatsTest : public EngineTest {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(succeeds(tryCreate("q")));
        ASSERT_TRUE(succeeds(tryCreate("q.fifo", {{"FifoQueue", "true"}})));
    }

    QueueStats stats(const std::string& queue = "q") { return EngineTest::stats(queue); }
    void send(const std::string& body, const std::string& queue = "q")
    {
        if (queue.ends_with(".fifo"))
            sendFifo(queue, body, "g", body);
        else
            EngineTest::send(queue, body);
    }
    std::size_t shortPoll(const std::string& queue = "q") { return receive(queue, 10).size(); }
    // A long poll of `seconds`; the returned count is set when it is answered (-1 before).
    std::shared_ptr<int> longPoll(std::int64_t seconds)
    {
        auto got = std::make_shared<int>(-1);
        broker.receiveMessageAsync(
            ReceiveRequest{.queue = "q", .maxMessages = 1, .waitTimeSeconds = seconds},
            [got](Result<ReceiveResult> r) { *got = r.ok() ? int(r->messages.size()) : -2; });
        return got;
    }
};

TEST_F(QueueStatsTest, aShortPollThatFindsNothingIsOneEmptyReceive)
{
    EXPECT_EQ(shortPoll(), 0u);
    EXPECT_EQ(shortPoll(), 0u);
    EXPECT_EQ(stats().emptyReceives, 2);
    EXPECT_EQ(stats().received, 0);
}

TEST_F(QueueStatsTest, aReceiveThatReturnsMessagesIsNotEmpty)
{
    send("a");
    EXPECT_EQ(shortPoll(), 1u);
    EXPECT_EQ(stats().emptyReceives, 0);
    EXPECT_EQ(stats().received, 1);
}

TEST_F(QueueStatsTest, aLongPollCountsOnceWhenItEndsEmptyAtItsDeadline)
{
    auto got = longPoll(5);
    EXPECT_EQ(*got, -1);
    EXPECT_EQ(stats().emptyReceives, 0); // still waiting
    advance(5 * kSecond);
    EXPECT_EQ(*got, 0);
    EXPECT_EQ(stats().emptyReceives, 1);
}

TEST_F(QueueStatsTest, aLongPollAnsweredByASendIsNotEmpty)
{
    auto got = longPoll(20);
    send("a");
    advance(0);
    EXPECT_EQ(*got, 1);
    advance(20 * kSecond);
    EXPECT_EQ(stats().emptyReceives, 0);
}

TEST_F(QueueStatsTest, aCancelledLongPollIsNotAnEmptyReceive)
{
    auto got = std::make_shared<int>(-1);
    const WaitId id = broker.receiveMessageAsync(
        ReceiveRequest{.queue = "q", .maxMessages = 1, .waitTimeSeconds = 20},
        [got](Result<ReceiveResult> r) { *got = r.ok() ? int(r->messages.size()) : -2; });
    EXPECT_TRUE(broker.cancelWait(id)); // the client hung up
    advance(20 * kSecond);
    EXPECT_EQ(stats().emptyReceives, 0);
}

TEST_F(QueueStatsTest, aFifoReceiveBehindAnInFlightHeadIsEmpty)
{
    send("a", "q.fifo");
    send("b", "q.fifo");
    EXPECT_EQ(shortPoll("q.fifo"), 2u);
    EXPECT_EQ(shortPoll("q.fifo"), 0u); // both in flight, the group is blocked
    EXPECT_EQ(stats("q.fifo").emptyReceives, 1);
    EXPECT_EQ(stats().emptyReceives, 0); // per queue
}

TEST_F(QueueStatsTest, aFailedReceiveIsNotAnEmptyReceive)
{
    auto r = broker.receiveMessage(ReceiveRequest{.queue = "q", .maxMessages = 11});
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(stats().emptyReceives, 0);
}

TEST_F(QueueStatsTest, theOldestMessageAgeIsZeroForAnEmptyQueue)
{
    EXPECT_EQ(stats().oldestMessageAge, 0);
    advance(30 * kSecond);
    EXPECT_EQ(stats().oldestMessageAge, 0);
}

TEST_F(QueueStatsTest, theOldestMessageAgeCountsFromTheOldestStoredMessage)
{
    send("old");
    advance(10 * kSecond);
    send("new");
    advance(5 * kSecond);
    EXPECT_EQ(stats().oldestMessageAge, 15 * kSecond);
    // In flight still counts: the message is stored until it is deleted.
    auto r = broker.receiveMessage(ReceiveRequest{.queue = "q", .maxMessages = 1});
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->messages.size(), 1u);
    ASSERT_EQ(r->messages[0].body, "old");
    EXPECT_EQ(stats().oldestMessageAge, 15 * kSecond);
    // Deleted: the next oldest.
    ASSERT_TRUE(broker.deleteMessage("q", r->messages[0].receiptHandle, Origin{}).ok());
    EXPECT_EQ(stats().oldestMessageAge, 5 * kSecond);
}

TEST_F(QueueStatsTest, aPurgeLeavesNoOldestMessage)
{
    send("a");
    advance(3 * kSecond);
    ASSERT_TRUE(broker.purgeQueue("q", PurgeTarget::Normal, "test").ok());
    EXPECT_EQ(stats().oldestMessageAge, 0);
}

} // namespace
} // namespace inflight::engine
