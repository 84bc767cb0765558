#include "session/session.h"

#include <QScopedValueRollback>

#include <QDateTime>
#include <QPointer>

#include <algorithm>
#include <iterator>

namespace inflight::session {

namespace {
// Longest single timer wait; re-arming now and then keeps long waits exact across speed changes.
constexpr engine::Millis kMaxTimerWait = 60'000;
// After a failed commit (disk full, ...), how long to wait before trying again without new events.
constexpr int kRetryCommit = 1000;
// A runFor's timer fires this many real ms before its end; the clock then pauses and steps to the
// end exactly (a timer never fires early, often a little late).
constexpr engine::Millis kRunForEarly = 25;
// The most events whose room a flushed batch keeps for the next turn's (about 1.5 MB).
constexpr std::size_t kKeptEventRoom = 4096;
} // namespace

Session::Session(engine::BrokerOptions options, QObject* parent)
    : Session(std::move(options), QDateTime::currentMSecsSinceEpoch(), parent)
{
}

Session::Session(engine::BrokerOptions options, engine::Millis start, QObject* parent)
    : Session(std::move(options), start, false, parent)
{
}

Session::Session(engine::BrokerOptions options, engine::Millis start, bool paused, QObject* parent)
    : QObject(parent)
{
    m_real.start();
    m_clock = std::make_unique<engine::SimulatedClock>([this] { return m_real.elapsed(); }, start,
                                                       paused);
    m_broker = std::make_unique<engine::Broker>(*m_clock, std::move(options));
    m_broker->setEventSink([this](std::vector<engine::Event>& events) { onEvents(events); });
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        const engine::Millis late = std::max<engine::Millis>(m_real.elapsed() - m_timerDue, 0);
        ++m_lag.wakeups;
        m_lag.wakeLateTotal += late;
        m_lag.wakeLateMax = std::max(m_lag.wakeLateMax, late);
        advanceNow();
    });
    m_retry.setSingleShot(true);
    m_retry.setInterval(kRetryCommit);
    connect(&m_retry, &QTimer::timeout, this, &Session::flushEvents);
    m_actorsTimer.setSingleShot(true);
    connect(&m_actorsTimer, &QTimer::timeout, this, &Session::emitActorsChanged);
}

Session::~Session()
{
    m_broker->setEventSink({});
    m_lesson.reset();
    m_sim.reset(); // before the broker: its consumers cancel their long polls there
}

void Session::pause()
{
    m_runUntil.reset();
    m_clock->pause();
    // What fell due up to the moment it stopped has happened (the timer may not have come yet).
    runDue(m_clock->now());
    m_pauseForLesson = false;
    rearm();
    clockMoved();
    Q_EMIT clockChanged();
}

void Session::resume()
{
    m_clock->resume();
    rearm();
    clockMoved();
    Q_EMIT clockChanged();
}

void Session::setSpeed(double speed)
{
    m_clock->setSpeed(speed);
    rearm();
    clockMoved();
    Q_EMIT clockChanged();
}

void Session::step(engine::Millis delta)
{
    stepTo(m_clock->now() + delta);
    if (m_pauseForLesson) {
        m_pauseForLesson = false;
        m_runUntil.reset();
        m_clock->pause();
    }
    rearm();
    clockMoved();
    Q_EMIT clockChanged();
}

void Session::runFor(engine::Millis duration)
{
    m_runUntil = m_clock->now() + std::max<engine::Millis>(duration, 1);
    if (m_clock->paused())
        m_clock->resume();
    rearm();
    clockMoved();
    Q_EMIT clockChanged();
}

std::optional<engine::Millis> Session::runToNextEvent()
{
    bool moved = false;
    // Early broker deadlines give nothing: go on to the next one (a bound against a broker that
    // keeps answering early ones).
    for (int i = 0; i < 10'000; ++i) {
        const engine::Millis due = nextDeadline();
        if (due == engine::kNoDeadline)
            break;
        const auto before = std::pair(m_eventCount, m_actions);
        stepTo(std::max(due, m_clock->now()));
        moved = true;
        if (std::pair(m_eventCount, m_actions) != before || m_pauseForLesson)
            break;
    }
    if (!moved)
        return std::nullopt;
    if (m_pauseForLesson) {
        m_pauseForLesson = false;
        m_runUntil.reset();
        m_clock->pause();
    }
    rearm();
    clockMoved();
    Q_EMIT clockChanged();
    return m_clock->now();
}

