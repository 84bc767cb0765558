// How late actors act on a running clock (issue 13: "at 60×, actors keep within 100 ms of engine
// time"): 10 producers and 10 consumers through the session's one timer at 60× for a few real
// seconds; the session's ActorLag says how far after its engine deadline each actor action ran.
// The figures go to docs/PERFORMANCE.md ("Simulated actors"):
//   build/tests/session_lag_test -maxwarnings 0   (INFLIGHT_LAG_SECONDS=20 for a longer run)

#include "session_fixture.h"

#include <QEventLoop>
#include <QTimer>

#include <cstdlib>

using namespace inflight;
using namespace inflight::session::test;
using session::Session;

namespace {

// Ten queues, each with a producer of 2 messages a second and a consumer of 3 workers that
// long-polls and takes 0.5 to 3 s per message (one in ten fails and comes back).
std::string tenAndTen()
{
    std::string queues, actors;
    for (int i = 0; i < 10; ++i) {
        const std::string q = "q" + std::to_string(i);
        queues += std::string(i ? "," : "") + R"({"name": ")" + q
            + R"(", "attributes": {"VisibilityTimeout": 10}})";
        actors += std::string(i ? "," : "") + R"({"type": "producer", "name": "feed-)"
            + std::to_string(i) + R"(", "queue": ")" + q
            + R"(", "rate": 2, "arrivals": "poisson", "body": "order {n} {uuid}"},
               {"type": "consumer", "name": "worker-)"
            + std::to_string(i) + R"(", "queue": ")" + q
            + R"(", "workers": 3, "receive": {"waitTimeSeconds": 20, "maxMessages": 5},
                "processing": {"uniform": [0.5, 3]}, "outcomes": {"fail": 0.1}})";
    }
    return R"({"version": 1, "seed": 13, "queues": [)" + queues + R"(], "actors": [)" + actors
        + "]}";
}

} // namespace

class LagTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void actorsKeepWithinATenthOfASecondOfEngineTimeAt60x()
    {
        const sim::Scenario scenario = scenarioOf(tenAndTen());
        Session session(sim::scenarioBrokerOptions(scenario), kStart, true);
        QVERIFY(session.loadScenario(scenario, Session::ScenarioLoad{.clock = false}));
        session.setSpeed(60);
        const int seconds = std::max(1,
                                     std::atoi(qgetenv("INFLIGHT_LAG_SECONDS").isEmpty()
                                                   ? "5"
                                                   : qgetenv("INFLIGHT_LAG_SECONDS").data()));
        session.resetActorLag();
        QElapsedTimer real;
        real.start();
        session.resume();
        // A real event loop (QTest::qWait sleeps 10 ms between its turns, which at 60× is 600 ms
        // of engine time).
        QEventLoop loop;
        QTimer::singleShot(seconds * 1'000, &loop, &QEventLoop::quit);
        loop.exec();
        session.pause();
        const Session::ActorLag lag = session.actorLag();
        std::int64_t sent = 0, processed = 0;
        for (const sim::ActorInfo& actor : session.simulation()->actors()) {
            sent += actor.figures.sent;
            processed += actor.figures.processed;
        }
        const double engineSeconds = static_cast<double>(session.now() - kStart) / 1000.0;
        const double within = lag.deadlines == 0
            ? 0.0
            : 100.0 * static_cast<double>(lag.deadlines - lag.over100ms)
                / static_cast<double>(lag.deadlines);
        qInfo("60x for %.1f real s (%.0f engine s): %lld actor deadlines served, lag mean %.1f ms, "
              "max %lld ms, %.2f%% within 100 ms; %lld sent, %lld processed; the timer came "
              "%.2f real ms late on average (max %lld) in %lld wake-ups",
              static_cast<double>(real.elapsed()) / 1000.0, engineSeconds,
              static_cast<long long>(lag.deadlines), lag.mean(), static_cast<long long>(lag.max),
              within, static_cast<long long>(sent), static_cast<long long>(processed),
              lag.wakeups == 0 ? 0.0 : double(lag.wakeLateTotal) / double(lag.wakeups),
              static_cast<long long>(lag.wakeLateMax), static_cast<long long>(lag.wakeups));
        QVERIFY(lag.deadlines > 1'000);
        QVERIFY(engineSeconds > seconds * 60 * 0.9);
        // A timer that comes late (at 60× one real millisecond is 60 engine ms; a loaded machine
        // wakes it many milliseconds late) does not make the actors late: the clock stands at each
        // deadline while it is served. Nothing else reads the clock here, so every deadline is
        // served at its own time whatever the machine's load (measured: mean 0.2 ms, max 57 ms,
        // the max being a deadline that fell due while the one before it was being served).
        QVERIFY2(lag.mean() < 10.0, qPrintable(QString::number(lag.mean())));
        QVERIFY2(within > 99.0, qPrintable(QString::number(within)));
    }
};

QTEST_GUILESS_MAIN(LagTest)
#include "lag_test.moc"
