// Dead-letter queues and message move tasks through Broker: spec §5.4 (redrive on receive),
// §5.5 (move tasks), §5.7 (retention), §1.2 (ids kept on redrive, new on a move task), §3.9 and
// cases E.103–E.113.
#include "engine/broker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

constexpr char kSourceArnMissing[]
    = "The resource that you specified for the SourceArn parameter doesn't exist.";
constexpr char kDestinationArnMissing[]
    = "The resource that you specified for the DestinationArn parameter doesn't exist.";
constexpr char kNotADeadLetterQueue[] = "Source queue must be configured as a Dead Letter Queue.";
constexpr char kTaskAlreadyRunning[]
    = "There is already a task running. Only one active task is allowed for a "
      "source queue arn at a given time.";
constexpr char kInvalidTaskHandle[] = "Value for parameter TaskHandle is invalid.";
constexpr char kTaskDoesNotExist[] = "Task does not exist.";
constexpr char kNonExistentQueue[] = "AWS.SimpleQueueService.NonExistentQueue";
constexpr char kTraceHeader[]
    = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";

std::string redrivePolicy(const std::string& deadLetterArn, std::int64_t maxReceiveCount)
{
    return R"({"deadLetterTargetArn":")" + deadLetterArn + R"(","maxReceiveCount":)"
        + std::to_string(maxReceiveCount) + "}";
}

class DeadLetterTest : public ::testing::Test {
protected:
    DeadLetterTest()
    {
        broker.setEventSink([this](std::span<const Event> batch) {
            events.insert(events.end(), batch.begin(), batch.end());
        });
    }

    void createQueue(const std::string& name, StringMap attributes = {})
    {
        CreateQueueRequest request;
        request.name = name;
        request.attributes = std::move(attributes);
        auto r = broker.createQueue(request);
        ASSERT_TRUE(r.ok()) << name << ": " << describe(r.error());
    }

    void createFifo(const std::string& name, StringMap attributes = {})
    {
        attributes["FifoQueue"] = "true";
        createQueue(name, std::move(attributes));
    }

    // A source queue whose RedrivePolicy targets `deadLetter` (which must exist).
    void createSource(const std::string& name, const std::string& deadLetter,
                      std::int64_t maxReceiveCount, StringMap attributes = {})
    {
        attributes["RedrivePolicy"] = redrivePolicy(arn(deadLetter), maxReceiveCount);
        if (name.ends_with(".fifo"))
            createFifo(name, std::move(attributes));
        else
            createQueue(name, std::move(attributes));
    }

    std::string arn(const std::string& name) const { return broker.arnForName(name); }

    SendResult send(const std::string& queue, const std::string& body,
                    MessageAttributes attributes = {}, MessageAttributes systemAttributes = {})
    {
        SendMessageRequest request;
        request.queue = queue;
        request.body = body;
        request.attributes = std::move(attributes);
        request.systemAttributes = std::move(systemAttributes);
        auto r = broker.sendMessage(request);
        if (!r.ok()) {
            ADD_FAILURE() << "send to " << queue << ": " << describe(r.error());
            return {};
        }
        return *r;
    }

    SendResult sendFifo(const std::string& queue, const std::string& body, const std::string& group,
                        const std::string& dedup)
    {
        SendMessageRequest request;
        request.queue = queue;
        request.body = body;
        request.groupId = group;
        request.deduplicationId = dedup;
        auto r = broker.sendMessage(request);
        if (!r.ok()) {
            ADD_FAILURE() << "send to " << queue << ": " << describe(r.error());
            return {};
        }
        return *r;
    }

    // A short poll asking for every system and message attribute.
    std::vector<ReceivedMessage> receive(const std::string& queue, std::int64_t maxMessages = 1,
                                         std::optional<std::int64_t> visibilityTimeout
                                         = std::nullopt)
    {
        ReceiveRequest request;
        request.queue = queue;
        request.maxMessages = maxMessages;
        request.visibilityTimeout = visibilityTimeout;
        request.waitTimeSeconds = 0;
        request.systemAttributeNames = {"All"};
        request.messageAttributeNames = {"All"};
        auto r = broker.receiveMessage(request);
        if (!r.ok()) {
            ADD_FAILURE() << "receive from " << queue << ": " << describe(r.error());
            return {};
        }
        return r->messages;
    }

    QueueStats stats(const std::string& queue)
    {
        auto r = broker.queueStats(queue);
        if (!r.ok()) {
            ADD_FAILURE() << "stats of " << queue << ": " << describe(r.error());
            return {};
        }
        return *r;
    }

    std::vector<MessageView> peek(const std::string& queue)
    {
        auto r = broker.peekMessages(queue);
        if (!r.ok()) {
            ADD_FAILURE() << "peek " << queue << ": " << describe(r.error());
            return {};
        }
        return *r;
    }

