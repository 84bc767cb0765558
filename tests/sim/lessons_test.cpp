// The lessons' scenario files (resources/scenarios/NN-*.json): every file there parses, applies
// to a broker made with its options, runs deterministically, and shows what its lesson is about.
#include "sim/scenario.h"

#include "sim_fixture.h"

#include "support/source_dir.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace inflight::sim::testing {
namespace {

const std::filesystem::path kFolder = inflight::test::sourceDir() / "resources/scenarios";

std::string contents(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A lesson's system on its own manual clock, from the scenario's start.
class Lesson {
public:
    explicit Lesson(const std::string& fileName)
    {
        auto parsed = parseScenario(contents(kFolder / fileName));
        EXPECT_TRUE(parsed.ok()) << fileName << ": " << (parsed.ok() ? "" : parsed.error().message);
        if (parsed.ok())
            scenario = std::move(*parsed);
        clock = std::make_unique<engine::ManualClock>(scenario.clock.start.value_or(kStart));
        broker = std::make_unique<engine::Broker>(*clock, scenarioBrokerOptions(scenario));
        broker->setEventSink([this](std::span<Event> batch) {
            events.insert(events.end(), batch.begin(), batch.end());
        });
        sim = std::make_unique<Simulation>(*broker);
        auto applied = applyScenario(*sim, scenario);
        EXPECT_TRUE(applied.ok()) << fileName << ": "
                                  << (applied.ok() ? "" : applied.error().message);
    }

    void runFor(Millis ms) { sim->runUntil(*clock, clock->now() + ms); }
    ActorId id(const std::string& name) const { return sim->findActor(name).value_or(0); }
    ActorFigures figures(const std::string& name) const { return sim->actor(id(name))->figures; }

    std::vector<std::string> lines() const
    {
        std::vector<std::string> result;
        for (const Event& e : events)
            result.push_back(line(e));
        return result;
    }

    Scenario scenario;
    std::unique_ptr<engine::ManualClock> clock;
    std::unique_ptr<engine::Broker> broker;
    std::unique_ptr<Simulation> sim;
    std::vector<Event> events;
};

TEST(Lessons, theFolderHoldsTheSevenLessonsByNumber)
{
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(kFolder))
        if (entry.path().extension() == ".json")
            names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names,
              (std::vector<std::string>{
                  "01-visibility-timeout-duplicates.json",
                  "02-poison-message-dlq.json",
                  "03-fifo-ordering-and-blocking.json",
                  "04-fifo-retries-dedup.json",
                  "05-short-vs-long-polling.json",
                  "06-oci-basics.json",
                  "07-in-flight-limit.json",
              }));
}

