// Time, notification and looking (ARCHITECTURE "Engine"; spec §7A): the manual and simulated
// clocks, nextDeadline()/advance() with events stamped at their deadlines, the event stream (one
// kind per state change, with queue, message, time and origin), the monotonic counters, and peek
// views that change nothing.

#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

constexpr Millis kStart = 1'700'000'000'000;

// Collects what the sink receives, batch by batch.
struct EventLog {
    std::vector<std::vector<Event>> batches;

    void attach(Broker& broker)
    {
        broker.setEventSink([this](std::span<const Event> events) {
            batches.emplace_back(events.begin(), events.end());
        });
    }
    std::vector<Event> all() const
    {
        std::vector<Event> result;
        for (const auto& batch : batches)
            result.insert(result.end(), batch.begin(), batch.end());
        return result;
    }
    std::vector<Event> ofKind(EventKind kind) const
    {
        std::vector<Event> result;
        for (const Event& e : all())
            if (e.kind == kind)
                result.push_back(e);
        return result;
    }
    std::vector<EventKind> kinds() const
    {
        std::vector<EventKind> result;
        for (const Event& e : all())
            result.push_back(e.kind);
        return result;
    }
    void clear() { batches.clear(); }
};

std::string kindNames(const std::vector<EventKind>& kinds)
{
    std::string text;
    for (EventKind k : kinds)
        text += std::string(eventKindName(k)) + " ";
    return text;
}

class Engine : public EngineTest {
protected:
    EventLog log;

    // A source queue "src" whose DLQ "dlq" takes a message on the receive after its first.
    void createWithDeadLetterQueue()
    {
        create("dlq");
        create("src",
               {{"RedrivePolicy",
                 R"({"deadLetterTargetArn":")" + broker.arnForName("dlq")
                     + R"(","maxReceiveCount":1})"}});
    }
};

// ---- clocks ------------------------------------------------------------------------------------

TEST(ManualClockTest, startsAtTheFixedEpochAndMovesOnlyByHand)
{
    ManualClock clock;
    EXPECT_EQ(clock.now(), kStart);
    EXPECT_EQ(clock.now(), kStart);
    clock.advance(0);
    EXPECT_EQ(clock.now(), kStart);
    clock.advance(1500);
    EXPECT_EQ(clock.now(), kStart + 1500);
    clock.set(kStart + 10'000);
    EXPECT_EQ(clock.now(), kStart + 10'000);
}

// A real-time source the test moves by hand.
struct FakeRealTime {
    Millis now = 5'000'000;
    SimulatedClock::RealTimeSource source()
    {
        return [this] { return now; };
    }
};

TEST(SimulatedClockTest, followsRealTimeAtSpeedOne)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    EXPECT_EQ(clock.now(), kStart);
    EXPECT_FALSE(clock.paused());
    EXPECT_EQ(clock.speed(), 1.0);
    real.now += 1234;
    EXPECT_EQ(clock.now(), kStart + 1234);
}

TEST(SimulatedClockTest, runsTenTimesFasterAtSpeedTen)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    clock.setSpeed(10);
    real.now += 1000;
    EXPECT_EQ(clock.now(), kStart + 10'000);
}

TEST(SimulatedClockTest, runsSixtyTimesFasterAtSpeedSixty)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    clock.setSpeed(60);
    real.now += 1000;
    EXPECT_EQ(clock.now(), kStart + 60'000);
    real.now += 500;
    EXPECT_EQ(clock.now(), kStart + 90'000);
}

TEST(SimulatedClockTest, pauseStopsEngineTime)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    real.now += 100;
    clock.pause();
    EXPECT_TRUE(clock.paused());
    real.now += 60'000;
    EXPECT_EQ(clock.now(), kStart + 100);
}

TEST(SimulatedClockTest, resumeContinuesWithoutAJump)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    clock.setSpeed(10);
    real.now += 100; // +1000 engine
    clock.pause();
    real.now += 60'000;
    clock.resume();
    EXPECT_FALSE(clock.paused());
    EXPECT_EQ(clock.now(), kStart + 1000);
    real.now += 10;
    EXPECT_EQ(clock.now(), kStart + 1100);
}

// The session serves a deadline its timer came late for at the deadline's own engine time.
TEST(SimulatedClockTest, holdKeepsEngineTimeAtADeadlineUntilReleased)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    clock.setSpeed(60);
    real.now += 10; // engine time would be kStart + 600
    EXPECT_EQ(clock.holdAt(kStart + 540), kStart + 540);
    EXPECT_EQ(clock.now(), kStart + 540);
    real.now += 5; // real time goes on while held
    EXPECT_EQ(clock.now(), kStart + 540);
    EXPECT_EQ(clock.holdAt(kStart + 570), kStart + 570); // the next deadline on the way
    clock.release();
    EXPECT_EQ(clock.now(), kStart + 900); // real time again, none of it lost
}

TEST(SimulatedClockTest, holdNeverTakesTimeBackward)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    clock.setSpeed(60);
    real.now += 10;
    EXPECT_EQ(clock.now(), kStart + 600); // someone looked at the clock before the deadline ran
    EXPECT_EQ(clock.holdAt(kStart + 540), kStart + 600);
    EXPECT_EQ(clock.now(), kStart + 600);
    clock.release();
    EXPECT_EQ(clock.now(), kStart + 600);
}

TEST(SimulatedClockTest, holdPastRealTimeIsRealTime)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    real.now += 10;
    EXPECT_EQ(clock.holdAt(kStart + 50), kStart + 10); // not due yet: a hold never runs ahead
    clock.release();
}