    std::vector<std::string> bodies(const std::vector<ReceivedMessage>& messages)
    {
        std::vector<std::string> result;
        for (const ReceivedMessage& m : messages)
            result.push_back(m.body);
        return result;
    }

    std::vector<std::string> peekBodies(const std::string& queue)
    {
        std::vector<std::string> result;
        for (const MessageView& m : peek(queue))
            result.push_back(m.body);
        return result;
    }

    Result<std::string> startTask(const std::string& sourceArn,
                                  std::optional<std::string> destinationArn = std::nullopt,
                                  std::optional<std::int64_t> rate = std::nullopt)
    {
        StartMoveTaskRequest request;
        request.sourceArn = sourceArn;
        request.destinationArn = std::move(destinationArn);
        request.maxMessagesPerSecond = rate;
        return broker.startMessageMoveTask(request);
    }

    std::string startTaskOk(const std::string& sourceArn,
                            std::optional<std::string> destinationArn = std::nullopt,
                            std::optional<std::int64_t> rate = std::nullopt)
    {
        auto r = startTask(sourceArn, std::move(destinationArn), rate);
        if (!r.ok()) {
            ADD_FAILURE() << "start move task: " << describe(r.error());
            return {};
        }
        return *r;
    }

    std::vector<MoveTaskInfo> listTasks(const std::string& sourceArn,
                                        std::optional<std::int64_t> maxResults = 10)
    {
        auto r = broker.listMessageMoveTasks(sourceArn, maxResults);
        if (!r.ok()) {
            ADD_FAILURE() << "list move tasks: " << describe(r.error());
            return {};
        }
        return *r;
    }

    MoveTaskInfo latestTask(const std::string& sourceArn)
    {
        const auto tasks = listTasks(sourceArn, 1);
        if (tasks.empty()) {
            ADD_FAILURE() << "no move task for " << sourceArn;
            return {};
        }
        return tasks.front();
    }

    // Puts `count` (<= 10) messages into the DLQ `dlq` through its source `source`
    // (maxReceiveCount 1): all are received once with visibility 0, the next receive moves them.
    void fillDeadLetterQueue(const std::string& source, const std::string& dlq, int count,
                             const std::string& prefix = "m")
    {
        ASSERT_LE(count, 10);
        for (int i = 0; i < count; ++i)
            send(source, prefix + std::to_string(i));
        ASSERT_EQ(receive(source, 10, 0).size(), static_cast<std::size_t>(count));
        EXPECT_TRUE(receive(source, 10, 0).empty());
        ASSERT_EQ(stats(dlq).available, count);
    }

    std::vector<Event> eventsOf(EventKind kind) const
    {
        std::vector<Event> result;
        std::copy_if(events.begin(), events.end(), std::back_inserter(result),
                     [&](const Event& e) { return e.kind == kind; });
        return result;
    }

    ManualClock clock;
    Broker broker{clock};
    std::vector<Event> events;
};

// ---- §5.4 when the move happens --------------------------------------------------------------

TEST_F(DeadLetterTest, maxReceiveCountOneFirstReceiveReturnsMessageSecondAfterExpiryMovesIt)
{
    createQueue("dlq");
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
        createQueue(dlq);
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
    createQueue("dlq");
    createSource("src", "dlq", 1);
    send("src", "m");
    const auto got = receive("src");
    ASSERT_EQ(got.size(), 1u);
    ASSERT_TRUE(broker.changeMessageVisibility("src", got[0].receiptHandle, 0).ok());

    EXPECT_TRUE(receive("src").empty());
    EXPECT_EQ(stats("dlq").available, 1);
}

TEST_F(DeadLetterTest, receiveWithVisibilityTimeoutZeroCountsAsAReceive)
{
    createQueue("dlq");
    createSource("src", "dlq", 2);
    send("src", "m");
    ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    EXPECT_TRUE(receive("src", 1, 0).empty());
    EXPECT_EQ(stats("dlq").available, 1);
}

TEST_F(DeadLetterTest, loweringMaxReceiveCountBelowReceiveCountMovesOnNextReceive)
{
    createQueue("dlq");
    createSource("src", "dlq", 5);
    send("src", "m");
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    ASSERT_TRUE(
        broker.setQueueAttributes("src", {{"RedrivePolicy", redrivePolicy(arn("dlq"), 2)}}).ok());
    EXPECT_TRUE(receive("src", 1, 0).empty()); // delivery 4 would exceed the new maximum 2
    EXPECT_EQ(stats("dlq").available, 1);
}

TEST_F(DeadLetterTest, redrivePolicyAddedLaterAppliesToEarlierReceives)
{
    createQueue("dlq");
    createQueue("src");
    send("src", "m");
    ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    ASSERT_TRUE(
        broker.setQueueAttributes("src", {{"RedrivePolicy", redrivePolicy(arn("dlq"), 1)}}).ok());
    EXPECT_TRUE(receive("src", 1, 0).empty());
    EXPECT_EQ(stats("dlq").available, 1);
}

