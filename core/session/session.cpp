#include "session/session.h"

#include <QCoroSignal>
#include <QDateTime>
#include <QPointer>

#include <algorithm>

namespace inflight::session {

namespace {
// Longest single timer wait; re-arming now and then keeps long waits exact across speed changes.
constexpr engine::Millis kMaxTimerWait = 60'000;
} // namespace

Session::Session(engine::BrokerOptions options, QObject* parent)
    : Session(std::move(options), QDateTime::currentMSecsSinceEpoch(), parent)
{
}

Session::Session(engine::BrokerOptions options, engine::Millis start, QObject* parent)
    : QObject(parent)
{
    m_real.start();
    m_clock = std::make_unique<engine::SimulatedClock>([this] { return m_real.elapsed(); }, start);
    m_broker = std::make_unique<engine::Broker>(*m_clock, std::move(options));
    m_broker->setEventSink([this](std::span<const engine::Event> events) { onEvents(events); });
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &Session::advanceNow);
}

Session::~Session()
{
    m_broker->setEventSink({});
}

void Session::pause()
{
    m_clock->pause();
    rearm();
    Q_EMIT clockChanged();
}

void Session::resume()
{
    m_clock->resume();
    rearm();
    Q_EMIT clockChanged();
}

void Session::setSpeed(double speed)
{
    m_clock->setSpeed(speed);
    rearm();
    Q_EMIT clockChanged();
}

void Session::step(engine::Millis delta)
{
    m_clock->step(delta);
    advanceNow();
    Q_EMIT clockChanged();
}

void Session::advanceNow()
{
    m_broker->advance(m_clock->now());
    rearm();
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

void Session::onEvents(std::span<const engine::Event> events)
{
    m_pending.insert(m_pending.end(), events.begin(), events.end());
    if (!m_flushQueued) {
        m_flushQueued = true;
        QMetaObject::invokeMethod(this, &Session::flushEvents, Qt::QueuedConnection);
    }
}

void Session::flushEvents()
{
    m_flushQueued = false;
    // New deadlines come with events (a receive, a delayed send, a waiter); re-arm for them.
    rearm();
    if (m_pending.empty())
        return;
    std::vector<engine::Event> batch;
    batch.swap(m_pending);
    Q_EMIT eventsReady(batch);
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