TEST(SimulatedClockTest, stepAddsEngineTimeWhilePaused)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    clock.pause();
    clock.step(30'000);
    EXPECT_EQ(clock.now(), kStart + 30'000);
    EXPECT_TRUE(clock.paused());
    real.now += 5000;
    EXPECT_EQ(clock.now(), kStart + 30'000);
    clock.resume();
    real.now += 1;
    EXPECT_EQ(clock.now(), kStart + 30'001);
}

TEST(SimulatedClockTest, stepAddsEngineTimeWhileRunning)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    clock.setSpeed(2);
    real.now += 100;
    clock.step(30'000);
    EXPECT_EQ(clock.now(), kStart + 200 + 30'000);
    real.now += 100;
    EXPECT_EQ(clock.now(), kStart + 400 + 30'000);
}

TEST(SimulatedClockTest, setSpeedKeepsEngineTimeContinuous)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    real.now += 1000;
    clock.setSpeed(10);
    EXPECT_EQ(clock.speed(), 10.0);
    EXPECT_EQ(clock.now(), kStart + 1000);
    real.now += 100;
    EXPECT_EQ(clock.now(), kStart + 2000);
    clock.setSpeed(1);
    EXPECT_EQ(clock.now(), kStart + 2000);
    real.now += 100;
    EXPECT_EQ(clock.now(), kStart + 2100);
}

TEST(SimulatedClockTest, setSpeedWhilePausedAppliesAfterResume)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    clock.pause();
    real.now += 500;
    clock.setSpeed(60);
    EXPECT_EQ(clock.now(), kStart);
    real.now += 500;
    clock.resume();
    EXPECT_EQ(clock.now(), kStart);
    real.now += 10;
    EXPECT_EQ(clock.now(), kStart + 600);
}

TEST(SimulatedClockTest, neverGoesBackwardsWhenTheRealSourceStutters)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    real.now += 1000;
    EXPECT_EQ(clock.now(), kStart + 1000);
    real.now -= 300;
    EXPECT_EQ(clock.now(), kStart + 1000);
}

TEST(SimulatedClockTest, realDelayUntilScalesBySpeed)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    EXPECT_EQ(clock.realDelayUntil(kStart + 1000), 1000);
    clock.setSpeed(10);
    EXPECT_EQ(clock.realDelayUntil(kStart + 10'000), 1000);
    EXPECT_EQ(clock.realDelayUntil(kStart), 0);
    EXPECT_EQ(clock.realDelayUntil(kStart - 5), 0);
    clock.setSpeed(60);
    // Never early: after the delay, engine time has reached the target.
    const Millis delay = clock.realDelayUntil(kStart + 61);
    EXPECT_EQ(delay, 2);
    real.now += delay;
    EXPECT_GE(clock.now(), kStart + 61);
}

TEST(SimulatedClockTest, realDelayUntilNoDeadlineIsNoDeadline)
{
    // The host feeds nextDeadline() (kNoDeadline when idle) straight into realDelayUntil().
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    EXPECT_EQ(clock.realDelayUntil(kNoDeadline), kNoDeadline);
    clock.setSpeed(0.5);
    EXPECT_EQ(clock.realDelayUntil(kNoDeadline), kNoDeadline);
    clock.setSpeed(60);
    EXPECT_EQ(clock.realDelayUntil(kNoDeadline), kNoDeadline);
}

TEST(SimulatedClockTest, realDelayUntilIsNoDeadlineWhilePaused)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    clock.pause();
    EXPECT_EQ(clock.realDelayUntil(kStart + 1), kNoDeadline);
    EXPECT_EQ(clock.realDelayUntil(kStart), 0);
}

TEST(SimulatedClockTest, drivesTheBrokerAtItsSpeed)
{
    FakeRealTime real;
    SimulatedClock clock(real.source(), kStart);
    clock.setSpeed(60);
    Broker broker(clock);
    ASSERT_TRUE(broker.createQueue({.name = "q"}).ok());
    SendMessageRequest send;
    send.queue = "q";
    send.body = "m";
    ASSERT_TRUE(broker.sendMessage(send).ok());
    ReceiveRequest receive;
    receive.queue = "q";
    ASSERT_EQ(broker.receiveMessage(receive)->messages.size(), 1u);
    EXPECT_EQ(clock.realDelayUntil(broker.nextDeadline()), 500); // 30 s of visibility at 60x
    real.now += 499;
    EXPECT_TRUE(broker.receiveMessage(receive)->messages.empty());
    real.now += 1;
    EXPECT_EQ(broker.receiveMessage(receive)->messages.size(), 1u);
    clock.pause();
    real.now += 3'600'000;
    EXPECT_EQ(clock.realDelayUntil(broker.nextDeadline()), kNoDeadline);
}

// ---- nextDeadline ------------------------------------------------------------------------------

TEST_F(Engine, nextDeadlineIsNoneOnAnIdleBroker)
{
    EXPECT_EQ(broker.nextDeadline(), kNoDeadline);
    create("q");
    EXPECT_EQ(broker.nextDeadline(), kNoDeadline);
    send("q", "m");
    auto got = receive("q");
    ASSERT_EQ(got.size(), 1u);
    ASSERT_TRUE(broker.deleteMessage("q", got[0].receiptHandle, "test").ok());
    EXPECT_EQ(broker.nextDeadline(), kNoDeadline);
}

TEST_F(Engine, nextDeadlineIsTheEndOfADelay)
{
    create("q");
    send("q", "m", 10);
    EXPECT_EQ(broker.nextDeadline(), kStart + 10 * kSecond);
}

TEST_F(Engine, nextDeadlineIsAVisibilityExpiry)
{
    create("q");
    send("q", "m");
    ASSERT_EQ(receive("q", 1, 5).size(), 1u);
    EXPECT_EQ(broker.nextDeadline(), kStart + 5 * kSecond);
}

TEST_F(Engine, nextDeadlineIsARetentionDeadline)
{
    create("q", {{"MessageRetentionPeriod", "60"}});
    send("q", "m");
    EXPECT_EQ(broker.nextDeadline(), kStart + 60 * kSecond);
    ASSERT_EQ(receive("q", 1, 120).size(), 1u);
    EXPECT_EQ(broker.nextDeadline(), kStart + 60 * kSecond); // earlier than the visibility end
}

TEST_F(Engine, nextDeadlineIsALongPollDeadline)
{
    create("q");
    ReceiveRequest request;
    request.queue = "q";
    request.waitTimeSeconds = 20;
    const WaitId id = broker.receiveMessageAsync(request, [](Result<ReceiveResult>) {});
    EXPECT_NE(id, 0u);
    EXPECT_EQ(broker.nextDeadline(), kStart + 20 * kSecond);
    EXPECT_TRUE(broker.cancelWait(id));
}

TEST_F(Engine, nextDeadlineIsAMoveTaskStep)
{
    createWithDeadLetterQueue();
    send("src", "a");
    send("src", "b");
    ASSERT_EQ(receive("src", 10, 1).size(), 2u);
    clock.advance(kSecond);
    ASSERT_TRUE(receive("src", 10).empty()); // both moved to the DLQ
    ASSERT_EQ(stats("dlq").available, 2);

    clock.advance(5 * kSecond);
    const Millis started = clock.now();
    auto task = broker.startMessageMoveTask(
        {.sourceArn = broker.arnForName("dlq"), .maxMessagesPerSecond = 1});
    ASSERT_TRUE(task.ok()) << describe(task.error());
    EXPECT_EQ(broker.nextDeadline(), started); // the first message is due at once
    broker.advance();
    EXPECT_EQ(stats("dlq").available, 1);
    EXPECT_EQ(broker.nextDeadline(), started + kSecond); // then one per second
    clock.advance(kSecond - 1);
    broker.advance();
    EXPECT_EQ(stats("dlq").available, 1);
    clock.advance(1);
    broker.advance();
    EXPECT_EQ(stats("dlq").available, 0);
    EXPECT_EQ(stats("src").available, 2);
}

TEST_F(Engine, nextDeadlineIsTheEarliestOverAllQueues)
{
    create("a");
    create("b");
    create("c");
    send("a", "m", 50);
    send("b", "m");
    ASSERT_EQ(receive("b", 1, 7).size(), 1u);
    ReceiveRequest wait;
    wait.queue = "c";
    wait.waitTimeSeconds = 12;
    broker.receiveMessageAsync(wait, [](Result<ReceiveResult>) {});

    EXPECT_EQ(broker.nextDeadline(), kStart + 7 * kSecond);
    clock.set(kStart + 7 * kSecond);
    broker.advance();
    EXPECT_EQ(broker.nextDeadline(), kStart + 12 * kSecond);
    clock.set(kStart + 12 * kSecond);
    broker.advance();
    EXPECT_EQ(broker.nextDeadline(), kStart + 50 * kSecond);
}

// ---- advance -----------------------------------------------------------------------------------

TEST_F(Engine, advanceStampsEventsWithTheirDeadlineNotTheAdvanceTime)
{
    create("q");
    for (int i = 0; i < 3; ++i)
        send("q", "m" + std::to_string(i));
    for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(receive("q", 1, 10).size(), 1u);
        clock.advance(kSecond);
    }
    log.attach(broker);
    clock.set(kStart + 60 * kSecond);
    broker.advance();
    const auto expired = log.ofKind(EventKind::VisibilityExpired);
    ASSERT_EQ(expired.size(), 3u);
    EXPECT_EQ(expired[0].time, kStart + 10 * kSecond);
    EXPECT_EQ(expired[1].time, kStart + 11 * kSecond);
    EXPECT_EQ(expired[2].time, kStart + 12 * kSecond);
}

TEST_F(Engine, advanceEmitsDueEventsInTimeOrderWithinAQueue)
{
    create("q");
    const SendResult b = send("q", "b");
    const SendResult c = send("q", "c");
    const SendResult a = send("q", "a", 8);
    ASSERT_EQ(receive("q", 1, 5).size(), 1u); // b until +5 s
    ASSERT_EQ(receive("q", 1, 3).size(), 1u); // c until +3 s
    log.attach(broker);
    clock.advance(20 * kSecond);
    broker.advance();
    const auto events = log.all();
    ASSERT_EQ(events.size(), 3u) << kindNames(log.kinds());
    EXPECT_EQ(events[0].kind, EventKind::VisibilityExpired);
    EXPECT_EQ(events[0].messageId, c.messageId);
    EXPECT_EQ(events[0].time, kStart + 3 * kSecond);
    EXPECT_EQ(events[1].kind, EventKind::VisibilityExpired);
    EXPECT_EQ(events[1].messageId, b.messageId);
    EXPECT_EQ(events[1].time, kStart + 5 * kSecond);
    EXPECT_EQ(events[2].kind, EventKind::DelayEnded);
    EXPECT_EQ(events[2].messageId, a.messageId);
    EXPECT_EQ(events[2].time, kStart + 8 * kSecond);
}

TEST_F(Engine, nothingIsDueOneMillisecondBeforeTheDeadline)
{
    create("q");
    send("q", "m");
    ASSERT_EQ(receive("q", 1, 10).size(), 1u);
    log.attach(broker);
    clock.advance(10 * kSecond - 1);
    broker.advance();
    EXPECT_TRUE(log.all().empty());
    EXPECT_EQ(stats("q").inFlight, 1);
    clock.advance(1);
    broker.advance();
    ASSERT_EQ(log.ofKind(EventKind::VisibilityExpired).size(), 1u);
    EXPECT_EQ(stats("q").available, 1);
}

TEST_F(Engine, advanceToAnEarlierTimeProcessesOnlyWhatWasDueByThen)
{
    create("q");
    send("q", "m1");
    send("q", "m2");
    ASSERT_EQ(receive("q", 1, 10).size(), 1u);
    ASSERT_EQ(receive("q", 1, 20).size(), 1u);
    log.attach(broker);
    clock.advance(30 * kSecond);
    broker.advance(kStart + 15 * kSecond);
    ASSERT_EQ(log.ofKind(EventKind::VisibilityExpired).size(), 1u);
    broker.advance();
    ASSERT_EQ(log.ofKind(EventKind::VisibilityExpired).size(), 2u);
}

TEST_F(Engine, advanceNeverProcessesBeyondTheClock)
{
    create("q");
    send("q", "m");
    ASSERT_EQ(receive("q", 1, 10).size(), 1u);
    log.attach(broker);
    broker.advance(kStart + 60 * kSecond);
    EXPECT_TRUE(log.all().empty());
    EXPECT_EQ(stats("q").inFlight, 1);
}

TEST_F(Engine, visibilityOf120MessagesEndingTogetherExpiresInOneAdvance)
{
    create("q");
    for (int i = 0; i < 120; ++i)
        send("q", "m" + std::to_string(i));
    for (int i = 0; i < 12; ++i)
        ASSERT_EQ(receive("q", 10, 30).size(), 10u);
    ASSERT_EQ(stats("q").inFlight, 120);
    EXPECT_EQ(broker.nextDeadline(), kStart + 30 * kSecond);
    log.attach(broker);
    clock.advance(30 * kSecond);
    broker.advance();
    const auto expired = log.ofKind(EventKind::VisibilityExpired);
    ASSERT_EQ(expired.size(), 120u);
    for (const Event& e : expired)
        EXPECT_EQ(e.time, kStart + 30 * kSecond);
    const QueueStats s = stats("q");
    EXPECT_EQ(s.available, 120);
    EXPECT_EQ(s.inFlight, 0);
    EXPECT_EQ(s.visibilityExpired, 120);
    EXPECT_GT(broker.nextDeadline(), clock.now());
}

TEST_F(Engine, callsSeeAnExpiredVisibilityWithoutAdvance)
{
    create("q");
    send("q", "m");
    ASSERT_EQ(receive("q", 1, 30).size(), 1u);
    log.attach(broker);
    clock.advance(31 * kSecond);
    const auto again = receive("q", 1, 30, "window");
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(again[0].receiveCount, 2u);
    ASSERT_EQ(log.batches.size(), 1u);
    const auto events = log.all();
    ASSERT_EQ(events.size(), 2u) << kindNames(log.kinds());
    EXPECT_EQ(events[0].kind, EventKind::VisibilityExpired);
    EXPECT_EQ(events[0].time, kStart + 30 * kSecond);
    EXPECT_EQ(events[0].origin, "engine");
    EXPECT_EQ(events[1].kind, EventKind::MessageReceived);
    EXPECT_EQ(events[1].time, kStart + 31 * kSecond);
    EXPECT_EQ(events[1].origin, "window");
}

TEST_F(Engine, longPollEndsEmptyAtItsDeadlineWhenAMessageArrivesLaterInTheSameAdvance)
{
    create("q");
    send("q", "m", 8);
    std::optional<Result<ReceiveResult>> answer;
    ReceiveRequest request;
    request.queue = "q";
    request.waitTimeSeconds = 5;
    broker.receiveMessageAsync(request, [&](Result<ReceiveResult> r) { answer = std::move(r); });
    clock.advance(10 * kSecond);
    broker.advance();
    ASSERT_TRUE(answer.has_value());
    EXPECT_TRUE((*answer)->messages.empty());
    EXPECT_EQ(stats("q").available, 1);
}

TEST_F(Engine, longPollGetsAMessageThatBecomesAvailableBeforeItsDeadline)
{
    create("q");
    send("q", "m", 3);
    std::optional<Result<ReceiveResult>> answer;
    ReceiveRequest request;
    request.queue = "q";
    request.waitTimeSeconds = 5;
    broker.receiveMessageAsync(request, [&](Result<ReceiveResult> r) { answer = std::move(r); });
    log.attach(broker);
    clock.advance(10 * kSecond);
    broker.advance();
    ASSERT_TRUE(answer.has_value());
    ASSERT_EQ((*answer)->messages.size(), 1u);
    const auto ended = log.ofKind(EventKind::DelayEnded);
    ASSERT_EQ(ended.size(), 1u);
    EXPECT_EQ(ended[0].time, kStart + 3 * kSecond);
}

TEST_F(Engine, longPollPastItsDeadlineIsNotServedByALaterCall)
{
    // Lazy truth: a call after the deadline first ends the waiter empty, as advance() would have.
    create("q");
    std::optional<Result<ReceiveResult>> answer;
    ReceiveRequest request;
    request.queue = "q";
    request.waitTimeSeconds = 5;
    broker.receiveMessageAsync(request, [&](Result<ReceiveResult> r) { answer = std::move(r); });
    clock.advance(6 * kSecond);
    send("q", "late");
    ASSERT_TRUE(answer.has_value()) << "the long poll ended at its deadline";
    EXPECT_TRUE((*answer)->messages.empty());
    EXPECT_EQ(stats("q").available, 1);
    EXPECT_EQ(stats("q").received, 0);
}

TEST_F(Engine, longPollIsServedBySendOneMillisecondBeforeItsDeadline)
{
    create("q");
    std::optional<Result<ReceiveResult>> answer;
    ReceiveRequest request;
    request.queue = "q";
    request.waitTimeSeconds = 5;
    broker.receiveMessageAsync(request, [&](Result<ReceiveResult> r) { answer = std::move(r); });
    clock.advance(5 * kSecond - 1);
    send("q", "just in time");
    ASSERT_TRUE(answer.has_value());
    ASSERT_EQ((*answer)->messages.size(), 1u);
    EXPECT_EQ((*answer)->messages[0].body, "just in time");
}

// ---- the event stream --------------------------------------------------------------------------

TEST_F(Engine, sinkReceivesOneBatchAfterEachCallThatChangedSomething)
{
    log.attach(broker);
    create("q");
    ASSERT_EQ(log.batches.size(), 1u);
    send("q", "m");
    ASSERT_EQ(log.batches.size(), 2u);
    std::vector<BatchSendEntry> entries(3);
    for (int i = 0; i < 3; ++i) {
        entries[i].id = "e" + std::to_string(i);
        entries[i].message.body = "b" + std::to_string(i);
    }
    ASSERT_TRUE(broker.sendMessageBatch("q", entries, "test").ok());
    ASSERT_EQ(log.batches.size(), 3u);
    EXPECT_EQ(log.batches[2].size(), 3u);
    ASSERT_TRUE(broker.getQueue("q").ok());
    EXPECT_TRUE(receive("q", 10, 30, "x").size() == 4u);
    EXPECT_EQ(log.batches.size(), 4u);
    EXPECT_EQ(log.batches[3].size(), 4u);
}

TEST_F(Engine, queueCreatedCarriesNameTimeAndOrigin)
{
    log.attach(broker);
    clock.advance(42);
    create(CreateQueueRequest{.name = "q", .origin = "window"});
    const auto events = log.ofKind(EventKind::QueueCreated);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].queue, "q");
    EXPECT_EQ(events[0].time, kStart + 42);
    EXPECT_EQ(events[0].origin, "window");
    EXPECT_TRUE(events[0].messageId.empty());
    EXPECT_EQ(events[0].queueId, broker.queueView("q")->id);
}