void Session::advanceNow()
{
    if (m_runUntil && !m_clock->paused()) {
        const engine::Millis end = *m_runUntil;
        if (m_clock->peek() >= end || m_clock->realDelayUntil(end) <= kRunForEarly) {
            // The run's end: pause, then step exactly to it (unless the timer came too late).
            m_runUntil.reset();
            m_clock->pause();
            stepTo(std::max(end, m_clock->now()));
            m_pauseForLesson = false;
            rearm();
            clockMoved();
            Q_EMIT clockChanged();
            return;
        }
    }
    runDue(m_clock->peek()); // not now(): deadlines before it are served at their own time
    if (m_pauseForLesson) {
        m_pauseForLesson = false;
        pause();
        return;
    }
    rearm();
}

engine::Millis Session::nextDeadline()
{
    // A broker deadline at or before the last time advanced to is an early one (broker.h allows
    // that): look past it, or the timer would spin on it.
    const engine::Millis broker = std::max(m_broker->nextDeadline(), m_brokerFloor);
    if (!m_sim || m_sim->size() == 0)
        return broker;
    return std::min(broker, m_sim->nextDeadline().value_or(engine::kNoDeadline));
}

void Session::runDue(engine::Millis until)
{
    const QScopedValueRollback serving(m_serving, true);
    // Without actors nothing needs the broker's deadlines one by one: one advance does them all.
    if (m_sim && m_sim->size() > 0) {
        for (;;) {
            const engine::Millis brokerNext = std::max(m_broker->nextDeadline(), m_brokerFloor);
            const engine::Millis actorNext = m_sim->nextDeadline().value_or(engine::kNoDeadline);
            const engine::Millis t = std::min(brokerNext, actorNext);
            if (t > until)
                break;
            // The timer may have come late: engine time stands at the deadline while it is served,
            // so what the broker and the actors do then carries the deadline's own time (unless
            // something read the clock meanwhile: time never goes back).
            const engine::Millis at = m_clock->holdAt(t); // released below
            m_broker->advance(at);
            if (actorNext <= t) {
                const engine::Millis late = at - actorNext;
                ++m_lag.deadlines;
                m_lag.total += late;
                m_lag.max = std::max(m_lag.max, late);
                m_lag.over100ms += late > 100;
                m_actions += m_sim->runDue(t);
                noteActorsChanged();
            }
            m_brokerFloor = std::max(m_brokerFloor, at + 1);
            evaluateLesson(at);
        }
        m_clock->release();
    }
    m_broker->advance(until);
    m_brokerFloor = std::max(m_brokerFloor, until + 1);
    evaluateLesson(until);
}

void Session::stepTo(engine::Millis target)
{
    if (m_sim && m_sim->size() > 0) {
        // Each deadline on the way at its own engine time: the clock stops there.
        for (;;) {
            const engine::Millis due = nextDeadline();
            if (due > target)
                break;
            const engine::Millis now = m_clock->now();
            if (due > now)
                m_clock->step(due - now);
            runDue(m_clock->now());
        }
    }
    const engine::Millis now = m_clock->now();
    if (target > now)
        m_clock->step(target - now);
    runDue(m_clock->now());
}

void Session::flushNow()
{
    if (m_flushQueued)
        flushEvents(); // the queued call then finds nothing to do
}

bool Session::commitNow()
{
    if (m_flushQueued || !isDurable())
        flushEvents();
    return isDurable();
}

void Session::rearm()
{
    if (m_clock->paused()) {
        m_timer.stop();
        return;
    }
    const engine::Millis deadline = nextDeadline();
    engine::Millis wait
        = deadline == engine::kNoDeadline ? engine::kNoDeadline : m_clock->realDelayUntil(deadline);
    if (m_runUntil)
        wait = std::min(
            wait, std::max<engine::Millis>(m_clock->realDelayUntil(*m_runUntil) - kRunForEarly, 0));
    if (wait == engine::kNoDeadline) {
        m_timer.stop();
        return;
    }
    wait = std::max<engine::Millis>(std::min(wait, kMaxTimerWait), 0);
    m_timerDue = m_real.elapsed() + wait;
    m_timer.start(static_cast<int>(wait));
}

void Session::onEvents(std::vector<engine::Event>& events)
{
    m_eventCount += events.size();
    if (m_sim)
        noteActorsChanged(); // an answer to an actor's long poll came with them
    // The first batch since the last flush is taken whole (the broker gets the empty vector and
    // its room); the rest of the turn's batches are moved in after it.
    if (m_pending.empty())
        m_pending.swap(events);
    else
        m_pending.insert(m_pending.end(), std::make_move_iterator(events.begin()),
                         std::make_move_iterator(events.end()));
    queueFlush();
}