TEST_F(DeadLetterTest, redrivePolicyRemovedMeansNoMove)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    send("src", "m");
    ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    ASSERT_TRUE(broker.setQueueAttributes("src", {{"RedrivePolicy", ""}}).ok());
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
    ASSERT_TRUE(broker.changeMessageVisibility("src.fifo", both[0].receiptHandle, 60).ok());
    clock.advance(30'000); // m2 is visible again but blocked behind m1
    EXPECT_TRUE(receive("src.fifo", 10).empty());
    EXPECT_EQ(stats("dlq.fifo").available, 0);

    ASSERT_TRUE(broker.deleteMessage("src.fifo", both[0].receiptHandle).ok());
    EXPECT_TRUE(receive("src.fifo", 10).empty()); // m2 reached: moved, not delivered
    const auto inDlq = peek("dlq.fifo");
    ASSERT_EQ(inDlq.size(), 1u);
    EXPECT_EQ(inDlq[0].body, "m2");
}

TEST_F(DeadLetterTest, longPollOnSourceIsNotAnsweredByAMessageThatMoves)
{
    createQueue("dlq");
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
    createQueue("dlq2");
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
    createQueue("dlq");
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
    createQueue("dlq");
    createSource("src", "dlq", 1);
    MessageAttributes attributes{
        {"colour", {"String", "blue", ""}},
        {"count", {"Number.int", "42", ""}},
        {"blob", {"Binary", "", std::string("\x00\x01\xfe", 3)}},
    };
    MessageAttributes system{{"AWSTraceHeader", {"String", kTraceHeader, ""}}};
    const SendResult sent = send("src", "the body", attributes, system);
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
    createQueue("dlq");
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
    createQueue("dlq");
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
    createQueue("dlq");
    createSource("src", "dlq", 1);
    const SendResult a = send("src", "a");
    ASSERT_EQ(receive("src").size(), 1u); // a, the oldest
    send("src", "b");
    send("src", "c");
    clock.advance(30'000);

    const auto got = receive("src", 10);
    std::vector<std::string> names = bodies(got);
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"b", "c"}));
    const auto inDlq = peek("dlq");
    ASSERT_EQ(inDlq.size(), 1u);
    EXPECT_EQ(inDlq[0].messageId, a.messageId);
}

TEST_F(DeadLetterTest, receiveThatMovesAMessageReturnsUpToMaxOthers)
{
    createQueue("dlq");
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
    EXPECT_EQ(bodies(next), (std::vector<std::string>{"m2", "m3"}));
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
    EXPECT_EQ(bodies(got), (std::vector<std::string>{"b1"}));
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
    createQueue("dlq", {{"MessageRetentionPeriod", "60"}});
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
    createQueue("dlq", {{"MessageRetentionPeriod", "60"}});
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
    createQueue("dlq");
    createSource("src", "dlq", 1);
    const SendResult sent = send("src", "m");
    ASSERT_EQ(receive("src").size(), 1u);
    ASSERT_TRUE(broker.deleteQueue("dlq").ok());
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
    createQueue("dlq");
    createSource("src", "dlq", 1);
    send("src", "m");
    ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    ASSERT_TRUE(broker.deleteQueue("dlq").ok());
    const auto views = peek("src");
    ASSERT_EQ(views.size(), 1u);
    EXPECT_FALSE(views[0].movesToDeadLetterOnNextReceive);
    EXPECT_EQ(receive("src", 1, 0).size(), 1u); // indeed delivered, not moved
}

// ---- counters, events, peek ------------------------------------------------------------------

TEST_F(DeadLetterTest, moveCountsAndEmitsMovedToDeadLetterQueueEvent)
{
    createQueue("dlq");
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
    createQueue("dlq");
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
    createQueue("plain");
    send("plain", "m");
    for (int i = 0; i < 3; ++i)
        ASSERT_EQ(receive("plain", 1, 0).size(), 1u);
    EXPECT_FALSE(peek("plain")[0].movesToDeadLetterOnNextReceive);
}

TEST_F(DeadLetterTest, longPollOnDeadLetterQueueIsAnsweredByAMovedMessage)
{
    createQueue("dlq");
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
    createQueue("dlq");
    createQueue("other-dlq");
    createSource("s2", "dlq", 3);
    createSource("s1", "dlq", 1);
    createSource("s3", "other-dlq", 1);
    createQueue("plain");

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
    createQueue("dlq");
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
    createQueue("dlq");
    createSource("s1", "dlq", 1);
    createSource("s2", "dlq", 1);
    ASSERT_TRUE(broker.setQueueAttributes("s1", {{"RedrivePolicy", ""}}).ok());
    ASSERT_TRUE(broker.deleteQueue("s2").ok());
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

// ---- §5.5 StartMessageMoveTask validation (E.109, E.111) -------------------------------------

TEST_F(DeadLetterTest, startMoveTaskWithUnknownSourceIsResourceNotFound)
{
    auto r = startTask(arn("nope"), arn("also-nope"));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::ResourceNotFound);
    EXPECT_EQ(r.error().message, kSourceArnMissing);
}

