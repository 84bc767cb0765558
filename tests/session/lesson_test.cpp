// A lesson played through the session (Session::lessonDoIt, lessonNext, restartLesson): its steps
// tick at the engine time their checks are met, pauseWhenMet pauses a running clock at that
// moment, and restarting brings the lesson's system back.

#include "session_fixture.h"

#include <QSignalSpy>

using namespace inflight;
using namespace inflight::session::test;
using session::Session;

namespace {

const std::string kLesson2 = "02-poison-message-dlq.json";

// Steps the frozen clock second by second until the lesson's current step changes (at most
// `seconds`); returns whether it did.
bool stepUntilTicked(Session& session, int seconds)
{
    const std::size_t step = session.lessonRun()->current();
    for (int i = 0; i < seconds && session.lessonRun()->current() == step; ++i)
        session.step(1'000);
    return session.lessonRun()->current() != step;
}

} // namespace

class LessonTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aLessonPlaysThroughTheSessionAtTheMomentsThatMatter()
    {
        const sim::Scenario scenario = lessonScenario(kLesson2);
        const Millis start = *scenario.clock.start;
        Session session(sim::scenarioBrokerOptions(scenario), start, /*paused=*/true);
        QVERIFY(session.loadScenario(scenario, Session::ScenarioLoad{.clock = false}));
        QVERIFY(session.lessonRun() != nullptr);
        QCOMPARE(session.lessonRun()->size(), std::size_t(4));
        QCOMPARE(session.lessonProgress().text,
                 std::string("orders highest receive count of messages containing \"POISON\": "
                             "none (wanted ≥ 2)"));
        QSignalSpy changed(&session, &Session::lessonChanged);

        // Step 1 resumes the clock; this test holds it and steps instead.
        QVERIFY(session.lessonDoIt());
        QVERIFY(!session.isPaused());
        session.pause();
        QVERIFY(stepUntilTicked(session, 60));
        // Met at the expiry of its first visibility timeout, exactly: 10 s + 0.5 s + 5 s.
        QCOMPARE(session.lessonRun()->metAt(0), std::optional<Millis>(start + 15'500));
        QVERIFY(session.isPaused()); // pauseWhenMet
        QTRY_VERIFY(changed.count() > 0);

        QVERIFY(session.lessonDoIt());
        session.pause();
        QVERIFY(stepUntilTicked(session, 60));
        QCOMPARE(session.lessonRun()->metAt(1), std::optional<Millis>(start + 25'500));
        const auto dead = session.broker().peekMessages("orders-dlq");
        QCOMPARE(dead->size(), std::size_t(1));

        // A "do" without a check: met once performed; the peek is handed back to show.
        const auto peeked = session.lessonDoIt();
        QVERIFY(peeked);
        QCOMPARE(peeked->peeked.size(), std::size_t(1));
        QCOMPARE(peeked->peeked.front().receiveCount, 3u);
        QCOMPARE(session.lessonRun()->current(), std::size_t(3));

        QVERIFY(session.lessonDoIt()); // stop worker, start fixed-worker, redrive, resume
        session.pause();
        QVERIFY(stepUntilTicked(session, 60));
        QVERIFY(session.lessonRun()->finished());
        QVERIFY(figuresOf(session, "fixed-worker").processed >= 1);
        QVERIFY(!session.lessonDoIt()); // nothing more to do

        // Restart: the lesson's system again, the first step current, engine time where it was.
        const Millis now = session.now();
        QVERIFY(session.restartLesson());
        QCOMPARE(session.lessonRun()->current(), std::size_t(0));
        QVERIFY(!session.isPaused()); // the scenario's clock runs
        session.pause();
        // Where it was, give or take the real time it ran since (a loaded machine: some ms), and
        // not back at the scenario's start (90 s of engine time earlier).
        QVERIFY2(session.now() >= now && session.now() - now < 2'000,
                 qPrintable(QString::number(session.now() - now)));
        QCOMPARE(session.broker().peekMessages("orders-dlq")->size(), std::size_t(0));
        QCOMPARE(figuresOf(session, "fixed-worker").processed, 0);
        QCOMPARE(session.simulation()->actor(*session.simulation()->findActor("worker"))->state,
                 sim::ActorState::Running);
        QVERIFY(stepUntilTicked(session, 60));
        QCOMPARE(session.lessonRun()->metAt(0), std::optional<Millis>(now + 15'500));
    }

    void pauseWhenMetPausesARunningClockAtThatMoment()
    {
        const sim::Scenario scenario = lessonScenario(kLesson2);
        const Millis start = *scenario.clock.start;
        Session session(sim::scenarioBrokerOptions(scenario), start, true);
        QVERIFY(session.loadScenario(scenario, Session::ScenarioLoad{.clock = false}));
        session.setSpeed(20);
        QVERIFY(session.lessonDoIt()); // resume: 15.5 engine s in about 0.8 s
        QTRY_VERIFY_WITH_TIMEOUT(session.isPaused(), 10'000);
        QCOMPARE(session.lessonRun()->current(), std::size_t(1));
        // Met at the expiry (15.5 s, later by what the actors lagged on the way), and the clock
        // stopped when the timer served it (late by the timer's lateness times 20; a loaded
        // machine's stall of half a second at most here).
        const Millis met = *session.lessonRun()->metAt(0);
        QVERIFY2(met >= start + 15'500 && met < start + 20'000,
                 qPrintable(QString::number(met - start)));
        QVERIFY2(session.now() >= met && session.now() - met < 10'000,
                 qPrintable(QString::number(session.now() - met)));
        const auto orders = session.broker().peekMessages("orders");
        bool back = false;
        for (const auto& m : *orders)
            back = back || (m.body.find("POISON") != std::string::npos && m.receiveCount == 2);
        QVERIFY(back);
    }

    void aStepByHandMeetsACheckToo()
    {
        // The reader may do by hand what "Do it" would: the check ticks all the same.
        const sim::Scenario scenario = lessonScenario("01-visibility-timeout-duplicates.json");
        Session session(sim::scenarioBrokerOptions(scenario), *scenario.clock.start, true);
        QVERIFY(session.loadScenario(scenario, Session::ScenarioLoad{.clock = false}));
        QVERIFY(stepUntilTicked(session, 60)); // step 1 needs only time
        QCOMPARE(session.lessonRun()->current(), std::size_t(1));
        session.lessonNext(); // skip the look into orders
        QCOMPARE(session.lessonRun()->current(), std::size_t(2));
        QVERIFY(
            session.broker().setQueueAttributes("orders", {{"VisibilityTimeout", "30"}}, "test"));
        QVERIFY(stepUntilTicked(session, 120));
        QCOMPARE(session.lessonRun()->current(), std::size_t(3));
    }
};

QTEST_GUILESS_MAIN(LessonTest)
#include "lesson_test.moc"