void Session::queueFlush()
{
    if (!m_flushQueued) {
        m_flushQueued = true;
        QMetaObject::invokeMethod(this, &Session::flushEvents, Qt::QueuedConnection);
    }
}

void Session::clockMoved()
{
    if (!m_persist)
        return;
    m_clockDirty = true;
    queueFlush();
}

void Session::serveDue()
{
    if (m_serving || m_clock->paused() || nextDeadline() > m_clock->peek())
        return;
    advanceNow();
}

void Session::flushEvents()
{
    m_flushQueued = false;
    // Its readers read the engine (and so the clock): what fell due goes first, at its own time.
    serveDue();
    // A lesson's check may be met by what came from outside (a receive in the window, a client).
    evaluateLesson();
    if (m_pauseForLesson) {
        m_pauseForLesson = false;
        pause();
    }
    // New deadlines come with events (a receive, a delayed send, a waiter, an actor's answer);
    // re-arm for them.
    rearm();
    std::vector<engine::Event> batch;
    batch.swap(m_pending);
    if (m_persist && (!batch.empty() || !m_uncommitted.empty() || m_clockDirty)) {
        // Group commit: everything since the last stored batch, in one transaction, before anyone
        // is told.
        m_retry.stop();
        // What a failed commit left goes first; when there is none (nearly always) the batch is
        // stored as it is and copied only if that fails.
        const bool retrying = !m_uncommitted.empty();
        if (retrying)
            m_uncommitted.insert(m_uncommitted.end(), batch.begin(), batch.end());
        m_clockDirty = false;
        const Stored result = m_persist(retrying ? std::span<const engine::Event>(m_uncommitted)
                                                 : std::span<const engine::Event>(batch));
        const bool stored = result.ok();
        if (!stored && !retrying)
            m_uncommitted = batch;
        if (stored) {
            m_uncommitted.clear();
            if (!m_persistError.isEmpty()) {
                m_persistError.clear();
                Q_EMIT persistenceRecovered();
            }
        } else {
            m_persistError = result.error().empty() ? QStringLiteral("the store gave no reason")
                                                    : QString::fromStdString(result.error());
            m_retry.start();
            Q_EMIT persistenceFailed(m_persistError);
        }
        std::vector<DurableWaiter> waiters;
        waiters.swap(m_durableWaiters);
        for (DurableWaiter& w : waiters)
            if (w.context)
                w.done(stored);
    }
    if (batch.empty())
        return;
    // The readers see one instant: engine time stands while they read the engine (the window's
    // tables, charts, the journal), so their looks at the clock do not pass deadlines that fall
    // due meanwhile; the timer serves those next, each at its own time.
    const bool hold = !m_serving;
    if (hold)
        m_clock->holdAt(m_clock->peek());
    Q_EMIT eventsReady(batch);
    if (hold)
        m_clock->release();
    // The batch's room serves the next turn's events (a vector grown event by event each turn
    // cost the engine thread 2-3% under load), unless a rare large batch (an advance over many
    // deadlines) made it big: that room is given back.
    batch.clear();
    if (m_pending.empty() && batch.capacity() <= kKeptEventRoom)
        m_pending.swap(batch);
}

void Session::setPersistence(Persistence persist)
{
    m_persist = std::move(persist);
    if (!m_persist) {
        m_uncommitted.clear();
        m_retry.stop();
        std::vector<DurableWaiter> waiters;
        waiters.swap(m_durableWaiters);
        for (DurableWaiter& w : waiters)
            if (w.context)
                w.done(true);
    }
}

bool Session::isDurable() const
{
    return !m_persist || (m_pending.empty() && m_uncommitted.empty());
}

void Session::whenDurable(QObject* context, std::function<void(bool stored)> done)
{
    if (isDurable()) {
        done(true);
        return;
    }
    m_durableWaiters.push_back({QPointer<QObject>(context), std::move(done)});
}

PendingReceive* Session::receive(engine::ReceiveRequest request)
{
    auto* op = new PendingReceive(*m_broker);
    QPointer<PendingReceive> guard(op);
    op->m_waitId = m_broker->receiveMessageAsync(std::move(request),
                                                 [guard](engine::Result<engine::ReceiveResult> r) {
                                                     if (guard)
                                                         guard->complete(std::move(r));
                                                 });
    if (!op->isFinished())
        rearm(); // the wait has a deadline
    return op;
}

} // namespace inflight::session