TEST_F(DeadLetterTest, startMoveTaskFromQueueThatIsNoDeadLetterQueueIsRejected)
{
    createQueue("plain");
    auto r = startTask(arn("plain"), arn("nope")); // checked before the destination
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().message, kNotADeadLetterQueue);

    // A source queue (one with a RedrivePolicy) is not a DLQ either.
    createQueue("dlq");
    createSource("src", "dlq", 1);
    auto fromSource = startTask(arn("src"));
    ASSERT_FALSE(fromSource.ok());
    EXPECT_EQ(fromSource.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(fromSource.error().message, kNotADeadLetterQueue);
}

TEST_F(DeadLetterTest, startMoveTaskWithUnknownDestinationIsResourceNotFound)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    auto r = startTask(arn("dlq"), arn("nope"));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::ResourceNotFound);
    EXPECT_EQ(r.error().message, kDestinationArnMissing);
    EXPECT_TRUE(listTasks(arn("dlq")).empty());
}

TEST_F(DeadLetterTest, startMoveTaskRateMustBeBetween1And500)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    struct Row {
        std::int64_t rate;
        bool accepted;
    };
    for (const Row row :
         {Row{-1, false}, Row{0, false}, Row{1, true}, Row{500, true}, Row{501, false}}) {
        SCOPED_TRACE("rate=" + std::to_string(row.rate));
        auto r = startTask(arn("dlq"), std::nullopt, row.rate);
        EXPECT_EQ(r.ok(), row.accepted);
        if (!r.ok()) {
            EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
        }
    }
}

TEST_F(DeadLetterTest, secondTaskWhileOneIsRunningIsRejected)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 3);
    const std::string handle = startTaskOk(arn("dlq"), std::nullopt, 1);
    broker.advance();

    auto second = startTask(arn("dlq"));
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(second.error().message, kTaskAlreadyRunning);

    // Also with a different destination and rate: one active task per source.
    createQueue("elsewhere");
    auto third = startTask(arn("dlq"), arn("elsewhere"), 10);
    ASSERT_FALSE(third.ok());
    EXPECT_EQ(third.error().message, kTaskAlreadyRunning);
    EXPECT_EQ(latestTask(arn("dlq")).taskHandle, handle);
}

TEST_F(DeadLetterTest, newTaskMayStartAfterThePreviousCompleted)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 2);
    startTaskOk(arn("dlq"), std::nullopt, 1);
    clock.advance(999);
    broker.advance();
    EXPECT_FALSE(startTask(arn("dlq")).ok()); // second message due at +1000 ms
    clock.advance(1);                         // due now; no advance(): the start itself catches up
    auto again = startTask(arn("dlq"));
    ASSERT_TRUE(again.ok()) << describe(again.error());
    const auto tasks = listTasks(arn("dlq"), 2);
    ASSERT_EQ(tasks.size(), 2u);
    EXPECT_EQ(tasks[1].status, MoveTaskStatus::Completed);
    EXPECT_EQ(tasks[1].moved, 2);
}

TEST_F(DeadLetterTest, newTaskMayStartAfterThePreviousWasCancelled)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 3);
    const std::string handle = startTaskOk(arn("dlq"), std::nullopt, 1);
    ASSERT_TRUE(broker.cancelMessageMoveTask(handle).ok());
    EXPECT_TRUE(startTask(arn("dlq")).ok());
}

// ---- §5.5 progress in engine time ------------------------------------------------------------

