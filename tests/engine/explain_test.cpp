// The reason behind every outcome (explain.h), from the spec's situations: empty receives by each
// cause (§4.3, §1.3 OverLimit, §5.1 head-of-line blocking, §6.3 channels), message state after a
// visibility timeout (§4.6, C.59) and before the DLQ (§5.4), stale receipts (§4.4, C.75, §6.4),
// blocked FIFO messages (§5.1), and that explaining changes nothing.
#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <cstdio>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

using Cause = EmptyReceiveExplanation::Cause;
using Standing = ReceiptExplanation::Standing;

constexpr Millis kStart = 1'700'000'000'000; // 22:13:20 UTC

class ExplainTest : public EngineTest {
protected:
    ExplainTest() : EngineTest(kStart) { collectEvents(); }

    // A queue named *.fifo is FIFO with ContentBasedDeduplication.
    void create(const std::string& name, StringMap attributes = {}, bool oci = false)
    {
        if (name.ends_with(".fifo")) {
            attributes["FifoQueue"] = "true";
            attributes["ContentBasedDeduplication"] = "true";
        }
        EngineTest::create(
            CreateQueueRequest{.name = name, .attributes = std::move(attributes), .oci = oci});
    }

    MessageKey send(const std::string& queue, const std::string& body,
                    std::optional<std::string> group = {}, std::optional<std::int64_t> delay = {},
                    std::optional<std::string> channel = {})
    {
        const SendResult sent
            = EngineTest::send(SendMessageRequest{.queue = queue,
                                                  .body = body,
                                                  .delaySeconds = delay,
                                                  .groupId = std::move(group),
                                                  .channelId = std::move(channel)});
        return keyOf(queue, sent.messageId);
    }

    MessageKey keyOf(const std::string& queue, const std::string& messageId)
    {
        for (const MessageView& v : peek(queue))
            if (v.messageId == messageId)
                return v.key;
        ADD_FAILURE() << "no message " << messageId;
        return {};
    }

    std::string idOf(const std::string& queue, MessageKey key)
    {
        return broker.peekMessage(queue, key)->messageId;
    }

    std::vector<ReceivedMessage> receive(const std::string& queue, const Origin& origin = {},
                                         std::int64_t visibility = 30, std::int64_t max = 1,
                                         std::optional<std::string> channel = {})
    {
        return EngineTest::receive(ReceiveRequest{.queue = queue,
                                                  .maxMessages = max,
                                                  .visibilityTimeout = visibility,
                                                  .waitTimeSeconds = 0,
                                                  .channelFilter = std::move(channel),
                                                  .origin = origin});
    }

    static ReceiveRequest shortPoll(const std::string& queue)
    {
        ReceiveRequest request;
        request.queue = queue;
        request.waitTimeSeconds = 0;
        return request;
    }

    EmptyReceiveExplanation explainEmpty(const ReceiveRequest& request)
    {
        auto x = broker.explainEmptyReceive(request);
        EXPECT_TRUE(x.ok()) << describe(x.error());
        return x ? *x : EmptyReceiveExplanation{};
    }
};

// ---- formatting ----------------------------------------------------------------------------------

