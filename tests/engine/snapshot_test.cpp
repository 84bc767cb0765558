// Export and restore (snapshot.h): everything the engine knows comes back exactly, and receipt
// handles handed out before the restore still work after it.
#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

using namespace inflight::engine;

namespace {

class SnapshotTest : public EngineTest {
protected:
    Broker& source = broker; // what is exported

    // Copies `source` into a fresh broker through the records.
    std::unique_ptr<Broker> roundTrip()
    {
        auto copy = std::make_unique<Broker>(clock);
        EXPECT_TRUE(copy->restoreBroker(source.brokerRecord()).ok());
        for (const QueueRecord& q : source.queueRecords()) {
            EXPECT_TRUE(copy->restoreQueue(q).ok()) << q.name;
            Status visited = source.forEachMessage(q.name, [&](const MessageRecord& m) {
                Status s = copy->restoreMessage(q.name, m);
                EXPECT_TRUE(s.ok()) << (s.ok() ? "" : describe(s.error()));
            });
            EXPECT_TRUE(visited.ok());
        }
        copy->finishRestore();
        return copy;
    }

    // FIFO when a group is given, deduplicated by the body.
    void send(const std::string& queue, const std::string& body,
              std::optional<std::string> group = {})
    {
        if (group)
            sendFifo(queue, body, *group, body);
        else
            EngineTest::send(queue, body);
    }

