#pragma once

#include "engine/broker.h"
#include "session/pending_receive.h"

#include <QCoroTask>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace inflight::session {

// Hosts one engine for the Qt side: owns the Broker and its simulated clock (pause, speed, step),
// arms one timer at the engine's next deadline and advances it then, and fans the engine's events
// out as one batched signal per event-loop turn. Every way in (window, endpoint, simulation) uses
// the same Broker, so everything shows up in the same event stream.
class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(engine::BrokerOptions options = {}, QObject* parent = nullptr);
    // Starts engine time at `start` (epoch ms) instead of the wall clock (tests, restored
    // workspaces); `paused`: frozen exactly there from the first instant (tests, --clock frozen).
    Session(engine::BrokerOptions options, engine::Millis start, QObject* parent = nullptr);
    Session(engine::BrokerOptions options, engine::Millis start, bool paused,
            QObject* parent = nullptr);
    ~Session() override;

    engine::Broker& broker() { return *m_broker; }
    engine::Millis now() const { return m_clock->now(); }

    bool isPaused() const { return m_clock->paused(); }
    double speed() const { return m_clock->speed(); }
    void pause();
    void resume();
    // Requires speed > 0.
    void setSpeed(double speed);
    // Moves engine time forward by `delta` ms at once and processes what became due.
    void step(engine::Millis delta);

    // Starts a receive that may wait (long poll); see PendingReceive. The caller owns the result.
    PendingReceive* receive(engine::ReceiveRequest request);
    // The same as a coroutine: resumes when the receive finishes (cancelled ⇒ empty result).
    QCoro::Task<engine::Result<engine::ReceiveResult>> receiveAsync(engine::ReceiveRequest request);

    // Processes everything due now and re-arms the timer. The timer does this by itself; call it
    // after changing time from outside.
    void advanceNow();
    // Delivers (stores, then emits) the events batched so far now instead of at the next turn of
    // the event loop, so a reader of eventsReady — the control API's journal — is up to date with
    // every call already answered. Nothing when nothing is batched.
    void flushNow();

    // ---- durability ------------------------------------------------------------------------------

    // Makes a batch of events durable (the workspace store): called once per event-loop turn with
    // every event emitted since the last successful call, before eventsReady(), and with an empty
    // batch when only the clock changed (pause, speed, step). Returns "" when stored, else why not;
    // a failed batch is passed again, with newer events, on the next turn (or a second later).
    using Persistence = std::function<std::string(std::span<const engine::Event>)>;
    // An empty function turns persistence off: everything is then durable at once.
    void setPersistence(Persistence persist);
    bool hasPersistence() const { return static_cast<bool>(m_persist); }
    // True when every event emitted so far has been stored (always without persistence).
    bool isDurable() const;
    // Calls done(true) once every event emitted up to now is stored — at once if it already is —
    // or done(false) if the commit that should have stored them failed ("acknowledged means
    // durable": the endpoint answers, and the window confirms, only then). Not called once
    // `context` is destroyed.
    void whenDurable(QObject* context, std::function<void(bool stored)> done);
    // Why the last commit failed; empty once a commit succeeds again.
    QString persistenceError() const { return m_persistError; }

Q_SIGNALS:
    // Every engine event since the last emission, in order. Emitted from the event loop.
    void eventsReady(const std::vector<inflight::engine::Event>& events);
    // Paused, speed or a step changed engine time's course.
    void clockChanged();
    // A commit failed (message for the user), or succeeded again after failing.
    void persistenceFailed(const QString& message);
    void persistenceRecovered();

private:
    void onEvents(std::span<engine::Event> events);
    void flushEvents();
    void rearm();
    void queueFlush();
    void clockMoved();

    struct DurableWaiter {
        QPointer<QObject> context;
        std::function<void(bool)> done;
    };

    QElapsedTimer m_real;
    std::unique_ptr<engine::SimulatedClock> m_clock;
    std::unique_ptr<engine::Broker> m_broker;
    QTimer m_timer;
    std::vector<engine::Event> m_pending;
    bool m_flushQueued = false;

    Persistence m_persist;
    std::vector<engine::Event> m_uncommitted; // passed to m_persist, not yet stored
    bool m_clockDirty = false;
    QString m_persistError;
    std::vector<DurableWaiter> m_durableWaiters;
    QTimer m_retry;
};

} // namespace inflight::session