TEST_F(Engine, idempotentCreateEmitsNothing)
{
    create("q");
    log.attach(broker);
    create("q");
    EXPECT_TRUE(log.all().empty());
}

TEST_F(Engine, queueChangedOnSetAttributesTagAndUntag)
{
    create("q");
    log.attach(broker);
    ASSERT_TRUE(broker.setQueueAttributes("q", {{"VisibilityTimeout", "60"}}, "window").ok());
    ASSERT_TRUE(broker.tagQueue("q", {{"team", "blue"}}, "cli").ok());
    ASSERT_TRUE(broker.untagQueue("q", {"team"}, "sdk").ok());
    const auto events = log.all();
    ASSERT_EQ(events.size(), 3u) << kindNames(log.kinds());
    for (const Event& e : events) {
        EXPECT_EQ(e.kind, EventKind::QueueChanged);
        EXPECT_EQ(e.queue, "q");
        EXPECT_EQ(e.time, kStart);
    }
    EXPECT_EQ(events[0].origin, "window");
    EXPECT_EQ(events[1].origin, "cli");
    EXPECT_EQ(events[2].origin, "sdk");
}

TEST_F(Engine, failedCallsEmitNothing)
{
    create("q");
    log.attach(broker);
    EXPECT_FALSE(broker.setQueueAttributes("q", {{"VisibilityTimeout", "43201"}}, "test").ok());
    EXPECT_FALSE(broker.deleteMessage("q", "garbage", "test").ok());
    SendMessageRequest bad;
    bad.queue = "q";
    bad.body = "m";
    bad.delaySeconds = 901;
    EXPECT_FALSE(broker.sendMessage(bad).ok());
    EXPECT_TRUE(log.all().empty()) << kindNames(log.kinds());
}