    static void expectSameMessages(Broker& a, Broker& b, const std::string& queue)
    {
        auto left = a.peekMessages(queue);
        auto right = b.peekMessages(queue);
        ASSERT_TRUE(left.ok());
        ASSERT_TRUE(right.ok());
        ASSERT_EQ(left->size(), right->size()) << queue;
        for (std::size_t i = 0; i < left->size(); ++i) {
            const MessageView& x = (*left)[i];
            const MessageView& y = (*right)[i];
            EXPECT_EQ(x.key, y.key);
            EXPECT_EQ(x.messageId, y.messageId);
            EXPECT_EQ(x.state, y.state);
            EXPECT_EQ(x.body, y.body);
            EXPECT_EQ(x.attributes, y.attributes);
            EXPECT_EQ(x.systemAttributes, y.systemAttributes);
            EXPECT_EQ(x.groupId, y.groupId);
            EXPECT_EQ(x.deduplicationId, y.deduplicationId);
            EXPECT_EQ(x.channelId, y.channelId);
            EXPECT_EQ(x.sequenceNumber, y.sequenceNumber);
            EXPECT_EQ(x.deadLetterSourceArn, y.deadLetterSourceArn);
            EXPECT_EQ(x.receiveCount, y.receiveCount);
            EXPECT_EQ(x.sentAt, y.sentAt);
            EXPECT_EQ(x.firstReceivedAt, y.firstReceivedAt);
            EXPECT_EQ(x.deliverAt, y.deliverAt);
            EXPECT_EQ(x.visibleAt, y.visibleAt);
            EXPECT_EQ(x.receivedAt, y.receivedAt);
            EXPECT_EQ(x.expiresAt, y.expiresAt);
            EXPECT_EQ(x.receiptHandle, y.receiptHandle);
        }
    }
};

TEST_F(SnapshotTest, restoresEveryMessageStateWithDeadlinesAndReceipts)
{
    ASSERT_TRUE(
        source.createQueue({.name = "q", .attributes = {{"VisibilityTimeout", "60"}}}).ok());
    send("q", "available");
    send("q", "in flight");
    SendMessageRequest delayed{.queue = "q", .body = std::string("delayed"), .delaySeconds = 120};
    delayed.attributes["k"] = MessageAttributeValue{"String", "v", ""};
    delayed.systemAttributes["AWSTraceHeader"] = MessageAttributeValue{"String", "Root=1-2-3", ""};
    ASSERT_TRUE(source.sendMessage(delayed).ok());
    auto received = source.receiveMessage({.queue = "q", .maxMessages = 1});
    ASSERT_EQ(received->messages.size(), 1u);
    auto copy = roundTrip();
    expectSameMessages(source, *copy, "q");
    EXPECT_EQ(source.getQueueAttributes("q", {"All"}).value(),
              copy->getQueueAttributes("q", {"All"}).value());

    // The receipt handed out before the restore deletes in the restored broker.
    EXPECT_TRUE(copy->deleteMessage("q", received->messages[0].receiptHandle, "test").ok());
    EXPECT_EQ(copy->queueStats("q")->inFlight, 0);
}

TEST_F(SnapshotTest, restoredDeadlinesStillRunOut)
{
    ASSERT_TRUE(source.createQueue({.name = "q"}).ok());
    send("q", "m");
    ASSERT_EQ(source.receiveMessage({.queue = "q"})->messages.size(), 1u);
    auto copy = roundTrip();
    clock.advance(29'999);
    EXPECT_EQ(copy->queueStats("q")->inFlight, 1);
    clock.advance(1);
    EXPECT_EQ(copy->queueStats("q")->available, 1);
    EXPECT_EQ(copy->receiveMessage({.queue = "q"})->messages.at(0).receiveCount, 2u);
}

TEST_F(SnapshotTest, visibilityThatRanOutWhileClosedIsAvailableAfterFinishRestore)
{
    ASSERT_TRUE(source.createQueue({.name = "q"}).ok());
    send("q", "m");
    ASSERT_EQ(source.receiveMessage({.queue = "q"})->messages.size(), 1u);
    const BrokerRecord broker = source.brokerRecord();
    const auto queues = source.queueRecords();
    std::vector<MessageRecord> messages;
    ASSERT_TRUE(
        source.forEachMessage("q", [&](const MessageRecord& m) { messages.push_back(m); }).ok());

    clock.advance(60'000); // the app was closed for a minute
    Broker copy(clock);
    std::vector<Event> events;
    copy.setEventSink([&](std::span<const Event> batch) {
        events.insert(events.end(), batch.begin(), batch.end());
    });
    ASSERT_TRUE(copy.restoreBroker(broker).ok());
    for (const auto& q : queues)
        ASSERT_TRUE(copy.restoreQueue(q).ok());
    for (const auto& m : messages)
        ASSERT_TRUE(copy.restoreMessage("q", m).ok());
    copy.finishRestore();
    EXPECT_EQ(copy.queueStats("q")->available, 1);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].kind, EventKind::VisibilityExpired);
    EXPECT_EQ(events[0].time, clock.now() - 60'000 + 30'000);
}

TEST_F(SnapshotTest, fifoGroupsDedupAndAttemptsSurvive)
{
    ASSERT_TRUE(source.createQueue({.name = "f.fifo", .attributes = {{"FifoQueue", "true"}}}).ok());
    send("f.fifo", "a1", "a");
    send("f.fifo", "a2", "a");
    send("f.fifo", "b1", "b");
    auto first = source.receiveMessage(
        {.queue = "f.fifo", .maxMessages = 1, .receiveRequestAttemptId = "try-1"});
    ASSERT_EQ(first->messages.at(0).body, "a1");
    auto copy = roundTrip();
    expectSameMessages(source, *copy, "f.fifo");

    // Group a stays blocked behind its in-flight head; b is served.
    auto next = copy->receiveMessage({.queue = "f.fifo", .maxMessages = 10});
    ASSERT_EQ(next->messages.size(), 1u);
    EXPECT_EQ(next->messages[0].body, "b1");
    // The dedup window survived: a resend of a1 is a duplicate answered with the original id.
    auto dup = copy->sendMessage({.queue = "f.fifo",
                                  .body = std::string("a1"),
                                  .deduplicationId = std::string("a1"),
                                  .groupId = std::string("a")});
    ASSERT_TRUE(dup.ok());
    EXPECT_TRUE(dup->deduplicated);
    EXPECT_EQ(dup->messageId, first->messages[0].messageId);
    // The receive attempt replays with the same handle.
    auto replay = copy->receiveMessage(
        {.queue = "f.fifo", .maxMessages = 1, .receiveRequestAttemptId = "try-1"});
    ASSERT_EQ(replay->messages.size(), 1u);
    EXPECT_EQ(replay->messages[0].receiptHandle, first->messages[0].receiptHandle);
}

TEST_F(SnapshotTest, newIdsAfterRestoreDoNotRepeatAndSequencesContinue)
{
    ASSERT_TRUE(source.createQueue({.name = "f.fifo", .attributes = {{"FifoQueue", "true"}}}).ok());
    send("f.fifo", "a1", "a");
    auto copy = roundTrip();
    auto left = source.sendMessage({.queue = "f.fifo",
                                    .body = std::string("x"),
                                    .deduplicationId = std::string("x"),
                                    .groupId = std::string("a")});
    auto right = copy->sendMessage({.queue = "f.fifo",
                                    .body = std::string("x"),
                                    .deduplicationId = std::string("x"),
                                    .groupId = std::string("a")});
    // Deterministic: the restored broker continues exactly where the original stood.
    EXPECT_EQ(left->messageId, right->messageId);
    EXPECT_EQ(left->sequenceNumber, right->sequenceNumber);
}

TEST_F(SnapshotTest, queuesTagsPoliciesCountersDeadLettersAndOciComeBack)
{
    ASSERT_TRUE(source.createQueue({.name = "dlq"}).ok());
    ASSERT_TRUE(
        source
            .createQueue({.name = "src",
                          .attributes = {{"RedrivePolicy",
                                          R"({"deadLetterTargetArn":")" + source.arnForName("dlq")
                                              + R"(","maxReceiveCount":1})"},
                                         {"DelaySeconds", "5"}},
                          .tags = {{"team", "core"}}})
            .ok());
    ASSERT_TRUE(source.addPermission("src", "p1", {"111122223333"}, {"SendMessage"}, "test").ok());
    ASSERT_TRUE(source
                    .createQueue({.name = "telemetry",
                                  .attributes = {{"deadLetterQueueDeliveryCount", "2"}},
                                  .oci = true})
                    .ok());
    ASSERT_TRUE(
        source
            .sendMessage(
                {.queue = "telemetry", .body = std::string("t"), .channelId = std::string("eu")})
            .ok());
    send("src", "m");
    clock.advance(5'000);
    ASSERT_EQ(source.receiveMessage({.queue = "src", .visibilityTimeout = 0})->messages.size(), 1u);
    ASSERT_TRUE(source.receiveMessage({.queue = "src"})->messages.empty()); // moved to the DLQ
    ASSERT_TRUE(source.purgeQueue("dlq", PurgeTarget::Normal, "test").ok());
    ASSERT_TRUE(source.deleteQueue("dlq", "test").ok());

    auto copy = roundTrip();
    for (const std::string name : {"src", "telemetry", "telemetry.dlq"}) {
        EXPECT_EQ(source.getQueueAttributes(name, {"All"}).value(),
                  copy->getQueueAttributes(name, {"All"}).value())
            << name;
        EXPECT_EQ(source.queueStats(name)->sent, copy->queueStats(name)->sent);
        EXPECT_EQ(source.queueStats(name)->movedToDeadLetter,
                  copy->queueStats(name)->movedToDeadLetter);
        expectSameMessages(source, *copy, name);
    }
    EXPECT_EQ(copy->listQueueTags("src").value(), (StringMap{{"team", "core"}}));
    EXPECT_EQ(copy->queueView("telemetry")->deadLetterTarget, "telemetry.dlq");
    EXPECT_EQ(copy->listChannels("telemetry", "").value(), std::vector<std::string>{"eu"});
    // The re-create window of the deleted DLQ is still open, and the purge window too.
    auto recreate = copy->createQueue({.name = "dlq"});
    ASSERT_FALSE(recreate.ok());
    EXPECT_EQ(recreate.error().code, ErrorCode::QueueDeletedRecently);
}

