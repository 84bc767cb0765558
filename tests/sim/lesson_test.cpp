// Guided lessons (sim/lesson.h): the "lesson" member of a scenario file read with positions and
// written back, LessonRun performing a step's "do" and ticking its check, and every built-in lesson
// of resources/scenarios played to its end on a manual clock — each step's "do" performed, the
// clock moved deadline by deadline as the Session does until its check is met — the same way
// twice.
#include "sim/lesson.h"

#include "sim_fixture.h"

#include "support/source_dir.h"

#include <filesystem>
#include <fstream>
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

std::vector<std::string> lessonFiles()
{
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(kFolder))
        if (entry.path().extension() == ".json")
            names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// ---- the format ----------------------------------------------------------------------------------

const char* const kBase = R"({
  "version": 1,
  "queues": [
    {"name": "dlq"},
    {"name": "orders", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "dlq", "maxReceiveCount": 2}}},
    {"name": "plain"}
  ],
  "actors": [
    {"type": "producer", "name": "feed", "queue": "orders"},
    {"type": "consumer", "name": "worker", "queue": "orders", "autoStart": false}
  ],
  "lesson": )";

std::string withLesson(const std::string& lesson)
{
    return std::string(kBase) + lesson + "\n}";
}

std::string refusal(const std::string& lesson)
{
    auto parsed = parseScenario(withLesson(lesson));
    EXPECT_FALSE(parsed.ok()) << lesson;
    return parsed.ok() ? std::string() : parsed.error().message;
}