TEST_F(Engine, queueDeletedCarriesNameAndOrigin)
{
    create("q");
    log.attach(broker);
    clock.advance(7);
    ASSERT_TRUE(broker.deleteQueue("q", "window").ok());
    const auto events = log.all();
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].kind, EventKind::QueueDeleted);
    EXPECT_EQ(events[0].queue, "q");
    EXPECT_EQ(events[0].time, kStart + 7);
    EXPECT_EQ(events[0].origin, "window");
}

TEST_F(Engine, queuePurgedCarriesTheCount)
{
    create("q");
    send("q", "a");
    send("q", "b", 60);
    send("q", "c");
    ASSERT_EQ(receive("q").size(), 1u);
    log.attach(broker);
    ASSERT_TRUE(broker.purgeQueue("q", PurgeTarget::Normal, "window").ok());
    const auto events = log.all();
    ASSERT_EQ(events.size(), 1u) << kindNames(log.kinds());
    EXPECT_EQ(events[0].kind, EventKind::QueuePurged);
    EXPECT_EQ(events[0].count, 3);
    EXPECT_EQ(events[0].queue, "q");
    EXPECT_EQ(events[0].origin, "window");
    EXPECT_EQ(stats("q").purged, 3);
}

TEST_F(Engine, messageSentCarriesIdKeyTimeAndDeliverTime)
{
    create("q");
    log.attach(broker);
    const SendResult now = send("q", "now", std::nullopt, "window");
    const SendResult later = send("q", "later", 30, "window");
    const auto events = log.ofKind(EventKind::MessageSent);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].messageId, now.messageId);
    EXPECT_EQ(events[0].queue, "q");
    EXPECT_EQ(events[0].time, kStart);
    EXPECT_EQ(events[0].deadline, kStart);
    EXPECT_EQ(events[0].origin, "window");
    EXPECT_EQ(events[1].messageId, later.messageId);
    EXPECT_EQ(events[1].deadline, kStart + 30 * kSecond);
    auto viewed = broker.peekMessage("q", events[1].key);
    ASSERT_TRUE(viewed.ok());
    EXPECT_EQ(viewed->messageId, later.messageId);
}

