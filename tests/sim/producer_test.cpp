// Producers (actor_spec.h, ProducerSpec) on a manual clock: constant and Poisson rates, bursts,
// totals, templates, FIFO groups and deduplication with retries, batches, delays, OCI channels.
#include "sim_fixture.h"

#include "sim/iso_time.h"

#include <cmath>
#include <map>
#include <set>

namespace inflight::sim::testing {
namespace {

class ProducerTest : public SimTest {};

TEST_F(ProducerTest, constantRateSendsEvenlySpacedFromTheStart)
{
    createQueue("orders");
    const ActorId id = add(producer("orders-feed", "orders", 5));
    runTo(10'000 - 1);
    EXPECT_EQ(figures(id).sent, 50);
    const auto times = timesOf(EventKind::MessageSent);
    ASSERT_EQ(times.size(), 50u);
    for (std::size_t i = 0; i < times.size(); ++i)
        EXPECT_EQ(times[i], static_cast<Millis>(i) * 200);
    runTo(10'000);
    EXPECT_EQ(figures(id).sent, 51); // the one due exactly at 10 s
}

TEST_F(ProducerTest, constantRateKeepsItsAverageWhenTheGapIsNotWholeMilliseconds)
{
    createQueue("orders");
    const ActorId id = add(producer("orders-feed", "orders", 3)); // every 333.33 ms
    runTo(60'000 - 1);
    EXPECT_EQ(figures(id).sent, 180);
    const auto times = timesOf(EventKind::MessageSent);
    EXPECT_EQ(times[1], 333);
    EXPECT_EQ(times[2], 667);
    EXPECT_EQ(times[3], 1000);
}

TEST_F(ProducerTest, poissonArrivalsCountAboutRateTimesTimeWithPoissonSpread)
{
    createQueue("orders");
    ProducerSpec spec = producer("orders-feed", "orders", 10);
    spec.arrivals = Arrivals::Poisson;
    const ActorId id = add(spec);
    runTo(1'000'000 - 1);
    const double sent = static_cast<double>(figures(id).sent);
    EXPECT_NEAR(sent, 10'000.0, 4 * std::sqrt(10'000.0));
    // Per second: mean 10 and a variance near the mean (a constant rate has none).
    std::map<Millis, int> perSecond;
    for (Millis t : timesOf(EventKind::MessageSent))
        ++perSecond[t / 1000];
    double sum = 0, squares = 0;
    for (Millis s = 0; s < 1000; ++s) {
        const double n = perSecond.count(s) ? perSecond[s] : 0;
        sum += n;
        squares += n * n;
    }
    const double mean = sum / 1000;
    const double variance = squares / 1000 - mean * mean;
    EXPECT_NEAR(mean, 10.0, 0.5);
    EXPECT_GT(variance / mean, 0.8);
    EXPECT_LT(variance / mean, 1.2);
}

TEST_F(ProducerTest, burstsComeOnTopOfTheRate)
{
    createQueue("orders");
    ProducerSpec spec = producer("orders-feed", "orders", 1);
    spec.bursts = Bursts{.every = 10'000, .messages = 5, .first = 5'000};
    const ActorId id = add(spec);
    runTo(20'000 - 1);
    EXPECT_EQ(figures(id).sent, 20 + 2 * 5);
    const auto times = timesOf(EventKind::MessageSent);
    EXPECT_EQ(std::count(times.begin(), times.end(), 5'000), 6); // the arrival, then 5
    EXPECT_EQ(std::count(times.begin(), times.end(), 15'000), 6);
}

TEST_F(ProducerTest, totalEndsTheProducerFinished)
{
    createQueue("orders");
    ProducerSpec spec = producer("orders-feed", "orders", 2);
    spec.total = 7;
    spec.bursts = Bursts{.every = 100'000, .messages = 3, .first = 1'000};
    const ActorId id = add(spec);
    runTo(100'000);
    EXPECT_EQ(figures(id).sent, 7);
    EXPECT_EQ(sim.actor(id)->state, ActorState::Finished);
    EXPECT_FALSE(sim.nextDeadline());
}

TEST_F(ProducerTest, bodyTemplateRendersNumberModuloChoiceTimeAndUuid)
{
    createQueue("orders");
    ProducerSpec spec = producer("orders-feed", "orders", 1);
    spec.total = 3;
    spec.body = R"({"order": {n}, "shard": {n%2}, "colour": "{choice:red|red}", "at": "{time}", )"
                R"("id": "{uuid}"})";
    add(spec);
    runTo(5'000);
    const auto stored = messages("orders");
    ASSERT_EQ(stored.size(), 3u);
    EXPECT_EQ(stored[1].body.substr(0, 54),
              R"({"order": 2, "shard": 0, "colour": "red", "at": "2023-)");
    EXPECT_NE(stored[1].body.find(formatIsoTime(kStart + 1'000)), std::string::npos);
    const std::string uuid = stored[0].body.substr(stored[0].body.size() - 38, 36);
    EXPECT_EQ(uuid.size(), 36u);
    EXPECT_EQ(uuid[14], '4');
    EXPECT_NE(stored[0].body, stored[2].body);
}

TEST_F(ProducerTest, uuidsComeFromTheSeed)
{
    const auto bodies = [](std::uint64_t seed) {
        engine::ManualClock clock(kStart);
        engine::Broker broker(clock, fixedOptions());
        (void)broker.createQueue(engine::CreateQueueRequest{.name = "orders"});
        Simulation sim(broker, seed);
        ProducerSpec spec = producer("orders-feed", "orders", 1);
        spec.total = 3;
        spec.body = "{uuid}";
        (void)sim.addActor(spec);
        sim.runUntil(clock, kStart + 5'000);
        std::vector<std::string> result;
        const auto stored = broker.peekMessages("orders");
        for (const auto& m : *stored)
            result.push_back(m.body);
        return result;
    };
    EXPECT_EQ(bodies(1), bodies(1));
    EXPECT_NE(bodies(1), bodies(2));
}

TEST_F(ProducerTest, attributesAreRenderedPerMessage)
{
    createQueue("orders");
    ProducerSpec spec = producer("orders-feed", "orders", 1);
    spec.total = 2;
    spec.attributes["kind"] = AttributeTemplate{"String", "order"};
    spec.attributes["number"] = AttributeTemplate{"Number", "{n}"};
    spec.attributes["raw"] = AttributeTemplate{"Binary", std::string("\x01\x02", 2)};
    add(spec);
    runTo(5'000);
    const auto stored = messages("orders");
    ASSERT_EQ(stored.size(), 2u);
    EXPECT_EQ(stored[1].attributes.at("kind").stringValue, "order");
    EXPECT_EQ(stored[1].attributes.at("number").stringValue, "2");
    EXPECT_EQ(stored[1].attributes.at("number").dataType, "Number");
    EXPECT_EQ(stored[1].attributes.at("raw").binaryValue, std::string("\x01\x02", 2));
}

TEST_F(ProducerTest, eventsCarryTheProducersOrigin)
{
    createQueue("orders");
    ProducerSpec spec = producer("orders-feed", "orders", 1);
    spec.total = 1;
    add(spec);
    runTo(1'000);
    ASSERT_EQ(countOf(EventKind::MessageSent), 1u);
    EXPECT_EQ(eventsOf(EventKind::MessageSent)[0].origin, "producer orders-feed");
}

TEST_F(ProducerTest, fifoGroupPatternSpreadsMessagesOverGroups)
{
    createQueue("payments.fifo", {{"ContentBasedDeduplication", "true"}});
    ProducerSpec spec = producer("payments-feed", "payments.fifo", 10);
    spec.total = 10;
    spec.groupId = "customer-{n%5}";
    add(spec);
    runTo(2'000);
    const auto stored = messages("payments.fifo");
    ASSERT_EQ(stored.size(), 10u);
    for (std::size_t i = 0; i < stored.size(); ++i)
        EXPECT_EQ(stored[i].groupId, "customer-" + std::to_string((i + 1) % 5));
    EXPECT_EQ(broker.peekGroups("payments.fifo")->size(), 5u);
}

TEST_F(ProducerTest, retriesWithTheSameDeduplicationIdAreDeduplicated)
{
    createQueue("payments.fifo");
    ProducerSpec spec = producer("payments-feed", "payments.fifo", 1);
    spec.total = 4;
    spec.groupId = "g";
    spec.deduplicationId = "payment-{n}";
    spec.retryProbability = 1.0;
    spec.retryAfter = 2'500;
    const ActorId id = add(spec);
    runTo(10'000);
    EXPECT_EQ(figures(id).sent, 4);
    EXPECT_EQ(figures(id).retries, 4);
    EXPECT_EQ(figures(id).deduplicated, 4);
    EXPECT_EQ(timesOf(EventKind::MessageDeduplicated),
              (std::vector<Millis>{2'500, 3'500, 4'500, 5'500}));
    EXPECT_EQ(messages("payments.fifo").size(), 4u);
    EXPECT_EQ(sim.actor(id)->state, ActorState::Finished);
}

TEST_F(ProducerTest, contentBasedDeduplicationCatchesTheRetryToo)
{
    createQueue("payments.fifo", {{"ContentBasedDeduplication", "true"}});
    ProducerSpec spec = producer("payments-feed", "payments.fifo", 1);
    spec.total = 3;
    spec.groupId = "g";
    spec.retryProbability = 1.0;
    const ActorId id = add(spec);
    runTo(10'000);
    EXPECT_EQ(figures(id).sent, 3);
    EXPECT_EQ(figures(id).deduplicated, 3);
}

TEST_F(ProducerTest, aStandardQueueStoresTheRetryAgain)
{
    createQueue("orders");
    ProducerSpec spec = producer("orders-feed", "orders", 1);
    spec.total = 3;
    spec.retryProbability = 1.0;
    const ActorId id = add(spec);
    runTo(10'000);
    EXPECT_EQ(figures(id).sent, 6);
    EXPECT_EQ(figures(id).retries, 3);
    EXPECT_EQ(messages("orders").size(), 6u);
}

TEST_F(ProducerTest, retryProbabilityRetriesAboutThatShare)
{
    createQueue("orders");
    ProducerSpec spec = producer("orders-feed", "orders", 100);
    spec.total = 2'000;
    spec.retryProbability = 0.25;
    const ActorId id = add(spec);
    runTo(30'000);
    EXPECT_NEAR(static_cast<double>(figures(id).retries), 500.0,
                4 * std::sqrt(2'000 * 0.25 * 0.75));
}

TEST_F(ProducerTest, batchSizeSendsBatchesAtRateOverBatchSize)
{
    createQueue("orders");
    ProducerSpec spec = producer("orders-feed", "orders", 10);
    spec.batchSize = 5;
    const ActorId id = add(spec);
    runTo(2'000 - 1);
    EXPECT_EQ(figures(id).sent, 20);
    EXPECT_EQ(timesOf(EventKind::MessageSent),
              (std::vector<Millis>{0,    0,    0,    0,    0,    500,  500,  500,  500,  500,
                                   1000, 1000, 1000, 1000, 1000, 1500, 1500, 1500, 1500, 1500}));
}

TEST_F(ProducerTest, theLastBatchHoldsWhatIsLeftOfTheTotal)
{
    createQueue("orders");
    ProducerSpec spec = producer("orders-feed", "orders", 10);
    spec.batchSize = 4;
    spec.total = 10;
    const ActorId id = add(spec);
    runTo(5'000);
    EXPECT_EQ(figures(id).sent, 10);
    const auto times = timesOf(EventKind::MessageSent);
    EXPECT_EQ(std::count(times.begin(), times.end(), 800), 2);
}

TEST_F(ProducerTest, aBatchEntryTheEngineRefusesCountsAsAnError)
{
    createQueue("orders", {{"MaximumMessageSize", "1024"}});
    ProducerSpec spec = producer("orders-feed", "orders", 2);
    spec.batchSize = 2;
    spec.total = 2;
    spec.body = "{choice:small|" + std::string(2'000, 'x') + "}";
    const ActorId id = add(spec);
    runTo(5'000);
    EXPECT_EQ(figures(id).sent + figures(id).sendErrors, 2);
    EXPECT_NE(figures(id).lastError.find("InvalidParameterValue"), std::string::npos);
}

TEST_F(ProducerTest, perMessageDelayHoldsMessagesBack)
{
    createQueue("orders");
    ProducerSpec spec = producer("orders-feed", "orders", 1);
    spec.total = 2;
    spec.delaySeconds = 5;
    add(spec);
    runTo(10'000);
    EXPECT_EQ(timesOf(EventKind::DelayEnded), (std::vector<Millis>{5'000, 6'000}));
}

TEST_F(ProducerTest, ociChannelPatternFillsChannels)
{
    createQueue("jobs", {}, /*oci=*/true);
    ProducerSpec spec = producer("jobs-feed", "jobs", 10);
    spec.total = 6;
    spec.channel = "tenant-{n%3}";
    spec.batchSize = 3;
    const ActorId id = add(spec);
    runTo(2'000);
    EXPECT_EQ(figures(id).sent, 6);
    EXPECT_EQ(*broker.listChannels("jobs", ""),
              (std::vector<std::string>{"tenant-0", "tenant-1", "tenant-2"}));
}

} // namespace
} // namespace inflight::sim::testing