TEST_F(SnapshotTest, moveTasksComeBackAndKeepRunning)
{
    ASSERT_TRUE(source.createQueue({.name = "dlq"}).ok());
    ASSERT_TRUE(
        source
            .createQueue({.name = "src",
                          .attributes = {{"RedrivePolicy",
                                          R"({"deadLetterTargetArn":")" + source.arnForName("dlq")
                                              + R"(","maxReceiveCount":1})"}}})
            .ok());
    for (int i = 0; i < 3; ++i)
        send("src", "m" + std::to_string(i));
    ASSERT_EQ(source.receiveMessage({.queue = "src", .maxMessages = 10, .visibilityTimeout = 0})
                  ->messages.size(),
              3u);
    ASSERT_TRUE(source.receiveMessage({.queue = "src", .maxMessages = 10})->messages.empty());
    auto handle = source.startMessageMoveTask(
        {.sourceArn = source.arnForName("dlq"), .maxMessagesPerSecond = 1});
    ASSERT_TRUE(handle.ok());
    source.advance();
    auto copy = roundTrip();
    auto tasks = copy->listMessageMoveTasks(source.arnForName("dlq"), 10);
    ASSERT_EQ(tasks->size(), 1u);
    EXPECT_EQ(tasks->at(0).taskHandle, *handle);
    EXPECT_EQ(tasks->at(0).moved, 1);
    clock.advance(2'000);
    copy->advance();
    EXPECT_EQ(copy->listMessageMoveTasks(source.arnForName("dlq"), 1)->at(0).status,
              MoveTaskStatus::Completed);
    EXPECT_EQ(copy->queueStats("src")->available, 3);
}

TEST_F(SnapshotTest, restoreRefusesATakenSlotOrName)
{
    ASSERT_TRUE(source.createQueue({.name = "q"}).ok());
    send("q", "m");
    Broker copy(clock);
    const auto queue = source.queueRecord("q").value();
    ASSERT_TRUE(copy.restoreQueue(queue).ok());
    EXPECT_EQ(copy.restoreQueue(queue).error().code, ErrorCode::InvalidParameterValue);
    MessageRecord message = source.messageRecord("q", source.peekMessages("q")->at(0).key).value();
    ASSERT_TRUE(copy.restoreMessage("q", message).ok());
    EXPECT_EQ(copy.restoreMessage("q", message).error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(copy.restoreMessage("nope", message).error().code, ErrorCode::QueueDoesNotExist);
}

// Events hold a queue's name in themselves (80 characters at most, as every create checks): a
// stored record with a longer one, or none, is refused, not cut short.
TEST_F(SnapshotTest, restoreRefusesANameNoQueueCanHave)
{
    ASSERT_TRUE(source.createQueue({.name = std::string(80, 'q')}).ok());
    QueueRecord queue = source.queueRecord(std::string(80, 'q')).value();
    Broker copy(clock);
    std::vector<Event> events;
    copy.setEventSink([&](std::span<const Event> batch) {
        events.insert(events.end(), batch.begin(), batch.end());
    });
    ASSERT_TRUE(copy.restoreQueue(queue).ok());
    ASSERT_TRUE(copy.deleteQueue(queue.name, "test").ok());
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events.back().queue, queue.name); // all 80 characters
    for (const std::string& name : {std::string(81, 'q'), std::string()}) {
        queue.name = name;
        const auto restored = copy.restoreQueue(queue);
        ASSERT_FALSE(restored.ok()) << name.size();
        EXPECT_EQ(restored.error().code, ErrorCode::InvalidParameterValue);
    }
}

} // namespace