TEST(LessonFormat, stepsActionsAndChecksAreRead)
{
    auto parsed = parseScenario(withLesson(R"({"steps": [
      {"text": ["two", "lines"], "do": {"stop": "feed", "start": ["worker"], "resume": true},
       "doText": "Go", "check": {"actor": "worker", "figure": "processed", "atLeast": 3},
       "checkText": "three", "pauseWhenMet": true},
      {"text": "t", "do": [{"send": {"queue": "orders", "body": {"a": 1}, "delaySeconds": 2}},
                          {"send": {"queue": "plain", "body": "b"}}]},
      {"text": "t", "do": {"setAttributes": {"queue": "orders", "attributes": {"VisibilityTimeout": 30}},
                          "redrive": {"queue": "orders", "deadLetter": true, "maxMessagesPerSecond": 5},
                          "receive": {"queue": "orders", "maxMessages": 2, "visibilityTimeout": 0},
                          "peek": {"queue": "orders", "deadLetter": true, "bodyContains": "x"},
                          "run": 1.5, "pause": true, "speed": 60,
                          "pauseActors": "feed", "resumeActors": "feed"},
       "check": {"any": [{"queue": "orders", "deadLetter": true, "bodyContains": "x",
                          "count": "receiveCount", "equals": 2},
                         {"actor": "feed", "state": "finished"},
                         {"queue": "plain", "count": "sent", "sinceStep": true, "atMost": 0},
                         {"elapsed": 30}]}},
      {"text": "read me"}
    ]})"));
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    ASSERT_TRUE(parsed->lesson);
    const auto& steps = parsed->lesson->steps;
    ASSERT_EQ(steps.size(), 4u);
    EXPECT_EQ(steps[0].text, "two\nlines");
    ASSERT_EQ(steps[0].actions.size(), 3u);
    EXPECT_EQ(steps[0].actions[0].kind, LessonAction::Kind::Stop);
    EXPECT_EQ(steps[0].actions[1].actors, std::vector<std::string>{"worker"});
    EXPECT_EQ(steps[0].actions[2].kind, LessonAction::Kind::Resume);
    EXPECT_TRUE(steps[0].pauseWhenMet);
    EXPECT_EQ(steps[0].check->value, 3);
    EXPECT_EQ(steps[1].actions[0].body, R"({"a":1})");
    EXPECT_EQ(steps[1].actions[0].delaySeconds, 2);
    const auto& many = steps[2].actions;
    ASSERT_EQ(many.size(), 9u);
    EXPECT_EQ(many[0].attributes.at("VisibilityTimeout"), "30");
    EXPECT_TRUE(many[1].deadLetter);
    EXPECT_EQ(many[4].duration, 1'500);
    EXPECT_EQ(many[6].speed, 60.0);
    EXPECT_EQ(steps[2].check->kind, LessonCheck::Kind::Any);
    EXPECT_EQ(steps[2].check->checks[2].sinceStep, true);
    EXPECT_EQ(steps[2].check->checks[3].elapsed, 30'000);
    EXPECT_FALSE(steps[3].check);
    EXPECT_TRUE(steps[3].actions.empty());
    EXPECT_EQ(doTextOf(steps[0]), "Go");
    EXPECT_EQ(doTextOf(steps[1]), "Send a message to orders; send a message to plain");
    EXPECT_EQ(checkTextOf(steps[0]), "three");
    EXPECT_EQ(describeCheck(steps[2].check->checks[0]),
              "the DLQ of orders: highest receive count of messages containing \"x\" = 2");
}

TEST(LessonFormat, everyMistakeIsRefusedWithItsPosition)
{
    // Line 12 of withLesson() is the lesson's, which starts in column 13.
    EXPECT_EQ(refusal(R"({"steps": [{"text": "t", "do": {"start": "nobody"}}]})"),
              "line 12, column 54, at lesson.steps[0].do.start: the scenario has no actor named "
              "nobody");
    EXPECT_EQ(refusal(R"({"steps": []})"),
              "line 12, column 23, at lesson.steps: a lesson has at least one step");
    EXPECT_EQ(refusal(R"({"steps": [{"do": {"resume": true}}]})"),
              "line 12, column 24, at lesson.steps[0].text: missing: every step has a text");
    EXPECT_EQ(refusal(R"({"steps": [{"text": "t", "do": {"jump": 1}}]})"),
              "line 12, column 45, at lesson.steps[0].do.jump: unknown key \"jump\" (actions: "
              "start, stop, pauseActors, resumeActors, send, receive, peek, setAttributes, "
              "redrive, run, pause, resume, speed)");
    EXPECT_EQ(
        refusal(
            R"({"steps": [{"text": "t", "check": {"actor": "feed", "figure": "speed", "atLeast": 1}}]})")
            .substr(0, 85),
        "line 12, column 75, at lesson.steps[0].check.figure: unknown figure speed (sent, "
        "dedu");
    EXPECT_EQ(
        refusal(
            R"({"steps": [{"text": "t", "check": {"actor": "feed", "figure": "sent", "atLeast": 1, "atMost": 2}}]})"),
        "line 12, column 97, at lesson.steps[0].check.atMost: one of atLeast, atMost and "
        "equals only");
    EXPECT_EQ(
        refusal(
            R"({"steps": [{"text": "t", "check": {"queue": "plain", "deadLetter": true, "count": "messages", "atLeast": 1}}]})"),
        "line 12, column 80, at lesson.steps[0].check.deadLetter: the queue plain has no "
        "dead-letter queue (RedrivePolicy)");
    EXPECT_EQ(
        refusal(
            R"({"steps": [{"text": "t", "check": {"queue": "nowhere", "count": "sent", "atLeast": 1}}]})"),
        "line 12, column 57, at lesson.steps[0].check.queue: the scenario has no queue named "
        "nowhere");
    EXPECT_EQ(
        refusal(
            R"({"steps": [{"text": "t", "check": {"queue": "plain", "bodyContains": "x", "count": "sent", "atLeast": 1}}]})")
            .substr(0, 67),
        "line 12, column 96, at lesson.steps[0].check.count: of the messages");
    EXPECT_EQ(
        refusal(R"({"steps": [{"text": "t", "check": {"actor": "feed", "state": "asleep"}}]})"),
        "line 12, column 74, at lesson.steps[0].check.state: running, stopped, paused or "
        "finished");
    EXPECT_EQ(
        refusal(
            R"({"steps": [{"text": "t", "check": {"actor": "feed", "state": "running", "sinceStep": true}}]})"),
        "line 12, column 85, at lesson.steps[0].check.sinceStep: \"sinceStep\" does not "
        "belong in this check");
    EXPECT_EQ(refusal(R"({"steps": [{"text": "t", "do": {"pause": false}}]})"),
              "line 12, column 54, at lesson.steps[0].do.pause: true (pause the clock)");
    EXPECT_EQ(
        refusal(R"({"steps": [{"text": "t", "do": {"send": {"body": "x"}}}]})"),
        "line 12, column 53, at lesson.steps[0].do.send.queue: missing: the queue to send to");
    EXPECT_EQ(refusal(R"([1])"),
              "line 12, column 13, at lesson: expected an object with \"steps\", found a list");
    // The rest of the file is refused as before, with the lesson mentioned among the keys.
    auto typo = parseScenario(R"({"version": 1, "lessons": {}})");
    ASSERT_FALSE(typo.ok());
    EXPECT_NE(typo.error().message.find("actors and lesson"), std::string::npos)
        << typo.error().message;
}

TEST(LessonFormat, aLessonIsWrittenBackAsItWasRead)
{
    for (const std::string& name : lessonFiles()) {
        auto parsed = parseScenario(contents(kFolder / name));
        ASSERT_TRUE(parsed.ok()) << name << ": " << parsed.error().message;
        ASSERT_TRUE(parsed->lesson) << name;
        const std::string written = writeScenario(*parsed);
        auto again = parseScenario(written);
        ASSERT_TRUE(again.ok()) << name << ": " << again.error().message << "\n" << written;
        EXPECT_EQ(writeScenario(*again), written) << name;
        ASSERT_EQ(again->lesson->steps.size(), parsed->lesson->steps.size());
        for (std::size_t i = 0; i < again->lesson->steps.size(); ++i) {
            EXPECT_EQ(again->lesson->steps[i].text, parsed->lesson->steps[i].text);
            EXPECT_EQ(again->lesson->steps[i].actions.size(),
                      parsed->lesson->steps[i].actions.size());
            EXPECT_EQ(checkTextOf(again->lesson->steps[i]), checkTextOf(parsed->lesson->steps[i]));
        }
    }
}

// ---- LessonRun ---------------------------------------------------------------------------------

class LessonRunTest : public SimTest {
protected:
    void SetUp() override
    {
        SimTest::SetUp();
        createQueue("orders", {{"VisibilityTimeout", "5"}});
    }

    LessonPlan plan(const std::string& lesson)
    {
        auto parsed = parseScenario(R"({"version": 1, "queues": [{"name": "orders"}],
          "actors": [{"type": "producer", "name": "feed", "queue": "orders", "autoStart": false},
                     {"type": "consumer", "name": "worker", "queue": "orders",
                      "autoStart": false, "processing": 1}],
          "lesson": )" + lesson + "}");
        EXPECT_TRUE(parsed.ok()) << parsed.error().message;
        if (parsed.ok()) {
            EXPECT_TRUE(applyScenario(sim, *parsed).ok());
            return *parsed->lesson;
        }
        return {};
    }
};

