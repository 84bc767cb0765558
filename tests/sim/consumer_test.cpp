// Consumers (actor_spec.h, ConsumerSpec) on a manual clock: processing times, each outcome,
// poison, crashes, releases, heartbeats at their exact times, duplicate processing, long and
// short polls, workers, OCI limits and channels, FIFO order, receive attempt ids, pause and stop.
#include "sim_fixture.h"

#include <cmath>
#include <map>
#include <numeric>

namespace inflight::sim::testing {
namespace {

class ConsumerTest : public SimTest {
protected:
    // Gaps between consecutive deletes: the processing times of a worker that always has work.
    std::vector<Millis> deleteGaps() const
    {
        const auto times = timesOf(EventKind::MessageDeleted);
        std::vector<Millis> gaps;
        for (std::size_t i = 1; i < times.size(); ++i)
            gaps.push_back(times[i] - times[i - 1]);
        return gaps;
    }
};

TEST_F(ConsumerTest, processingTakesItsTimeAndThenDeletes)
{
    createQueue("orders");
    send("orders", "a");
    const ActorId id = add(longPolling(consumer("worker", "orders", 3'000)));
    runTo(10'000);
    EXPECT_EQ(timesOf(EventKind::MessageReceived), (std::vector<Millis>{0}));
    EXPECT_EQ(timesOf(EventKind::MessageDeleted), (std::vector<Millis>{3'000}));
    EXPECT_EQ(eventsOf(EventKind::MessageDeleted)[0].origin, "consumer worker");
    const ActorFigures f = figures(id);
    EXPECT_EQ(f.received, 1);
    EXPECT_EQ(f.processed, 1);
    EXPECT_EQ(f.latencyMax, 3'000);
    EXPECT_EQ(f.latencyMean(), 3'000.0);
}

TEST_F(ConsumerTest, messagesOfOneAnswerAreProcessedOneAfterAnother)
{
    createQueue("orders");
    for (const char* body : {"a", "b", "c"})
        send("orders", body);
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 1'000));
    spec.receive.maxMessages = 10;
    add(spec);
    runTo(10'000);
    EXPECT_EQ(timesOf(EventKind::MessageReceived), (std::vector<Millis>{0, 0, 0}));
    EXPECT_EQ(timesOf(EventKind::MessageDeleted), (std::vector<Millis>{1'000, 2'000, 3'000}));
}

TEST_F(ConsumerTest, uniformProcessingTimesStayInTheirRange)
{
    createQueue("orders", {{"VisibilityTimeout", "43200"}});
    for (int i = 0; i < 200; ++i)
        send("orders", "m" + std::to_string(i));
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 0));
    spec.processing = Duration{Duration::Kind::Uniform, 1'000, 3'000};
    spec.receive.maxMessages = 10;
    add(spec);
    runTo(1'000'000);
    const auto gaps = deleteGaps();
    ASSERT_EQ(gaps.size(), 199u);
    for (Millis gap : gaps) {
        EXPECT_GE(gap, 1'000);
        EXPECT_LE(gap, 3'000);
    }
    const double mean = std::accumulate(gaps.begin(), gaps.end(), 0.0) / 199.0;
    EXPECT_NEAR(mean, 2'000.0, 170.0);
}

TEST_F(ConsumerTest, exponentialProcessingTimesHaveTheirMean)
{
    createQueue("orders", {{"VisibilityTimeout", "43200"}});
    for (int i = 0; i < 401; ++i)
        send("orders", "m" + std::to_string(i));
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 0));
    spec.processing = Duration{Duration::Kind::Exponential, 500, 0};
    spec.receive.maxMessages = 10;
    add(spec);
    runTo(1'000'000);
    const auto gaps = deleteGaps();
    ASSERT_EQ(gaps.size(), 400u);
    const double mean = std::accumulate(gaps.begin(), gaps.end(), 0.0) / 400.0;
    EXPECT_NEAR(mean, 500.0, 100.0);
    EXPECT_GT(*std::max_element(gaps.begin(), gaps.end()), 1'500); // a long tail
}

TEST_F(ConsumerTest, failAndForgetBringsTheMessageBackAfterItsVisibilityTimeout)
{
    createQueue("orders", {{"VisibilityTimeout", "10"}});
    send("orders", "a");
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 1'000));
    spec.outcomes = Outcomes{.succeed = 0, .fail = 1};
    const ActorId id = add(spec);
    runTo(15'000);
    EXPECT_EQ(timesOf(EventKind::MessageReceived), (std::vector<Millis>{0, 10'000}));
    EXPECT_EQ(timesOf(EventKind::VisibilityExpired), (std::vector<Millis>{10'000}));
    EXPECT_EQ(eventsOf(EventKind::MessageReceived)[1].receiveCount, 2u);
    EXPECT_EQ(figures(id).failed, 2);
    EXPECT_EQ(figures(id).processed, 0);
    EXPECT_EQ(figures(id).processedMoreThanOnce, 0); // a retry of failed work is no duplicate
}

TEST_F(ConsumerTest, releaseMakesTheMessageVisibleAtOnce)
{
    createQueue("orders");
    send("orders", "a");
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 2'000));
    spec.outcomes = Outcomes{.succeed = 0, .release = 1};
    const ActorId id = add(spec);
    runTo(3'000);
    EXPECT_EQ(timesOf(EventKind::MessageReleased), (std::vector<Millis>{2'000}));
    EXPECT_EQ(timesOf(EventKind::MessageReceived), (std::vector<Millis>{0, 2'000}));
    EXPECT_EQ(figures(id).released, 1);
}

TEST_F(ConsumerTest, crashStopsTheWorkerForItsDowntimeAndAbandonsWhatItHeld)
{
    createQueue("orders", {{"VisibilityTimeout", "5"}});
    send("orders", "a");
    send("orders", "b");
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 1'000));
    spec.receive.maxMessages = 10;
    spec.outcomes = Outcomes{.succeed = 0, .crash = 1};
    spec.crashDowntime = 10'000;
    const ActorId id = add(spec);
    runTo(6'000);
    EXPECT_EQ(figures(id).crashed, 1);
    EXPECT_EQ(figures(id).busyWorkers, 0);
    EXPECT_EQ(timesOf(EventKind::VisibilityExpired), (std::vector<Millis>{5'000, 5'000}));
    runTo(11'500);
    EXPECT_EQ(timesOf(EventKind::MessageReceived), (std::vector<Millis>{0, 0, 11'000, 11'000}));
}

TEST_F(ConsumerTest, outcomesComeAtTheirProbabilities)
{
    createQueue("orders", {{"VisibilityTimeout", "43200"}});
    for (int i = 0; i < 1'000; ++i)
        send("orders", "m" + std::to_string(i));
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 100));
    spec.receive.maxMessages = 10;
    spec.outcomes = Outcomes{.succeed = 0.7, .fail = 0.2, .release = 0.1};
    const ActorId id = add(spec);
    runTo(100'000);
    const ActorFigures f = figures(id);
    EXPECT_EQ(f.processed + f.failed + f.released, 1'000);
    EXPECT_NEAR(static_cast<double>(f.processed), 700.0, 60.0);
    EXPECT_NEAR(static_cast<double>(f.failed), 200.0, 50.0);
    EXPECT_NEAR(static_cast<double>(f.released), 100.0, 40.0);
}

TEST_F(ConsumerTest, aPoisonMessageAlwaysFailsAndEndsInTheDeadLetterQueue)
{
    createQueue("orders-dlq");
    createQueue("orders",
                {{"VisibilityTimeout", "2"},
                 {"RedrivePolicy",
                  R"({"deadLetterTargetArn":")" + broker.arnForName("orders-dlq")
                      + R"(","maxReceiveCount":3})"}});
    send("orders", "ok-1");
    send("orders", "POISON-2");
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 500));
    spec.poison = "^POISON";
    const ActorId id = add(spec);
    runTo(20'000);
    const ActorFigures f = figures(id);
    EXPECT_EQ(f.processed, 1);
    EXPECT_EQ(f.failed, 3);
    EXPECT_EQ(f.poisoned, 3);
    EXPECT_EQ(countOf(EventKind::MovedToDeadLetterQueue), 1u);
    ASSERT_EQ(messages("orders-dlq").size(), 1u);
    EXPECT_EQ(messages("orders-dlq")[0].body, "POISON-2");
}

TEST_F(ConsumerTest, heartbeatExtendsAtExactlyItsTimesUpToItsMaximum)
{
    createQueue("orders");
    send("orders", "a");
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 40'000));
    spec.receive.visibilityTimeout = 10;
    spec.heartbeat = Heartbeat{.extendBy = 10, .every = 5'000, .maximum = 30};
    const ActorId id = add(spec);
    runTo(45'000);
    // At 25 s the maximum leaves 5 s, which would not move visible-at (30 s) later.
    EXPECT_EQ(timesOf(EventKind::VisibilityChanged),
              (std::vector<Millis>{5'000, 10'000, 15'000, 20'000}));
    std::vector<Millis> deadlines;
    for (const Event& e : eventsOf(EventKind::VisibilityChanged))
        deadlines.push_back(e.deadline - kStart);
    EXPECT_EQ(deadlines, (std::vector<Millis>{15'000, 20'000, 25'000, 30'000}));
    EXPECT_EQ(timesOf(EventKind::VisibilityExpired), (std::vector<Millis>{30'000}));
    EXPECT_EQ(figures(id).heartbeats, 4);
}

TEST_F(ConsumerTest, heartbeatKeepsASlowMessageHiddenUntilItIsDone)
{
    createQueue("orders");
    send("orders", "a");
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 40'000));
    spec.workers = 2;
    spec.receive.visibilityTimeout = 10;
    spec.heartbeat = Heartbeat{.extendBy = 10, .every = 5'000, .maximum = 300};
    const ActorId id = add(spec);
    runTo(45'000);
    EXPECT_EQ(timesOf(EventKind::VisibilityChanged),
              (std::vector<Millis>{5'000, 10'000, 15'000, 20'000, 25'000, 30'000, 35'000}));
    EXPECT_EQ(countOf(EventKind::VisibilityExpired), 0u);
    EXPECT_EQ(timesOf(EventKind::MessageDeleted), (std::vector<Millis>{40'000}));
    EXPECT_EQ(figures(id).processedMoreThanOnce, 0);
}

TEST_F(ConsumerTest, aVisibilityTimeoutShorterThanProcessingGivesDuplicateProcessing)
{
    createQueue("orders", {{"VisibilityTimeout", "2"}});
    send("orders", "a");
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 5'000));
    spec.workers = 2;
    const ActorId id = add(spec);
    runTo(10'000);
    // Worker 1 holds it from 0; its visibility ends at 2 s and worker 2's long poll gets it.
    const auto received = eventsOf(EventKind::MessageReceived);
    ASSERT_EQ(received.size(), 2u);
    EXPECT_EQ(received[0].origin, "consumer worker/1");
    EXPECT_EQ(received[1].origin, "consumer worker/2");
    EXPECT_EQ(received[1].time - kStart, 2'000);
    const ActorFigures f = figures(id);
    EXPECT_EQ(f.processed, 2);
    EXPECT_EQ(f.processedMoreThanOnce, 1);
}

TEST_F(ConsumerTest, aLongEnoughVisibilityTimeoutGivesNoDuplicates)
{
    createQueue("orders", {{"VisibilityTimeout", "10"}});
    for (int i = 0; i < 20; ++i)
        send("orders", "m" + std::to_string(i));
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 5'000));
    spec.workers = 4;
    const ActorId id = add(spec);
    runTo(60'000);
    EXPECT_EQ(figures(id).processed, 20);
    EXPECT_EQ(figures(id).processedMoreThanOnce, 0);
}

TEST_F(ConsumerTest, aLongPollWaitsInEngineTimeAndEndsEmptyAtItsWaitTime)
{
    createQueue("orders");
    const ActorId id = add(longPolling(consumer("worker", "orders", 1'000)));
    runTo(20'000 - 1);
    EXPECT_EQ(figures(id).receives, 0);
    EXPECT_EQ(broker.pendingWaits(), 1u);
    runTo(20'000);
    EXPECT_EQ(figures(id).receives, 1);
    EXPECT_EQ(figures(id).emptyReceives, 1);
    EXPECT_EQ(broker.pendingWaits(), 1u); // the next one, at once
    runTo(27'000);
    send("orders", "a");
    EXPECT_EQ(timesOf(EventKind::MessageReceived), (std::vector<Millis>{27'000}));
    runTo(28'000);
    EXPECT_EQ(timesOf(EventKind::MessageDeleted), (std::vector<Millis>{28'000}));
    EXPECT_EQ(figures(id).emptyReceives, 1);
}

TEST_F(ConsumerTest, theQueuesOwnWaitTimeMakesALongPoll)
{
    createQueue("orders", {{"ReceiveMessageWaitTimeSeconds", "5"}});
    const ActorId id = add(consumer("worker", "orders", 1'000));
    runTo(60'000 - 1);
    EXPECT_EQ(figures(id).emptyReceives, 11); // at 5, 10, ... 55 s
}

TEST_F(ConsumerTest, shortPollsCountEmptyReceivesAtTheirIdleInterval)
{
    createQueue("orders");
    ConsumerSpec spec = consumer("worker", "orders", 1'000);
    spec.receive.waitTimeSeconds = 0;
    const ActorId id = add(spec);
    spec.name = "eager";
    spec.receive.idle = 250;
    const ActorId eager = add(spec);
    runTo(10'000 - 1);
    EXPECT_EQ(figures(id).receives, 10);
    EXPECT_EQ(figures(id).emptyReceives, 10);
    EXPECT_EQ(figures(eager).emptyReceives, 40);
}

TEST_F(ConsumerTest, busyWorkersCountWorkersHoldingMessages)
{
    createQueue("orders");
    send("orders", "a");
    send("orders", "b");
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 5'000));
    spec.workers = 3;
    const ActorId id = add(spec);
    runTo(1'000);
    EXPECT_EQ(figures(id).busyWorkers, 2);
    runTo(6'000);
    EXPECT_EQ(figures(id).busyWorkers, 0);
    EXPECT_EQ(figures(id).processed, 2);
}

TEST_F(ConsumerTest, sendToProcessedTimesHaveTheirMeanAndMaximum)
{
    createQueue("orders");
    send("orders", "a");
    runTo(2'000);
    send("orders", "b");
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 1'000));
    spec.startAfter = 2'000;
    const ActorId id = add(spec);
    runTo(10'000);
    // a: sent 0, done 5 s; b: sent 2 s, done 6 s.
    EXPECT_EQ(figures(id).latencyMax, 5'000);
    EXPECT_EQ(figures(id).latencyMean(), 4'500.0);
}

TEST_F(ConsumerTest, ociConsumerTakesUpToTwentyAndFiltersByChannel)
{
    createQueue("jobs", {}, /*oci=*/true);
    for (int i = 0; i < 25; ++i) {
        auto sent = broker.sendMessage(engine::SendMessageRequest{
            .queue = "jobs", .body = "j" + std::to_string(i), .channelId = i % 5 == 0 ? "b" : "a"});
        ASSERT_TRUE(sent.ok());
    }
    ConsumerSpec spec = consumer("a-worker", "jobs", 100);
    spec.receive.maxMessages = 20;
    spec.receive.channelFilter = "a";
    const ActorId id = add(spec);
    runTo(1'000);
    EXPECT_EQ(figures(id).received, 20);
    runTo(60'000);
    EXPECT_EQ(figures(id).processed, 20);
    EXPECT_EQ(broker.channelStats("jobs", "b")->available, 5);
    // OCI's default long poll is 30 s: one empty receive since the first at 0 + 2 s of work.
    EXPECT_EQ(figures(id).emptyReceives, 1);
}

TEST_F(ConsumerTest, fifoGroupsAreProcessedInOrderAndBlockWhileTheirHeadIsInFlight)
{
    createQueue("payments.fifo", {{"ContentBasedDeduplication", "true"}});
    std::map<std::string, std::vector<std::string>> sentByGroup;
    for (int i = 1; i <= 6; ++i) {
        const std::string group = i % 2 == 0 ? "even" : "odd";
        auto sent = broker.sendMessage(engine::SendMessageRequest{
            .queue = "payments.fifo", .body = "p" + std::to_string(i), .groupId = group});
        ASSERT_TRUE(sent.ok());
        sentByGroup[group].push_back(sent->messageId);
    }
    ConsumerSpec spec = longPolling(consumer("worker", "payments.fifo", 1'000));
    spec.workers = 3;
    const ActorId id = add(spec);
    runTo(10'000);
    // Two groups, three workers: two at a time (one per group), each group in its order.
    EXPECT_EQ(timesOf(EventKind::MessageReceived),
              (std::vector<Millis>{0, 0, 1'000, 1'000, 2'000, 2'000}));
    std::map<std::string, std::vector<std::string>> deletedByGroup;
    for (const Event& e : eventsOf(EventKind::MessageDeleted))
        for (const auto& [group, ids] : sentByGroup)
            if (std::find(ids.begin(), ids.end(), e.messageId) != ids.end())
                deletedByGroup[group].push_back(e.messageId.str());
    EXPECT_EQ(deletedByGroup, sentByGroup);
    EXPECT_EQ(figures(id).processed, 6);
    EXPECT_EQ(figures(id).processedMoreThanOnce, 0);
}

TEST_F(ConsumerTest, aLostAnswerIsAskedForAgainWithTheSameAttemptId)
{
    createQueue("payments.fifo", {{"ContentBasedDeduplication", "true"}});
    auto sent = broker.sendMessage(
        engine::SendMessageRequest{.queue = "payments.fifo", .body = "p1", .groupId = "g"});
    ASSERT_TRUE(sent.ok());
    ConsumerSpec spec = longPolling(consumer("worker", "payments.fifo", 1'000));
    spec.receive.attemptIds = true;
    spec.receive.lostAnswerProbability = 1.0;
    const ActorId id = add(spec);
    runTo(3'500);
    // One delivery; the asks at 1 s, 2 s and 3 s replay it (same receipt, visibility restarted).
    ASSERT_EQ(countOf(EventKind::MessageReceived), 1u);
    const auto replays = eventsOf(EventKind::VisibilityChanged);
    ASSERT_EQ(replays.size(), 3u);
    EXPECT_EQ(replays[0].time - kStart, 1'000);
    EXPECT_EQ(replays[0].receipt, eventsOf(EventKind::MessageReceived)[0].receipt);
    EXPECT_NE(replays[0].detail.find("ReceiveRequestAttemptId worker-1-1 replayed"),
              std::string::npos);
    EXPECT_EQ(figures(id).lostAnswers, 4);
    EXPECT_EQ(figures(id).processed, 0);
}

TEST_F(ConsumerTest, theShortPollOfAQueueAtItsInFlightLimitIsOverLimit)
{
    engine::BrokerOptions options = fixedOptions();
    options.inFlightLimitStandard = 5;
    engine::Broker limited(clock, options);
    Simulation limitedSim(limited, 1);
    ASSERT_TRUE(limited.createQueue(engine::CreateQueueRequest{.name = "orders"}).ok());
    for (int i = 0; i < 20; ++i)
        ASSERT_TRUE(limited.sendMessage({.queue = "orders", .body = "m"}).ok());
    ConsumerSpec spec = consumer("hoarder", "orders", 0);
    spec.receive.waitTimeSeconds = 0;
    spec.receive.maxMessages = 10;
    spec.outcomes = Outcomes{.succeed = 0, .fail = 1};
    const auto id = limitedSim.addActor(spec);
    ASSERT_TRUE(id.ok());
    limitedSim.runUntil(clock, kStart + 3'500);
    const ActorFigures f = limitedSim.actor(*id)->figures;
    EXPECT_EQ(f.received, 5);
    EXPECT_EQ(f.receiveErrors, 4); // at once, then at 1, 2 and 3 s
    EXPECT_NE(f.lastError.find("OverLimit"), std::string::npos);
}

TEST_F(ConsumerTest, pauseMovesTheWorkInProgressByThePause)
{
    createQueue("orders", {{"VisibilityTimeout", "60"}});
    send("orders", "a");
    const ActorId id = add(longPolling(consumer("worker", "orders", 10'000)));
    runTo(2'000);
    ASSERT_TRUE(sim.pauseActor(id).ok());
    EXPECT_EQ(sim.actor(id)->state, ActorState::Paused);
    EXPECT_FALSE(sim.nextDeadline());
    runTo(7'000);
    ASSERT_TRUE(sim.resumeActor(id).ok());
    runTo(20'000);
    EXPECT_EQ(timesOf(EventKind::MessageDeleted), (std::vector<Millis>{15'000}));
}

TEST_F(ConsumerTest, anAnswerDuringAPauseIsProcessedFromTheResume)
{
    createQueue("orders");
    const ActorId id = add(longPolling(consumer("worker", "orders", 1'000)));
    runTo(1'000);
    ASSERT_TRUE(sim.pauseActor(id).ok());
    send("orders", "a"); // the long poll, still waiting in the engine, takes it
    EXPECT_EQ(timesOf(EventKind::MessageReceived), (std::vector<Millis>{1'000}));
    runTo(4'000);
    ASSERT_TRUE(sim.resumeActor(id).ok());
    runTo(10'000);
    EXPECT_EQ(timesOf(EventKind::MessageDeleted), (std::vector<Millis>{5'000}));
}

TEST_F(ConsumerTest, stopCancelsTheLongPollAndAbandonsWhatItHolds)
{
    createQueue("orders", {{"VisibilityTimeout", "5"}});
    send("orders", "a");
    ConsumerSpec spec = longPolling(consumer("worker", "orders", 10'000));
    spec.workers = 2;
    const ActorId id = add(spec);
    runTo(1'000);
    EXPECT_EQ(broker.pendingWaits(), 1u);
    ASSERT_TRUE(sim.stopActor(id).ok());
    EXPECT_EQ(broker.pendingWaits(), 0u);
    EXPECT_EQ(figures(id).busyWorkers, 0);
    runTo(20'000);
    EXPECT_EQ(timesOf(EventKind::VisibilityExpired), (std::vector<Millis>{5'000}));
    EXPECT_EQ(countOf(EventKind::MessageDeleted), 0u);
    ASSERT_TRUE(sim.startActor(id).ok());
    runTo(31'000);
    EXPECT_EQ(timesOf(EventKind::MessageDeleted), (std::vector<Millis>{30'000}));
}

} // namespace
} // namespace inflight::sim::testing