TEST_F(Engine, messageDeduplicatedOnAFifoDuplicate)
{
    create("f.fifo", {{"FifoQueue", "true"}});
    const SendResult first = sendFifo("f.fifo", "m", "g", "d");
    log.attach(broker);
    clock.advance(1000);
    const SendResult second = sendFifo("f.fifo", "m", "g", "d", "window");
    EXPECT_TRUE(second.deduplicated);
    const auto events = log.all();
    ASSERT_EQ(events.size(), 1u) << kindNames(log.kinds());
    EXPECT_EQ(events[0].kind, EventKind::MessageDeduplicated);
    EXPECT_EQ(events[0].messageId, first.messageId);
    EXPECT_EQ(events[0].queue, "f.fifo");
    EXPECT_EQ(events[0].time, kStart + 1000);
    EXPECT_EQ(events[0].origin, "window");
    EXPECT_EQ(stats("f.fifo").deduplicated, 1);
}

TEST_F(Engine, delayEndedAtTheDeliverTimeFromTheEngine)
{
    create("q");
    const SendResult sent = send("q", "m", 20);
    log.attach(broker);
    clock.advance(45 * kSecond);
    broker.advance();
    const auto events = log.all();
    ASSERT_EQ(events.size(), 1u) << kindNames(log.kinds());
    EXPECT_EQ(events[0].kind, EventKind::DelayEnded);
    EXPECT_EQ(events[0].messageId, sent.messageId);
    EXPECT_EQ(events[0].time, kStart + 20 * kSecond);
    EXPECT_EQ(events[0].origin, "engine");
}

TEST_F(Engine, messageReceivedCarriesReceiptCountAndVisibleAt)
{
    create("q");
    const SendResult sent = send("q", "m");
    log.attach(broker);
    clock.advance(2 * kSecond);
    const auto got = receive("q", 1, 40, "127.0.0.1:53412");
    ASSERT_EQ(got.size(), 1u);
    const auto events = log.all();
    ASSERT_EQ(events.size(), 1u) << kindNames(log.kinds());
    const Event& e = events[0];
    EXPECT_EQ(e.kind, EventKind::MessageReceived);
    EXPECT_EQ(e.messageId, sent.messageId);
    EXPECT_EQ(e.receipt, got[0].receiptHandle);
    EXPECT_EQ(e.receiveCount, 1u);
    EXPECT_EQ(e.deadline, kStart + 42 * kSecond);
    EXPECT_EQ(e.time, kStart + 2 * kSecond);
    EXPECT_EQ(e.origin, "127.0.0.1:53412");
    EXPECT_EQ(e.queue, "q");
}

TEST_F(Engine, visibilityChangedCarriesTheNewDeadlineAndTheHandleUsed)
{
    create("q");
    send("q", "m");
    const auto got = receive("q", 1, 30);
    ASSERT_EQ(got.size(), 1u);
    log.attach(broker);
    clock.advance(5 * kSecond);
    ASSERT_TRUE(broker.changeMessageVisibility("q", got[0].receiptHandle, 100, "window").ok());
    const auto events = log.all();
    ASSERT_EQ(events.size(), 1u) << kindNames(log.kinds());
    EXPECT_EQ(events[0].kind, EventKind::VisibilityChanged);
    EXPECT_EQ(events[0].messageId, got[0].messageId);
    EXPECT_EQ(events[0].receipt, got[0].receiptHandle);
    EXPECT_EQ(events[0].deadline, kStart + 105 * kSecond);
    EXPECT_EQ(events[0].time, kStart + 5 * kSecond);
    EXPECT_EQ(events[0].origin, "window");
}

TEST_F(Engine, messageReleasedWhenVisibilityIsSetToZero)
{
    create("q");
    send("q", "m");
    const auto got = receive("q", 1, 30);
    ASSERT_EQ(got.size(), 1u);
    log.attach(broker);
    ASSERT_TRUE(broker.changeMessageVisibility("q", got[0].receiptHandle, 0, "window").ok());
    const auto events = log.all();
    ASSERT_EQ(events.size(), 1u) << kindNames(log.kinds());
    EXPECT_EQ(events[0].kind, EventKind::MessageReleased);
    EXPECT_EQ(events[0].messageId, got[0].messageId);
    EXPECT_EQ(events[0].origin, "window");
    EXPECT_EQ(stats("q").available, 1);
}

TEST_F(Engine, visibilityExpiredComesFromTheEngineAtTheDeadline)
{
    create("q");
    send("q", "m");
    const auto got = receive("q", 1, 30, "window");
    ASSERT_EQ(got.size(), 1u);
    log.attach(broker);
    clock.advance(100 * kSecond);
    broker.advance();
    const auto events = log.all();
    ASSERT_EQ(events.size(), 1u) << kindNames(log.kinds());
    EXPECT_EQ(events[0].kind, EventKind::VisibilityExpired);
    EXPECT_EQ(events[0].messageId, got[0].messageId);
    EXPECT_EQ(events[0].time, kStart + 30 * kSecond);
    EXPECT_EQ(events[0].origin, "engine");
    EXPECT_EQ(events[0].queue, "q");
}

TEST_F(Engine, messageDeletedCarriesIdAndOrigin)
{
    create("q");
    send("q", "m");
    const auto got = receive("q");
    ASSERT_EQ(got.size(), 1u);
    log.attach(broker);
    clock.advance(3);
    ASSERT_TRUE(broker.deleteMessage("q", got[0].receiptHandle, "window").ok());
    const auto events = log.all();
    ASSERT_EQ(events.size(), 1u) << kindNames(log.kinds());
    EXPECT_EQ(events[0].kind, EventKind::MessageDeleted);
    EXPECT_EQ(events[0].messageId, got[0].messageId);
    EXPECT_EQ(events[0].receipt, got[0].receiptHandle);
    EXPECT_EQ(events[0].time, kStart + 3);
    EXPECT_EQ(events[0].origin, "window");
}

TEST_F(Engine, movedToDeadLetterQueueNamesTheDlq)
{
    createWithDeadLetterQueue();
    const SendResult sent = send("src", "m");
    ASSERT_EQ(receive("src", 1, 1).size(), 1u);
    clock.advance(kSecond);
    log.attach(broker);
    ASSERT_TRUE(receive("src", 1, 30, "window").empty());
    const auto moved = log.ofKind(EventKind::MovedToDeadLetterQueue);
    ASSERT_EQ(moved.size(), 1u) << kindNames(log.kinds());
    EXPECT_EQ(moved[0].queue, "src");
    EXPECT_EQ(moved[0].detail, "dlq");
    EXPECT_EQ(moved[0].messageId, sent.messageId);
    EXPECT_EQ(moved[0].time, kStart + kSecond);
    EXPECT_EQ(moved[0].origin, "window");
    EXPECT_EQ(stats("src").movedToDeadLetter, 1);
}

