#pragma once

#include "engine/error.h"
#include "engine/events.h"
#include "engine/explain.h"
#include "engine/views.h"

#include <QCoroTask>
#include <QObject>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// What the pages show and act on: the queues of one place — the local engine, and next a real
// AWS account or OCI tenancy. A page talks to its queues only through this (docs/ARCHITECTURE.md,
// "The window over a source").
//
// Reads are the source's current picture, answered at once and never over the network on the
// calling thread: the local source reads its engine; a remote source answers from its last poll
// and polls in the background. queuesChanged / countsChanged / eventsReady say when to read again.
// Asks (receive, change visibility, delete, send, purge) are awaitables (QCoro tasks): a remote
// source awaits the service, the local one answers before its first suspension.
//
// What only some places can do is a Feature: a page asks has() before it shows what needs one,
// and shows missing() where it would have shown it — never an empty table that looks like "none".
// The data is the engine's own vocabulary (engine/views.h, engine/events.h): a remote source fills
// a QueueView from GetQueueAttributes and a MessageView from a receive.
class QueueSource : public QObject {
    Q_OBJECT
public:
    enum class Feature {
        PeekEveryMessage, // list a queue's messages in every state without receiving them
        EngineTime,       // a clock that pauses, runs at a speed and steps (else: the wall clock)
        Events,           // every change as it happens (eventsReady); else counts are polled
        LocalEngine,      // the engine itself (localSession): dialogs, simulation, lessons, groups
    };

    using QueueViews = std::vector<engine::QueueView>;
    using Messages = std::vector<engine::MessageView>;

    explicit QueueSource(QObject* parent = nullptr) : QObject(parent) {}

    // What the window calls this place ("this workspace", "AWS eu-west-1 · 123456789012").
    virtual QString title() const = 0;
    virtual bool has(Feature feature) const = 0;
    // Why a page shows nothing where the feature would be: one sentence for the user.
    virtual QString missing(Feature feature) const;

    // ---- reads ----------------------------------------------------------------------------------
    // Every queue, by name, with its counts (approximate where the place only says so).
    virtual QueueViews queues() const = 0;
    virtual std::optional<engine::QueueView> queue(const QString& name) const;
    virtual std::optional<engine::QueueStats> stats(const QString& name) const;
    // PeekEveryMessage: the queue's message keys in sequence order, and one message by key (the
    // message table lists a large queue a block at a time). Empty / nullopt without the feature.
    virtual std::vector<engine::MessageKey> messageKeys(const QString& queue) const = 0;
    virtual std::optional<engine::MessageView> peek(const QString& queue,
                                                    engine::MessageKey key) const = 0;
    virtual Messages peekAll(const QString& queue) const = 0;
    // FIFO: the available messages behind an in-flight or delayed group head (PeekEveryMessage).
    virtual std::vector<engine::BlockedMessage> blocked(const QString& queue) const = 0;
    // The time countdowns count to: engine time (EngineTime), else the wall clock.
    virtual engine::Millis now() const = 0;
    // LocalEngine: the session behind the pages that need the engine itself; null otherwise.
    virtual session::Session* localSession() { return nullptr; }

    // ---- asks -----------------------------------------------------------------------------------
    struct ReceiveAsk {
        int maxMessages = 1;
        int waitSeconds = 0;
        std::optional<std::int64_t> visibilitySeconds; // else the queue's own
    };
    virtual QCoro::Task<engine::Result<Messages>> receive(QString queue, ReceiveAsk ask) = 0;
    // Why a receive came back empty, in the user's words ("" when the place cannot tell).
    virtual QString whyEmpty(const QString& queue, const ReceiveAsk& ask) const = 0;
    virtual QCoro::Task<engine::Status> changeVisibility(QString queue, std::string receipt,
                                                         std::int64_t seconds)
        = 0;
    virtual QCoro::Task<engine::Status> deleteMessage(QString queue, std::string receipt) = 0;
    virtual QCoro::Task<engine::Status> purge(QString queue) = 0;

Q_SIGNALS:
    // Queues came or went or their relations changed: read queues() again.
    void queuesChanged();
    // These queues' counts changed (after events, or a poll).
    void countsChanged(const QStringList& queues);
    // Events: what happened, in batches (one per event-loop turn).
    void eventsReady(const std::vector<engine::Event>& events);
};

} // namespace inflight::ui