TEST_F(DeadLetterTest, moveTaskMovesAtItsRateInEngineTime)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 4);
    const Millis start = clock.now();
    startTaskOk(arn("dlq"), std::nullopt, 1);

    // Nothing moves inside the start call itself; the first message is due at the start.
    EXPECT_EQ(stats("dlq").available, 4);
    EXPECT_EQ(stats("src").available, 0);
    EXPECT_EQ(broker.nextDeadline(), start);

    broker.advance();
    EXPECT_EQ(stats("src").available, 1);
    EXPECT_EQ(broker.nextDeadline(), start + 1'000);

    clock.advance(999);
    broker.advance();
    EXPECT_EQ(stats("src").available, 1);
    clock.advance(1);
    broker.advance();
    EXPECT_EQ(stats("src").available, 2);
    clock.advance(1'000);
    broker.advance();
    EXPECT_EQ(stats("src").available, 3);
    EXPECT_EQ(latestTask(arn("dlq")).status, MoveTaskStatus::Running);
    EXPECT_EQ(broker.nextDeadline(), start + 3'000);

    clock.advance(1'000);
    broker.advance();
    EXPECT_EQ(stats("src").available, 4);
    EXPECT_EQ(stats("dlq").available, 0);
    const MoveTaskInfo done = latestTask(arn("dlq"));
    EXPECT_EQ(done.status, MoveTaskStatus::Completed);
    EXPECT_EQ(done.moved, 4);
    EXPECT_EQ(done.toMove, 4);
}

TEST_F(DeadLetterTest, moveTaskProgressTable)
{
    // Message k moves at start + k * 1000 / rate (ms, rounded down); default rate 500/s.
    struct Row {
        std::optional<std::int64_t> rate;
        Millis elapsed;
        std::int64_t moved;
    };
    const Row rows[] = {
        {1, 0, 1},
        {1, 999, 1},
        {1, 1'000, 2},
        {1, 2'000, 3},
        {1, 60'000, 10},
        {2, 499, 1},
        {2, 500, 2},
        {2, 1'000, 3},
        {3, 332, 1},
        {3, 333, 2},
        {3, 1'000, 4},
        {500, 0, 1},
        {500, 1, 1},
        {500, 2, 2},
        {500, 17, 9},
        {std::nullopt, 0, 1},
        {std::nullopt, 1, 1},
        {std::nullopt, 2, 2},
        {std::nullopt, 18, 10},
    };
    for (const Row& row : rows) {
        SCOPED_TRACE("rate=" + (row.rate ? std::to_string(*row.rate) : std::string("default"))
                     + " elapsed=" + std::to_string(row.elapsed));
        ManualClock c;
        Broker b(c);
        CreateQueueRequest dlq{.name = "dlq"};
        ASSERT_TRUE(b.createQueue(dlq).ok());
        CreateQueueRequest src{.name = "src",
                               .attributes
                               = {{"RedrivePolicy", redrivePolicy(b.arnForName("dlq"), 1)}}};
        ASSERT_TRUE(b.createQueue(src).ok());
        for (int i = 0; i < 10; ++i) {
            SendMessageRequest m;
            m.queue = "dlq";
            m.body = "m" + std::to_string(i);
            ASSERT_TRUE(b.sendMessage(m).ok());
        }
        StartMoveTaskRequest start;
        start.sourceArn = b.arnForName("dlq");
        start.destinationArn = b.arnForName("src");
        start.maxMessagesPerSecond = row.rate;
        ASSERT_TRUE(b.startMessageMoveTask(start).ok());
        c.advance(row.elapsed);
        b.advance();
        EXPECT_EQ(b.queueStats("src")->available, row.moved);
        EXPECT_EQ(b.queueStats("dlq")->available, 10 - row.moved);
        auto tasks = b.listMessageMoveTasks(start.sourceArn, 1);
        ASSERT_TRUE(tasks.ok());
        ASSERT_EQ(tasks->size(), 1u);
        EXPECT_EQ(tasks->front().moved, row.moved);
        EXPECT_EQ(tasks->front().status,
                  row.moved == 10 ? MoveTaskStatus::Completed : MoveTaskStatus::Running);
    }
}

TEST_F(DeadLetterTest, listingTasksCatchesUpWithTheClockWithoutAdvance)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 5);
    startTaskOk(arn("dlq"), std::nullopt, 1);
    clock.advance(2'000);
    EXPECT_EQ(latestTask(arn("dlq")).moved, 3);
}

// ---- §5.5 where moved messages go and what they are ------------------------------------------

TEST_F(DeadLetterTest, moveTaskWithoutDestinationReturnsEachMessageToItsOwnSource)
{
    createQueue("dlq");
    createSource("s1", "dlq", 1);
    createSource("s2", "dlq", 1);
    send("s1", "from s1");
    send("s2", "from s2");
    send("s1", "from s1 again");
    for (const char* q : {"s1", "s2"}) {
        receive(q, 10, 0);
        EXPECT_TRUE(receive(q, 10, 0).empty());
    }
    ASSERT_EQ(stats("dlq").available, 3);

    startTaskOk(arn("dlq"));
    clock.advance(1'000);
    broker.advance();

    std::vector<std::string> inS1 = peekBodies("s1");
    std::sort(inS1.begin(), inS1.end());
    EXPECT_EQ(inS1, (std::vector<std::string>{"from s1", "from s1 again"}));
    EXPECT_EQ(peekBodies("s2"), (std::vector<std::string>{"from s2"}));
    EXPECT_EQ(stats("dlq").available, 0);
    const MoveTaskInfo task = latestTask(arn("dlq"));
    EXPECT_EQ(task.status, MoveTaskStatus::Completed);
    EXPECT_EQ(task.moved, 3);
    EXPECT_TRUE(task.destinationArn.empty());
}

TEST_F(DeadLetterTest, moveTaskWithDestinationSendsEveryMessageThere)
{
    createQueue("dlq");
    createQueue("target");
    createSource("s1", "dlq", 1);
    createSource("s2", "dlq", 1);
    send("s1", "a");
    send("s2", "b");
    for (const char* q : {"s1", "s2"}) {
        receive(q, 10, 0);
        EXPECT_TRUE(receive(q, 10, 0).empty());
    }
    startTaskOk(arn("dlq"), arn("target"));
    clock.advance(1'000);
    broker.advance();

    std::vector<std::string> inTarget = peekBodies("target");
    std::sort(inTarget.begin(), inTarget.end());
    EXPECT_EQ(inTarget, (std::vector<std::string>{"a", "b"}));
    EXPECT_TRUE(peek("s1").empty());
    EXPECT_TRUE(peek("s2").empty());
    EXPECT_TRUE(peek("dlq").empty());
}

TEST_F(DeadLetterTest, messagesMovedByTaskAreNewMessages)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    const Millis sentAt = clock.now();
    const SendResult a = send("src", "a", {{"k", {"String", "v", ""}}});
    const SendResult b = send("src", "b");
    ASSERT_EQ(receive("src", 10, 0).size(), 2u);
    EXPECT_TRUE(receive("src", 10, 0).empty());

    clock.advance(60'000);
    const Millis start = clock.now();
    startTaskOk(arn("dlq"), std::nullopt, 1);
    clock.advance(1'000);
    broker.advance();

    const auto views = peek("src");
    ASSERT_EQ(views.size(), 2u);
    for (const MessageView& v : views) {
        EXPECT_EQ(v.receiveCount, 0u);
        EXPECT_FALSE(v.movesToDeadLetterOnNextReceive);
    }
    const auto got = receive("src", 10);
    ASSERT_EQ(got.size(), 2u);
    std::vector<Millis> sentTimes;
    for (const ReceivedMessage& m : got) {
        SCOPED_TRACE(m.body);
        EXPECT_NE(m.messageId, a.messageId);
        EXPECT_NE(m.messageId, b.messageId);
        EXPECT_EQ(m.systemAttributes.at("ApproximateReceiveCount"), "1");
        EXPECT_NE(m.sentAt, sentAt);
        sentTimes.push_back(std::stoll(m.systemAttributes.at("SentTimestamp")));
        if (m.body == "a") { // the content travels: body and message attributes
            EXPECT_EQ(m.attributes, (MessageAttributes{{"k", {"String", "v", ""}}}));
        }
    }
    std::sort(sentTimes.begin(), sentTimes.end());
    EXPECT_EQ(sentTimes, (std::vector<Millis>{start, start + 1'000}));
}

TEST_F(DeadLetterTest, fifoMoveTaskKeepsGroupOrderOnTheWayBack)
{
    createFifo("dlq.fifo");
    createSource("src.fifo", "dlq.fifo", 1);
    sendFifo("src.fifo", "m1", "g", "d1");
    sendFifo("src.fifo", "m2", "g", "d2");
    sendFifo("src.fifo", "m3", "g", "d3");
    ASSERT_EQ(receive("src.fifo", 10, 0).size(), 3u);
    EXPECT_TRUE(receive("src.fifo", 10, 0).empty());
    ASSERT_EQ(stats("dlq.fifo").available, 3);

    startTaskOk(arn("dlq.fifo"));
    clock.advance(1'000);
    broker.advance();
    EXPECT_EQ(stats("dlq.fifo").available, 0);
    const auto got = receive("src.fifo", 10);
    EXPECT_EQ(bodies(got), (std::vector<std::string>{"m1", "m2", "m3"}));
    for (const ReceivedMessage& m : got)
        EXPECT_EQ(m.systemAttributes.at("ApproximateReceiveCount"), "1");
}

TEST_F(DeadLetterTest, messageMovedByTaskGetsNewRetentionClock)
{
    createQueue("dlq");
    createSource("src", "dlq", 1, {{"MessageRetentionPeriod", "60"}});
    send("src", "m");
    ASSERT_EQ(receive("src", 1, 0).size(), 1u);
    EXPECT_TRUE(receive("src", 1, 0).empty());
    clock.advance(50'000);
    startTaskOk(arn("dlq"));
    broker.advance();
    const Millis movedAt = clock.now();
    ASSERT_EQ(stats("src").available, 1);
    clock.set(movedAt + 59'999); // 109.999 s after the original send
    EXPECT_EQ(stats("src").available, 1);
    clock.set(movedAt + 60'000);
    EXPECT_EQ(stats("src").available, 0);
}

TEST_F(DeadLetterTest, longPollOnDestinationIsAnsweredByAMovedMessage)
{
    createQueue("dlq");
    createQueue("target");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 1);

    std::optional<Result<ReceiveResult>> answer;
    ReceiveRequest wait;
    wait.queue = "target";
    wait.waitTimeSeconds = 20;
    const WaitId id
        = broker.receiveMessageAsync(wait, [&](Result<ReceiveResult> r) { answer = std::move(r); });
    ASSERT_NE(id, 0u);
    clock.advance(5'000);
    startTaskOk(arn("dlq"), arn("target"), 1);
    EXPECT_FALSE(answer.has_value());
    broker.advance();

    ASSERT_TRUE(answer.has_value());
    ASSERT_TRUE(answer->ok());
    ASSERT_EQ((*answer)->messages.size(), 1u);
    EXPECT_EQ((*answer)->messages[0].body, "m0");
    EXPECT_EQ(broker.pendingWaits(), 0u);
}

// ---- §5.5 ListMessageMoveTasks ---------------------------------------------------------------

TEST_F(DeadLetterTest, listMessageMoveTasksIsNewestFirstWithDefaultOne)
{
    createQueue("dlq");
    createQueue("dlq2");
    createSource("src", "dlq", 1);
    createSource("src2", "dlq2", 1);
    std::vector<Millis> starts;
    for (int i = 0; i < 3; ++i) {
        starts.push_back(clock.now());
        startTaskOk(arn("dlq")); // empty DLQ: completes at once
        clock.advance(1'000);
    }
    startTaskOk(arn("dlq2"));

    auto byDefault = broker.listMessageMoveTasks(arn("dlq"), std::nullopt);
    ASSERT_TRUE(byDefault.ok());
    ASSERT_EQ(byDefault->size(), 1u);
    EXPECT_EQ(byDefault->front().startedAt, starts[2]);

    const auto two = listTasks(arn("dlq"), 2);
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[0].startedAt, starts[2]);
    EXPECT_EQ(two[1].startedAt, starts[1]);

    const auto all = listTasks(arn("dlq"), 10);
    ASSERT_EQ(all.size(), 3u); // only this source's tasks
    EXPECT_EQ(all[2].startedAt, starts[0]);
    for (const MoveTaskInfo& t : all)
        EXPECT_EQ(t.sourceArn, arn("dlq"));
}

TEST_F(DeadLetterTest, listMessageMoveTasksMaxResultsMustBeBetween1And10)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    for (const std::int64_t bad : {0, 11, -1}) {
        SCOPED_TRACE(bad);
        auto r = broker.listMessageMoveTasks(arn("dlq"), bad);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    }
    for (const std::int64_t good : {1, 10}) {
        SCOPED_TRACE(good);
        EXPECT_TRUE(broker.listMessageMoveTasks(arn("dlq"), good).ok());
    }
}

TEST_F(DeadLetterTest, listMessageMoveTasksShowsRunningTaskFields)
{
    createQueue("dlq");
    createQueue("target");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 3);
    clock.advance(7'000);
    const Millis start = clock.now();
    const std::string handle = startTaskOk(arn("dlq"), arn("target"), 1);
    ASSERT_FALSE(handle.empty());
    broker.advance();

    const MoveTaskInfo t = latestTask(arn("dlq"));
    EXPECT_EQ(t.status, MoveTaskStatus::Running);
    EXPECT_EQ(moveTaskStatusName(t.status), "RUNNING");
    EXPECT_EQ(t.taskHandle, handle);
    EXPECT_EQ(t.sourceArn, arn("dlq"));
    EXPECT_EQ(t.destinationArn, arn("target"));
    EXPECT_EQ(t.maxMessagesPerSecond, std::optional<std::int64_t>(1));
    EXPECT_EQ(t.moved, 1);
    EXPECT_EQ(t.toMove, 3);
    EXPECT_EQ(t.startedAt, start);
    EXPECT_TRUE(t.failureReason.empty());
}

TEST_F(DeadLetterTest, listMessageMoveTasksOmitsOptionalFieldsAndHandleOnceDone)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 2);
    startTaskOk(arn("dlq"));
    clock.advance(1'000);
    broker.advance();

    const MoveTaskInfo t = latestTask(arn("dlq"));
    EXPECT_EQ(t.status, MoveTaskStatus::Completed);
    EXPECT_EQ(moveTaskStatusName(t.status), "COMPLETED");
    EXPECT_TRUE(t.taskHandle.empty());
    EXPECT_TRUE(t.destinationArn.empty());
    EXPECT_FALSE(t.maxMessagesPerSecond.has_value());
    EXPECT_EQ(t.moved, 2);
    EXPECT_EQ(t.toMove, 2);
}

TEST_F(DeadLetterTest, moveTaskStatusNamesAreTheServiceNames)
{
    EXPECT_EQ(moveTaskStatusName(MoveTaskStatus::Running), "RUNNING");
    EXPECT_EQ(moveTaskStatusName(MoveTaskStatus::Completed), "COMPLETED");
    EXPECT_EQ(moveTaskStatusName(MoveTaskStatus::Cancelling), "CANCELLING");
    EXPECT_EQ(moveTaskStatusName(MoveTaskStatus::Cancelled), "CANCELLED");
    EXPECT_EQ(moveTaskStatusName(MoveTaskStatus::Failed), "FAILED");
}

// ---- §5.5 CancelMessageMoveTask --------------------------------------------------------------

TEST_F(DeadLetterTest, cancelReturnsMovedCountAndAlreadyMovedMessagesStayMoved)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 4);
    const std::string handle = startTaskOk(arn("dlq"), std::nullopt, 1);
    broker.advance();
    clock.advance(1'000);
    broker.advance();
    ASSERT_EQ(stats("src").available, 2);

    auto cancelled = broker.cancelMessageMoveTask(handle);
    ASSERT_TRUE(cancelled.ok()) << describe(cancelled.error());
    EXPECT_EQ(*cancelled, 2);

    EXPECT_GT(broker.nextDeadline(), clock.now() + 10'000); // no step of the task is due any more
    clock.advance(10'000);
    broker.advance();
    EXPECT_EQ(stats("src").available, 2);
    EXPECT_EQ(stats("dlq").available, 2);
    const MoveTaskInfo t = latestTask(arn("dlq"));
    EXPECT_EQ(t.status, MoveTaskStatus::Cancelled);
    EXPECT_EQ(moveTaskStatusName(t.status), "CANCELLED");
    EXPECT_TRUE(t.taskHandle.empty());
    EXPECT_EQ(t.moved, 2);
    EXPECT_EQ(t.toMove, 4);
}

TEST_F(DeadLetterTest, cancelWithMalformedHandleIsInvalidParameterValue)
{
    for (const std::string handle : {"garbage", "", "eyJ0YXNrSWQiOjF9"}) { // last: {"taskId":1}
        SCOPED_TRACE(handle);
        auto r = broker.cancelMessageMoveTask(handle);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
        EXPECT_EQ(r.error().message, kInvalidTaskHandle);
    }
}

TEST_F(DeadLetterTest, cancelWithWellFormedUnknownHandleIsResourceNotFound)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 2);
    const std::string handle = startTaskOk(arn("dlq"), std::nullopt, 1);

    ManualClock otherClock;
    Broker other(otherClock);
    auto r = other.cancelMessageMoveTask(handle);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::ResourceNotFound);
    EXPECT_EQ(r.error().message, kTaskDoesNotExist);
}

// ---- §5.5 destination deleted mid-task (E.113) -----------------------------------------------

TEST_F(DeadLetterTest, destinationDeletedMidTaskFailsTheTask)
{
    createQueue("dlq");
    createQueue("target");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 3);
    startTaskOk(arn("dlq"), arn("target"), 1);
    broker.advance();
    ASSERT_EQ(stats("target").available, 1);
    ASSERT_TRUE(broker.deleteQueue("target").ok());

    clock.advance(1'000);
    broker.advance();
    const MoveTaskInfo t = latestTask(arn("dlq"));
    EXPECT_EQ(t.status, MoveTaskStatus::Failed);
    EXPECT_EQ(moveTaskStatusName(t.status), "FAILED");
    EXPECT_EQ(t.failureReason, kNonExistentQueue);
    EXPECT_TRUE(t.taskHandle.empty());
    EXPECT_EQ(t.moved, 1);
    // Nothing is lost: what was not moved is still in the DLQ, and a new task may start.
    EXPECT_EQ(stats("dlq").available, 2);
    EXPECT_TRUE(startTask(arn("dlq")).ok());
}

TEST_F(DeadLetterTest, originalSourceDeletedMidTaskFailsTheTask)
{
    createQueue("dlq");
    createSource("src", "dlq", 1);
    createSource("keep", "dlq", 1); // keeps dlq a dead-letter queue after src is gone
    fillDeadLetterQueue("src", "dlq", 2);
    startTaskOk(arn("dlq"), std::nullopt, 1);
    broker.advance();
    ASSERT_TRUE(broker.deleteQueue("src").ok());
    clock.advance(1'000);
    broker.advance();
    const MoveTaskInfo t = latestTask(arn("dlq"));
    EXPECT_EQ(t.status, MoveTaskStatus::Failed);
    EXPECT_EQ(t.failureReason, kNonExistentQueue);
    EXPECT_EQ(stats("dlq").available, 1);
}

} // namespace
} // namespace inflight::engine
