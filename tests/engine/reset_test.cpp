// Resets for test suites (the control API's `reset` routes), through Broker: resetQueue empties a
// queue like PurgeQueue without its once-per-60-s rule, and reset() removes every queue without the
// 60 s wait before a name can be created again (§3.2, §3.4).
#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace inflight::engine {
namespace {

// The setup steps come from origin "test".
class ResetTest : public EngineTest {
protected:
    void SetUp() override { collectEvents(); }

    void create(const std::string& name, StringMap attributes = {}, bool oci = false)
    {
        EngineTest::create(CreateQueueRequest{
            .name = name, .attributes = std::move(attributes), .oci = oci, .origin = "test"});
    }

    void send(const std::string& queue, const std::string& body, StringMap fifo = {})
    {
        SendMessageRequest request{.queue = queue, .body = body, .origin = "test"};
        if (fifo.count("group"))
            request.groupId = fifo["group"];
        if (fifo.count("dedup"))
            request.deduplicationId = fifo["dedup"];
        EngineTest::send(request);
    }
};

TEST_F(ResetTest, resetQueueRemovesMessagesInEveryState)
{
    create("q");
    send("q", "available");
    send("q", "in flight");
    ASSERT_TRUE(
        broker.sendMessage({.queue = "q", .body = "delayed", .delaySeconds = 60, .origin = "test"})
            .ok());
    ASSERT_TRUE(broker.receiveMessage({.queue = "q", .maxMessages = 1, .origin = "test"}).ok());
    ASSERT_EQ(stats("q").inFlight, 1);

    events.clear();
    ASSERT_TRUE(broker.resetQueue("q", "control").ok());
    const QueueStats after = stats("q");
    EXPECT_EQ(after.available + after.inFlight + after.delayed, 0);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].kind, EventKind::QueuePurged);
    EXPECT_EQ(events[0].count, 3);
    EXPECT_EQ(events[0].origin, "control");
}

TEST_F(ResetTest, resetQueueIsNotLimitedByPurgeAndDoesNotLimitIt)
{
    create("q");
    ASSERT_TRUE(broker.purgeQueue("q", PurgeTarget::Normal, "test").ok());
    EXPECT_TRUE(broker.resetQueue("q", "test").ok()) << "right after a purge";
    EXPECT_TRUE(broker.resetQueue("q", "test").ok()) << "twice in a row";
    EXPECT_TRUE(broker.purgeQueue("q", PurgeTarget::Normal, "test").ok()) << "purge right after";
    const Status again = broker.purgeQueue("q", PurgeTarget::Normal, "test");
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().code, ErrorCode::PurgeQueueInProgress);
}

TEST_F(ResetTest, resetQueueForgetsFifoDeduplication)
{
    create("q.fifo", {{"FifoQueue", "true"}});
    send("q.fifo", "one", {{"group", "g"}, {"dedup", "d1"}});
    ASSERT_TRUE(broker.resetQueue("q.fifo", "test").ok());
    auto resent = broker.sendMessage({.queue = "q.fifo",
                                      .body = "one",
                                      .deduplicationId = "d1",
                                      .groupId = "g",
                                      .origin = "test"});
    ASSERT_TRUE(resent.ok());
    EXPECT_FALSE(resent->deduplicated) << "within 5 minutes, but the history was reset";
    EXPECT_EQ(stats("q.fifo").available, 1);
}

TEST_F(ResetTest, resetQueueEmptiesAnOciQueuesBuiltInDeadLetterQueue)
{
    create("jobs", {{"deadLetterQueueDeliveryCount", "1"}}, true);
    send("jobs", "poison");
    ASSERT_TRUE(
        broker.receiveMessage({.queue = "jobs", .visibilityTimeout = 1, .origin = "t"}).ok());
    clock.advance(1'500);
    broker.advance();
    ASSERT_TRUE(broker.receiveMessage({.queue = "jobs", .origin = "t"}).ok()); // moves it
    ASSERT_EQ(stats("jobs.dlq").available, 1);
    ASSERT_TRUE(broker.resetQueue("jobs", "test").ok());
    EXPECT_EQ(stats("jobs.dlq").available, 0);
}

TEST_F(ResetTest, resetQueueOfAnUnknownQueueIsQueueDoesNotExist)
{
    const Status status = broker.resetQueue("nope", "test");
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, ErrorCode::QueueDoesNotExist);
}

TEST_F(ResetTest, resetRemovesEveryQueueAndNamesCanBeCreatedAgainAtOnce)
{
    create("orders-dlq");
    create("orders",
           {{"RedrivePolicy",
             R"({"deadLetterTargetArn":")" + broker.arnForName("orders-dlq")
                 + R"(","maxReceiveCount":"3"})"}});
    create("jobs", {}, true);
    send("orders", "x");
    events.clear();
    broker.reset("control");
    EXPECT_TRUE(broker.queues().empty());
    std::size_t deleted = 0;
    for (const Event& e : events)
        deleted += e.kind == EventKind::QueueDeleted;
    EXPECT_EQ(deleted, 4u) << "orders, orders-dlq, jobs and jobs.dlq";

    // No QueueDeletedRecently: the next test of the suite creates the same queues.
    create("orders");
    create("jobs", {}, true);
    EXPECT_EQ(stats("orders").available, 0);
}

TEST_F(ResetTest, resetEndsMoveTasks)
{
    create("dlq");
    create("src",
           {{"RedrivePolicy",
             R"({"deadLetterTargetArn":")" + broker.arnForName("dlq")
                 + R"(","maxReceiveCount":"1"})"}});
    send("dlq", "x");
    ASSERT_TRUE(broker
                    .startMessageMoveTask({.sourceArn = broker.arnForName("dlq"),
                                           .maxMessagesPerSecond = 1,
                                           .origin = "test"})
                    .ok());
    broker.reset("control");
    create("dlq");
    auto tasks = broker.listMessageMoveTasks(broker.arnForName("dlq"), 10);
    ASSERT_TRUE(tasks.ok());
    EXPECT_TRUE(tasks->empty());
}

} // namespace
} // namespace inflight::engine
