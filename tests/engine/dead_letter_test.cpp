// Dead-letter queues through Broker: spec §5.4 (redrive on receive), §5.7 (retention), §1.2 (ids
// kept on redrive), §3.9 (ListDeadLetterSourceQueues) and cases E.103–E.107. Move tasks, which
// take messages back out of a DLQ, are in move_task_test.cpp.
#include "engine/support/dead_letter_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

constexpr char kTraceHeader[]
    = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";

// ---- §5.4 when the move happens --------------------------------------------------------------

TEST_F(DeadLetterTest, maxReceiveCountOneFirstReceiveReturnsMessageSecondAfterExpiryMovesIt)
{
    create("dlq");
    createSource("src", "dlq", 1);
    const SendResult sent = send("src", "hello");

    const auto first = receive("src");
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(first[0].messageId, sent.messageId);
    EXPECT_EQ(first[0].systemAttributes.at("ApproximateReceiveCount"), "1");

    clock.advance(29'999); // 1 ms before the visibility expires: still in flight, nothing moved
    EXPECT_TRUE(receive("src").empty());
    EXPECT_EQ(stats("src").inFlight, 1);
    EXPECT_EQ(stats("dlq").available, 0);

    clock.advance(1); // exactly at the deadline: the next receive would be delivery 2 > max 1
    EXPECT_TRUE(receive("src").empty());
    EXPECT_EQ(stats("src").available, 0);
    EXPECT_EQ(stats("src").inFlight, 0);
    EXPECT_EQ(stats("dlq").available, 1);
    const auto inDlq = peek("dlq");
    ASSERT_EQ(inDlq.size(), 1u);
    EXPECT_EQ(inDlq[0].messageId, sent.messageId);
}

TEST_F(DeadLetterTest, fifoMaxReceiveCountTwoDeliversTwiceAndThirdReceiveMovesIt)
{
    createFifo("dlq.fifo");
    createSource("src.fifo", "dlq.fifo", 2);
    const SendResult sent = sendFifo("src.fifo", "hello", "g", "d1");

    auto r1 = receive("src.fifo");
    ASSERT_EQ(r1.size(), 1u);
    EXPECT_EQ(r1[0].systemAttributes.at("ApproximateReceiveCount"), "1");
    clock.advance(30'000);
    auto r2 = receive("src.fifo");
    ASSERT_EQ(r2.size(), 1u);
    EXPECT_EQ(r2[0].systemAttributes.at("ApproximateReceiveCount"), "2");
    clock.advance(30'000);
    EXPECT_TRUE(receive("src.fifo").empty());

    EXPECT_EQ(stats("src.fifo").available + stats("src.fifo").inFlight, 0);
    const auto inDlq = peek("dlq.fifo");
    ASSERT_EQ(inDlq.size(), 1u);
    EXPECT_EQ(inDlq[0].messageId, sent.messageId);
}

// Data-driven: with maxReceiveCount = N, N receives deliver the message and receive N+1 moves it.
TEST_F(DeadLetterTest, receiveThatWouldExceedMaxReceiveCountMovesTheMessage)
{
    for (const std::int64_t max : {1, 2, 3, 10}) {
        SCOPED_TRACE("maxReceiveCount=" + std::to_string(max));
        const std::string dlq = "dlq" + std::to_string(max);
        const std::string src = "src" + std::to_string(max);
        create(dlq);
        createSource(src, dlq, max);
        send(src, "m");
        for (std::int64_t i = 1; i <= max; ++i) {
            const auto got = receive(src, 1, 0);
            ASSERT_EQ(got.size(), 1u) << "delivery " << i;
            EXPECT_EQ(got[0].receiveCount, static_cast<std::uint32_t>(i));
            EXPECT_EQ(stats(dlq).available, 0);
        }
        EXPECT_TRUE(receive(src, 1, 0).empty());
        EXPECT_EQ(stats(dlq).available, 1);
        EXPECT_EQ(stats(src).available, 0);
    }
}

TEST_F(DeadLetterTest, messageReleasedWithVisibilityZeroCountsAsAReceive)
{
    create("dlq");
    createSource("src", "dlq", 1);
    send("src", "m");
    const auto got = receive("src");
    ASSERT_EQ(got.size(), 1u);
    ASSERT_TRUE(broker.changeMessageVisibility("src", got[0].receiptHandle, 0, "test").ok());

    EXPECT_TRUE(receive("src").empty());
    EXPECT_EQ(stats("dlq").available, 1);
}

TEST_F(DeadLetterTest, receiveWithVisibilityTimeoutZeroCountsAsAReceive)
{
    create("dlq");
    createSource("src", "dlq", 2);
    send("src", "m");
    ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    EXPECT_TRUE(receive("src", 1, 0).empty());
    EXPECT_EQ(stats("dlq").available, 1);
}

TEST_F(DeadLetterTest, loweringMaxReceiveCountBelowReceiveCountMovesOnNextReceive)
{
    create("dlq");
    createSource("src", "dlq", 5);
    send("src", "m");
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    ASSERT_TRUE(
        broker.setQueueAttributes("src", {{"RedrivePolicy", redrivePolicy(arn("dlq"), 2)}}, "test")
            .ok());
    EXPECT_TRUE(receive("src", 1, 0).empty()); // delivery 4 would exceed the new maximum 2
    EXPECT_EQ(stats("dlq").available, 1);
}

TEST_F(DeadLetterTest, redrivePolicyAddedLaterAppliesToEarlierReceives)
{
    create("dlq");
    create("src");
    send("src", "m");
    ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    ASSERT_TRUE(
        broker.setQueueAttributes("src", {{"RedrivePolicy", redrivePolicy(arn("dlq"), 1)}}, "test")
            .ok());
    EXPECT_TRUE(receive("src", 1, 0).empty());
    EXPECT_EQ(stats("dlq").available, 1);
}

TEST_F(DeadLetterTest, redrivePolicyRemovedMeansNoMove)
{
    create("dlq");
    createSource("src", "dlq", 1);
    send("src", "m");
    ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    ASSERT_TRUE(broker.setQueueAttributes("src", {{"RedrivePolicy", ""}}, "test").ok());
    const auto again = receive("src", 1, 0);
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(again[0].receiveCount, 2u);
    EXPECT_EQ(stats("dlq").available, 0);
}

TEST_F(DeadLetterTest, fifoMessageAtMaxBehindInFlightHeadIsNotMovedUntilItWouldBeDelivered)
{
    createFifo("dlq.fifo");
    createSource("src.fifo", "dlq.fifo", 1);
    sendFifo("src.fifo", "m1", "g", "d1");
    sendFifo("src.fifo", "m2", "g", "d2");
    const auto both = receive("src.fifo", 10);
    ASSERT_EQ(both.size(), 2u);
    ASSERT_TRUE(broker.changeMessageVisibility("src.fifo", both[0].receiptHandle, 60, "test").ok());
    clock.advance(30'000); // m2 is visible again but blocked behind m1
    EXPECT_TRUE(receive("src.fifo", 10).empty());
    EXPECT_EQ(stats("dlq.fifo").available, 0);

    ASSERT_TRUE(broker.deleteMessage("src.fifo", both[0].receiptHandle, "test").ok());
    EXPECT_TRUE(receive("src.fifo", 10).empty()); // m2 reached: moved, not delivered
    const auto inDlq = peek("dlq.fifo");
    ASSERT_EQ(inDlq.size(), 1u);
    EXPECT_EQ(inDlq[0].body, "m2");
}

TEST_F(DeadLetterTest, longPollOnSourceIsNotAnsweredByAMessageThatMoves)
{
    create("dlq");
    createSource("src", "dlq", 1);
    send("src", "m");
    ASSERT_EQ(receive("src").size(), 1u);
    clock.advance(15'000);

    std::optional<Result<ReceiveResult>> answer;
    ReceiveRequest wait;
    wait.queue = "src";
    wait.waitTimeSeconds = 20; // ends 35 s after the receive
    const WaitId id
        = broker.receiveMessageAsync(wait, [&](Result<ReceiveResult> r) { answer = std::move(r); });
    ASSERT_NE(id, 0u);
    clock.advance(15'000); // the visibility ends while the long poll waits: its receive moves m
    broker.advance();
    EXPECT_EQ(stats("dlq").available, 1);
    EXPECT_FALSE(answer.has_value());

    send("src", "fresh");
    ASSERT_TRUE(answer.has_value());
    ASSERT_TRUE(answer->ok());
    ASSERT_EQ((*answer)->messages.size(), 1u);
    EXPECT_EQ((*answer)->messages[0].body, "fresh");
}

TEST_F(DeadLetterTest, chainedDeadLetterQueueMovesAgainCountingEarlierDeliveries)
{
    create("dlq2");
    createSource("dlq1", "dlq2", 2);
    createSource("src", "dlq1", 1);
    const SendResult sent = send("src", "m");
    ASSERT_EQ(receive("src", 1, 0).size(), 1u); // delivery 1
    EXPECT_TRUE(receive("src", 1, 0).empty());  // moved to dlq1 with count 1
    const auto inDlq1 = receive("dlq1", 1, 0);  // delivery 2
    ASSERT_EQ(inDlq1.size(), 1u);
    EXPECT_EQ(inDlq1[0].systemAttributes.at("DeadLetterQueueSourceArn"), arn("src"));
    EXPECT_TRUE(receive("dlq1", 1, 0).empty()); // delivery 3 > 2: moved on
    const auto inDlq2 = receive("dlq2");
    ASSERT_EQ(inDlq2.size(), 1u);
    EXPECT_EQ(inDlq2[0].messageId, sent.messageId);
    EXPECT_EQ(inDlq2[0].systemAttributes.at("DeadLetterQueueSourceArn"), arn("dlq1"));
    EXPECT_EQ(inDlq2[0].systemAttributes.at("ApproximateReceiveCount"), "3");
}

TEST_F(DeadLetterTest, messageBelowMaxReceiveCountIsNotMovedBeforeAReceive)
{
    // The move happens inside a receive only: expiry alone leaves the message in the source.
    create("dlq");
    createSource("src", "dlq", 1);
    send("src", "m");
    ASSERT_EQ(receive("src").size(), 1u);
    clock.advance(60'000);
    broker.advance();
    EXPECT_EQ(stats("src").available, 1);
    EXPECT_EQ(stats("dlq").available, 0);
}

// ---- §5.4 what the moved message keeps (E.103) -----------------------------------------------

TEST_F(DeadLetterTest, movedMessageKeepsIdBodyAttributesTraceHeaderAndSentTimestamp)
{
    create("dlq");
    createSource("src", "dlq", 1);
    MessageAttributes attributes{
        {"colour", {"String", "blue", ""}},
        {"count", {"Number.int", "42", ""}},
        {"blob", {"Binary", "", std::string("\x00\x01\xfe", 3)}},
    };
    MessageAttributes system{{"AWSTraceHeader", {"String", kTraceHeader, ""}}};
    const SendResult sent = send(SendMessageRequest{
        .queue = "src", .body = "the body", .attributes = attributes, .systemAttributes = system});
    const Millis sentAt = clock.now();

    clock.advance(5'000);
    const auto inSource = receive("src");
    ASSERT_EQ(inSource.size(), 1u);
    const std::string sourceDigest = inSource[0].md5OfMessageAttributes();
    ASSERT_FALSE(sourceDigest.empty());

    clock.advance(30'000);
    EXPECT_TRUE(receive("src").empty());

    const auto inDlq = receive("dlq");
    ASSERT_EQ(inDlq.size(), 1u);
    const ReceivedMessage& m = inDlq[0];
    EXPECT_EQ(m.messageId, sent.messageId);
    EXPECT_EQ(m.body, "the body");
    EXPECT_EQ(m.md5OfBody(), inSource[0].md5OfBody());
    EXPECT_EQ(m.attributes, attributes);
    EXPECT_EQ(m.md5OfMessageAttributes(), sourceDigest);
    ASSERT_TRUE(m.systemAttributes.contains("AWSTraceHeader"));
    EXPECT_EQ(m.systemAttributes.at("AWSTraceHeader"), kTraceHeader);
    ASSERT_TRUE(m.systemAttributes.contains("SentTimestamp"));
    EXPECT_EQ(m.systemAttributes.at("SentTimestamp"), std::to_string(sentAt));
    EXPECT_EQ(m.sentAt, sentAt);
    ASSERT_TRUE(m.systemAttributes.contains("DeadLetterQueueSourceArn"));
    EXPECT_EQ(m.systemAttributes.at("DeadLetterQueueSourceArn"), arn("src"));
    ASSERT_TRUE(m.systemAttributes.contains("ApproximateReceiveCount"));
    EXPECT_EQ(m.systemAttributes.at("ApproximateReceiveCount"), "2");
}

TEST_F(DeadLetterTest, movedMessageKeepsItsReceiveCountInTheDeadLetterQueue)
{
    create("dlq");
    createSource("src", "dlq", 3);
    send("src", "m");
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    EXPECT_TRUE(receive("src", 1, 0).empty());

    const auto views = peek("dlq");
    ASSERT_EQ(views.size(), 1u);
    EXPECT_EQ(views[0].receiveCount, 3u);
    EXPECT_EQ(views[0].deadLetterSourceArn, arn("src"));
    EXPECT_FALSE(views[0].movesToDeadLetterOnNextReceive); // the DLQ has no redrive policy

    const auto inDlq = receive("dlq");
    ASSERT_EQ(inDlq.size(), 1u);
    EXPECT_EQ(inDlq[0].systemAttributes.at("ApproximateReceiveCount"), "4");
    EXPECT_EQ(inDlq[0].receiveCount, 4u);
}

TEST_F(DeadLetterTest, sourceArnAttributeIsReturnedOnlyWhenAskedFor)
{
    create("dlq");
    createSource("src", "dlq", 1);
    send("src", "m");
    ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    EXPECT_TRUE(receive("src", 1, 0).empty());

    ReceiveRequest request;
    request.queue = "dlq";
    request.visibilityTimeout = 0;
    request.systemAttributeNames = {"DeadLetterQueueSourceArn"};
    auto only = broker.receiveMessage(request);
    ASSERT_TRUE(only.ok());
    ASSERT_EQ(only->messages.size(), 1u);
    EXPECT_EQ(only->messages[0].systemAttributes,
              (StringMap{{"DeadLetterQueueSourceArn", arn("src")}}));

    request.systemAttributeNames = {};
    auto none = broker.receiveMessage(request);
    ASSERT_TRUE(none.ok());
    ASSERT_EQ(none->messages.size(), 1u);
    EXPECT_TRUE(none->messages[0].systemAttributes.empty());
}

// ---- §7A the moving receive continues filling its batch --------------------------------------

TEST_F(DeadLetterTest, receiveThatMovesAMessageStillFillsItsBatchFromOtherMessages)
{
    create("dlq");
    createSource("src", "dlq", 1);
    const SendResult a = send("src", "a");
    ASSERT_EQ(receive("src").size(), 1u); // a, the oldest
    send("src", "b");
    send("src", "c");
    clock.advance(30'000);

    const auto got = receive("src", 10);
    std::vector<std::string> names = bodiesOf(got);
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"b", "c"}));
    const auto inDlq = peek("dlq");
    ASSERT_EQ(inDlq.size(), 1u);
    EXPECT_EQ(inDlq[0].messageId, a.messageId);
}

TEST_F(DeadLetterTest, receiveThatMovesAMessageReturnsUpToMaxOthers)
{
    create("dlq");
    createSource("src", "dlq", 1);
    send("src", "a");
    ASSERT_EQ(receive("src").size(), 1u);
    send("src", "b");
    send("src", "c");
    clock.advance(30'000);
    const auto got = receive("src", 1);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_NE(got[0].body, "a");
    EXPECT_EQ(stats("dlq").available, 1);
}

// ---- §5.1 FIFO groups and the DLQ ------------------------------------------------------------

TEST_F(DeadLetterTest, fifoGroupContinuesWithNextMessageWhenHeadMoves)
{
    createFifo("dlq.fifo");
    createSource("src.fifo", "dlq.fifo", 1);
    const SendResult head = sendFifo("src.fifo", "m1", "g", "d1");
    sendFifo("src.fifo", "m2", "g", "d2");
    sendFifo("src.fifo", "m3", "g", "d3");

    const auto first = receive("src.fifo", 1);
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(first[0].body, "m1");
    clock.advance(30'000);

    // m1 would be delivery 2 > max 1: moved; the same receive serves the group's next messages.
    const auto next = receive("src.fifo", 10);
    EXPECT_EQ(bodiesOf(next), (std::vector<std::string>{"m2", "m3"}));
    const auto inDlq = peek("dlq.fifo");
    ASSERT_EQ(inDlq.size(), 1u);
    EXPECT_EQ(inDlq[0].messageId, head.messageId);
}

TEST_F(DeadLetterTest, fifoGroupEmptiedByMoveStaysUsableForNewSends)
{
    createFifo("dlq.fifo");
    createSource("src.fifo", "dlq.fifo", 1);
    sendFifo("src.fifo", "m1", "g", "d1");
    ASSERT_EQ(receive("src.fifo").size(), 1u);
    clock.advance(30'000);
    EXPECT_TRUE(receive("src.fifo").empty());
    EXPECT_EQ(stats("dlq.fifo").available, 1);

    sendFifo("src.fifo", "m2", "g", "d2");
    const auto got = receive("src.fifo");
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].body, "m2");
}

TEST_F(DeadLetterTest, fifoMoveLeavesOtherGroupsServedInTheSameReceive)
{
    createFifo("dlq.fifo");
    createSource("src.fifo", "dlq.fifo", 1);
    sendFifo("src.fifo", "a1", "a", "da1");
    ASSERT_EQ(receive("src.fifo").size(), 1u);
    sendFifo("src.fifo", "b1", "b", "db1");
    clock.advance(30'000);
    const auto got = receive("src.fifo", 10);
    EXPECT_EQ(bodiesOf(got), (std::vector<std::string>{"b1"}));
    EXPECT_EQ(stats("dlq.fifo").available, 1);
}

// ---- §5.2 FIFO DLQ dedup id (E.105) ----------------------------------------------------------

TEST_F(DeadLetterTest, fifoDeadLetterDeduplicationIdIsTheMessageId)
{
    createFifo("dlq.fifo");
    createSource("src.fifo", "dlq.fifo", 1);
    const SendResult sent = sendFifo("src.fifo", "m", "g", "original-dedup");
    ASSERT_EQ(receive("src.fifo", 1, 0).size(), 1u);
    EXPECT_TRUE(receive("src.fifo", 1, 0).empty());

    const auto inDlq = receive("dlq.fifo");
    ASSERT_EQ(inDlq.size(), 1u);
    EXPECT_EQ(inDlq[0].messageId, sent.messageId);
    ASSERT_TRUE(inDlq[0].systemAttributes.contains("MessageDeduplicationId"));
    EXPECT_EQ(inDlq[0].systemAttributes.at("MessageDeduplicationId"), sent.messageId);
    EXPECT_EQ(inDlq[0].systemAttributes.at("DeadLetterQueueSourceArn"), arn("src.fifo"));
    EXPECT_EQ(inDlq[0].systemAttributes.at("ApproximateReceiveCount"), "2");
}

TEST_F(DeadLetterTest, fifoDistinctMessagesWithSameDedupIdBothLandInDeadLetterQueue)
{
    createFifo("dlq.fifo");
    createSource("one.fifo", "dlq.fifo", 1);
    createSource("two.fifo", "dlq.fifo", 1);
    const SendResult first = sendFifo("one.fifo", "from one", "g", "same");
    const SendResult second = sendFifo("two.fifo", "from two", "g", "same");
    ASSERT_NE(first.messageId, second.messageId);
    for (const char* q : {"one.fifo", "two.fifo"}) {
        ASSERT_EQ(receive(q, 1, 0).size(), 1u);
        EXPECT_TRUE(receive(q, 1, 0).empty());
    }

    EXPECT_EQ(stats("dlq.fifo").available, 2);
    const auto got = receive("dlq.fifo", 10, 0);
    std::vector<std::string> ids;
    for (const ReceivedMessage& m : got)
        ids.push_back(m.messageId);
    std::sort(ids.begin(), ids.end());
    std::vector<std::string> expected{first.messageId, second.messageId};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(ids, expected);
}

TEST_F(DeadLetterTest, fifoMessagesOfOneSourceWithSameDedupIdInDifferentGroupsBothLand)
{
    createFifo("dlq.fifo");
    createSource(
        "src.fifo", "dlq.fifo", 1,
        {{"DeduplicationScope", "messageGroup"}, {"FifoThroughputLimit", "perMessageGroupId"}});
    sendFifo("src.fifo", "a", "g1", "same");
    sendFifo("src.fifo", "b", "g2", "same");
    ASSERT_EQ(receive("src.fifo", 10, 0).size(), 2u);
    EXPECT_TRUE(receive("src.fifo", 10, 0).empty());
    EXPECT_EQ(stats("dlq.fifo").available, 2);
}

// ---- §5.4 / §5.7 retention in the DLQ --------------------------------------------------------

TEST_F(DeadLetterTest, standardDeadLetterQueueKeepsOriginalEnqueueTime)
{
    create("dlq", {{"MessageRetentionPeriod", "60"}});
    createSource("src", "dlq", 1);
    const Millis sentAt = clock.now();
    send("src", "m");
    ASSERT_EQ(receive("src").size(), 1u);
    clock.advance(40'000);
    EXPECT_TRUE(receive("src").empty()); // moved at sentAt + 40 s
    ASSERT_EQ(stats("dlq").available, 1);
    EXPECT_EQ(peek("dlq")[0].expiresAt, sentAt + 60'000);

    clock.set(sentAt + 59'999);
    EXPECT_EQ(stats("dlq").available, 1);
    clock.set(sentAt + 60'000); // age 60 s = the DLQ's retention
    EXPECT_EQ(stats("dlq").available, 0);
    EXPECT_EQ(stats("dlq").retentionExpired, 1);
    EXPECT_TRUE(receive("dlq").empty());
}

TEST_F(DeadLetterTest, standardMessageOlderThanDeadLetterRetentionExpiresRightAway)
{
    create("dlq", {{"MessageRetentionPeriod", "60"}});
    createSource("src", "dlq", 1);
    send("src", "m");
    ASSERT_EQ(receive("src").size(), 1u);
    clock.advance(61'000);
    EXPECT_TRUE(receive("src").empty());
    EXPECT_EQ(stats("src").movedToDeadLetter, 1);
    EXPECT_EQ(stats("src").available + stats("src").inFlight, 0);

    EXPECT_TRUE(receive("dlq").empty());
    EXPECT_EQ(stats("dlq").available, 0);
    EXPECT_EQ(stats("dlq").retentionExpired, 1);
}

TEST_F(DeadLetterTest, fifoDeadLetterQueueResetsEnqueueTimeOnArrival)
{
    createFifo("dlq.fifo", {{"MessageRetentionPeriod", "60"}});
    createSource("src.fifo", "dlq.fifo", 1);
    const Millis sentAt = clock.now();
    sendFifo("src.fifo", "m", "g", "d");
    ASSERT_EQ(receive("src.fifo").size(), 1u);
    clock.advance(40'000);
    EXPECT_TRUE(receive("src.fifo").empty()); // moved at sentAt + 40 s
    const Millis movedAt = clock.now();
    ASSERT_EQ(stats("dlq.fifo").available, 1);
    EXPECT_EQ(peek("dlq.fifo")[0].expiresAt, movedAt + 60'000);

    clock.set(sentAt + 60'000); // older than 60 s since the send, but only 20 s in the DLQ
    EXPECT_EQ(stats("dlq.fifo").available, 1);
    clock.set(movedAt + 59'999);
    EXPECT_EQ(stats("dlq.fifo").available, 1);
    clock.set(movedAt + 60'000);
    EXPECT_EQ(stats("dlq.fifo").available, 0);
    EXPECT_EQ(stats("dlq.fifo").retentionExpired, 1);
}

TEST_F(DeadLetterTest, fifoMessageKeepsSentTimestampAlthoughRetentionRestarts)
{
    createFifo("dlq.fifo");
    createSource("src.fifo", "dlq.fifo", 1);
    const Millis sentAt = clock.now();
    sendFifo("src.fifo", "m", "g", "d");
    ASSERT_EQ(receive("src.fifo").size(), 1u);
    clock.advance(30'000);
    EXPECT_TRUE(receive("src.fifo").empty());
    const auto got = receive("dlq.fifo");
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].systemAttributes.at("SentTimestamp"), std::to_string(sentAt));
}

// ---- deleted DLQ (engine choice) -------------------------------------------------------------

TEST_F(DeadLetterTest, deletedDeadLetterQueueMeansTheMessageIsSimplyDelivered)
{
    create("dlq");
    createSource("src", "dlq", 1);
    const SendResult sent = send("src", "m");
    ASSERT_EQ(receive("src").size(), 1u);
    ASSERT_TRUE(broker.deleteQueue("dlq", "test").ok());
    clock.advance(30'000);

    const auto again = receive("src");
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(again[0].messageId, sent.messageId);
    EXPECT_EQ(again[0].systemAttributes.at("ApproximateReceiveCount"), "2");
    EXPECT_EQ(stats("src").movedToDeadLetter, 0);
    EXPECT_TRUE(eventsOf(EventKind::MovedToDeadLetterQueue).empty());
}

TEST_F(DeadLetterTest, peekDoesNotPromiseAMoveWhenTheDeadLetterQueueIsGone)
{
    // views.h: "True when the next receive that reaches this message will move it to the DLQ".
    create("dlq");
    createSource("src", "dlq", 1);
    send("src", "m");
    ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    ASSERT_TRUE(broker.deleteQueue("dlq", "test").ok());
    const auto views = peek("src");
    ASSERT_EQ(views.size(), 1u);
    EXPECT_FALSE(views[0].movesToDeadLetterOnNextReceive);
    EXPECT_EQ(receive("src", 1, 0).size(), 1u); // indeed delivered, not moved
}

// ---- counters, events, peek ------------------------------------------------------------------

TEST_F(DeadLetterTest, moveCountsAndEmitsMovedToDeadLetterQueueEvent)
{
    create("dlq");
    createSource("src", "dlq", 1);
    const SendResult sent = send("src", "m");
    ASSERT_EQ(receive("src").size(), 1u);
    clock.advance(30'000);
    events.clear();
    EXPECT_TRUE(receive("src").empty());

    EXPECT_EQ(stats("src").movedToDeadLetter, 1);
    EXPECT_EQ(stats("dlq").movedToDeadLetter, 0);
    const auto moved = eventsOf(EventKind::MovedToDeadLetterQueue);
    ASSERT_EQ(moved.size(), 1u);
    EXPECT_EQ(moved[0].queue, "src");
    EXPECT_EQ(moved[0].detail, "dlq");
    EXPECT_EQ(moved[0].messageId, sent.messageId);
    EXPECT_EQ(moved[0].time, clock.now());
    EXPECT_TRUE(eventsOf(EventKind::MessageReceived).empty());
}

TEST_F(DeadLetterTest, peekShowsMoveOnNextReceiveOnceReceiveCountReachesMax)
{
    create("dlq");
    createSource("src", "dlq", 2);
    send("src", "m");
    EXPECT_FALSE(peek("src")[0].movesToDeadLetterOnNextReceive);
    ASSERT_EQ(receive("src").size(), 1u);
    EXPECT_FALSE(peek("src")[0].movesToDeadLetterOnNextReceive);
    clock.advance(30'000);
    ASSERT_EQ(receive("src").size(), 1u);
    const auto views = peek("src");
    ASSERT_EQ(views.size(), 1u);
    EXPECT_EQ(views[0].receiveCount, 2u);
    EXPECT_TRUE(views[0].movesToDeadLetterOnNextReceive);
    // Peeking is no receive: the message is still in the source, in flight.
    EXPECT_EQ(stats("src").inFlight, 1);
    EXPECT_EQ(stats("dlq").available, 0);
}

TEST_F(DeadLetterTest, peekNeverFlagsMessagesOfQueueWithoutRedrivePolicy)
{
    create("plain");
    send("plain", "m");
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(receive("plain", 1, 0).size(), 1u);
    EXPECT_FALSE(peek("plain")[0].movesToDeadLetterOnNextReceive);
}

TEST_F(DeadLetterTest, longPollOnDeadLetterQueueIsAnsweredByAMovedMessage)
{
    create("dlq");
    createSource("src", "dlq", 1);
    const SendResult sent = send("src", "m");
    ASSERT_EQ(receive("src").size(), 1u);

    // The source's visibility runs out first, then a 20 s long poll starts on the DLQ: the
    // receive on the source that moves the message answers it (a wait past its deadline would
    // end empty instead).
    clock.advance(30'000);
    std::optional<Result<ReceiveResult>> answer;
    ReceiveRequest wait;
    wait.queue = "dlq";
    wait.waitTimeSeconds = 20;
    const WaitId id
        = broker.receiveMessageAsync(wait, [&](Result<ReceiveResult> r) { answer = std::move(r); });
    ASSERT_NE(id, 0u);
    EXPECT_FALSE(answer.has_value());
    EXPECT_TRUE(receive("src").empty());

    ASSERT_TRUE(answer.has_value());
    ASSERT_TRUE(answer->ok());
    ASSERT_EQ((*answer)->messages.size(), 1u);
    EXPECT_EQ((*answer)->messages[0].messageId, sent.messageId);
}

// ---- §3.9 ListDeadLetterSourceQueues (E.107) -------------------------------------------------

TEST_F(DeadLetterTest, listDeadLetterSourceQueuesNamesEveryQueueTargetingIt)
{
    create("dlq");
    create("other-dlq");
    createSource("s2", "dlq", 3);
    createSource("s1", "dlq", 1);
    createSource("s3", "other-dlq", 1);
    create("plain");

    auto all = broker.listDeadLetterSourceQueues("dlq", {});
    ASSERT_TRUE(all.ok());
    EXPECT_EQ(all->names, (std::vector<std::string>{"s1", "s2"}));
    EXPECT_TRUE(all->nextToken.empty());

    auto none = broker.listDeadLetterSourceQueues("plain", {});
    ASSERT_TRUE(none.ok());
    EXPECT_TRUE(none->names.empty());
}

TEST_F(DeadLetterTest, listDeadLetterSourceQueuesPaginatesLikeListQueues)
{
    create("dlq");
    createSource("s1", "dlq", 1);
    createSource("s2", "dlq", 1);
    createSource("s3", "dlq", 1);

    ListQueuesRequest page;
    page.maxResults = 2;
    auto first = broker.listDeadLetterSourceQueues("dlq", page);
    ASSERT_TRUE(first.ok());
    EXPECT_EQ(first->names, (std::vector<std::string>{"s1", "s2"}));
    ASSERT_FALSE(first->nextToken.empty());

    page.maxResults = 10;
    page.nextToken = first->nextToken;
    auto second = broker.listDeadLetterSourceQueues("dlq", page);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(second->names, (std::vector<std::string>{"s3"}));
    EXPECT_TRUE(second->nextToken.empty());
}

TEST_F(DeadLetterTest, listDeadLetterSourceQueuesDropsQueueWhosePolicyWasRemoved)
{
    create("dlq");
    createSource("s1", "dlq", 1);
    createSource("s2", "dlq", 1);
    ASSERT_TRUE(broker.setQueueAttributes("s1", {{"RedrivePolicy", ""}}, "test").ok());
    ASSERT_TRUE(broker.deleteQueue("s2", "test").ok());
    auto r = broker.listDeadLetterSourceQueues("dlq", {});
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->names.empty());
}

TEST_F(DeadLetterTest, listDeadLetterSourceQueuesOfUnknownQueueIsQueueDoesNotExist)
{
    auto r = broker.listDeadLetterSourceQueues("nope", {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::QueueDoesNotExist);
}

} // namespace
} // namespace inflight::engine