TEST_F(LessonRunTest, aStepTicksWhenItsCheckIsMetAndTheNextBecomesCurrent)
{
    LessonRun run(plan(R"({"steps": [
      {"text": "start", "do": {"start": ["feed", "worker"]},
       "check": {"actor": "worker", "figure": "processed", "atLeast": 3}},
      {"text": "read"},
      {"text": "peek", "do": {"peek": {"queue": "orders"}}}
    ]})"));
    EXPECT_EQ(run.current(), 0u);
    EXPECT_FALSE(run.evaluate(broker, sim));
    EXPECT_EQ(run.progress(broker, sim).text, "worker processed: 0 (wanted ≥ 3)");
    auto done = run.perform(broker, sim);
    ASSERT_TRUE(done.ok());
    EXPECT_TRUE(run.performed());
    EXPECT_EQ(sim.actor(*sim.findActor("feed"))->state, ActorState::Running);
    runTo(2'500);
    EXPECT_FALSE(run.evaluate(broker, sim));
    runTo(4'000);
    EXPECT_EQ(run.evaluate(broker, sim), std::optional<std::size_t>(0));
    EXPECT_EQ(run.metAt(0), std::optional<Millis>(kStart + 4'000));
    // A step with neither "do" nor check waits for the reader.
    EXPECT_EQ(run.current(), 1u);
    EXPECT_FALSE(run.evaluate(broker, sim));
    EXPECT_EQ(run.progress(broker, sim).text, "Next when you have read this.");
    run.next(clock.now());
    // A step with a "do" and no check is met once performed.
    EXPECT_EQ(run.progress(broker, sim).text, "Do it: Look into orders");
    auto peeked = run.perform(broker, sim);
    ASSERT_TRUE(peeked.ok());
    EXPECT_FALSE(peeked->peeked.empty());
    EXPECT_TRUE(run.finished());
    EXPECT_FALSE(run.perform(broker, sim).ok());
    run.restart();
    EXPECT_EQ(run.current(), 0u);
    EXPECT_FALSE(run.metAt(0));
}

TEST_F(LessonRunTest, sinceStepAndElapsedCountFromTheStepsStartOrItsDo)
{
    LessonRun run(plan(R"({"steps": [
      {"text": "a", "do": {"start": "feed"},
       "check": {"actor": "feed", "figure": "sent", "atLeast": 5}},
      {"text": "b", "check": {"all": [
        {"actor": "feed", "figure": "sent", "sinceStep": true, "atLeast": 3},
        {"queue": "orders", "count": "sent", "sinceStep": true, "atLeast": 3}]}},
      {"text": "c", "do": {"resume": true}, "check": {"elapsed": 10}}
    ]})"));
    ASSERT_TRUE(run.perform(broker, sim).ok());
    runTo(4'000);
    ASSERT_EQ(run.evaluate(broker, sim), std::optional<std::size_t>(0)); // 5 sent: 0..4 s
    EXPECT_FALSE(run.evaluate(broker, sim));                             // the baseline: 5
    runTo(6'000);
    EXPECT_FALSE(run.evaluate(broker, sim)); // 2 more
    EXPECT_EQ(run.progress(broker, sim).text,
              "feed sent since this step: 2 (wanted ≥ 3); orders sent since this step: 2 "
              "(wanted ≥ 3)");
    runTo(7'000);
    ASSERT_EQ(run.evaluate(broker, sim), std::optional<std::size_t>(1));
    runTo(8'000);
    auto resumed = run.perform(broker, sim);
    ASSERT_TRUE(resumed.ok());
    EXPECT_TRUE(resumed->resumeClock);
    runTo(17'999);
    EXPECT_FALSE(run.evaluate(broker, sim));
    EXPECT_EQ(run.progress(broker, sim).text, "9.999 s of 10 s passed");
    runTo(18'000);
    EXPECT_EQ(run.evaluate(broker, sim), std::optional<std::size_t>(2));
}

TEST_F(LessonRunTest, anActionTheEngineRefusesIsAnErrorAndTheStepStaysUndone)
{
    LessonRun run(plan(R"({"steps": [
      {"text": "a", "do": {"setAttributes": {"queue": "orders", "attributes": {"VisibilityTimeout": 99999}}},
       "check": {"actor": "feed", "figure": "sent", "atLeast": 1}}
    ]})"));
    auto refused = run.perform(broker, sim);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, engine::ErrorCode::InvalidAttributeValue);
    EXPECT_FALSE(run.performed());
}

TEST_F(LessonRunTest, checksReadQueuesMessagesAndDeadLetterQueues)
{
    createQueue("q-dlq");
    createQueue(
        "q",
        {{"RedrivePolicy",
          R"({"deadLetterTargetArn":")" + broker.arnForName("q-dlq") + R"(","maxReceiveCount":1})"},
         {"VisibilityTimeout", "1"}});
    send("q", "fine");
    send("q", "POISON here");
    const auto check = [&](const std::string& json) {
        auto parsed = parseScenario(R"({"version": 1, "queues": [{"name": "q-dlq"},
          {"name": "q", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "q-dlq", "maxReceiveCount": 1}}}],
          "lesson": {"steps": [{"text": "t", "check": )"
                                    + json + "}]}}");
        EXPECT_TRUE(parsed.ok()) << parsed.error().message;
        return evaluateCheck(*parsed->lesson->steps[0].check, broker, sim);
    };
    EXPECT_TRUE(check(R"({"queue": "q", "count": "available", "equals": 2})").met);
    EXPECT_TRUE(
        check(R"({"queue": "q", "bodyContains": "POISON", "count": "messages", "equals": 1})").met);
    ASSERT_TRUE(broker.receiveMessage({.queue = "q", .maxMessages = 10}).ok());
    EXPECT_TRUE(check(R"({"queue": "q", "count": "inFlight", "equals": 2})").met);
    EXPECT_TRUE(
        check(R"({"queue": "q", "bodyContains": "POISON", "count": "receiveCount", "equals": 1})")
            .met);
    clock.advance(1'000);
    ASSERT_TRUE(broker.receiveMessage({.queue = "q", .maxMessages = 10}).ok()); // both to q-dlq
    EXPECT_TRUE(
        check(
            R"({"queue": "q", "deadLetter": true, "bodyContains": "POISON", "count": "messages", "atLeast": 1})")
            .met);
    EXPECT_TRUE(check(R"({"queue": "q-dlq", "count": "messages", "equals": 2})").met);
    EXPECT_TRUE(check(R"({"queue": "q", "count": "movedToDeadLetter", "equals": 2})").met);
    EXPECT_FALSE(
        check(R"({"queue": "q", "count": "receiveCount", "atLeast": 1})").met); // none left
    EXPECT_TRUE(check(R"({"any": [{"queue": "q", "count": "messages", "atLeast": 1},
                                  {"queue": "q-dlq", "count": "messages", "atLeast": 1}]})")
                    .met);
    EXPECT_FALSE(check(R"({"all": [{"queue": "q", "count": "messages", "atLeast": 1},
                                   {"queue": "q-dlq", "count": "messages", "atLeast": 1}]})")
                     .met);
}

// ---- the built-in lessons, played ----------------------------------------------------------------

struct Played {
    std::vector<std::string> steps; // "k at <engine time>" for each step met
    std::vector<std::string> events;
};

// Serves every broker and actor deadline up to `until` in time order, as the Session does, and
// evaluates the lesson after each; stops early when a step ticks. Returns whether one did.
bool runWatching(engine::ManualClock& clock, engine::Broker& broker, Simulation& sim,
                 LessonRun& run, Millis until)
{
    Millis floor = clock.now();
    for (;;) {
        const Millis brokerNext = std::max(broker.nextDeadline(), floor);
        const Millis actorNext = sim.nextDeadline().value_or(engine::kNoDeadline);
        const Millis t = std::max(std::min(brokerNext, actorNext), clock.now());
        if (t > until)
            break;
        clock.set(t);
        broker.advance(t);
        sim.runDue(t);
        floor = t + 1;
        if (run.evaluate(broker, sim))
            return true;
    }
    clock.set(until);
    broker.advance(until);
    return run.evaluate(broker, sim).has_value();
}

Played play(const std::string& fileName)
{
    Played played;
    auto parsed = parseScenario(contents(kFolder / fileName));
    EXPECT_TRUE(parsed.ok()) << fileName << ": " << (parsed.ok() ? "" : parsed.error().message);
    if (!parsed.ok() || !parsed->lesson) {
        ADD_FAILURE() << fileName << " has no lesson";
        return played;
    }
    const Scenario& scenario = *parsed;
    engine::ManualClock clock(scenario.clock.start.value_or(kStart));
    engine::Broker broker(clock, scenarioBrokerOptions(scenario));
    broker.setEventSink([&](std::span<Event> batch) {
        for (const Event& e : batch)
            played.events.push_back(line(e));
    });
    Simulation sim(broker);
    EXPECT_TRUE(applyScenario(sim, scenario).ok()) << fileName;
    LessonRun run(*scenario.lesson);
    constexpr Millis kBound = 30 * 60'000; // per step, engine time
    while (!run.finished()) {
        const std::size_t index = run.current();
        const LessonStep& step = *run.step();
        const std::string where = fileName + " step " + std::to_string(index + 1);
        // Authored so that no check is met when its step begins.
        EXPECT_FALSE(run.evaluate(broker, sim)) << where << ": met before it began";
        if (run.current() != index)
            continue;
        if (step.actions.empty() && !step.check) {
            run.next(clock.now());
        } else {
            if (!step.actions.empty()) {
                auto effects = run.perform(broker, sim);
                EXPECT_TRUE(effects.ok())
                    << where << ": " << (effects.ok() ? "" : effects.error().message);
                if (!effects.ok())
                    return played;
                // What the actions did may meet the check at once (the Session looks then too).
                if (run.current() == index)
                    (void)run.evaluate(broker, sim);
                if (effects->runFor && run.current() == index)
                    runWatching(clock, broker, sim, run, clock.now() + *effects->runFor);
            }
            const Millis limit = clock.now() + kBound;
            while (run.current() == index && clock.now() < limit)
                runWatching(clock, broker, sim, run, std::min(limit, clock.now() + 60'000));
            EXPECT_NE(run.current(), index)
                << where << " never met: " << run.progress(broker, sim).text;
            if (run.current() == index)
                return played;
        }
        played.steps.push_back(
            std::to_string(index + 1) + " at "
            + std::to_string(*run.metAt(index) - scenario.clock.start.value_or(kStart)));
    }
    return played;
}

TEST(BuiltInLessons, everyLessonPlaysToItsEndTheSameWayTwice)
{
    const auto files = lessonFiles();
    ASSERT_EQ(files.size(), 7u);
    for (const std::string& name : files) {
        const Played first = play(name);
        const Played second = play(name);
        auto parsed = parseScenario(contents(kFolder / name));
        ASSERT_TRUE(parsed.ok() && parsed->lesson) << name;
        EXPECT_EQ(first.steps.size(), parsed->lesson->steps.size()) << name;
        EXPECT_EQ(first.steps, second.steps) << name;
        EXPECT_EQ(first.events, second.events) << name;
        std::string steps;
        for (const std::string& s : first.steps)
            steps += " [" + s + " ms]";
        std::printf("%s:%s\n", name.c_str(), steps.c_str());
    }
}

} // namespace
} // namespace inflight::sim::testing