TEST_F(Engine, moveTaskEmitsMovedByTaskAndProgress)
{
    createWithDeadLetterQueue();
    const SendResult sent = send("src", "m");
    ASSERT_EQ(receive("src", 1, 1).size(), 1u);
    clock.advance(kSecond);
    ASSERT_TRUE(receive("src").empty());
    log.attach(broker);
    auto task = broker.startMessageMoveTask(
        {.sourceArn = broker.arnForName("dlq"), .maxMessagesPerSecond = 10, .origin = "window"});
    ASSERT_TRUE(task.ok());
    broker.advance();
    const auto moved = log.ofKind(EventKind::MovedByTask);
    ASSERT_EQ(moved.size(), 1u) << kindNames(log.kinds());
    EXPECT_EQ(moved[0].queue, "dlq");
    EXPECT_EQ(moved[0].detail, "src");
    EXPECT_EQ(moved[0].messageId, sent.messageId);
    EXPECT_EQ(moved[0].time, kStart + kSecond);
    EXPECT_EQ(moved[0].origin, "window");
    // The one shape of a move (events.h, isMove): both ends in one event, the destination's key
    // included; no MessageSent of its own in the destination.
    EXPECT_TRUE(isMove(moved[0].kind));
    auto arrived = broker.peekMessage("src", moved[0].relatedKey);
    ASSERT_TRUE(arrived.ok());
    EXPECT_EQ(arrived->body, "m");
    EXPECT_EQ(arrived->messageId, moved[0].relatedMessageId); // a new message, a new id
    EXPECT_TRUE(log.ofKind(EventKind::MessageSent).empty()) << kindNames(log.kinds());
    const auto progress = log.ofKind(EventKind::MoveTaskProgress);
    ASSERT_FALSE(progress.empty());
    EXPECT_EQ(progress.back().queue, "dlq");
    EXPECT_EQ(progress.back().detail, *task);
    EXPECT_EQ(progress.back().count, 1);
    EXPECT_EQ(progress.back().origin, "window");
    EXPECT_EQ(stats("src").available, 1);
}

TEST_F(Engine, retentionExpiredAtTheRetentionDeadline)
{
    create("q", {{"MessageRetentionPeriod", "60"}});
    const SendResult sent = send("q", "m");
    ASSERT_EQ(receive("q", 1, 600).size(), 1u); // in flight: it expires all the same (§5.7)
    log.attach(broker);
    clock.advance(90 * kSecond);
    broker.advance();
    const auto events = log.all();
    ASSERT_EQ(events.size(), 1u) << kindNames(log.kinds());
    EXPECT_EQ(events[0].kind, EventKind::RetentionExpired);
    EXPECT_EQ(events[0].messageId, sent.messageId);
    EXPECT_EQ(events[0].time, kStart + 60 * kSecond);
    EXPECT_EQ(events[0].origin, "engine");
    const QueueStats s = stats("q");
    EXPECT_EQ(s.inFlight, 0);
    EXPECT_EQ(s.retentionExpired, 1);
}

TEST_F(Engine, queueStatsCountersAreMonotonic)
{
    create("q", {{"MessageRetentionPeriod", "60"}});
    create("f.fifo", {{"FifoQueue", "true"}});
    std::vector<QueueStats> history{stats("q")};
    auto step = [&] { history.push_back(stats("q")); };

    send("q", "a");
    send("q", "b");
    send("q", "c");
    step();
    auto got = receive("q", 2, 5);
    ASSERT_EQ(got.size(), 2u);
    step();
    ASSERT_TRUE(broker.deleteMessage("q", got[0].receiptHandle, "test").ok());
    step();
    clock.advance(5 * kSecond);
    broker.advance();
    step();
    ASSERT_TRUE(broker.purgeQueue("q", PurgeTarget::Normal, "test").ok());
    step();
    send("q", "d");
    clock.advance(60 * kSecond);
    broker.advance();
    step();

    const QueueStats& last = history.back();
    EXPECT_EQ(last.sent, 4);
    EXPECT_EQ(last.received, 2);
    EXPECT_EQ(last.deleted, 1);
    EXPECT_EQ(last.visibilityExpired, 1);
    EXPECT_EQ(last.purged, 2);
    EXPECT_EQ(last.retentionExpired, 1);
    for (std::size_t i = 1; i < history.size(); ++i) {
        const QueueStats& a = history[i - 1];
        const QueueStats& b = history[i];
        EXPECT_LE(a.sent, b.sent) << i;
        EXPECT_LE(a.received, b.received) << i;
        EXPECT_LE(a.deleted, b.deleted) << i;
        EXPECT_LE(a.visibilityExpired, b.visibilityExpired) << i;
        EXPECT_LE(a.movedToDeadLetter, b.movedToDeadLetter) << i;
        EXPECT_LE(a.retentionExpired, b.retentionExpired) << i;
        EXPECT_LE(a.purged, b.purged) << i;
        EXPECT_LE(a.deduplicated, b.deduplicated) << i;
    }

    sendFifo("f.fifo", "m", "g", "d");
    sendFifo("f.fifo", "m", "g", "d");
    const QueueStats fifo = stats("f.fifo");
    EXPECT_EQ(fifo.sent, 1);
    EXPECT_EQ(fifo.deduplicated, 1);
    EXPECT_EQ(fifo.available, 1);
}

// ---- peek --------------------------------------------------------------------------------------

