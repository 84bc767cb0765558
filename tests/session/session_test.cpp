// The Session's own mechanics (core/session/session.h), without a simulation: the one timer armed
// at the engine's next deadline and moved by pause, resume and speed; the engine's events fanned
// out as one eventsReady per event-loop turn (flushNow at once); step(), runFor() and
// runToNextEvent(); waiting receives (PendingReceive); the durability hooks (setPersistence,
// whenDurable, commitNow).

#include "session_fixture.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStringList>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

using namespace inflight;
using namespace inflight::session::test;
using engine::EventKind;
using session::PendingReceive;
using session::Session;

namespace {

// Every eventsReady batch as it came, without touching the session (no flushNow: a test of the
// timer must see only what the timer itself served).
class Batches {
public:
    explicit Batches(Session& session)
    {
        QObject::connect(&session, &Session::eventsReady, &session,
                         [this](const std::vector<Event>& batch) { batches.push_back(batch); });
    }
    std::vector<Event> all() const
    {
        std::vector<Event> events;
        for (const auto& batch : batches)
            events.insert(events.end(), batch.begin(), batch.end());
        return events;
    }
    std::optional<Event> first(EventKind kind) const
    {
        for (const Event& e : all())
            if (e.kind == kind)
                return e;
        return std::nullopt;
    }
    bool has(EventKind kind) const { return first(kind).has_value(); }

    std::vector<std::vector<Event>> batches;
};

QStringList kindsOf(const std::vector<Event>& events)
{
    QStringList kinds;
    for (const Event& e : events)
        kinds << QString::fromUtf8(engine::eventKindName(e.kind).data(),
                                   static_cast<qsizetype>(engine::eventKindName(e.kind).size()));
    return kinds;
}

std::vector<std::uint64_t> sequencesOf(std::span<const Event> events)
{
    std::vector<std::uint64_t> sequences;
    for (const Event& e : events)
        sequences.push_back(e.sequence);
    return sequences;
}

void createQueue(Session& session, const std::string& name, engine::StringMap attributes = {})
{
    QVERIFY(session.broker().createQueue({.name = name, .attributes = std::move(attributes)}));
}

// Sends `body` to q and receives it with `visibility` seconds; the receipt.
std::string sendAndReceive(Session& session, const std::string& body, std::int64_t visibility)
{
    if (!session.broker().sendMessage({.queue = "q", .body = body}))
        return {};
    auto received
        = session.broker().receiveMessage({.queue = "q", .visibilityTimeout = visibility});
    if (!received || received->messages.size() != 1)
        return {};
    return received->messages[0].receiptHandle;
}

// What a short poll of q gets now.
std::vector<std::string> bodiesInQ(Session& session)
{
    std::vector<std::string> bodies;
    auto received = session.broker().receiveMessage({.queue = "q", .maxMessages = 10});
    if (received)
        for (const auto& m : received->messages)
            bodies.push_back(m.body);
    return bodies;
}

} // namespace

class SessionTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // ---- the timer ------------------------------------------------------------------------------

    void aDelayedSendArmsTheTimerAndTheMessageArrivesWhenItsDelayEnds()
    {
        Session session({}, kStart, /*paused=*/true);
        Batches events(session);
        createQueue(session, "q");
        session.setSpeed(10);
        session.resume();
        session.flushNow();
        QVERIFY(!session.timerArmed()); // an empty queue has nothing due
        const auto sent
            = session.broker().sendMessage({.queue = "q", .body = "late", .delaySeconds = 3});
        QVERIFY(sent);
        QCOMPARE(session.nextDeadline(), sent->sentAt + 3'000);
        // The send's batch re-arms the timer for the delay's end (0.3 s of real time at 10×).
        session.flushNow();
        QVERIFY(session.timerArmed());
        QVERIFY(!events.has(EventKind::DelayEnded));
        QTRY_VERIFY_WITH_TIMEOUT(events.has(EventKind::DelayEnded), 5'000);
        QCOMPARE(events.first(EventKind::DelayEnded)->time, sent->sentAt + 3'000);
        session.pause();
        QCOMPARE(bodiesInQ(session), std::vector<std::string>{"late"});
    }

    void aVisibilityTimeoutEndsExactlyWhenEngineTimeReachesIt()
    {
        Session session({}, kStart, true);
        Batches events(session);
        createQueue(session, "q");
        QVERIFY(!sendAndReceive(session, "m", 5).empty());
        QCOMPARE(session.nextDeadline(), kStart + 5'000);
        QVERIFY(!session.timerArmed()); // paused: nothing runs by itself
        session.step(4'999);
        QTest::qWait(1);
        QVERIFY(!events.has(EventKind::VisibilityExpired));
        session.step(1);
        QTRY_VERIFY(events.has(EventKind::VisibilityExpired));
        QCOMPARE(events.first(EventKind::VisibilityExpired)->time, kStart + 5'000);
        auto again = session.broker().receiveMessage({.queue = "q"});
        QVERIFY(again && again->messages.size() == 1);
        QCOMPARE(again->messages[0].receiveCount, 2u);
    }

    void pauseStopsTheTimerAndResumeArmsItAgain()
    {
        Session session({}, kStart, true);
        Batches events(session);
        createQueue(session, "q");
        QVERIFY(!sendAndReceive(session, "m", 60).empty()); // due at kStart + 60 s
        session.setSpeed(100);                              // 0.6 s of real time
        session.resume();
        QVERIFY(session.timerArmed());
        session.pause();
        QVERIFY(!session.timerArmed());
        const Millis pausedAt = session.now();
        QTest::qWait(500); // 50 engine seconds if the clock still ran
        QCOMPARE(session.now(), pausedAt);
        QVERIFY(!events.has(EventKind::VisibilityExpired));
        session.resume();
        QVERIFY(session.timerArmed());
        QTRY_VERIFY_WITH_TIMEOUT(events.has(EventKind::VisibilityExpired), 5'000);
        QCOMPARE(events.first(EventKind::VisibilityExpired)->time, kStart + 60'000);
    }

    void setSpeedChangesHowSoonTheTimerFires()
    {
        Session session({}, kStart, true);
        Batches events(session);
        createQueue(session, "q");
        QVERIFY(!sendAndReceive(session, "m", 600).empty()); // 10 minutes
        session.resume();                                    // at 1×: ten real minutes away
        QVERIFY(session.timerArmed());
        QTest::qWait(100);
        QVERIFY(!events.has(EventKind::VisibilityExpired));
        QElapsedTimer real;
        real.start();
        session.setSpeed(6'000); // what is left of the 10 minutes takes 0.1 s now
        QVERIFY(session.timerArmed());
        QTRY_VERIFY_WITH_TIMEOUT(events.has(EventKind::VisibilityExpired), 5'000);
        QVERIFY2(real.elapsed() < 3'000, qPrintable(QString::number(real.elapsed())));
        QCOMPARE(events.first(EventKind::VisibilityExpired)->time, kStart + 600'000);
    }

    // ---- batching -------------------------------------------------------------------------------

    void callsInOneTurnReachListenersAsOneBatchInOrder()
    {
        Session session({}, kStart, true);
        Batches events(session);
        createQueue(session, "q");
        const auto a = session.broker().sendMessage({.queue = "q", .body = "a"});
        const auto b = session.broker().sendMessage({.queue = "q", .body = "b"});
        QVERIFY(a && b);
        QVERIFY(session.broker().receiveMessage({.queue = "q"}));
        QVERIFY(events.batches.empty()); // nothing before the event loop runs
        QTRY_COMPARE(events.batches.size(), std::size_t(1));
        const std::vector<Event>& batch = events.batches[0];
        QCOMPARE(kindsOf(batch),
                 (QStringList{QStringLiteral("queue created"), QStringLiteral("sent"),
                              QStringLiteral("sent"), QStringLiteral("received")}));
        QCOMPARE(sequencesOf(batch), (std::vector<std::uint64_t>{1, 2, 3, 4}));
        QCOMPARE(batch[1].messageId, a->messageId);
        QCOMPARE(batch[2].messageId, b->messageId);
        QCoreApplication::processEvents();
        QCOMPARE(events.batches.size(), std::size_t(1)); // no second, empty one
        // A call in a later turn: a batch of its own.
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "c"}));
        QTRY_COMPARE(events.batches.size(), std::size_t(2));
        QCOMPARE(kindsOf(events.batches[1]), QStringList{QStringLiteral("sent")});
        QCOMPARE(events.batches[1][0].sequence, std::uint64_t(5));
    }

    void flushNowDeliversTheBatchBeforeReturning()
    {
        Session session({}, kStart, true);
        Batches events(session);
        session.flushNow(); // nothing batched: nothing emitted
        QVERIFY(events.batches.empty());
        createQueue(session, "q");
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "a"}));
        session.flushNow();
        QCOMPARE(events.batches.size(), std::size_t(1));
        QCOMPARE(events.batches[0].size(), std::size_t(2));
        // The turn that was queued finds nothing left.
        QCoreApplication::processEvents();
        QCOMPARE(events.batches.size(), std::size_t(1));
        QCOMPARE(events.all().size(), std::size_t(2));
    }

    void aStepsEventsComeInTheNextTurnAsOneBatchInTimeOrder()
    {
        Session session({}, kStart, true);
        Batches events(session);
        createQueue(session, "q");
        QVERIFY(!sendAndReceive(session, "late", 7).empty());
        QVERIFY(!sendAndReceive(session, "early", 5).empty());
        session.flushNow();
        events.batches.clear();
        QSignalSpy clock(&session, &Session::clockChanged);
        session.step(10'000);
        QCOMPARE(session.now(), kStart + 10'000); // at once
        QVERIFY(session.isPaused());              // a step leaves a paused clock paused
        QCOMPARE(clock.count(), 1);
        QVERIFY(events.batches.empty()); // delivered from the event loop
        QTRY_COMPARE(events.batches.size(), std::size_t(1));
        const std::vector<Event>& batch = events.batches[0];
        QCOMPARE(kindsOf(batch),
                 (QStringList{QStringLiteral("visibility expired"),
                              QStringLiteral("visibility expired")}));
        QCOMPARE(batch[0].time, kStart + 5'000); // each at its own deadline
        QCOMPARE(batch[1].time, kStart + 7'000);
    }

    // ---- step, runFor, runToNextEvent ------------------------------------------------------------

    void runForRunsThenPausesAtItsEndServingDeadlinesOnTheWay()
    {
        Session session({}, kStart, true);
        Batches events(session);
        createQueue(session, "q");
        QVERIFY(!sendAndReceive(session, "m", 1).empty()); // due at kStart + 1 s
        QVERIFY(!session.runTarget());
        session.setSpeed(10);
        session.runFor(2'000); // 0.2 s of real time
        QVERIFY(!session.isPaused());
        QCOMPARE(session.runTarget(), std::optional<Millis>(kStart + 2'000));
        QVERIFY(session.timerArmed());
        QTRY_VERIFY_WITH_TIMEOUT(session.isPaused(), 5'000);
        QVERIFY(!session.runTarget());
        QVERIFY(!session.timerArmed());
        // Exactly at the end, unless the timer came more than 25 real ms late (a loaded machine):
        // then where it came.
        if (session.now() != kStart + 2'000)
            qWarning("runFor paused %lld ms late",
                     static_cast<long long>(session.now() - kStart - 2'000));
        QVERIFY(session.now() >= kStart + 2'000 && session.now() < kStart + 50'000);
        QTRY_VERIFY(events.has(EventKind::VisibilityExpired));
        QCOMPARE(events.first(EventKind::VisibilityExpired)->time, kStart + 1'000);
        // pause() ends a run early, where it is.
        session.runFor(60'000);
        QVERIFY(session.runTarget());
        session.pause();
        QVERIFY(!session.runTarget());
        QVERIFY(session.now() < kStart + 60'000);
    }

    void runToNextEventStopsAtEachDeadlineWhereSomethingHappens()
    {
        Session session({}, kStart, true);
        Batches events(session);
        QCOMPARE(session.runToNextEvent(), std::nullopt); // nothing due: the clock stays
        QCOMPARE(session.now(), kStart);
        createQueue(session, "q", {{"MessageRetentionPeriod", "60"}});
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "delayed", .delaySeconds = 5}));
        QVERIFY(!sendAndReceive(session, "held", 3).empty());
        QCOMPARE(session.runToNextEvent(), std::optional<Millis>(kStart + 3'000));
        QCOMPARE(session.now(), kStart + 3'000);
        QCOMPARE(session.runToNextEvent(), std::optional<Millis>(kStart + 5'000));
        QCOMPARE(session.runToNextEvent(), std::optional<Millis>(kStart + 60'000));
        QVERIFY(session.isPaused());
        QCOMPARE(session.runToNextEvent(), std::nullopt); // both messages gone
        QCOMPARE(session.now(), kStart + 60'000);
        QTRY_VERIFY(events.has(EventKind::RetentionExpired));
        std::vector<Millis> times;
        for (const Event& e : events.all())
            if (e.queue == "q" && e.origin == "engine")
                times.push_back(e.time);
        QCOMPARE(times,
                 (std::vector<Millis>{kStart + 3'000, kStart + 5'000, kStart + 60'000,
                                      kStart + 60'000}));
    }

    void runToNextEventPassesOverDeadlinesThatTurnOutEarly()
    {
        Session session({}, kStart, true);
        createQueue(session, "q");
        const std::string deleted = sendAndReceive(session, "deleted", 2);
        QVERIFY(!deleted.empty());
        QVERIFY(session.broker().deleteMessage("q", deleted, "test"));
        const std::string extended = sendAndReceive(session, "extended", 3);
        QVERIFY(!extended.empty());
        QVERIFY(session.broker().changeMessageVisibility("q", extended, 10,
                                                         "test")); // from 3 s to 10 s
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "delayed", .delaySeconds = 5}));
        // Nothing happens at 2 s or 3 s any more.
        QCOMPARE(session.runToNextEvent(), std::optional<Millis>(kStart + 5'000));
        QCOMPARE(session.runToNextEvent(), std::optional<Millis>(kStart + 10'000));
    }

    // ---- waiting receives -----------------------------------------------------------------------

    void aWaitingReceiveIsAnsweredByASendFromTheEventLoop()
    {
        Session session({}, kStart, true);
        createQueue(session, "q");
        std::unique_ptr<PendingReceive> wait(
            session.receive({.queue = "q", .waitTimeSeconds = 20}));
        QSignalSpy finished(wait.get(), &PendingReceive::finished);
        QVERIFY(!wait->isFinished());
        QCOMPARE(session.nextDeadline(), kStart + 20'000); // the wait's end
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "for you"}));
        QCOMPARE(finished.count(), 0); // not from inside the engine call
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(wait->isFinished() && !wait->wasCancelled());
        QVERIFY(wait->result());
        QCOMPARE(wait->result()->messages.size(), std::size_t(1));
        QCOMPARE(wait->result()->messages[0].body, std::string("for you"));
        QCoreApplication::processEvents();
        QCOMPARE(finished.count(), 1); // once
    }

    void aReceiveAnsweredAtOnceStillSignalsFromTheEventLoop()
    {
        Session session({}, kStart, true);
        createQueue(session, "q");
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "there"}));
        std::unique_ptr<PendingReceive> wait(
            session.receive({.queue = "q", .waitTimeSeconds = 20}));
        QSignalSpy finished(wait.get(), &PendingReceive::finished);
        QVERIFY(wait->isFinished()); // the engine answered inside the call
        QCOMPARE(wait->result()->messages.size(), std::size_t(1));
        QCOMPARE(finished.count(), 0);
        QTRY_COMPARE(finished.count(), 1);
    }

    void aWaitingReceiveOnARunningClockEndsEmptyWhenItsTimeIsUp()
    {
        Session session({}, kStart, true);
        createQueue(session, "q");
        session.setSpeed(10);
        session.resume();
        session.flushNow();
        std::unique_ptr<PendingReceive> wait(session.receive({.queue = "q", .waitTimeSeconds = 2}));
        QSignalSpy finished(wait.get(), &PendingReceive::finished);
        QVERIFY(session.timerArmed()); // for the wait's end, 0.2 s of real time away
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5'000);
        QVERIFY(wait->result());
        QVERIFY(wait->result()->messages.empty());
        QVERIFY(!wait->wasCancelled());
        QVERIFY(session.now() >= kStart + 2'000);
    }

    void aCancelledOrDeletedWaitTakesNoMessage()
    {
        Session session({}, kStart, true);
        createQueue(session, "q");
        std::unique_ptr<PendingReceive> cancelled(
            session.receive({.queue = "q", .waitTimeSeconds = 20}));
        QSignalSpy finished(cancelled.get(), &PendingReceive::finished);
        cancelled->cancel();
        QVERIFY(cancelled->isFinished() && cancelled->wasCancelled());
        QVERIFY(cancelled->result() && cancelled->result()->messages.empty());
        QTRY_COMPARE(finished.count(), 1);
        cancelled->cancel(); // no effect once finished
        QCoreApplication::processEvents();
        QCOMPARE(finished.count(), 1);

        std::unique_ptr<PendingReceive> deleted(
            session.receive({.queue = "q", .waitTimeSeconds = 20}));
        QCOMPARE(session.broker().pendingWaits(), std::size_t(1));
        deleted.reset();
        QCOMPARE(session.broker().pendingWaits(), std::size_t(0));
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "still here"}));
        QCOMPARE(bodiesInQ(session), std::vector<std::string>{"still here"});
    }

    // ---- durability -----------------------------------------------------------------------------

    void theStoreSeesEachBatchOnceBeforeListeners()
    {
        Session session({}, kStart, true);
        QStringList order;
        std::vector<std::vector<std::uint64_t>> stored;
        session.setPersistence([&](std::span<const Event> batch) {
            order << QStringLiteral("store %1").arg(batch.size());
            stored.push_back(sequencesOf(batch));
            return Session::Stored(engine::Done{});
        });
        QVERIFY(session.hasPersistence());
        std::vector<std::vector<std::uint64_t>> shown;
        connect(&session, &Session::eventsReady, this, [&](const std::vector<Event>& batch) {
            order << QStringLiteral("ready %1").arg(batch.size());
            shown.push_back(sequencesOf(batch));
        });
        QVERIFY(session.isDurable());
        createQueue(session, "q");
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "a"}));
        QVERIFY(!session.isDurable()); // until the turn's commit
        QTRY_COMPARE(order.size(), 2);
        QVERIFY(session.isDurable());
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "b"}));
        QTRY_COMPARE(order.size(), 4);
        QCOMPARE(order,
                 (QStringList{QStringLiteral("store 2"), QStringLiteral("ready 2"),
                              QStringLiteral("store 1"), QStringLiteral("ready 1")}));
        QCOMPARE(stored, (std::vector<std::vector<std::uint64_t>>{{1, 2}, {3}}));
        QCOMPARE(shown, stored);
        QVERIFY(session.persistenceError().isEmpty());
    }

    void aClockChangeAloneIsStoredAsAnEmptyBatch()
    {
        Session session({}, kStart, true);
        std::vector<std::size_t> stored;
        session.setPersistence([&](std::span<const Event> batch) {
            stored.push_back(batch.size());
            return Session::Stored(engine::Done{});
        });
        Batches events(session);
        session.setSpeed(5);
        session.step(1'000);
        QVERIFY(stored.empty()); // in the event loop's turn
        QTRY_COMPARE(stored.size(), std::size_t(1));
        QCOMPARE(stored[0], std::size_t(0));
        QCoreApplication::processEvents();
        QCOMPARE(stored.size(), std::size_t(1));
        QVERIFY(events.batches.empty()); // no events: nothing for listeners
    }

    void whenDurableAnswersOnceTheCommitIsDone()
    {
        Session session({}, kStart, true);
        // Without persistence everything is durable at once.
        createQueue(session, "q");
        QVERIFY(session.isDurable());
        int calls = 0;
        session.whenDurable(this, [&](bool stored) { calls += stored ? 1 : 100; });
        QCOMPARE(calls, 1);
        QVERIFY(session.commitNow());

        int commits = 0;
        session.setPersistence([&](std::span<const Event>) {
            ++commits;
            return Session::Stored(engine::Done{});
        });
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "a"}));
        std::optional<bool> answer;
        std::optional<int> commitsWhenAnswered;
        session.whenDurable(this, [&](bool stored) {
            answer = stored;
            commitsWhenAnswered = commits;
        });
        auto gone = std::make_unique<QObject>();
        bool goneCalled = false;
        session.whenDurable(gone.get(), [&](bool) { goneCalled = true; });
        gone.reset(); // its context destroyed: never called
        QVERIFY(!answer);
        QTRY_VERIFY(answer.has_value());
        QCOMPARE(*answer, true);
        QCOMPARE(commitsWhenAnswered, std::optional<int>(1)); // after the store had it
        QVERIFY(!goneCalled);
        // Already durable: at once.
        answer.reset();
        session.whenDurable(this, [&](bool stored) { answer = stored; });
        QCOMPARE(answer, std::optional<bool>(true));
    }

    void aFailedCommitIsReportedAndRetriedWithNewerEvents()
    {
        Session session({}, kStart, true);
        bool full = true;
        std::vector<std::vector<std::uint64_t>> attempts;
        session.setPersistence([&](std::span<const Event> batch) {
            attempts.push_back(sequencesOf(batch));
            return full ? Session::Stored(std::string("disk full"))
                        : Session::Stored(engine::Done{});
        });
        QSignalSpy failed(&session, &Session::persistenceFailed);
        QSignalSpy recovered(&session, &Session::persistenceRecovered);
        createQueue(session, "q");
        std::optional<bool> first;
        session.whenDurable(this, [&](bool stored) { first = stored; });
        QTRY_VERIFY(first.has_value());
        QCOMPARE(*first, false);
        // The session retries a second later by itself: on a loaded machine that may have come
        // already, failing again.
        QVERIFY(failed.count() >= 1);
        QCOMPARE(failed[0][0].toString(), QStringLiteral("disk full"));
        QCOMPARE(session.persistenceError(), QStringLiteral("disk full"));
        QVERIFY(!session.isDurable());
        // Room again: the next turn's commit carries the failed batch and the new events.
        full = false;
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "a"}));
        std::optional<bool> second;
        session.whenDurable(this, [&](bool stored) { second = stored; });
        QTRY_VERIFY(second.has_value());
        QCOMPARE(*second, true);
        // Every failed attempt carried the first batch; the one that worked, both.
        QVERIFY(attempts.size() >= 2);
        QCOMPARE(attempts.back(), (std::vector<std::uint64_t>{1, 2}));
        for (std::size_t i = 0; i + 1 < attempts.size(); ++i)
            QCOMPARE(attempts[i], (std::vector<std::uint64_t>{1}));
        QCOMPARE(failed.count(), qsizetype(attempts.size() - 1));
        QCOMPARE(recovered.count(), 1);
        QVERIFY(session.persistenceError().isEmpty());
        QVERIFY(session.isDurable());
    }

    void aFailedCommitIsRetriedASecondLaterWithoutNewEvents()
    {
        Session session({}, kStart, true);
        std::vector<std::vector<std::uint64_t>> attempts;
        session.setPersistence([&](std::span<const Event> batch) {
            attempts.push_back(sequencesOf(batch));
            return attempts.size() == 1 ? Session::Stored(std::string("disk full"))
                                        : Session::Stored(engine::Done{});
        });
        QSignalSpy recovered(&session, &Session::persistenceRecovered);
        createQueue(session, "q");
        QTRY_VERIFY(!attempts.empty());
        std::optional<bool> answer;
        session.whenDurable(this, [&](bool stored) { answer = stored; });
        // No new events: the session tries again by itself.
        QTRY_VERIFY_WITH_TIMEOUT(answer.has_value(), 5'000);
        QCOMPARE(*answer, true);
        QCOMPARE(attempts, (std::vector<std::vector<std::uint64_t>>{{1}, {1}}));
        QCOMPARE(recovered.count(), 1);
        QVERIFY(session.isDurable());
    }

    void commitNowStoresWhatIsBatchedBeforeReturning()
    {
        Session session({}, kStart, true);
        bool full = false;
        std::vector<std::vector<std::uint64_t>> attempts;
        session.setPersistence([&](std::span<const Event> batch) {
            attempts.push_back(sequencesOf(batch));
            return full ? Session::Stored(std::string("disk full"))
                        : Session::Stored(engine::Done{});
        });
        Batches events(session);
        createQueue(session, "q");
        std::optional<bool> answer;
        session.whenDurable(this, [&](bool stored) { answer = stored; });
        QVERIFY(session.commitNow());
        QCOMPARE(attempts, (std::vector<std::vector<std::uint64_t>>{{1}}));
        QCOMPARE(answer, std::optional<bool>(true));
        QVERIFY(session.isDurable());
        // The turn that was queued stores and delivers nothing twice.
        QCoreApplication::processEvents();
        QCOMPARE(attempts.size(), std::size_t(1));
        QCOMPARE(sequencesOf(events.all()), std::vector<std::uint64_t>{1});

        // A failing store: false, the waiters told so; the next commitNow tries the same again.
        full = true;
        QVERIFY(session.broker().sendMessage({.queue = "q", .body = "a"}));
        answer.reset();
        session.whenDurable(this, [&](bool stored) { answer = stored; });
        QVERIFY(!session.commitNow());
        QCOMPARE(answer, std::optional<bool>(false));
        QVERIFY(!session.isDurable());
        full = false;
        QVERIFY(session.commitNow());
        QCOMPARE(attempts.back(), std::vector<std::uint64_t>{2});
        QVERIFY(session.isDurable());
        QVERIFY(session.persistenceError().isEmpty());
    }

    void turningPersistenceOffMakesEverythingDurable()
    {
        Session session({}, kStart, true);
        session.setPersistence(
            [](std::span<const Event>) { return Session::Stored(std::string("read-only")); });
        createQueue(session, "q");
        QTRY_VERIFY(!session.persistenceError().isEmpty());
        QVERIFY(!session.isDurable());
        std::optional<bool> answer;
        session.whenDurable(this, [&](bool stored) { answer = stored; });
        QVERIFY(!answer);
        session.setPersistence({});
        QVERIFY(!session.hasPersistence());
        QCOMPARE(answer, std::optional<bool>(true));
        QVERIFY(session.isDurable());
        QVERIFY(session.commitNow());
    }
};

QTEST_GUILESS_MAIN(SessionTest)
#include "session_test.moc"
