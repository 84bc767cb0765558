// The session drives the simulation (issue 13): one timer for the broker's and the actors'
// deadlines, steps that run every actor action at its own engine time, pause, speed, runFor and
// runToNextEvent, scenarios loaded all or nothing and saved back, the throttled actorsChanged.

#include "session_fixture.h"

#include "sim/figures.h"

#include <QSignalSpy>

using namespace inflight;
using namespace inflight::session::test;
using session::Session;

namespace {

// A producer of one message a second and a consumer taking 2.5 s per message with a 2 s
// visibility timeout: duplicates, expiries, long polls and heartbeats' worth of deadlines.
const char* const kBusy = R"({
  "version": 1, "seed": 5,
  "queues": [{"name": "orders", "attributes": {"VisibilityTimeout": 2}}],
  "actors": [
    {"type": "producer", "name": "feed", "queue": "orders", "rate": 1, "body": "order {n}"},
    {"type": "consumer", "name": "worker", "queue": "orders", "workers": 2,
     "receive": {"waitTimeSeconds": 20}, "processing": {"uniform": [1, 3]},
     "outcomes": {"fail": 0.2}}
  ]
})";

engine::BrokerOptions optionsFor(const sim::Scenario& scenario)
{
    return sim::scenarioBrokerOptions(scenario);
}

// The reference: the same scenario on a manual clock, run by Simulation::runUntil.
std::vector<std::string> referenceRun(const sim::Scenario& scenario, Millis start, Millis length)
{
    engine::ManualClock clock(start);
    engine::Broker broker(clock, optionsFor(scenario));
    std::vector<std::string> lines;
    broker.setEventSink([&](std::span<Event> batch) {
        for (const Event& e : batch)
            lines.push_back(line(e));
    });
    sim::Simulation simulation(broker);
    if (!sim::applyScenario(simulation, scenario))
        return {};
    simulation.runUntil(clock, start + length);
    return lines;
}

Session::ScenarioLoad keepClock()
{
    return Session::ScenarioLoad{.clock = false};
}

} // namespace

class SimulationTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theTimerWaitsForTheEarlierOfBrokerAndActorDeadlines()
    {
        Session session({}, kStart, /*paused=*/true);
        QVERIFY(session.simulation() == nullptr);
        const sim::Scenario scenario = scenarioOf(R"({
          "version": 1,
          "queues": [{"name": "q", "attributes": {"VisibilityTimeout": 3}}],
          "actors": [{"type": "producer", "name": "feed", "queue": "q", "rate": 0.1,
                      "startAfterSeconds": 7}]
        })");
        QVERIFY(session.loadScenario(scenario, keepClock()));
        QVERIFY(session.simulation() != nullptr);
        // Nothing in the broker: the producer's first send is what is due.
        QCOMPARE(session.nextDeadline(), kStart + 7'000);
        QVERIFY(!session.timerArmed()); // paused
        // A message in flight for 3 s comes first now.
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "x"}));
        QVERIFY(session.broker().receiveMessage({.queue = "q"}));
        QCOMPARE(session.nextDeadline(), kStart + 3'000);
        session.resume();
        QVERIFY(session.timerArmed());
        session.pause();
        QVERIFY(!session.timerArmed());
    }

    void aRunningClockServesActorsWithNoBrokerDeadline()
    {
        // Only the producer has deadlines; at 100× it sends about 20 in 0.2 s of real time.
        Session session({}, kStart, true);
        QVERIFY(session.loadScenario(scenarioOf(R"({
          "version": 1, "queues": [{"name": "q"}],
          "actors": [{"type": "producer", "name": "feed", "queue": "q", "rate": 1}]
        })"),
                                     keepClock()));
        QCOMPARE(figuresOf(session, "feed").sent, 1); // the first send is due at the start
        session.setSpeed(100);
        session.resume();
        QTRY_VERIFY_WITH_TIMEOUT(figuresOf(session, "feed").sent >= 10, 5'000);
        session.pause();
        const Millis now = session.now();
        QCOMPARE(figuresOf(session, "feed").sent, (now - kStart) / 1'000 + 1);
    }

    void aStepRunsEveryActorActionInOrderAtItsOwnTime()
    {
        // step(30 s) gives exactly what a manual clock run through the same 30 s gives: every
        // send, receive, expiry, processing end and delete at its own engine time.
        const sim::Scenario scenario = scenarioOf(kBusy);
        Session session(optionsFor(scenario), kStart, true);
        Recorder events(session);
        QVERIFY(session.loadScenario(scenario, keepClock()));
        session.step(30'000);
        QCOMPARE(session.now(), kStart + 30'000);
        const std::vector<std::string> expected = referenceRun(scenario, kStart, 30'000);
        QVERIFY(expected.size() > 60);
        QCOMPARE(events.all(), expected);
        std::vector<Millis> sends;
        for (int i = 0; i <= 30; ++i)
            sends.push_back(kStart + i * 1'000);
        QCOMPARE(events.timesOf(engine::EventKind::MessageSent), sends);
        QVERIFY(figuresOf(session, "worker").processedMoreThanOnce > 0);
        QCOMPARE(session.actorLag().max, 0); // a step serves every deadline at its time
    }

    void smallStepsAndOneBigStepAreTheSameRun()
    {
        const sim::Scenario scenario = scenarioOf(kBusy);
        Session one(optionsFor(scenario), kStart, true);
        Session many(optionsFor(scenario), kStart, true);
        Recorder oneEvents(one);
        Recorder manyEvents(many);
        QVERIFY(one.loadScenario(scenario, keepClock()));
        QVERIFY(many.loadScenario(scenario, keepClock()));
        one.step(60'000);
        for (int i = 0; i < 60; ++i)
            many.step(1'000);
        QCOMPARE(manyEvents.all(), oneEvents.all());
    }

    void pauseStopsActorsAndResumeGoesOn()
    {
        const sim::Scenario scenario = scenarioOf(kBusy);
        Session session(optionsFor(scenario), kStart, true);
        QVERIFY(session.loadScenario(scenario, keepClock()));
        session.setSpeed(50);
        session.resume();
        QTRY_VERIFY_WITH_TIMEOUT(figuresOf(session, "feed").sent >= 5, 5'000);
        session.pause();
        const Millis pausedAt = session.now();
        const sim::ActorFigures feed = figuresOf(session, "feed");
        const sim::ActorFigures worker = figuresOf(session, "worker");
        QTest::qWait(300); // 15 engine seconds if anything still ran
        QCOMPARE(session.now(), pausedAt);
        QCOMPARE(figuresOf(session, "feed").sent, feed.sent);
        QCOMPARE(figuresOf(session, "worker").receives, worker.receives);
        QCOMPARE(figuresOf(session, "worker").processed, worker.processed);
        session.resume();
        QTRY_VERIFY_WITH_TIMEOUT(figuresOf(session, "feed").sent > feed.sent, 5'000);
    }

    void pausingOneActorStopsOnlyIt()
    {
        const sim::Scenario scenario = scenarioOf(kBusy);
        Session session(optionsFor(scenario), kStart, true);
        QVERIFY(session.loadScenario(scenario, keepClock()));
        const sim::ActorId feed = *session.simulation()->findActor("feed");
        QVERIFY(session.pauseActor(feed));
        const auto sent = figuresOf(session, "feed").sent;
        session.step(10'000);
        QCOMPARE(figuresOf(session, "feed").sent, sent);
        QVERIFY(session.resumeActor(feed));
        session.step(10'000);
        QCOMPARE(figuresOf(session, "feed").sent, sent + 10);
        QVERIFY(session.stopActor(feed));
        QCOMPARE(session.simulation()->actor(feed)->state, sim::ActorState::Stopped);
        QVERIFY(session.startActor(feed));
        QCOMPARE(session.simulation()->actor(feed)->state, sim::ActorState::Running);
        QVERIFY(!session.startActor(99));
    }

    void theSameScenarioAndStepsGiveTheSameEvents()
    {
        const sim::Scenario scenario = lessonScenario("01-visibility-timeout-duplicates.json");
        const Millis start = *scenario.clock.start;
        std::vector<std::string> runs[2];
        for (auto& run : runs) {
            Session session(optionsFor(scenario), start, true);
            Recorder events(session);
            QVERIFY(session.loadScenario(scenario, keepClock()));
            for (int i = 0; i < 12; ++i)
                session.step(5'000);
            QVERIFY(session.stopActor(*session.simulation()->findActor("slow-worker")));
            QVERIFY(session.startActor(*session.simulation()->findActor("heartbeat-worker")));
            session.step(60'000);
            run = events.all();
        }
        QVERIFY(runs[0].size() > 100);
        QCOMPARE(runs[0], runs[1]);
    }

    void runForRunsThenPausesExactlyAtItsEnd()
    {
        Session session({}, kStart, true);
        QVERIFY(session.loadScenario(scenarioOf(kBusy), keepClock()));
        session.setSpeed(10);
        session.pause();
        session.runFor(3'000); // 0.3 s of real time
        QVERIFY(!session.isPaused());
        QCOMPARE(session.runTarget(), std::optional<Millis>(kStart + 3'000));
        QTRY_VERIFY_WITH_TIMEOUT(session.isPaused(), 5'000);
        QVERIFY(!session.runTarget());
        // Exactly at the end, unless the timer came more than 25 real ms late (a stall of a
        // loaded machine): then where it came.
        if (session.now() != kStart + 3'000)
            qWarning("runFor paused %lld ms late",
                     static_cast<long long>(session.now() - kStart - 3'000));
        QVERIFY(session.now() >= kStart + 3'000 && session.now() < kStart + 5'000);
        if (session.now() == kStart + 3'000)
            QCOMPARE(figuresOf(session, "feed").sent, 4); // at 0, 1, 2 and 3 s
        // pause() ends a run early.
        session.runFor(60'000);
        session.pause();
        QVERIFY(!session.runTarget());
    }

    void runToNextEventStepsToTheNextBrokerOrActorDeadline()
    {
        Session session({}, kStart, true);
        Recorder events(session);
        QVERIFY(session.loadScenario(scenarioOf(R"({
          "version": 1,
          "queues": [{"name": "q", "attributes": {"VisibilityTimeout": 3}}],
          "actors": [{"type": "producer", "name": "feed", "queue": "q", "rate": 0.1,
                      "startAfterSeconds": 7}]
        })"),
                                     keepClock()));
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "x"}));
        QVERIFY(session.broker().receiveMessage({.queue = "q"}));
        QCOMPARE(session.runToNextEvent(), std::optional<Millis>(kStart + 3'000)); // the expiry
        QCOMPARE(session.runToNextEvent(), std::optional<Millis>(kStart + 7'000)); // the send
        QCOMPARE(session.runToNextEvent(), std::optional<Millis>(kStart + 17'000));
        QVERIFY(session.isPaused());
        QCOMPARE(events.timesOf(engine::EventKind::VisibilityExpired),
                 std::vector<Millis>{kStart + 3'000});
        // Nothing due at all: the clock stays.
        QVERIFY(session.stopActor(*session.simulation()->findActor("feed")));
        (void)session.broker().purgeQueue("q", engine::PurgeTarget::Normal, "test");
        QCOMPARE(session.runToNextEvent(), std::nullopt);
        QCOMPARE(session.now(), kStart + 17'000);
    }

    void speedsBeyondSixtyRunActorsOnEngineTime()
    {
        // 720×: the 12-hour visibility timeout of a held message ends after a minute of real
        // time; here 2 engine minutes pass in about 0.17 s.
        Session session({}, kStart, true);
        QVERIFY(session.loadScenario(scenarioOf(R"({
          "version": 1, "queues": [{"name": "q"}],
          "actors": [{"type": "producer", "name": "feed", "queue": "q", "rate": 1}]
        })"),
                                     keepClock()));
        session.setSpeed(720);
        QCOMPARE(session.speed(), 720.0);
        session.runFor(120'000);
        QTRY_VERIFY_WITH_TIMEOUT(session.isPaused(), 10'000);
        QVERIFY(session.now() >= kStart + 120'000);
        QCOMPARE(figuresOf(session, "feed").sent, (session.now() - kStart) / 1'000 + 1);
    }

    void aScenarioIsAppliedAllOrNothing()
    {
        Session session({}, kStart, true);
        QVERIFY(session.loadScenario(scenarioOf(kBusy), keepClock()));
        sim::Simulation* before = session.simulation();
        // The second actor's queue is nowhere: nothing of the file is applied, and the running
        // simulation stays.
        const sim::Scenario bad = scenarioOf(R"({
          "version": 1,
          "queues": [{"name": "new-queue"}],
          "actors": [
            {"type": "producer", "name": "a", "queue": "new-queue"},
            {"type": "consumer", "name": "b", "queue": "missing"}
          ]
        })");
        const auto refused = session.loadScenario(bad);
        QVERIFY(!refused);
        QVERIFY2(QString::fromStdString(refused.error().message)
                     .contains(QStringLiteral("at actors[1].queue")),
                 refused.error().message.c_str());
        QVERIFY(!session.broker().getQueue("new-queue"));
        QCOMPARE(session.simulation(), before);
        QCOMPARE(session.simulation()->actors().size(), std::size_t(2));
        QVERIFY(session.isPaused()); // its clock was not applied either
        // A good one replaces the actors.
        QSignalSpy replaced(&session, &Session::simulationChanged);
        QVERIFY(session.loadScenario(scenarioOf(R"({
          "version": 1, "queues": [{"name": "other"}],
          "actors": [{"type": "producer", "name": "other-feed", "queue": "other"}]
        })"),
                                     keepClock()));
        QCOMPARE(replaced.count(), 1);
        QCOMPARE(session.simulation()->actors().size(), std::size_t(1));
        // Or joins them.
        QVERIFY(session.loadScenario(
            scenarioOf(R"({"version": 1, "actors": [
              {"type": "producer", "name": "second", "queue": "other"}]})"),
            Session::ScenarioLoad{.mode = Session::ScenarioMode::Add, .clock = false}));
        QCOMPARE(session.simulation()->actors().size(), std::size_t(2));
    }

    void aScenariosClockIsAppliedWherePossible()
    {
        Session session({}, kStart, true);
        const sim::Scenario scenario = scenarioOf(R"({
          "version": 1, "clock": {"speed": 30, "start": "2030-01-01T00:00:00Z", "paused": true},
          "queues": [{"name": "q"}],
          "actors": [{"type": "producer", "name": "feed", "queue": "q", "rate": 1}]
        })");
        QVERIFY(session.loadScenario(scenario));
        QCOMPARE(session.speed(), 30.0);
        QVERIFY(session.isPaused());
        QCOMPARE(session.now(), *scenario.clock.start);
        // The producer began at the start (its first send there), not at the old time.
        const auto messages = session.broker().peekMessages("q");
        QCOMPARE(messages->size(), std::size_t(1));
        QCOMPARE(messages->front().sentAt, *scenario.clock.start);
        // A start before engine time now cannot be had: time stays.
        Session later({}, *scenario.clock.start + 1'000, true);
        QVERIFY(later.loadScenario(scenario));
        QCOMPARE(later.now(), *scenario.clock.start + 1'000);
    }

    void theCurrentSimulationSavesAsAScenarioThatLoadsAgain()
    {
        const sim::Scenario lesson = lessonScenario("02-poison-message-dlq.json");
        Session session(optionsFor(lesson), *lesson.clock.start, true);
        QVERIFY(session.loadScenario(lesson, keepClock()));
        session.setSpeed(25);
        // Edit the system: a new consumer, one stopped.
        sim::ConsumerSpec extra;
        extra.name = "extra-worker";
        extra.queue = "orders";
        extra.processing = sim::Duration{sim::Duration::Kind::Fixed, 2'000, 0};
        QVERIFY(session.addActor(extra));
        QVERIFY(session.stopActor(*session.simulation()->findActor("worker")));
        session.step(20'000);

        const sim::Scenario saved = session.currentScenario();
        const std::string text = sim::writeScenario(saved);
        const auto again = sim::parseScenario(text);
        QVERIFY2(again.ok(), again.ok() ? "" : again.error().message.c_str());
        QCOMPARE(saved.title, lesson.title);
        QCOMPARE(saved.seed, lesson.seed);
        QCOMPARE(saved.clock.speed, 25.0);
        QCOMPARE(saved.clock.start, lesson.clock.start);
        QCOMPARE(saved.actors.size(), std::size_t(5));
        const auto& worker = std::get<sim::ConsumerSpec>(saved.actors[2].spec);
        QCOMPARE(worker.name, std::string("worker"));
        QVERIFY(!worker.autoStart); // stopped when saved
        QCOMPARE(std::get<sim::ConsumerSpec>(saved.actors[4].spec), extra);
        QVERIFY(saved.lesson); // kept from the loaded scenario
        // The queues by name, the redrive policy naming its DLQ, defaults left out.
        QCOMPARE(saved.queues.queues.size(), std::size_t(2));
        const auto found = std::find_if(saved.queues.queues.begin(), saved.queues.queues.end(),
                                        [](const auto& q) { return q.name == "orders"; });
        QVERIFY(found != saved.queues.queues.end());
        const config::ConfigQueue& orders = *found;
        QCOMPARE(orders.deadLetterTarget, std::string("orders-dlq"));
        QCOMPARE(orders.attributes.at("VisibilityTimeout"), std::string("5"));
        QVERIFY(!orders.attributes.contains("MaximumMessageSize"));
        QVERIFY2(text.find("\"deadLetterTargetArn\": \"orders-dlq\"") != std::string::npos,
                 text.c_str());

        // It loads into a fresh session and runs.
        Session fresh(optionsFor(*again), *again->clock.start, true);
        QVERIFY(fresh.loadScenario(*again, keepClock()));
        fresh.step(30'000);
        QVERIFY(figuresOf(fresh, "extra-worker").processed > 5);
        QCOMPARE(figuresOf(fresh, "worker").receives, 0);
    }

    void actorsChangedIsSignalledAtMostTenTimesASecond()
    {
        Session session({}, kStart, true);
        QVERIFY(session.loadScenario(scenarioOf(R"({
          "version": 1, "queues": [{"name": "q"}],
          "actors": [{"type": "producer", "name": "feed", "queue": "q", "rate": 200},
                     {"type": "consumer", "name": "worker", "queue": "q", "workers": 5,
                      "receive": {"maxMessages": 10, "waitTimeSeconds": 20},
                      "processing": 0.01}]
        })"),
                                     keepClock()));
        QSignalSpy changed(&session, &Session::actorsChanged);
        session.setSpeed(10);
        session.resume();
        QElapsedTimer real;
        real.start();
        QTest::qWait(1'000);
        session.pause();
        const double seconds = static_cast<double>(real.elapsed()) / 1000.0;
        QVERIFY(figuresOf(session, "feed").sent > 1'000); // thousands of actions, ...
        qInfo("actorsChanged: %d times in %.2f s", int(changed.count()), seconds);
        QVERIFY(changed.count() >= 3); // ... a few signals
        QVERIFY(changed.count() <= int(seconds * 10) + 2);
    }

    void theActorsFiguresHaveNames()
    {
        sim::ActorFigures figures;
        figures.processedMoreThanOnce = 3;
        QCOMPARE(sim::figure(figures, "processedMoreThanOnce"), std::optional<std::int64_t>(3));
        QCOMPARE(sim::figure(figures, "nothing"), std::nullopt);
        QCOMPARE(sim::figureNames().size(), std::size_t(22));
    }
};

QTEST_GUILESS_MAIN(SimulationTest)
#include "simulation_test.moc"