TEST_F(Engine, peekListsEveryMessageInSequenceOrderWithItsState)
{
    create("q");
    const SendResult m1 = send("q", "m1");
    const SendResult m2 = send("q", "m2", 60);
    const SendResult m3 = send("q", "m3");
    clock.advance(kSecond);
    const auto got = receive("q", 1, 30);
    ASSERT_EQ(got.size(), 1u);
    ASSERT_EQ(got[0].messageId, m1.messageId);

    const auto views = peek("q");
    ASSERT_EQ(views.size(), 3u);
    EXPECT_EQ(bodiesOf(views), (std::vector<std::string>{"m1", "m2", "m3"}));
    EXPECT_EQ(views[0].messageId, m1.messageId);
    EXPECT_EQ(views[0].state, MessageState::InFlight);
    EXPECT_EQ(views[0].receiveCount, 1u);
    EXPECT_EQ(views[0].visibleAt, kStart + 31 * kSecond);
    EXPECT_EQ(views[0].receivedAt, kStart + kSecond);
    EXPECT_EQ(views[0].firstReceivedAt, kStart + kSecond);
    EXPECT_EQ(views[0].sentAt, kStart);
    EXPECT_EQ(views[0].expiresAt, kStart + 345'600 * kSecond);
    EXPECT_EQ(views[1].messageId, m2.messageId);
    EXPECT_EQ(views[1].state, MessageState::Delayed);
    EXPECT_EQ(views[1].deliverAt, kStart + 60 * kSecond);
    EXPECT_EQ(views[1].receiveCount, 0u);
    EXPECT_TRUE(views[1].receiptHandle.empty());
    EXPECT_EQ(views[2].messageId, m3.messageId);
    EXPECT_EQ(views[2].state, MessageState::Available);
    EXPECT_EQ(views[2].receiveCount, 0u);
    EXPECT_EQ(views[2].firstReceivedAt, 0);
    EXPECT_TRUE(views[2].receiptHandle.empty());
}

TEST_F(Engine, peekKeepsSequenceOrderWhenStorageIsReused)
{
    create("q");
    send("q", "m1");
    send("q", "m2");
    const auto got = receive("q");
    ASSERT_EQ(got.size(), 1u);
    ASSERT_TRUE(broker.deleteMessage("q", got[0].receiptHandle, "test").ok());
    send("q", "m3");
    send("q", "m4");
    EXPECT_EQ(bodiesOf(peek("q")), (std::vector<std::string>{"m2", "m3", "m4"}));
}

TEST_F(Engine, peekedReceiptIsTheReceiversHandleAndDeletesTheMessage)
{
    create("q");
    send("q", "m");
    const auto got = receive("q", 1, 30);
    ASSERT_EQ(got.size(), 1u);
    const auto views = peek("q");
    ASSERT_EQ(views.size(), 1u);
    EXPECT_EQ(views[0].receiptHandle, got[0].receiptHandle);
    ASSERT_TRUE(broker.deleteMessage("q", views[0].receiptHandle, "test").ok());
    EXPECT_TRUE(peek("q").empty());
    EXPECT_EQ(stats("q").deleted, 1);
}

TEST_F(Engine, peekedReceiptFollowsTheLatestReceive)
{
    create("q");
    send("q", "m");
    ASSERT_EQ(receive("q", 1, 1).size(), 1u);
    clock.advance(kSecond);
    const auto again = receive("q", 1, 30);
    ASSERT_EQ(again.size(), 1u);
    const auto views = peek("q");
    ASSERT_EQ(views.size(), 1u);
    EXPECT_EQ(views[0].receiptHandle, again[0].receiptHandle);
    EXPECT_EQ(views[0].receiveCount, 2u);
}

TEST_F(Engine, peekFiltersByStateAndPages)
{
    create("q");
    for (int i = 0; i < 6; ++i)
        send("q", "a" + std::to_string(i));
    send("q", "d0", 60);
    ASSERT_EQ(receive("q", 2, 30).size(), 2u); // a0, a1 in flight

    PeekRequest available;
    available.delayed = false;
    available.inFlight = false;
    EXPECT_EQ(bodiesOf(peek("q", available)), (std::vector<std::string>{"a2", "a3", "a4", "a5"}));
    PeekRequest inFlight;
    inFlight.delayed = false;
    inFlight.available = false;
    EXPECT_EQ(bodiesOf(peek("q", inFlight)), (std::vector<std::string>{"a0", "a1"}));
    PeekRequest delayed;
    delayed.available = false;
    delayed.inFlight = false;
    EXPECT_EQ(bodiesOf(peek("q", delayed)), (std::vector<std::string>{"d0"}));

    PeekRequest page = available;
    page.offset = 1;
    page.limit = 2;
    EXPECT_EQ(bodiesOf(peek("q", page)), (std::vector<std::string>{"a3", "a4"}));
    page.offset = 3;
    EXPECT_EQ(bodiesOf(peek("q", page)), (std::vector<std::string>{"a5"}));
    page.offset = 4;
    EXPECT_TRUE(peek("q", page).empty());
    PeekRequest none;
    none.limit = 0;
    EXPECT_TRUE(peek("q", none).empty());
}

TEST_F(Engine, peekMessageFindsOneMessageByKey)
{
    create("q");
    send("q", "m1");
    send("q", "m2");
    const auto views = peek("q");
    ASSERT_EQ(views.size(), 2u);
    auto second = broker.peekMessage("q", views[1].key);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(second->body, "m2");
    EXPECT_EQ(second->messageId, views[1].messageId);

    const auto got = receive("q");
    ASSERT_EQ(got.size(), 1u);
    ASSERT_TRUE(broker.deleteMessage("q", got[0].receiptHandle, "test").ok());
    auto gone = broker.peekMessage("q", views[0].key);
    ASSERT_FALSE(gone.ok());
    EXPECT_EQ(gone.error().code, ErrorCode::ResourceNotFound);
    send("q", "m3"); // may reuse the slot; the key must not find the newcomer
    auto stillGone = broker.peekMessage("q", views[0].key);
    EXPECT_FALSE(stillGone.ok());
}

TEST_F(Engine, peekingChangesNothingAndEmitsNothing)
{
    create("q");
    create("f.fifo", {{"FifoQueue", "true"}});
    send("q", "first");
    send("q", "delayed", 60);
    send("q", "next");
    sendFifo("f.fifo", "g1", "g", "1");
    sendFifo("f.fifo", "g2", "g", "2");
    ASSERT_EQ(receive("q").size(), 1u); // "first" goes in flight
    ASSERT_EQ(receive("f.fifo").size(), 1u);
    const auto before = peek("q");
    const QueueStats statsBefore = stats("q");
    log.attach(broker);

    for (int round = 0; round < 3; ++round) {
        peek("q");
        peek("f.fifo");
        ASSERT_TRUE(broker.peekMessage("q", before[0].key).ok());
        ASSERT_TRUE(broker.peekGroups("f.fifo").ok());
        ASSERT_TRUE(broker.queueView("q").ok());
        ASSERT_TRUE(broker.queueStats("q").ok());
        ASSERT_TRUE(broker.getQueueAttributes("q", {"All"}).ok());
        broker.queues();
        broker.nextDeadline();
    }
    EXPECT_TRUE(log.all().empty()) << kindNames(log.kinds());

    const auto after = peek("q");
    ASSERT_EQ(after.size(), before.size());
    for (std::size_t i = 0; i < after.size(); ++i) {
        EXPECT_EQ(after[i].state, before[i].state) << i;
        EXPECT_EQ(after[i].receiveCount, before[i].receiveCount) << i;
        EXPECT_EQ(after[i].visibleAt, before[i].visibleAt) << i;
        EXPECT_EQ(after[i].receiptHandle, before[i].receiptHandle) << i;
    }
    const QueueStats statsAfter = stats("q");
    EXPECT_EQ(statsAfter.received, statsBefore.received);
    EXPECT_EQ(statsAfter.available, statsBefore.available);
    EXPECT_EQ(statsAfter.inFlight, statsBefore.inFlight);

    // The message nobody received is still the next one out, never received before.
    const auto next = receive("q");
    ASSERT_EQ(next.size(), 1u);
    EXPECT_EQ(next[0].body, "next");
    EXPECT_EQ(next[0].receiveCount, 1u);
}

TEST_F(Engine, peekAfterADeadlineEmitsOnlyTheDueExpiry)
{
    create("q");
    send("q", "m");
    ASSERT_EQ(receive("q", 1, 10).size(), 1u);
    log.attach(broker);
    clock.advance(10 * kSecond);
    const auto views = peek("q");
    ASSERT_EQ(views.size(), 1u);
    EXPECT_EQ(views[0].state, MessageState::Available);
    EXPECT_EQ(views[0].receiveCount, 1u);
    EXPECT_TRUE(views[0].receiptHandle.empty());
    EXPECT_EQ(log.kinds(), std::vector<EventKind>{EventKind::VisibilityExpired});
    log.clear();
    peek("q");
    EXPECT_TRUE(log.all().empty());
}

TEST_F(Engine, peekShowsWhichMessageMovesToTheDlqOnItsNextReceive)
{
    createWithDeadLetterQueue();
    send("src", "m");
    auto views = peek("src");
    ASSERT_EQ(views.size(), 1u);
    EXPECT_FALSE(views[0].movesToDeadLetterOnNextReceive);
    ASSERT_EQ(receive("src", 1, 1).size(), 1u);
    views = peek("src");
    ASSERT_EQ(views.size(), 1u);
    EXPECT_TRUE(views[0].movesToDeadLetterOnNextReceive);
}

TEST_F(Engine, peekGroupsShowsFifoHeadsBlockingAndWaiting)
{
    create("f.fifo", {{"FifoQueue", "true"}});
    const SendResult g1m1 = sendFifo("f.fifo", "g1-m1", "g1", "1");
    sendFifo("f.fifo", "g1-m2", "g1", "2");
    sendFifo("f.fifo", "g1-m3", "g1", "3");
    const SendResult g2m1 = sendFifo("f.fifo", "g2-m1", "g2", "4");
    const auto got = receive("f.fifo", 1, 30);
    ASSERT_EQ(got.size(), 1u);
    ASSERT_EQ(got[0].messageId, g1m1.messageId);

    auto groups = broker.peekGroups("f.fifo");
    ASSERT_TRUE(groups.ok());
    ASSERT_EQ(groups->size(), 2u);
    const GroupView& g1 = (*groups)[0];
    EXPECT_EQ(g1.groupId, "g1");
    EXPECT_EQ(g1.headMessageId, g1m1.messageId);
    EXPECT_EQ(g1.headState, MessageState::InFlight);
    EXPECT_TRUE(g1.blocked);
    EXPECT_EQ(g1.blockingMessageId, g1m1.messageId);
    EXPECT_EQ(g1.blockedUntil, kStart + 30 * kSecond);
    EXPECT_EQ(g1.waiting, 2);
    EXPECT_EQ(g1.inFlight, 1);
    const GroupView& g2 = (*groups)[1];
    EXPECT_EQ(g2.groupId, "g2");
    EXPECT_EQ(g2.headMessageId, g2m1.messageId);
    EXPECT_FALSE(g2.blocked);
    EXPECT_TRUE(g2.blockingMessageId.empty());
    EXPECT_EQ(g2.waiting, 0);
    EXPECT_EQ(g2.inFlight, 0);
}

TEST_F(Engine, peekGroupsFollowsTheHeadAfterDeletion)
{
    create("f.fifo", {{"FifoQueue", "true"}});
    sendFifo("f.fifo", "m1", "g", "1");
    const SendResult m2 = sendFifo("f.fifo", "m2", "g", "2");
    const auto got = receive("f.fifo", 2, 30);
    ASSERT_EQ(got.size(), 2u);
    ASSERT_TRUE(broker.deleteMessage("f.fifo", got[0].receiptHandle, "test").ok());
    auto groups = broker.peekGroups("f.fifo");
    ASSERT_TRUE(groups.ok());
    ASSERT_EQ(groups->size(), 1u);
    EXPECT_EQ((*groups)[0].headMessageId, m2.messageId);
    EXPECT_TRUE((*groups)[0].blocked); // m2 is still in flight
    EXPECT_EQ((*groups)[0].blockingMessageId, m2.messageId);
    EXPECT_EQ((*groups)[0].waiting, 0);
    ASSERT_TRUE(broker.deleteMessage("f.fifo", got[1].receiptHandle, "test").ok());
    groups = broker.peekGroups("f.fifo");
    ASSERT_TRUE(groups.ok());
    EXPECT_TRUE(groups->empty());
}

TEST_F(Engine, peekGroupsShowsADelayedHeadBlockedUntilDelivery)
{
    create("f.fifo", {{"FifoQueue", "true"}, {"DelaySeconds", "20"}});
    const SendResult m1 = sendFifo("f.fifo", "m1", "g", "1");
    sendFifo("f.fifo", "m2", "g", "2");
    auto groups = broker.peekGroups("f.fifo");
    ASSERT_TRUE(groups.ok());
    ASSERT_EQ(groups->size(), 1u);
    EXPECT_TRUE((*groups)[0].blocked);
    EXPECT_EQ((*groups)[0].headState, MessageState::Delayed);
    EXPECT_EQ((*groups)[0].blockingMessageId, m1.messageId);
    EXPECT_EQ((*groups)[0].blockedUntil, kStart + 20 * kSecond);
    EXPECT_EQ((*groups)[0].waiting, 1);
}

TEST_F(Engine, peekGroupsListsOciChannels)
{
    CreateQueueRequest request;
    request.name = "oci";
    request.oci = true;
    ASSERT_TRUE(broker.createQueue(request).ok());
    for (const char* channel : {"b", "a", "b"}) {
        SendMessageRequest send;
        send.queue = "oci";
        send.body = "m";
        send.channelId = channel;
        ASSERT_TRUE(broker.sendMessage(send).ok());
    }
    ReceiveRequest fromB;
    fromB.queue = "oci";
    fromB.channelFilter = "b";
    fromB.waitTimeSeconds = 0;
    ASSERT_EQ(broker.receiveMessage(fromB)->messages.size(), 1u);

    auto groups = broker.peekGroups("oci");
    ASSERT_TRUE(groups.ok());
    ASSERT_EQ(groups->size(), 2u);
    EXPECT_EQ((*groups)[0].groupId, "a");
    EXPECT_EQ((*groups)[0].inFlight, 0);
    EXPECT_EQ((*groups)[1].groupId, "b");
    EXPECT_EQ((*groups)[1].inFlight, 1);
    EXPECT_EQ((*groups)[0].waiting + (*groups)[1].waiting, 2);
}

// Every event the sink gets is numbered from 1 up, in order, and eventsEmitted() says how many
// were handed out: before and after a call, the numbers of the events that call caused.
TEST(EventSequenceTest, numbersEveryEventInOrderAndCountsThem)
{
    ManualClock clock;
    Broker broker(clock);
    std::vector<Event> seen;
    broker.setEventSink(
        [&seen](std::span<Event> batch) { seen.insert(seen.end(), batch.begin(), batch.end()); });
    EXPECT_EQ(broker.eventsEmitted(), 0u);
    ASSERT_TRUE(broker.createQueue({.name = "q", .origin = "test"}).ok());
    const std::uint64_t before = broker.eventsEmitted();
    ASSERT_TRUE(broker.sendMessage({.queue = "q", .body = "a", .origin = "test"}).ok());
    ASSERT_TRUE(broker.receiveMessage({.queue = "q", .maxMessages = 1, .origin = "test"}).ok());
    const std::uint64_t after = broker.eventsEmitted();
    ASSERT_EQ(seen.size(), after);
    EXPECT_EQ(after - before, 2u); // sent, received
    for (std::size_t i = 0; i < seen.size(); ++i)
        EXPECT_EQ(seen[i].sequence, i + 1);
    EXPECT_EQ(seen[before].kind, EventKind::MessageSent);
    EXPECT_EQ(seen[before + 1].kind, EventKind::MessageReceived);
}

} // namespace
} // namespace inflight::engine
