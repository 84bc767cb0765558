// The Simulation (simulation.h): adding actors and what it refuses, the lifecycle of one actor,
// deadlines and their order, runDue and runUntil, and determinism — the same seed gives the same
// engine event sequence.
#include "sim_fixture.h"

namespace inflight::sim::testing {
namespace {

using engine::ErrorCode;

class SimulationTest : public SimTest {};

// A busy little system: every kind of queue and most of what actors can do, with randomness.
std::vector<std::string> runWorld(std::uint64_t seed)
{
    engine::ManualClock clock(kStart);
    engine::Broker broker(clock, fixedOptions());
    std::vector<std::string> lines;
    broker.setEventSink([&](std::span<Event> batch) {
        for (const Event& e : batch)
            lines.push_back(line(e));
    });
    (void)broker.createQueue({.name = "orders-dlq"});
    (void)broker.createQueue(
        {.name = "orders",
         .attributes = {{"VisibilityTimeout", "3"},
                        {"RedrivePolicy",
                         R"({"deadLetterTargetArn":")" + broker.arnForName("orders-dlq")
                             + R"(","maxReceiveCount":4})"}}});
    (void)broker.createQueue(
        {.name = "payments.fifo",
         .attributes = {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}}});
    (void)broker.createQueue({.name = "jobs", .oci = true});

    Simulation sim(broker, seed);
    ProducerSpec orders = producer("orders-feed", "orders", 4);
    orders.arrivals = Arrivals::Poisson;
    orders.body = R"({"id": "{uuid}", "kind": "{choice:book|pen|POISON}"})";
    orders.retryProbability = 0.1;
    EXPECT_TRUE(sim.addActor(orders).ok());
    ConsumerSpec workers = consumer("orders-worker", "orders", 0);
    workers.workers = 3;
    workers.processing = Duration{Duration::Kind::Exponential, 1'500, 0};
    workers.outcomes = Outcomes{.succeed = 0.8, .fail = 0.1, .crash = 0.05, .release = 0.05};
    workers.poison = "POISON";
    workers.receive.waitTimeSeconds = 20;
    workers.heartbeat = Heartbeat{.extendBy = 3, .every = 2'000, .maximum = 10};
    EXPECT_TRUE(sim.addActor(workers).ok());
    ProducerSpec payments = producer("payments-feed", "payments.fifo", 3);
    payments.groupId = "customer-{n%4}";
    payments.body = "payment {n} {uuid}";
    payments.batchSize = 3;
    payments.retryProbability = 0.3;
    EXPECT_TRUE(sim.addActor(payments).ok());
    ConsumerSpec billing = consumer("billing", "payments.fifo", 0);
    billing.workers = 2;
    billing.processing = Duration{Duration::Kind::Uniform, 200, 1'200};
    billing.receive.maxMessages = 10;
    billing.receive.attemptIds = true;
    billing.receive.lostAnswerProbability = 0.1;
    EXPECT_TRUE(sim.addActor(billing).ok());
    ProducerSpec jobs = producer("jobs-feed", "jobs", 2);
    jobs.channel = "tenant-{n%3}";
    EXPECT_TRUE(sim.addActor(jobs).ok());
    ConsumerSpec runner = consumer("runner", "jobs", 700);
    runner.receive.maxMessages = 20;
    runner.receive.waitTimeSeconds = 0;
    runner.receive.idle = 500;
    EXPECT_TRUE(sim.addActor(runner).ok());

    sim.runUntil(clock, kStart + 120'000);
    return lines;
}

TEST_F(SimulationTest, theSameSeedGivesTheSameEventSequence)
{
    const auto first = runWorld(3);
    const auto second = runWorld(3);
    EXPECT_GT(first.size(), 2'000u);
    EXPECT_EQ(first, second);
}

TEST_F(SimulationTest, anotherSeedGivesAnotherSequence)
{
    EXPECT_NE(runWorld(3), runWorld(4));
}

TEST_F(SimulationTest, addActorRefusesWhatCannotWork)
{
    createQueue("orders");
    createQueue("payments.fifo");
    const auto refused = [&](const ActorSpec& spec, ErrorCode code, const std::string& field) {
        auto added = sim.addActor(spec);
        ASSERT_FALSE(added.ok()) << field;
        EXPECT_EQ(added.error().code, code) << engine::describe(added.error());
        EXPECT_EQ(added.error().parameter, field) << engine::describe(added.error());
    };
    refused(producer("feed", "nowhere", 1), ErrorCode::QueueDoesNotExist, "queue");
    refused(producer("bad name", "orders", 1), ErrorCode::InvalidParameterValue, "name");
    refused(producer("feed", "orders", 0), ErrorCode::InvalidParameterValue, "rate");
    ProducerSpec spec = producer("feed", "orders", 1);
    spec.body = "order {nn}";
    refused(spec, ErrorCode::InvalidParameterValue, "body");
    spec = producer("feed", "orders", 1);
    spec.channel = "c";
    refused(spec, ErrorCode::InvalidParameterValue, "channel");
    refused(producer("feed", "payments.fifo", 1), ErrorCode::InvalidParameterValue, "groupId");
    spec = producer("feed", "payments.fifo", 1);
    spec.groupId = "g";
    refused(spec, ErrorCode::InvalidParameterValue, "deduplicationId");
    ConsumerSpec c = consumer("worker", "orders", 1'000);
    c.outcomes = Outcomes{.succeed = 0.5, .fail = 0.2};
    refused(c, ErrorCode::InvalidParameterValue, "outcomes");
    c = consumer("worker", "orders", 1'000);
    c.receive.maxMessages = 11;
    refused(c, ErrorCode::InvalidParameterValue, "receive.maxMessages");
    c = consumer("worker", "orders", 1'000);
    c.poison = "(";
    refused(c, ErrorCode::InvalidParameterValue, "poison");
    c = consumer("worker", "orders", 1'000);
    c.heartbeat = Heartbeat{.extendBy = 0};
    refused(c, ErrorCode::InvalidParameterValue, "heartbeat.extendBySeconds");

    add(producer("feed", "orders", 1));
    refused(consumer("feed", "orders", 1), ErrorCode::InvalidParameterValue, "name");
    EXPECT_EQ(sim.actors().size(), 1u);
}

TEST_F(SimulationTest, nextDeadlineIsTheEarliestActionOfARunningActor)
{
    createQueue("orders");
    EXPECT_FALSE(sim.nextDeadline());
    ProducerSpec spec = producer("feed", "orders", 1);
    spec.startAfter = 5'000;
    const ActorId id = add(spec);
    EXPECT_EQ(sim.nextDeadline(), kStart + 5'000);
    ASSERT_TRUE(sim.stopActor(id).ok());
    EXPECT_FALSE(sim.nextDeadline());
}

TEST_F(SimulationTest, actionsDueTogetherRunInTheOrderTheActorsWereAdded)
{
    createQueue("orders");
    for (const char* name : {"c-feed", "a-feed", "b-feed"}) {
        ProducerSpec spec = producer(name, "orders", 1);
        spec.total = 2;
        add(spec);
    }
    runTo(1'000);
    std::vector<std::string> origins;
    for (const Event& e : eventsOf(EventKind::MessageSent))
        origins.push_back(e.origin);
    EXPECT_EQ(origins,
              (std::vector<std::string>{"producer c-feed", "producer a-feed", "producer b-feed",
                                        "producer c-feed", "producer a-feed", "producer b-feed"}));
}

TEST_F(SimulationTest, runDueCatchesUpOnEverythingDueByNow)
{
    createQueue("orders");
    const ActorId id = add(producer("feed", "orders", 10));
    clock.set(kStart + 1'050);
    EXPECT_EQ(sim.runDue(clock.now()), 11u);
    EXPECT_EQ(figures(id).sent, 11);
    EXPECT_EQ(sim.nextDeadline(), kStart + 1'100);
}

TEST_F(SimulationTest, runUntilLeavesTheClockAtItsEnd)
{
    createQueue("orders");
    add(producer("feed", "orders", 1));
    runTo(2'500);
    EXPECT_EQ(clock.now(), kStart + 2'500);
    runTo(2'500);
    EXPECT_EQ(countOf(EventKind::MessageSent), 3u);
}

TEST_F(SimulationTest, anActorAddedStoppedStartsWhenToldAndPausesAndResumes)
{
    createQueue("orders");
    ProducerSpec spec = producer("feed", "orders", 1);
    spec.autoStart = false;
    const ActorId id = add(spec);
    EXPECT_EQ(sim.actor(id)->state, ActorState::Stopped);
    runTo(3'000);
    EXPECT_EQ(figures(id).sent, 0);
    ASSERT_TRUE(sim.startActor(id).ok());
    runTo(5'500); // 3, 4, 5 s
    ASSERT_TRUE(sim.pauseActor(id).ok());
    runTo(8'500);
    ASSERT_TRUE(sim.resumeActor(id).ok()); // the send due at 6 s moves to 9 s
    runTo(10'000);
    EXPECT_EQ(timesOf(EventKind::MessageSent),
              (std::vector<Millis>{3'000, 4'000, 5'000, 9'000, 10'000}));
}

TEST_F(SimulationTest, editKeepsTheFiguresAndRestartsWithTheNewSpec)
{
    createQueue("orders");
    createQueue("other");
    const ActorId id = add(producer("feed", "orders", 1));
    runTo(2'500);
    ProducerSpec faster = producer("feed", "other", 2);
    ASSERT_TRUE(sim.editActor(id, faster).ok());
    runTo(4'000);
    EXPECT_EQ(figures(id).sent, 3 + 4); // 0..2 s to orders, then 2.5, 3, 3.5, 4 s to other
    EXPECT_EQ(messages("other").size(), 4u);
    EXPECT_EQ(std::get<ProducerSpec>(sim.actor(id)->spec).rate, 2.0);

    auto kind = sim.editActor(id, consumer("feed", "orders", 1));
    ASSERT_FALSE(kind.ok());
    EXPECT_EQ(kind.error().parameter, "type");
}

TEST_F(SimulationTest, removeStopsAndForgetsTheActor)
{
    createQueue("orders");
    const ActorId id = add(longPolling(consumer("worker", "orders", 1)));
    runTo(1'000);
    EXPECT_EQ(broker.pendingWaits(), 1u);
    ASSERT_TRUE(sim.removeActor(id).ok());
    EXPECT_EQ(broker.pendingWaits(), 0u);
    EXPECT_FALSE(sim.actor(id));
    EXPECT_FALSE(sim.findActor("worker"));
    const auto again = sim.removeActor(id);
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().code, ErrorCode::ResourceNotFound);
    add(consumer("worker", "orders", 1)); // the name is free again
}

} // namespace
} // namespace inflight::sim::testing