TEST(ExplainFormat, durationsCountInTheLargestUsefulUnits)
{
    const std::vector<std::pair<Millis, std::string>> table = {
        {-5, "0 s"},
        {0, "0 s"},
        {4200, "4.2 s"},
        {10'000, "10 s"},
        {10'040, "10 s"},
        {61'000, "1 min 1 s"},
        {120'000, "2 min"},
        {2 * 3'600'000 + 5 * 60'000, "2 h 5 min"},
        {4 * 86'400'000, "4 d 0 h"},
        {3 * 86'400'000 + 23 * 3'600'000 + 59 * 60'000, "3 d 23 h"},
    };
    for (const auto& [duration, text] : table)
        EXPECT_EQ(formatDuration(duration), text) << duration;
}

TEST(ExplainFormat, clockTimesAreUtcHoursMinutesSeconds)
{
    EXPECT_EQ(formatClockTime(kStart), "22:13:20");
    EXPECT_EQ(formatClockTime(kStart + 2 * 3'600'000 + 999), "00:13:20");
    EXPECT_EQ(formatClockTime(0), "00:00:00");
    EXPECT_EQ(formatClockTime(((9 * 60 + 5) * 60 + 7) * 1000), "09:05:07");
    EXPECT_EQ(formatClockTime(86'399'999), "23:59:59");
    EXPECT_EQ(formatClockTime(86'400'000), "00:00:00");
    EXPECT_EQ(formatClockTime(-1000), "23:59:59");       // before the epoch: the day before's time
    for (Millis t = 0; t < 86'400'000; t += 3'599'000) { // every field's digits, against arithmetic
        const Millis s = t / 1000;
        char expected[9];
        std::snprintf(expected, sizeof expected, "%02d:%02d:%02d", int(s / 3600), int(s / 60 % 60),
                      int(s % 60));
        EXPECT_EQ(formatClockTime(t), expected) << t;
    }
}

// ---- empty receive -------------------------------------------------------------------------------

TEST_F(ExplainTest, emptyReceiveOnAnEmptyQueue)
{
    create("orders");
    const auto x = explainEmpty(shortPoll("orders"));
    EXPECT_EQ(x.cause, Cause::QueueEmpty);
    EXPECT_EQ(x.available + x.inFlight + x.delayed, 0);
    EXPECT_FALSE(x.nextVisibleAt);
    EXPECT_EQ(x.text, "0 available; the queue is empty");
}

TEST_F(ExplainTest, emptyReceiveWhileEverythingIsInFlight)
{
    create("orders");
    send("orders", "a");
    send("orders", "b");
    ASSERT_EQ(receive("orders", "w", 30, 2).size(), 2u);
    advance(25'800);
    const auto x = explainEmpty(shortPoll("orders"));
    EXPECT_EQ(x.cause, Cause::AllInFlight);
    EXPECT_EQ(x.inFlight, 2);
    EXPECT_EQ(x.nextVisibleAt, kStart + 30'000);
    EXPECT_EQ(x.text, "0 available; 2 in flight (next visible in 4.2 s)");
}

TEST_F(ExplainTest, emptyReceiveWhileEverythingIsDelayed)
{
    create("orders");
    send("orders", "later", {}, 10);
    const auto x = explainEmpty(shortPoll("orders"));
    EXPECT_EQ(x.cause, Cause::AllDelayed);
    EXPECT_EQ(x.delayed, 1);
    EXPECT_EQ(x.nextDeliverAt, kStart + 10'000);
    EXPECT_EQ(x.text, "0 available; 1 delayed (next in 10 s)");
}

TEST_F(ExplainTest, emptyReceiveWithTwelveInFlightAndThreeDelayed)
{
    create("orders");
    for (int i = 0; i < 12; ++i)
        send("orders", "m" + std::to_string(i));
    ASSERT_EQ(receive("orders", "w", 30, 10).size(), 10u);
    ASSERT_EQ(receive("orders", "w", 30, 10).size(), 2u);
    advance(25'800);
    for (int i = 0; i < 3; ++i)
        send("orders", "d" + std::to_string(i), {}, 10);
    const auto x = explainEmpty(shortPoll("orders"));
    EXPECT_EQ(x.cause, Cause::InFlightAndDelayed);
    EXPECT_EQ(x.available, 0);
    EXPECT_EQ(x.inFlight, 12);
    EXPECT_EQ(x.delayed, 3);
    EXPECT_EQ(x.nextVisibleAt, kStart + 30'000);
    EXPECT_EQ(x.nextDeliverAt, kStart + 25'800 + 10'000);
    EXPECT_EQ(x.text,
              "0 available; 12 in flight (next visible in 4.2 s); 3 delayed (next in 10 s)");
}

TEST_F(ExplainTest, emptyReceiveWhenFifoGroupsAreBlockedByInFlightHeads)
{
    create("orders.fifo");
    send("orders.fifo", "a1", "A");
    send("orders.fifo", "a2", "A");
    send("orders.fifo", "b1", "B");
    send("orders.fifo", "b2", "B");
    send("orders.fifo", "b3", "B");
    ASSERT_EQ(receive("orders.fifo", "w", 30, 1).at(0).body, "a1");
    ASSERT_EQ(receive("orders.fifo", "w", 30, 1).at(0).body, "b1");
    EXPECT_TRUE(receive("orders.fifo").empty());
    const auto x = explainEmpty(shortPoll("orders.fifo"));
    EXPECT_EQ(x.cause, Cause::FifoGroupsBlocked);
    EXPECT_EQ(x.available, 3);
    EXPECT_EQ(x.blockingGroups, (std::vector<std::string>{"A", "B"}));
    EXPECT_EQ(x.text,
              "3 available, all behind in-flight heads of groups A, B (next visible in 30 s)");
}

TEST_F(ExplainTest, emptyReceiveAtTheInFlightLimitShortAndLongPoll)
{
    BrokerOptions options;
    options.inFlightLimitStandard = 2;
    restart(options);
    create("orders");
    for (const char* body : {"a", "b", "c"})
        send("orders", body);
    ASSERT_EQ(receive("orders", "w", 30, 2).size(), 2u);
    auto request = shortPoll("orders");
    ASSERT_EQ(broker.receiveMessage(request).error().code, ErrorCode::OverLimit); // §1.3
    auto x = explainEmpty(request);
    EXPECT_EQ(x.cause, Cause::InFlightLimit);
    EXPECT_EQ(x.inFlightLimit, 2);
    EXPECT_EQ(x.available, 1);
    EXPECT_EQ(x.text,
              "in-flight limit reached: 2 in flight, limit 2 (next visible in 30 s); 1 "
              "available held back; a short poll fails with OverLimit");
    request.waitTimeSeconds = 20;
    x = explainEmpty(request);
    EXPECT_EQ(x.longPollWait, 20'000);
    EXPECT_EQ(x.text,
              "in-flight limit reached: 2 in flight, limit 2 (next visible in 30 s); 1 "
              "available held back; a long poll of 20 s ends empty instead of OverLimit");
}

TEST_F(ExplainTest, emptyReceiveAfterALongPollTimedOut)
{
    create("orders");
    ReceiveRequest request = shortPoll("orders");
    request.waitTimeSeconds = 20;
    std::optional<Result<ReceiveResult>> answer;
    broker.receiveMessageAsync(request, [&](Result<ReceiveResult> r) { answer = std::move(r); });
    advance(20'000);
    ASSERT_TRUE(answer && answer->ok() && (*answer)->messages.empty());
    const auto x = explainEmpty(request);
    EXPECT_EQ(x.cause, Cause::QueueEmpty);
    EXPECT_EQ(x.longPollWait, 20'000);
    EXPECT_EQ(x.text,
              "0 available; the queue is empty; a long poll of 20 s ends empty unless one becomes "
              "receivable");
}

TEST_F(ExplainTest, emptyReceiveWithAnOciChannelFilter)
{
    create("jobs", {}, true);
    send("jobs", "a1", {}, {}, "a");
    send("jobs", "c1", {}, {}, "c");
    send("jobs", "c2", {}, {}, "c");
    ASSERT_EQ(receive("jobs", "w", 30, 1, "a").size(), 1u);
    ReceiveRequest request = shortPoll("jobs");
    request.channelFilter = "a";
    auto x = explainEmpty(request);
    EXPECT_EQ(x.cause, Cause::ChannelEmpty);
    EXPECT_EQ(x.channel, "a");
    EXPECT_EQ(x.inFlight, 1);
    EXPECT_EQ(x.availableElsewhere, 2);
    EXPECT_EQ(x.text, "channel `a`: 0 available; 1 in flight; 2 available in other channels");
    request.channelFilter = "b";
    x = explainEmpty(request);
    EXPECT_EQ(x.cause, Cause::ChannelEmpty);
    EXPECT_EQ(x.text, "channel `b` is empty; 2 available in other channels");
    request.channelFilter = "c";
    x = explainEmpty(request);
    EXPECT_EQ(x.cause, Cause::NotEmpty);
    EXPECT_EQ(x.text, "channel `c`: 2 available: a receive now returns messages");
}

TEST_F(ExplainTest, receiveThatWouldReturnMessagesIsNotEmpty)
{
    create("orders");
    send("orders", "a");
    const auto x = explainEmpty(shortPoll("orders"));
    EXPECT_EQ(x.cause, Cause::NotEmpty);
    EXPECT_EQ(x.text, "1 available: a receive now returns messages");
}

TEST_F(ExplainTest, emptyReceiveExplanationValidatesLikeAReceive)
{
    create("orders");
    ReceiveRequest request = shortPoll("orders");
    request.maxMessages = 11;
    EXPECT_EQ(broker.explainEmptyReceive(request).error().code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(broker.explainEmptyReceive(shortPoll("nope")).error().code,
              ErrorCode::QueueDoesNotExist);
}

// ---- message state -------------------------------------------------------------------------------

TEST_F(ExplainTest, messageVisibleAgainAfterTheVisibilityTimeoutOfTheSecondReceive)
{
    create("orders");
    const MessageKey key = send("orders", "m");
    receive("orders", "other-worker");
    advance(30'000);
    receive("orders", "orders-worker"); // receive #2 at 22:13:50
    advance(30'000);
    const auto x = broker.explainMessage("orders", key);
    ASSERT_TRUE(x.ok());
    EXPECT_EQ(x->state, MessageState::Available);
    EXPECT_EQ(x->returnCause, ReturnCause::VisibilityExpired);
    EXPECT_EQ(x->visibleSince, kStart + 60'000);
    EXPECT_EQ(x->receiveCount, 2u);
    EXPECT_EQ(x->lastReceiveOrigin, "orders-worker");
    EXPECT_EQ(x->lastReceivedAt, kStart + 30'000);
    EXPECT_EQ(x->lastVisibilityTimeout, 30'000);
    EXPECT_EQ(x->expiresAt, kStart + 4 * 86'400'000);
    EXPECT_EQ(x->text,
              "visible again since 22:14:20: the 30 s visibility timeout of receive #2 "
              "(client `orders-worker`) ran out without a delete; retained until "
              "2023-11-18 22:13:20 (in 3 d 23 h)");
}

TEST_F(ExplainTest, messageInFlightNamesTheReceiveThatHoldsIt)
{
    create("orders");
    const MessageKey key = send("orders", "m");
    receive("orders", "orders-worker");
    const auto x = broker.explainMessage("orders", key);
    EXPECT_EQ(x->state, MessageState::InFlight);
    EXPECT_EQ(x->visibleAt, kStart + 30'000);
    EXPECT_EQ(x->text,
              "in flight until 22:13:50 (in 30 s): receive #1 (client `orders-worker`) "
              "at 22:13:20; retained until 2023-11-18 22:13:20 (in 4 d 0 h)");
}

TEST_F(ExplainTest, messageDelayedUntilItsDelayEnds)
{
    create("orders");
    const MessageKey key = send("orders", "m", {}, 10);
    const auto x = broker.explainMessage("orders", key);
    EXPECT_EQ(x->state, MessageState::Delayed);
    EXPECT_EQ(x->deliverAt, kStart + 10'000);
    EXPECT_EQ(x->text,
              "delayed until 22:13:30 (in 10 s); retained until 2023-11-18 22:13:20 (in 4 d 0 h)");
}

TEST_F(ExplainTest, messageReleasedWithVisibilityZero)
{
    create("orders");
    const MessageKey key = send("orders", "m");
    const auto received = receive("orders", "w");
    advance(5'000);
    ASSERT_TRUE(
        broker.changeMessageVisibility("orders", received.at(0).receiptHandle, 0, "test").ok());
    const auto x = broker.explainMessage("orders", key);
    EXPECT_EQ(x->returnCause, ReturnCause::Released);
    EXPECT_EQ(x->visibleSince, kStart + 5'000);
    EXPECT_EQ(x->text,
              "visible again since 22:13:25: the visibility timeout of receive #1 (client "
              "`w`) was set to 0 after 5 s; retained until 2023-11-18 22:13:20 (in 3 d 23 h)");
}

TEST_F(ExplainTest, messageThatTheNextReceiveMovesToTheDeadLetterQueue)
{
    create("orders-dlq");
    create("orders",
           {{"RedrivePolicy",
             R"({"deadLetterTargetArn":")" + broker.arnForName("orders-dlq")
                 + R"(","maxReceiveCount":3})"}});
    const MessageKey key = send("orders", "m");
    for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(receive("orders", "w", 1).size(), 1u);
        advance(1'000);
    }
    auto x = broker.explainMessage("orders", key);
    EXPECT_EQ(x->maxReceiveCount, 3);
    EXPECT_EQ(x->deadLetterQueue, "orders-dlq");
    EXPECT_TRUE(x->movesToDeadLetterOnNextReceive);
    EXPECT_EQ(x->text,
              "visible again since 22:13:23: the 1 s visibility timeout of receive #3 "
              "(client `w`) ran out without a delete; 3 of 3 receives used: the next "
              "receive moves it to `orders-dlq`; retained until 2023-11-18 22:13:20 (in 3 d 23 h)");

    EXPECT_TRUE(receive("orders", "w").empty()); // moved instead (§5.4)
    const auto moved = std::find_if(events.begin(), events.end(), [](const Event& e) {
        return e.kind == EventKind::MovedToDeadLetterQueue;
    });
    ASSERT_NE(moved, events.end());
    x = broker.explainMessage("orders-dlq", moved->relatedKey);
    ASSERT_TRUE(x.ok());
    EXPECT_EQ(x->messageId, moved->messageId); // the same message id in its new life
    EXPECT_EQ(x->deadLetterSourceQueue, "orders");
    EXPECT_EQ(x->returnCause, ReturnCause::MovedHere);
    EXPECT_EQ(x->text,
              "available since 22:13:23: moved here as a dead letter from `orders` after "
              "3 receives; retained until 2023-11-18 22:13:20 (in 3 d 23 h)");
}

TEST_F(ExplainTest, fewerReceivesThanTheMaximumCountTowardsTheDeadLetterQueue)
{
    create("orders-dlq");
    create("orders",
           {{"RedrivePolicy",
             R"({"deadLetterTargetArn":")" + broker.arnForName("orders-dlq")
                 + R"(","maxReceiveCount":3})"}});
    const MessageKey key = send("orders", "m");
    receive("orders");
    const auto x = broker.explainMessage("orders", key);
    EXPECT_FALSE(x->movesToDeadLetterOnNextReceive);
    EXPECT_EQ(x->text,
              "in flight until 22:13:50 (in 30 s): receive #1 at 22:13:20; 1 of 3 "
              "receives used before `orders-dlq`; retained until 2023-11-18 22:13:20 (in 4 d 0 h)");
}

TEST_F(ExplainTest, ociDeadLetterLinksToItsQueue)
{
    create("jobs", {{"deadLetterQueueDeliveryCount", "1"}}, true);
    send("jobs", "m");
    ASSERT_EQ(receive("jobs", "w", 1).size(), 1u);
    advance(1'000);
    EXPECT_TRUE(receive("jobs", "w").empty());
    const std::string dlq = broker.queueView("jobs")->deadLetterTarget;
    const auto moved = broker.peekMessages(dlq);
    ASSERT_EQ(moved->size(), 1u);
    const auto x = broker.explainMessage(dlq, moved->at(0).key);
    EXPECT_EQ(x->deadLetterSourceQueue, "jobs");
    EXPECT_EQ(x->text.rfind("available since 22:13:21: moved here as a dead letter from `jobs` "
                            "after 1 receives; retained until",
                            0),
              0u)
        << x->text;
}

TEST_F(ExplainTest, explainingAMessageThatIsGoneIsResourceNotFound)
{
    create("orders");
    const MessageKey key = send("orders", "m");
    ASSERT_TRUE(broker.deleteMessage("orders", receive("orders").at(0).receiptHandle, "test").ok());
    EXPECT_EQ(broker.explainMessage("orders", key).error().code, ErrorCode::ResourceNotFound);
}

// ---- blocked FIFO messages -----------------------------------------------------------------------

TEST_F(ExplainTest, fifoMessageBlockedBehindItsInFlightHead)
{
    create("orders.fifo");
    const MessageKey a1 = send("orders.fifo", "a1", "A");
    const MessageKey a2 = send("orders.fifo", "a2", "A");
    send("orders.fifo", "b1", "B");
    ASSERT_EQ(receive("orders.fifo", "orders-worker", 30, 1).at(0).body, "a1");
    const std::string head = idOf("orders.fifo", a1);

    const auto blocked = broker.blockedMessages("orders.fifo");
    ASSERT_TRUE(blocked.ok());
    ASSERT_EQ(blocked->size(), 1u);
    const BlockedMessage& b = blocked->at(0);
    EXPECT_EQ(b.key, a2);
    EXPECT_EQ(b.groupId, "A");
    EXPECT_EQ(b.blockerKey, a1);
    EXPECT_EQ(b.blockerMessageId, head);
    EXPECT_EQ(b.blockerState, MessageState::InFlight);
    EXPECT_EQ(b.blockedUntil, kStart + 30'000);
    EXPECT_EQ(b.blockerReceive, 1u);
    EXPECT_EQ(b.blockerOrigin, "orders-worker");
    EXPECT_EQ(b.text,
              "blocked behind message " + head
                  + " of group `A`, in flight until 22:13:50 (in 30 s) by receive #1 "
                    "(client `orders-worker`)");

    const auto x = broker.explainMessage("orders.fifo", a2);
    ASSERT_TRUE(x->blockedBy);
    EXPECT_EQ(x->blockedBy->blockerKey, a1);
    EXPECT_EQ(x->text,
              "available, never received; " + b.text
                  + "; retained until 2023-11-18 22:13:20 (in 4 d 0 h)");
}

TEST_F(ExplainTest, fifoMessageBlockedBehindAnExtendedMiddleMessage)
{
    // §5.1: A, B, C received together, B extended, A and C expired: the next receive returns
    // only A; C stays blocked behind B.
    create("orders.fifo");
    send("orders.fifo", "a", "g");
    const MessageKey b = send("orders.fifo", "b", "g");
    const MessageKey c = send("orders.fifo", "c", "g");
    const auto received = receive("orders.fifo", "w", 1, 3);
    ASSERT_EQ(received.size(), 3u);
    ASSERT_TRUE(
        broker.changeMessageVisibility("orders.fifo", received[1].receiptHandle, 10, "test").ok());
    advance(1'000);
    const auto blocked = broker.blockedMessages("orders.fifo");
    ASSERT_EQ(blocked->size(), 1u);
    EXPECT_EQ(blocked->at(0).key, c);
    EXPECT_EQ(blocked->at(0).blockerKey, b);
    EXPECT_EQ(blocked->at(0).blockedUntil, kStart + 10'000);
}

TEST_F(ExplainTest, standardQueuesHaveNoBlockedMessages)
{
    create("orders");
    send("orders", "a");
    receive("orders");
    send("orders", "b");
    EXPECT_TRUE(broker.blockedMessages("orders")->empty());
}

// ---- receipts --------------------------------------------------------------------------------------

TEST_F(ExplainTest, staleReceiptOnAStandardQueueStillDeletes)
{
    create("orders");
    const MessageKey key = send("orders", "m");
    const std::string first = receive("orders", "a").at(0).receiptHandle;
    advance(30'000);
    receive("orders", "b");
    const auto x = broker.explainReceipt("orders", first);
    ASSERT_TRUE(x.ok());
    EXPECT_EQ(x->standing, Standing::Stale);
    EXPECT_EQ(x->receive, 1u);
    EXPECT_EQ(x->latestReceive, 2u);
    EXPECT_EQ(x->key, key);
    EXPECT_EQ(x->latestReceiveOrigin, "b");
    EXPECT_EQ(x->latestReceivedAt, kStart + 30'000);
    EXPECT_TRUE(x->deleteSucceeds);
    EXPECT_TRUE(x->deleteRemoves);
    EXPECT_EQ(x->text(),
              "receipt of receive #1, used after receive #2 (client `b`) at 22:13:50; "
              "standard queues accept it: a delete with it deletes the message");
    EXPECT_EQ(x->standingText(),
              "receipt of receive #1, used after receive #2 (client `b`) at "
              "22:13:50")
        << "the text without what a delete does";
    // What it says is what happens (C.75).
    ASSERT_TRUE(broker.deleteMessage("orders", first, "test").ok());
    EXPECT_EQ(broker.queueStats("orders")->inFlight, 0);
}

TEST_F(ExplainTest, staleReceiptInStrictModeSucceedsButKeepsTheMessage)
{
    BrokerOptions options;
    options.staleReceiptDeletes = false;
    restart(options);
    create("orders");
    send("orders", "m");
    const std::string first = receive("orders", "a").at(0).receiptHandle;
    advance(30'000);
    receive("orders", "b");
    const auto x = broker.explainReceipt("orders", first);
    EXPECT_TRUE(x->deleteSucceeds);
    EXPECT_FALSE(x->deleteRemoves);
    EXPECT_EQ(x->text(),
              "receipt of receive #1, used after receive #2 (client `b`) at 22:13:50; "
              "standard queues accept it: a delete with it succeeds but keeps the "
              "message");
}

TEST_F(ExplainTest, staleReceiptOnAFifoQueueIsRejected)
{
    create("orders.fifo");
    send("orders.fifo", "m", "g");
    const std::string first = receive("orders.fifo", "a").at(0).receiptHandle;
    advance(30'000);
    receive("orders.fifo", "b");
    const auto x = broker.explainReceipt("orders.fifo", first);
    EXPECT_EQ(x->standing, Standing::Stale);
    EXPECT_FALSE(x->deleteSucceeds);
    EXPECT_EQ(x->deleteError, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(x->text(),
              "receipt of receive #1, used after receive #2 (client `b`) at 22:13:50; FIFO "
              "queues reject it: a delete fails with InvalidParameterValue (the receipt "
              "handle has expired)");
    EXPECT_EQ(broker.deleteMessage("orders.fifo", first, "test").error().code,
              ErrorCode::InvalidParameterValue);
}

TEST_F(ExplainTest, staleReceiptOnAnOciQueueIsRejected)
{
    create("jobs", {}, true);
    send("jobs", "m");
    const std::string first = receive("jobs", "a").at(0).receiptHandle;
    advance(30'000);
    receive("jobs", "b");
    const auto x = broker.explainReceipt("jobs", first);
    EXPECT_EQ(x->deleteError, ErrorCode::ResourceNotFound);
    EXPECT_EQ(x->text(),
              "receipt of receive #1, used after receive #2 (client `b`) at 22:13:50; OCI "
              "queues reject it: the message was delivered again");
    EXPECT_EQ(broker.deleteMessage("jobs", first, "test").error().code,
              ErrorCode::ResourceNotFound);
}

TEST_F(ExplainTest, aBatchOfReceiptsIsExplainedAsEachOneIs)
{
    create("orders");
    create("other");
    send("orders", "m1");
    send("orders", "m2");
    send("other", "m3");
    const auto received = receive("orders", "a");
    ASSERT_FALSE(received.empty());
    const std::string current = received.at(0).receiptHandle;
    const std::string foreign = receive("other", "a").at(0).receiptHandle;
    send("orders", "m4");
    const std::string deleted = receive("orders", "b").at(0).receiptHandle;
    ASSERT_TRUE(broker.deleteMessage("orders", deleted, "test").ok());
    const std::vector<std::string_view> handles
        = {current, foreign, deleted, "not a handle", current};
    const auto batch = broker.explainReceipts("orders", handles);
    ASSERT_TRUE(batch.ok());
    ASSERT_EQ(batch->size(), handles.size());
    for (std::size_t i = 0; i < handles.size(); ++i) {
        const auto one = broker.explainReceipt("orders", handles[i]);
        ASSERT_TRUE(one.ok());
        EXPECT_EQ((*batch)[i].standing, one->standing) << i;
        EXPECT_EQ((*batch)[i].text(), one->text()) << i;
    }
    EXPECT_EQ((*batch)[0].standing, Standing::Current);
    EXPECT_EQ((*batch)[1].standing, Standing::OtherQueue);
    EXPECT_EQ((*batch)[2].standing, Standing::MessageGone);
    EXPECT_EQ(broker.explainReceipts("missing", handles).error().code,
              ErrorCode::QueueDoesNotExist);
}

TEST_F(ExplainTest, currentReceiptDeletes)
{
    create("orders");
    send("orders", "m");
    const std::string handle = receive("orders", "a").at(0).receiptHandle;
    const auto x = broker.explainReceipt("orders", handle);
    EXPECT_EQ(x->standing, Standing::Current);
    EXPECT_EQ(x->text(),
              "receipt of receive #1 (client `a`), the latest; in flight until 22:13:50 "
              "(in 30 s); a delete with it deletes the message");
}

TEST_F(ExplainTest, lapsedReceiptOnAStandardAndAFifoQueue)
{
    create("orders");
    create("orders.fifo");
    send("orders", "m");
    send("orders.fifo", "m", "g");
    const std::string standard = receive("orders", "a").at(0).receiptHandle;
    const std::string fifo = receive("orders.fifo", "a").at(0).receiptHandle;
    advance(30'000);
    auto x = broker.explainReceipt("orders", standard);
    EXPECT_EQ(x->standing, Standing::Lapsed);
    EXPECT_EQ(x->text(),
              "receipt of receive #1 (client `a`), the latest, but its visibility timeout "
              "ran out at 22:13:50; standard queues accept it: a delete with it deletes "
              "the message");
    x = broker.explainReceipt("orders.fifo", fifo);
    EXPECT_EQ(x->deleteError, ErrorCode::InvalidParameterValue); // §4.4
    EXPECT_EQ(x->text(),
              "receipt of receive #1 (client `a`), the latest, but its visibility timeout "
              "ran out at 22:13:50; FIFO queues reject it: a delete fails with "
              "InvalidParameterValue (the receipt handle has expired)");
}

TEST_F(ExplainTest, receiptOfADeletedMessage)
{
    create("orders");
    send("orders", "m");
    const std::string handle = receive("orders").at(0).receiptHandle;
    ASSERT_TRUE(broker.deleteMessage("orders", handle, "test").ok());
    const auto x = broker.explainReceipt("orders", handle);
    EXPECT_EQ(x->standing, Standing::MessageGone);
    EXPECT_TRUE(x->deleteSucceeds);
    EXPECT_EQ(x->text(),
              "receipt of receive #1 of a message no longer in the queue (deleted, moved, "
              "expired or purged); a delete with it succeeds and changes nothing");
    EXPECT_EQ(x->standingText(),
              "receipt of receive #1 of a message no longer in the queue (deleted, moved, "
              "expired or purged)");
}

TEST_F(ExplainTest, receiptThatIsNotOursOrOfAnotherQueue)
{
    create("orders");
    create("other");
    send("other", "m");
    const std::string handle = receive("other").at(0).receiptHandle;
    auto x = broker.explainReceipt("orders", handle);
    EXPECT_EQ(x->standing, Standing::OtherQueue);
    EXPECT_EQ(x->otherQueue, "other");
    EXPECT_EQ(x->deleteError, ErrorCode::ReceiptHandleIsInvalid);
    EXPECT_EQ(x->text(), "receipt of receive #1 of queue `other`, not of `orders`");
    EXPECT_EQ(x->standingText(), x->text());
    x = broker.explainReceipt("orders", "garbage");
    EXPECT_EQ(x->standing, Standing::NotAHandle);
    EXPECT_EQ(x->deleteError, ErrorCode::ReceiptHandleIsInvalid);
    EXPECT_EQ(x->text(),
              "not a receipt handle of this engine (malformed, edited, or from another broker)");
}

// ---- side effects and persistence ----------------------------------------------------------------

TEST_F(ExplainTest, explainingChangesNothingAndEmitsNoEvents)
{
    create("orders.fifo");
    const MessageKey a1 = send("orders.fifo", "a1", "A");
    const MessageKey a2 = send("orders.fifo", "a2", "A");
    const std::string handle = receive("orders.fifo", "w").at(0).receiptHandle;
    advance(1'000);
    const std::size_t eventsBefore = events.size();
    const auto before = broker.messageRecord("orders.fifo", a1);
    const auto statsBefore = broker.queueStats("orders.fifo");
    const Millis nextDeadline = broker.nextDeadline();

    ASSERT_TRUE(broker.explainEmptyReceive(shortPoll("orders.fifo")).ok());
    ASSERT_TRUE(broker.explainMessage("orders.fifo", a1).ok());
    ASSERT_TRUE(broker.explainMessage("orders.fifo", a2).ok());
    ASSERT_TRUE(broker.explainReceipt("orders.fifo", handle).ok());
    ASSERT_TRUE(broker.blockedMessages("orders.fifo").ok());

    EXPECT_EQ(events.size(), eventsBefore);
    const auto after = broker.messageRecord("orders.fifo", a1);
    EXPECT_EQ(after->receiveCount, before->receiveCount);
    EXPECT_EQ(after->deadline, before->deadline);
    EXPECT_EQ(after->state, before->state);
    EXPECT_EQ(after->receiptNonce, before->receiptNonce);
    EXPECT_EQ(broker.queueStats("orders.fifo")->received, statsBefore->received);
    EXPECT_EQ(broker.nextDeadline(), nextDeadline);
    EXPECT_EQ(broker.explainReceipt("orders.fifo", handle)->standing, Standing::Current);
}

TEST_F(ExplainTest, snapshotCarriesTheLastReceiveAndHowTheMessageCameBack)
{
    create("orders");
    const MessageKey key = send("orders", "m");
    receive("orders", "orders-worker");
    advance(30'000);
    const auto record = broker.messageRecord("orders", key);
    EXPECT_EQ(record->lastReceiveOrigin, "orders-worker");
    EXPECT_EQ(record->returnCause, ReturnCause::VisibilityExpired);
    const std::string text = broker.explainMessage("orders", key)->text;

    Broker restored(clock);
    ASSERT_TRUE(restored.restoreBroker(broker.brokerRecord()).ok());
    ASSERT_TRUE(restored.restoreQueue(*broker.queueRecord("orders")).ok());
    ASSERT_TRUE(restored.restoreMessage("orders", *record).ok());
    restored.finishRestore();
    EXPECT_EQ(restored.explainMessage("orders", key)->text, text);
}

} // namespace
} // namespace inflight::engine
