// The dead-letter move event names both ends of the move: the source message (key) and its new
// place in the DLQ (relatedKey), so that a consumer of the event stream (the workspace store) can
// find the new message without scanning the DLQ.
#include "engine/broker.h"

#include <gtest/gtest.h>

#include <span>
#include <vector>

namespace inflight::engine {
namespace {

TEST(DeadLetterEventTest, moveEventCarriesTheMessagesNewKeyInTheDeadLetterQueue)
{
    ManualClock clock;
    Broker broker(clock);
    std::vector<Event> events;
    broker.setEventSink([&](std::span<const Event> batch) {
        events.insert(events.end(), batch.begin(), batch.end());
    });
    ASSERT_TRUE(broker.createQueue({.name = "dlq"}).ok());
    ASSERT_TRUE(broker.sendMessage({.queue = "dlq", .body = std::string("already there")}).ok());
    const std::string policy
        = R"({"deadLetterTargetArn":")" + broker.arnForName("dlq") + R"(","maxReceiveCount":1})";
    ASSERT_TRUE(
        broker.createQueue({.name = "src", .attributes = {{"RedrivePolicy", policy}}}).ok());
    ASSERT_TRUE(broker.sendMessage({.queue = "src", .body = std::string("poison")}).ok());
    ASSERT_EQ(broker.receiveMessage({.queue = "src", .visibilityTimeout = 0})->messages.size(), 1u);
    events.clear();
    ASSERT_TRUE(broker.receiveMessage({.queue = "src"})->messages.empty());

    ASSERT_EQ(events.size(), 1u);
    const Event& moved = events[0];
    EXPECT_EQ(moved.kind, EventKind::MovedToDeadLetterQueue);
    EXPECT_EQ(moved.detail, "dlq");
    auto arrived = broker.peekMessage("dlq", moved.relatedKey);
    ASSERT_TRUE(arrived.ok());
    EXPECT_EQ(arrived->body, "poison");
    EXPECT_EQ(arrived->messageId, moved.messageId);
    EXPECT_EQ(moved.relatedKey.sequence, 2u); // after the message already in the DLQ
    EXPECT_FALSE(broker.peekMessage("src", moved.key).ok());
}

} // namespace
} // namespace inflight::engine
