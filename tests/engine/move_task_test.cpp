// Message move tasks through Broker: spec §5.5 (StartMessageMoveTask, ListMessageMoveTasks,
// CancelMessageMoveTask, progress in engine time), §1.2 (new ids on a move) and cases
// E.109–E.113. The redrive into the DLQ they start from is in dead_letter_test.cpp.
#include "engine/support/dead_letter_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
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
    create("plain");
    auto r = startTask(arn("plain"), arn("nope")); // checked before the destination
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(r.error().message, kNotADeadLetterQueue);

    // A source queue (one with a RedrivePolicy) is not a DLQ either.
    create("dlq");
    createSource("src", "dlq", 1);
    auto fromSource = startTask(arn("src"));
    ASSERT_FALSE(fromSource.ok());
    EXPECT_EQ(fromSource.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(fromSource.error().message, kNotADeadLetterQueue);
}

TEST_F(DeadLetterTest, startMoveTaskWithUnknownDestinationIsResourceNotFound)
{
    create("dlq");
    createSource("src", "dlq", 1);
    auto r = startTask(arn("dlq"), arn("nope"));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::ResourceNotFound);
    EXPECT_EQ(r.error().message, kDestinationArnMissing);
    EXPECT_TRUE(listTasks(arn("dlq")).empty());
}

TEST_F(DeadLetterTest, startMoveTaskRateMustBeBetween1And500)
{
    create("dlq");
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
    create("dlq");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 3);
    const std::string handle = startTaskOk(arn("dlq"), std::nullopt, 1);
    broker.advance();

    auto second = startTask(arn("dlq"));
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(second.error().message, kTaskAlreadyRunning);

    // Also with a different destination and rate: one active task per source.
    create("elsewhere");
    auto third = startTask(arn("dlq"), arn("elsewhere"), 10);
    ASSERT_FALSE(third.ok());
    EXPECT_EQ(third.error().message, kTaskAlreadyRunning);
    EXPECT_EQ(latestTask(arn("dlq")).taskHandle, handle);
}

TEST_F(DeadLetterTest, newTaskMayStartAfterThePreviousCompleted)
{
    create("dlq");
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
    create("dlq");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 3);
    const std::string handle = startTaskOk(arn("dlq"), std::nullopt, 1);
    ASSERT_TRUE(broker.cancelMessageMoveTask(handle, "test").ok());
    EXPECT_TRUE(startTask(arn("dlq")).ok());
}

// ---- §5.5 progress in engine time ------------------------------------------------------------

TEST_F(DeadLetterTest, moveTaskMovesAtItsRateInEngineTime)
{
    create("dlq");
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
    create("dlq");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 5);
    startTaskOk(arn("dlq"), std::nullopt, 1);
    clock.advance(2'000);
    EXPECT_EQ(latestTask(arn("dlq")).moved, 3);
}

// ---- §5.5 where moved messages go and what they are ------------------------------------------

TEST_F(DeadLetterTest, moveTaskWithoutDestinationReturnsEachMessageToItsOwnSource)
{
    create("dlq");
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

    std::vector<std::string> inS1 = bodiesOf(peek("s1"));
    std::sort(inS1.begin(), inS1.end());
    EXPECT_EQ(inS1, (std::vector<std::string>{"from s1", "from s1 again"}));
    EXPECT_EQ(bodiesOf(peek("s2")), (std::vector<std::string>{"from s2"}));
    EXPECT_EQ(stats("dlq").available, 0);
    const MoveTaskInfo task = latestTask(arn("dlq"));
    EXPECT_EQ(task.status, MoveTaskStatus::Completed);
    EXPECT_EQ(task.moved, 3);
    EXPECT_TRUE(task.destinationArn.empty());
}

TEST_F(DeadLetterTest, moveTaskWithDestinationSendsEveryMessageThere)
{
    create("dlq");
    create("target");
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

    std::vector<std::string> inTarget = bodiesOf(peek("target"));
    std::sort(inTarget.begin(), inTarget.end());
    EXPECT_EQ(inTarget, (std::vector<std::string>{"a", "b"}));
    EXPECT_TRUE(peek("s1").empty());
    EXPECT_TRUE(peek("s2").empty());
    EXPECT_TRUE(peek("dlq").empty());
}

TEST_F(DeadLetterTest, messagesMovedByTaskAreNewMessages)
{
    create("dlq");
    createSource("src", "dlq", 1);
    const Millis sentAt = clock.now();
    const SendResult a = send(SendMessageRequest{
        .queue = "src", .body = "a", .attributes = {{"k", {"String", "v", ""}}}});
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
    EXPECT_EQ(bodiesOf(got), (std::vector<std::string>{"m1", "m2", "m3"}));
    for (const ReceivedMessage& m : got)
        EXPECT_EQ(m.systemAttributes.at("ApproximateReceiveCount"), "1");
}

TEST_F(DeadLetterTest, messageMovedByTaskGetsNewRetentionClock)
{
    create("dlq");
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
    create("dlq");
    create("target");
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
    create("dlq");
    create("dlq2");
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
    create("dlq");
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
    create("dlq");
    create("target");
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
    create("dlq");
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
    create("dlq");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 4);
    const std::string handle = startTaskOk(arn("dlq"), std::nullopt, 1);
    broker.advance();
    clock.advance(1'000);
    broker.advance();
    ASSERT_EQ(stats("src").available, 2);

    auto cancelled = broker.cancelMessageMoveTask(handle, "test");
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
        auto r = broker.cancelMessageMoveTask(handle, "test");
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, ErrorCode::InvalidParameterValue);
        EXPECT_EQ(r.error().message, kInvalidTaskHandle);
    }
}

TEST_F(DeadLetterTest, cancelWithWellFormedUnknownHandleIsResourceNotFound)
{
    create("dlq");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 2);
    const std::string handle = startTaskOk(arn("dlq"), std::nullopt, 1);

    ManualClock otherClock;
    Broker other(otherClock);
    auto r = other.cancelMessageMoveTask(handle, "test");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::ResourceNotFound);
    EXPECT_EQ(r.error().message, kTaskDoesNotExist);
}

// ---- §5.5 destination deleted mid-task (E.113) -----------------------------------------------

TEST_F(DeadLetterTest, destinationDeletedMidTaskFailsTheTask)
{
    create("dlq");
    create("target");
    createSource("src", "dlq", 1);
    fillDeadLetterQueue("src", "dlq", 3);
    startTaskOk(arn("dlq"), arn("target"), 1);
    broker.advance();
    ASSERT_EQ(stats("target").available, 1);
    ASSERT_TRUE(broker.deleteQueue("target", "test").ok());

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
    create("dlq");
    createSource("src", "dlq", 1);
    createSource("keep", "dlq", 1); // keeps dlq a dead-letter queue after src is gone
    fillDeadLetterQueue("src", "dlq", 2);
    startTaskOk(arn("dlq"), std::nullopt, 1);
    broker.advance();
    ASSERT_TRUE(broker.deleteQueue("src", "test").ok());
    clock.advance(1'000);
    broker.advance();
    const MoveTaskInfo t = latestTask(arn("dlq"));
    EXPECT_EQ(t.status, MoveTaskStatus::Failed);
    EXPECT_EQ(t.failureReason, kNonExistentQueue);
    EXPECT_EQ(stats("dlq").available, 1);
}

} // namespace
} // namespace inflight::engine
