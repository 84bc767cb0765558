// Scenario files (scenario.h): a round trip through writeScenario, applying one (queues, then
// actors), and every kind of bad file refused with its line, column and field path — by the
// reader or when applied — with nothing applied.
#include "sim/scenario.h"

#include "sim_fixture.h"

#include <initializer_list>

namespace inflight::sim::testing {
namespace {

using engine::ErrorCode;

// The lines of a file, so that a test reads with its line numbers.
std::string lines(std::initializer_list<std::string_view> rows)
{
    std::string text;
    for (std::string_view row : rows) {
        text += row;
        text += '\n';
    }
    return text;
}

const std::string kFull = lines({
    R"({)",
    R"(  "version": 1,)",
    R"(  "title": "Everything",)",
    R"(  "notes": ["first line", "second line"],)",
    R"(  "seed": "003",)",
    R"(  "clock": {"speed": 60, "start": "2024-05-01T09:00:00.250+02:00", "paused": true},)",
    R"(  "engine": {"inFlightLimit": 500},)",
    R"(  "queues": [)",
    R"(    {"name": "orders-dlq"},)",
    R"(    {"name": "orders", "attributes": {"VisibilityTimeout": 5, "DelaySeconds": "2",)",
    R"(      "RedrivePolicy": {"maxReceiveCount": 3, "deadLetterTargetArn": "orders-dlq"}},)",
    R"(     "tags": {"team": "a"},)",
    R"(     "messages": [{"body": "hello", "attributes": {"n": 3, "raw": {"DataType": "Binary", "BinaryValue": "AQI="}}}]},)",
    R"(    {"name": "payments.fifo", "attributes": {"ContentBasedDeduplication": true}},)",
    R"(    {"name": "jobs", "type": "oci", "options": {"deadLetterQueueDeliveryCount": 2},)",
    R"(     "messages": [{"body": {"job": 1}, "channel": "c1"}]})",
    R"(  ],)",
    R"(  "actors": [)",
    R"(    {"type": "producer", "name": "orders-feed", "queue": "orders", "rate": 2.5,)",
    R"(     "arrivals": "poisson", "bursts": {"everySeconds": 60, "messages": 20},)",
    R"(     "total": 1000, "body": {"order": "{n}", "id": "{uuid}"},)",
    R"(     "attributes": {"kind": "order", "n": 7, "x": {"DataType": "String.x", "StringValue": "{n%2}"},)",
    R"(                    "b": {"DataType": "Binary", "BinaryValue": "AQI="}},)",
    R"(     "retryProbability": 0.2, "retryAfterSeconds": 1.5, "delaySeconds": 3, "batchSize": 5,)",
    R"(     "startAfterSeconds": 0.25, "autoStart": false},)",
    R"(    {"type": "producer", "name": "payments-feed", "queue": "payments.fifo",)",
    R"(     "groupId": "customer-{n%5}", "deduplicationId": "p-{n}"},)",
    R"(    {"type": "producer", "name": "jobs-feed", "queue": "jobs", "channel": "t-{n%3}", "batchSize": 20},)",
    R"(    {"type": "consumer", "name": "worker", "queue": "orders", "workers": 3,)",
    R"(     "receive": {"maxMessages": 10, "waitTimeSeconds": 20, "visibilityTimeout": 10, "idleSeconds": 0.5},)",
    R"(     "processing": {"uniform": [1, 2.5]}, "outcomes": {"fail": 0.1, "crash": 0.05, "release": 0.05},)",
    R"(     "crashDowntimeSeconds": 12, "poison": "POISON",)",
    R"(     "heartbeat": {"extendBySeconds": 10, "everySeconds": 4, "maxSeconds": 60}},)",
    R"(    {"type": "consumer", "name": "billing", "queue": "payments.fifo",)",
    R"(     "receive": {"attemptIds": true, "lostAnswerProbability": 0.1}, "processing": {"exponential": 0.5}},)",
    R"(    {"type": "consumer", "name": "runner", "queue": "jobs",)",
    R"(     "receive": {"maxMessages": 20, "channelFilter": "t-1"}, "processing": {"fixed": 0.1}})",
    R"(  ])",
    R"(})",
});

struct QueueSummary {
    std::string name;
    engine::QueueKind kind;
    engine::StringMap attributes, tags;
    std::vector<std::string> bodies;
    friend bool operator==(const QueueSummary&, const QueueSummary&) = default;
};

std::vector<QueueSummary> queuesOf(const Scenario& s)
{
    std::vector<QueueSummary> result;
    for (const config::ConfigQueue& q : s.queues.queues) {
        QueueSummary summary{q.name, q.kind, q.attributes, q.tags, {}};
        for (const config::ConfigMessage& m : q.messages) {
            std::string text = m.request.body.value_or("");
            for (const auto& [name, value] : m.request.attributes)
                text += " " + name + "=" + value.dataType + ":" + value.stringValue
                    + value.binaryValue;
            if (m.request.channelId)
                text += " @" + *m.request.channelId;
            summary.bodies.push_back(text);
        }
        result.push_back(summary);
    }
    return result;
}

std::vector<ActorSpec> specsOf(const Scenario& s)
{
    std::vector<ActorSpec> result;
    for (const ScenarioActor& a : s.actors)
        result.push_back(a.spec);
    return result;
}

Scenario parsed(std::string_view text)
{
    auto scenario = parseScenario(text);
    EXPECT_TRUE(scenario.ok()) << (scenario.ok() ? "" : scenario.error().message);
    return scenario.ok() ? std::move(*scenario) : Scenario{};
}

TEST(ScenarioFile, readsEveryField)
{
    const Scenario s = parsed(kFull);
    EXPECT_EQ(s.title, "Everything");
    EXPECT_EQ(s.notes, "first line\nsecond line");
    EXPECT_EQ(s.seed, 3u);
    EXPECT_EQ(s.clock.speed, 60.0);
    EXPECT_EQ(s.clock.start, 1'714'546'800'250); // 07:00:00.250Z
    EXPECT_TRUE(s.clock.paused);
    EXPECT_EQ(s.inFlightLimit, 500);
    ASSERT_EQ(s.queues.queues.size(), 4u);
    EXPECT_EQ(s.queues.queues[1].attributes.at("VisibilityTimeout"), "5");
    EXPECT_EQ(s.queues.queues[3].kind, engine::QueueKind::Oci);
    ASSERT_EQ(s.actors.size(), 6u);

    const auto& feed = std::get<ProducerSpec>(s.actors[0].spec);
    EXPECT_EQ(feed.rate, 2.5);
    EXPECT_EQ(feed.arrivals, Arrivals::Poisson);
    EXPECT_EQ(feed.bursts, (Bursts{.every = 60'000, .messages = 20, .first = 60'000}));
    EXPECT_EQ(feed.total, 1000);
    EXPECT_EQ(feed.body, R"({"order":"{n}","id":"{uuid}"})");
    EXPECT_EQ(feed.attributes.at("n"), (AttributeTemplate{"Number", "7"}));
    EXPECT_EQ(feed.attributes.at("x"), (AttributeTemplate{"String.x", "{n%2}"}));
    EXPECT_EQ(feed.attributes.at("b"), (AttributeTemplate{"Binary", std::string("\x01\x02", 2)}));
    EXPECT_EQ(feed.retryAfter, 1'500);
    EXPECT_EQ(feed.startAfter, 250);
    EXPECT_FALSE(feed.autoStart);

    const auto& worker = std::get<ConsumerSpec>(s.actors[3].spec);
    EXPECT_EQ(worker.workers, 3);
    EXPECT_EQ(worker.receive.idle, 500);
    EXPECT_EQ(worker.processing, (Duration{Duration::Kind::Uniform, 1'000, 2'500}));
    EXPECT_NEAR(worker.outcomes.succeed, 0.8, 1e-12);
    EXPECT_EQ(worker.crashDowntime, 12'000);
    EXPECT_EQ(worker.heartbeat, (Heartbeat{.extendBy = 10, .every = 4'000, .maximum = 60}));
    EXPECT_EQ(std::get<ConsumerSpec>(s.actors[4].spec).processing,
              (Duration{Duration::Kind::Exponential, 500, 0}));
    EXPECT_EQ(std::get<ConsumerSpec>(s.actors[5].spec).receive.channelFilter, "t-1");

    EXPECT_EQ(s.actors[3].fields.at("receive.maxMessages").line, 30);
    EXPECT_EQ(s.actors[3].fields.at("receive.maxMessages").path, "actors[3].receive.maxMessages");
}

TEST(ScenarioFile, writeThenReadGivesTheSameScenario)
{
    const Scenario first = parsed(kFull);
    const std::string written = writeScenario(first);
    const Scenario second = parsed(written);
    EXPECT_EQ(second.title, first.title);
    EXPECT_EQ(second.notes, first.notes);
    EXPECT_EQ(second.seed, first.seed);
    EXPECT_EQ(second.clock, first.clock);
    EXPECT_EQ(second.inFlightLimit, first.inFlightLimit);
    EXPECT_EQ(queuesOf(second), queuesOf(first));
    EXPECT_EQ(second.queues.creationOrder, first.queues.creationOrder);
    EXPECT_EQ(specsOf(second), specsOf(first));
    EXPECT_EQ(writeScenario(second), written);
}

TEST(ScenarioFile, aMinimalFileHasTheDefaults)
{
    const Scenario s = parsed(R"({"version": 1})");
    EXPECT_EQ(s.seed, 0u);
    EXPECT_EQ(s.clock, ScenarioClock{});
    EXPECT_TRUE(s.queues.queues.empty());
    EXPECT_TRUE(s.actors.empty());
    EXPECT_EQ(parsed(writeScenario(s)).clock, ScenarioClock{});
    const Scenario actor
        = parsed(R"({"version": 1, "actors": [{"type": "consumer", "name": "w", "queue": "q"}]})");
    EXPECT_EQ(std::get<ConsumerSpec>(actor.actors[0].spec),
              (ConsumerSpec{.name = "w", .queue = "q"}));
}

TEST(ScenarioFile, brokerOptionsTakeTheSeedAndTheInFlightLimit)
{
    const engine::BrokerOptions options = scenarioBrokerOptions(parsed(kFull));
    EXPECT_EQ(options.seed, 3u);
    EXPECT_EQ(options.inFlightLimitStandard, 500);
    EXPECT_EQ(options.inFlightLimitFifo, 500);
}

// ---- refused files -----------------------------------------------------------------------------

struct BadFile {
    std::string name;
    std::string text;
    std::string where; // "line L, column C, at PATH"
    std::string what;  // part of the message after it
};

std::string actorFile(std::string_view actor)
{
    return lines({R"({"version": 1, "queues": [{"name": "orders"}],)",
                  std::string(R"( "actors": [)") + std::string(actor) + "]}"});
}

const std::vector<BadFile> kBadFiles = {
    {"syntax", lines({R"({"version": 1,)", R"( "seed": tru})"}), "line 2, column 13, at seed",
     "malformed JSON"},
    {"not an object", "[1]", "line 1, column 1, at the top level", "expected an object"},
    {"no version", R"({"seed": 1})", "line 1, column 1, at version", "missing"},
    {"version 2", R"({"version": 2})", "line 1, column 13, at version", "version 1 only"},
    {"unknown key", lines({R"({"version": 1,)", R"( "actor": []})"}), "line 2, column 2, at actor",
     "unknown key \"actor\""},
    {"name twice", R"({"version": 1, "seed": 1, "seed": 2})", "line 1, column 27, at seed",
     "given twice"},
    {"too deep", R"({"version": 1, "notes": )" + std::string(40, '[') + std::string(40, ']') + "}",
     [] {
         std::string where = "line 1, column 56, at notes"; // the 32nd list opens level 33
         for (int i = 0; i < 31; ++i)
             where += "[0]";
         return where;
     }(),
     "nested deeper than 32"},
    {"seed", R"({"version": 1, "seed": -3})", "line 1, column 24, at seed", "a seed is"},
    {"speed", R"({"version": 1, "clock": {"speed": 0}})", "line 1, column 35, at clock.speed",
     "above 0"},
    {"start", R"({"version": 1, "clock": {"start": "tomorrow"}})",
     "line 1, column 35, at clock.start", "ISO 8601"},
    {"clock key", R"({"version": 1, "clock": {"pace": 2}})", "line 1, column 26, at clock.pace",
     "unknown key"},
    {"in-flight limit", R"({"version": 1, "engine": {"inFlightLimit": 0}})",
     "line 1, column 44, at engine.inFlightLimit", "from 1 to 120000"},
    {"queues not a list", R"({"version": 1, "queues": {}})", "line 1, column 26, at queues",
     "expected a list of queues"},
    {"queue attribute",
     lines({R"({"version": 1, "queues": [)", R"(  {"name": "orders",)",
            R"(   "attributes": {"VisibilityTimeout": 99999}}]})"}),
     "line 3, column 40, at queues[0].attributes.VisibilityTimeout", "InvalidAttributeValue"},
    {"queue name",
     lines({R"({"version": 1,)", R"(  "queues": [{"name": "a.fifo", "type": "standard"}]})"}),
     "line 2, column 41, at queues[0].type", "FIFO queue"},
    {"queue on line 1", R"({"version": 1, "seed": 2, "queues": [{"name": "a b"}]})",
     "line 1, column 47, at queues[0].name", "InvalidParameterValue"},
    {"actors not a list", R"({"version": 1, "actors": 3})", "line 1, column 26, at actors",
     "expected a list of actors"},
    {"actor not an object", actorFile("3"), "line 2, column 13, at actors[0]",
     "expected an object"},
    {"no type", actorFile(R"({"name": "a", "queue": "orders"})"),
     "line 2, column 13, at actors[0].type", "missing"},
    {"unknown type", actorFile(R"({"type": "robot"})"), "line 2, column 22, at actors[0].type",
     "unknown type"},
    {"no name", actorFile(R"({"type": "producer", "queue": "orders"})"),
     "line 2, column 13, at actors[0].name", "missing"},
    {"no queue", actorFile(R"({"type": "consumer", "name": "w"})"),
     "line 2, column 13, at actors[0].queue", "missing"},
    {"unknown producer key",
     actorFile(R"({"type": "producer", "name": "p", "queue": "orders", "speed": 2})"),
     "line 2, column 66, at actors[0].speed", "a producer has"},
    {"rate type",
     actorFile(R"({"type": "producer", "name": "p", "queue": "orders", "rate": "fast"})"),
     "line 2, column 74, at actors[0].rate", "expected a number"},
    {"rate range", actorFile(R"({"type": "producer", "name": "p", "queue": "orders", "rate": 0})"),
     "line 2, column 74, at actors[0].rate", "above 0"},
    {"bad name", actorFile(R"({"type": "producer", "name": "a b", "queue": "orders"})"),
     "line 2, column 42, at actors[0].name", "1 to 80 characters"},
    {"template",
     actorFile(R"({"type": "producer", "name": "p", "queue": "orders", "body": "x {nn}"})"),
     "line 2, column 74, at actors[0].body", "unknown placeholder {nn} at character 3"},
    {"arrivals",
     actorFile(R"({"type": "producer", "name": "p", "queue": "orders", "arrivals": "bursty"})"),
     "line 2, column 78, at actors[0].arrivals", "\"constant\" or \"poisson\""},
    {"bursts",
     actorFile(
         R"({"type": "producer", "name": "p", "queue": "orders", "bursts": {"messages": 3}})"),
     "line 2, column 76, at actors[0].bursts.everySeconds", "missing"},
    {"base64",
     actorFile(
         R"({"type": "producer", "name": "p", "queue": "orders", "attributes": {"b": {"DataType": "Binary", "BinaryValue": "%%"}}})"),
     "line 2, column 124, at actors[0].attributes.b.BinaryValue", "not base64"},
    {"negative seconds",
     actorFile(R"({"type": "producer", "name": "p", "queue": "orders", "retryAfterSeconds": -1})"),
     "line 2, column 87, at actors[0].retryAfterSeconds", "negative"},
    {"outcomes add up",
     actorFile(
         R"({"type": "consumer", "name": "w", "queue": "orders", "outcomes": {"fail": 0.7, "crash": 0.6}})"),
     "line 2, column 78, at actors[0].outcomes", "more than 1"},
    {"outcomes given",
     actorFile(
         R"({"type": "consumer", "name": "w", "queue": "orders", "outcomes": {"succeed": 0.5}})"),
     "line 2, column 78, at actors[0].outcomes", "add up to 0.5"},
    {"outcome key",
     actorFile(
         R"({"type": "consumer", "name": "w", "queue": "orders", "outcomes": {"explode": 1}})"),
     "line 2, column 79, at actors[0].outcomes.explode", "unknown key"},
    {"processing shape",
     actorFile(
         R"({"type": "consumer", "name": "w", "queue": "orders", "processing": {"uniform": [3]}})"),
     "line 2, column 92, at actors[0].processing.uniform", "a list of two numbers"},
    {"processing range",
     actorFile(
         R"({"type": "consumer", "name": "w", "queue": "orders", "processing": {"uniform": [3, 1]}})"),
     "line 2, column 80, at actors[0].processing", "maximum is below"},
    {"receive range",
     actorFile(
         R"({"type": "consumer", "name": "w", "queue": "orders", "receive": {"maxMessages": 0}})"),
     "line 2, column 93, at actors[0].receive.maxMessages", "from 1 to 10"},
    {"receive key",
     actorFile(R"({"type": "consumer", "name": "w", "queue": "orders", "receive": {"wait": 3}})"),
     "line 2, column 78, at actors[0].receive.wait", "unknown key"},
    {"poison", actorFile(R"({"type": "consumer", "name": "w", "queue": "orders", "poison": "(("})"),
     "line 2, column 76, at actors[0].poison", "not a regular expression"},
    {"heartbeat",
     actorFile(
         R"({"type": "consumer", "name": "w", "queue": "orders", "heartbeat": {"extendBySeconds": 5, "everySeconds": 2}})"),
     "line 2, column 79, at actors[0].heartbeat.maxSeconds", "missing"},
    {"actor twice",
     lines({R"({"version": 1, "actors": [)",
            R"(  {"type": "producer", "name": "feed", "queue": "orders"},)",
            R"(  {"type": "consumer", "name": "feed", "queue": "orders"}]})"}),
     "line 3, column 32, at actors[1].name", "declared twice (first at line 2, column 32)"},
};

TEST(ScenarioFile, everyKindOfBadFileIsRefusedWithItsPosition)
{
    for (const BadFile& bad : kBadFiles) {
        auto scenario = parseScenario(bad.text);
        ASSERT_FALSE(scenario.ok()) << bad.name;
        const engine::Error& error = scenario.error();
        EXPECT_EQ(error.code, ErrorCode::InvalidParameterValue) << bad.name;
        EXPECT_TRUE(error.message.starts_with(bad.where + ": "))
            << bad.name << ": " << error.message;
        EXPECT_NE(error.message.find(bad.what), std::string::npos)
            << bad.name << ": " << error.message;
    }
}

// ---- applying ----------------------------------------------------------------------------------

class ScenarioApplyTest : public SimTest {
protected:
    engine::Result<ScenarioApplied> apply(std::string_view text)
    {
        auto scenario = parseScenario(text);
        if (!scenario)
            return scenario.error();
        return applyScenario(sim, *scenario);
    }

    // Refused with that position, and nothing changed: no queue, event or actor more.
    void expectRefusedUnchanged(std::string_view text, const std::string& where,
                                const std::string& what)
    {
        const std::size_t queuesBefore = broker.queues().size();
        const std::size_t actorsBefore = sim.actors().size();
        events.clear();
        auto applied = apply(text);
        ASSERT_FALSE(applied.ok()) << where;
        EXPECT_TRUE(applied.error().message.starts_with(where + ": "))
            << "got: " << applied.error().message;
        EXPECT_NE(applied.error().message.find(what), std::string::npos) << applied.error().message;
        EXPECT_EQ(broker.queues().size(), queuesBefore);
        EXPECT_EQ(sim.actors().size(), actorsBefore);
        EXPECT_TRUE(events.empty());
    }
};

TEST_F(ScenarioApplyTest, createsTheQueuesThenStartsTheActors)
{
    auto applied = apply(kFull);
    ASSERT_TRUE(applied.ok()) << applied.error().message;
    EXPECT_EQ(applied->queues.queuesCreated, 4);
    EXPECT_EQ(applied->queues.messagesSent, 2);
    ASSERT_EQ(applied->actors.size(), 6u);
    EXPECT_EQ(sim.seed(), 3u);
    EXPECT_EQ(broker.queueView("orders")->deadLetterTarget, "orders-dlq");
    EXPECT_EQ(sim.actor(applied->actors[0])->state, ActorState::Stopped); // autoStart false
    EXPECT_EQ(sim.actor(applied->actors[3])->state, ActorState::Running);
    EXPECT_EQ(eventsOf(EventKind::QueueCreated)[0].origin, "scenario");
    runTo(30'000);
    EXPECT_GT(figures(applied->actors[1]).sent, 0);
    EXPECT_GT(figures(applied->actors[4]).processed, 0);
}

TEST_F(ScenarioApplyTest, actorsMayUseQueuesThatExistAlready)
{
    createQueue("orders");
    auto applied = apply(
        R"({"version": 1, "actors": [{"type": "consumer", "name": "w", "queue": "orders"}]})");
    ASSERT_TRUE(applied.ok()) << applied.error().message;
    EXPECT_EQ(applied->queues.queuesCreated, 0);
}

TEST_F(ScenarioApplyTest, anActorWhoseQueueIsNowhereIsRefusedAndNothingIsApplied)
{
    expectRefusedUnchanged(
        lines({R"({"version": 1, "queues": [{"name": "orders"}],)",
               R"( "actors": [{"type": "producer", "name": "p", "queue": "ordrs"}]})"}),
        "line 2, column 56, at actors[0].queue", "neither in this scenario nor an existing queue");
}

TEST_F(ScenarioApplyTest, anActorThatDoesNotFitItsQueueIsRefusedAndNothingIsApplied)
{
    expectRefusedUnchanged(
        lines({R"({"version": 1, "queues": [{"name": "pay.fifo"}],)",
               R"( "actors": [{"type": "producer", "name": "p", "queue": "pay.fifo"}]})"}),
        "line 2, column 13, at actors[0].groupId", "need a group id");
    expectRefusedUnchanged(
        lines(
            {R"({"version": 1, "queues": [{"name": "orders"}],)",
             R"( "actors": [{"type": "producer", "name": "p", "queue": "orders", "channel": "c"}]})"}),
        "line 2, column 77, at actors[0].channel", "only OCI queues");
    expectRefusedUnchanged(
        lines({R"({"version": 1, "queues": [{"name": "orders"}],)",
               R"( "actors": [{"type": "consumer", "name": "w", "queue": "orders",)",
               R"(   "receive": {"maxMessages": 15}}]})"}),
        "line 3, column 31, at actors[0].receive.maxMessages", "at most 10");
    expectRefusedUnchanged(
        lines(
            {R"({"version": 1, "queues": [{"name": "jobs", "type": "oci"}],)",
             R"( "actors": [{"type": "producer", "name": "p", "queue": "jobs", "delaySeconds": 3}]})"}),
        "line 2, column 80, at actors[0].delaySeconds", "no per-message delay");
}

TEST_F(ScenarioApplyTest, aQueueTheEngineRefusesRefusesTheWholeScenario)
{
    expectRefusedUnchanged(
        lines(
            {R"({"version": 1, "queues": [)",
             R"(  {"name": "orders", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "gone", "maxReceiveCount": 2}}}],)",
             R"( "actors": [{"type": "consumer", "name": "w", "queue": "orders"}]})"}),
        "line 2, column 78, at queues[0].attributes.RedrivePolicy.deadLetterTargetArn",
        "neither in this file nor an existing queue");
}

TEST_F(ScenarioApplyTest, anActorNameTheSimulationHasIsRefused)
{
    createQueue("orders");
    add(producer("feed", "orders", 1));
    events.clear();
    expectRefusedUnchanged(
        lines({R"({"version": 1, "queues": [{"name": "other"}],)",
               R"( "actors": [{"type": "producer", "name": "feed", "queue": "other"}]})"}),
        "line 2, column 42, at actors[0].name", "has an actor named feed already");
}

} // namespace
} // namespace inflight::sim::testing
