#include "session/session.h"

#include <QCoroSignal>
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
    m_broker->setEventSink([this](std::span<engine::Event> events) { onEvents(events); });
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &Session::advanceNow);
    m_retry.setSingleShot(true);
    m_retry.setInterval(kRetryCommit);
    connect(&m_retry, &QTimer::timeout, this, &Session::flushEvents);
}

Session::~Session()
{
    m_broker->setEventSink({});
}

void Session::pause()
{
    m_clock->pause();
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
    m_clock->step(delta);
    advanceNow();
    clockMoved();
    Q_EMIT clockChanged();
}

void Session::advanceNow()
{
    m_broker->advance(m_clock->now());
    rearm();
}

void Session::flushNow()
{
    if (m_flushQueued)
        flushEvents(); // the queued call then finds nothing to do
}

void Session::rearm()
{
    const engine::Millis deadline = m_broker->nextDeadline();
    if (deadline == engine::kNoDeadline || m_clock->paused()) {
        m_timer.stop();
        return;
    }
    const engine::Millis wait = std::min(m_clock->realDelayUntil(deadline), kMaxTimerWait);
    m_timer.start(static_cast<int>(std::max<engine::Millis>(wait, 0)));
}

void Session::onEvents(std::span<engine::Event> events)
{
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

void Session::flushEvents()
{
    m_flushQueued = false;
    // New deadlines come with events (a receive, a delayed send, a waiter); re-arm for them.
    rearm();
    std::vector<engine::Event> batch;
    batch.swap(m_pending);
    if (m_persist && (!batch.empty() || !m_uncommitted.empty() || m_clockDirty)) {
        // Group commit: everything since the last stored batch, in one transaction, before anyone
        // is told.
        m_retry.stop();
        m_uncommitted.insert(m_uncommitted.end(), batch.begin(), batch.end());
        m_clockDirty = false;
        const std::string error = m_persist(m_uncommitted);
        const bool stored = error.empty();
        if (stored) {
            m_uncommitted.clear();
            if (!m_persistError.isEmpty()) {
                m_persistError.clear();
                Q_EMIT persistenceRecovered();
            }
        } else {
            m_persistError = QString::fromStdString(error);
            m_retry.start();
            Q_EMIT persistenceFailed(m_persistError);
        }
        std::vector<DurableWaiter> waiters;
        waiters.swap(m_durableWaiters);
        for (DurableWaiter& w : waiters)
            if (w.context)
                w.done(stored);
    }
    if (!batch.empty())
        Q_EMIT eventsReady(batch);
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

QCoro::Task<engine::Result<engine::ReceiveResult>> Session::receiveAsync(
    engine::ReceiveRequest request)
{
    std::unique_ptr<PendingReceive> op(receive(std::move(request)));
    if (!op->isFinished())
        co_await qCoro(op.get(), &PendingReceive::finished);
    co_return op->result();
}

} // namespace inflight::session