TEST(Lessons, everyFileAppliesRunsAndRunsTheSameTwice)
{
    for (const auto& entry : std::filesystem::directory_iterator(kFolder)) {
        if (entry.path().extension() != ".json")
            continue;
        const std::string name = entry.path().filename().string();
        Lesson first(name);
        Lesson second(name);
        EXPECT_FALSE(first.scenario.title.empty()) << name;
        EXPECT_FALSE(first.scenario.notes.empty()) << name;
        first.runFor(180'000);
        second.runFor(180'000);
        EXPECT_GT(first.events.size(), 50u) << name;
        EXPECT_EQ(first.lines(), second.lines()) << name;
        for (const ActorInfo& actor : first.sim->actors()) {
            EXPECT_EQ(actor.figures.sendErrors, 0) << name << " " << actorName(actor.spec);
            if (!name.starts_with("07-")) {
                EXPECT_EQ(actor.figures.receiveErrors, 0) << name << " " << actorName(actor.spec);
            }
        }
        // The written file reads back to the same actors.
        auto again = parseScenario(writeScenario(first.scenario));
        ASSERT_TRUE(again.ok()) << name << ": " << again.error().message;
        ASSERT_EQ(again->actors.size(), first.scenario.actors.size());
        for (std::size_t i = 0; i < again->actors.size(); ++i)
            EXPECT_EQ(again->actors[i].spec, first.scenario.actors[i].spec) << name;
    }
}

TEST(Lessons, lesson1SlowProcessingDuplicatesUntilTheTimeoutIsLongerOrBeatsItsHeart)
{
    Lesson lesson("01-visibility-timeout-duplicates.json");
    EXPECT_EQ(lesson.scenario.seed, 0u);
    lesson.runFor(180'000);
    EXPECT_GT(lesson.figures("slow-worker").processedMoreThanOnce, 3);

    // Fix 1: a longer visibility timeout.
    ASSERT_TRUE(lesson.sim->stopActor(lesson.id("slow-worker")).ok());
    ASSERT_TRUE(lesson.sim->startActor(lesson.id("patient-worker")).ok());
    lesson.runFor(180'000);
    EXPECT_GT(lesson.figures("patient-worker").processed, 30);
    EXPECT_EQ(lesson.figures("patient-worker").processedMoreThanOnce, 0);

    // Fix 2: a heartbeat.
    ASSERT_TRUE(lesson.sim->stopActor(lesson.id("patient-worker")).ok());
    ASSERT_TRUE(lesson.sim->startActor(lesson.id("heartbeat-worker")).ok());
    lesson.runFor(180'000);
    EXPECT_GT(lesson.figures("heartbeat-worker").processed, 30);
    EXPECT_GT(lesson.figures("heartbeat-worker").heartbeats, 30);
    EXPECT_EQ(lesson.figures("heartbeat-worker").processedMoreThanOnce, 0);
}

TEST(Lessons, lesson2ThePoisonMessageEndsInTheDeadLetterQueue)
{
    Lesson lesson("02-poison-message-dlq.json");
    lesson.runFor(60'000);
    EXPECT_EQ(lesson.figures("worker").poisoned, 3);
    const auto dead = lesson.broker->peekMessages("orders-dlq");
    ASSERT_TRUE(dead.ok());
    ASSERT_EQ(dead->size(), 1u);
    EXPECT_NE((*dead)[0].body.find("POISON"), std::string::npos);
    EXPECT_EQ((*dead)[0].receiveCount, 3u);
    EXPECT_GT(lesson.figures("worker").processed, 20);
}

TEST(Lessons, lesson3FifoGroupsKeepTheirOrderThroughFailures)
{
    Lesson lesson("03-fifo-ordering-and-blocking.json");
    EXPECT_EQ(lesson.scenario.seed, 3u);
    lesson.runFor(180'000);
    std::map<std::string, std::vector<std::string>> sent, deleted;
    for (const Event& e : lesson.events) {
        if (e.kind == EventKind::MessageSent)
            sent[e.detail].push_back(e.messageId.str());
        if (e.kind == EventKind::MessageDeleted)
            deleted[e.detail].push_back(e.messageId.str());
    }
    ASSERT_EQ(deleted.size(), 3u);
    for (const auto& [group, ids] : deleted) {
        ASSERT_LE(ids.size(), sent[group].size());
        EXPECT_TRUE(std::equal(ids.begin(), ids.end(), sent[group].begin())) << group;
    }
    const ActorFigures billing = lesson.figures("billing");
    EXPECT_GT(billing.failed, 5);
    EXPECT_EQ(billing.processedMoreThanOnce, 0);

    ASSERT_TRUE(lesson.sim->stopActor(lesson.id("billing")).ok());
    ASSERT_TRUE(lesson.sim->startActor(lesson.id("batch-billing")).ok());
    lesson.runFor(60'000);
    EXPECT_GT(lesson.figures("batch-billing").processed, 50);
}

TEST(Lessons, lesson4RetriesAreDeduplicatedAndLostAnswersReplayed)
{
    Lesson lesson("04-fifo-retries-dedup.json");
    lesson.runFor(180'000);
    const ActorFigures feed = lesson.figures("orders-feed");
    EXPECT_GT(feed.retries, 20);
    EXPECT_EQ(feed.deduplicated, feed.retries); // every retry inside the 5-minute window
    EXPECT_EQ(lesson.broker->queueStats("orders.fifo")->deduplicated, feed.retries);
    const ActorFigures worker = lesson.figures("worker");
    EXPECT_GT(worker.lostAnswers, 5);
    EXPECT_EQ(worker.processedMoreThanOnce, 0);
    std::size_t replays = 0;
    for (const Event& e : lesson.events)
        replays += e.kind == EventKind::VisibilityChanged
            && e.detail.find("replayed") != std::string::npos;
    EXPECT_GT(replays, 0u);
}

TEST(Lessons, lesson5ShortPollsAreMostlyEmpty)
{
    Lesson lesson("05-short-vs-long-polling.json");
    lesson.runFor(180'000);
    const ActorFigures shortPoller = lesson.figures("short-poller");
    const ActorFigures longPoller = lesson.figures("long-poller");
    EXPECT_GT(shortPoller.emptyReceives, 300);
    EXPECT_LT(longPoller.emptyReceives, 15);
    EXPECT_NEAR(static_cast<double>(shortPoller.processed),
                static_cast<double>(longPoller.processed), 2.0);
}

TEST(Lessons, lesson6OciTakesTwentyWaitsThirtyAndDeadLettersByDeliveryCount)
{
    Lesson lesson("06-oci-basics.json");
    EXPECT_EQ(lesson.scenario.seed, 4u);
    lesson.runFor(180'000);
    const ActorFigures runner = lesson.figures("runner");
    EXPECT_GT(runner.processed, 400);
    EXPECT_GT(runner.poisoned, 30);
    const std::string dlq = lesson.broker->queueView("jobs")->deadLetterTarget;
    const auto dead = lesson.broker->peekMessages(dlq);
    ASSERT_TRUE(dead.ok());
    ASSERT_GT(dead->size(), 10u);
    for (const auto& message : *dead)
        EXPECT_NE(message.body.find("corrupt"), std::string::npos);
    EXPECT_EQ(*lesson.broker->listChannels("jobs", "tenant-"),
              (std::vector<std::string>{"tenant-0", "tenant-1", "tenant-2"}));
    ASSERT_TRUE(lesson.sim->stopActor(lesson.id("runner")).ok());
    ASSERT_TRUE(lesson.sim->startActor(lesson.id("tenant-1-runner")).ok());
    lesson.runFor(60'000);
    EXPECT_GT(lesson.figures("tenant-1-runner").processed, 50);
    EXPECT_LT(lesson.broker->channelStats("jobs", "tenant-1")->available, 5); // the last batch
    EXPECT_GT(lesson.broker->channelStats("jobs", "tenant-0")->available, 50);
}

TEST(Lessons, lesson7AHoarderHitsOverLimitOnShortPolls)
{
    Lesson lesson("07-in-flight-limit.json");
    EXPECT_EQ(lesson.broker->options().inFlightLimitStandard, 50);
    lesson.runFor(60'000);
    const ActorFigures hoarder = lesson.figures("hoarder");
    EXPECT_EQ(hoarder.received, 50);
    EXPECT_GT(hoarder.receiveErrors, 50);
    EXPECT_NE(hoarder.lastError.find("OverLimit"), std::string::npos);
    EXPECT_EQ(lesson.broker->queueStats("orders")->inFlight, 50);
}

} // namespace
} // namespace inflight::sim::testing
