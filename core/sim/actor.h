#pragma once

#include "engine/broker.h"
#include "sim/actor_spec.h"
#include "sim/sim_random.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace inflight::sim {

using ActorId = std::uint64_t;

enum class ActorKind : std::uint8_t { Producer, Consumer };

enum class ActorState : std::uint8_t {
    Stopped,  // does nothing; start() begins again
    Running,  // acts at its next deadline
    Paused,   // keeps what it holds; its deadlines move by the length of the pause
    Finished, // a producer that has sent its total
};

std::string_view actorKindName(ActorKind kind);    // "producer", "consumer"
std::string_view actorStateName(ActorState state); // "stopped", "running", "paused", "finished"

// Live figures of one actor; the fields that do not apply to its kind stay 0.
struct ActorFigures {
    // ---- producers ----
    std::int64_t sent = 0;         // messages the engine stored (retries on standard queues too)
    std::int64_t deduplicated = 0; // sends a FIFO queue acknowledged as duplicates, not stored
    std::int64_t retries = 0;      // re-sends of an earlier message (retryProbability)
    std::int64_t sendErrors = 0;   // messages the engine refused
    // ---- consumers ----
    std::int64_t receives = 0;      // receive calls answered
    std::int64_t emptyReceives = 0; // ... of them with no message (error answers not included)
    std::int64_t receiveErrors = 0; // ... of them refused (OverLimit, a queue gone)
    std::int64_t lostAnswers = 0;   // answers dropped on purpose and asked for again
    std::int64_t received = 0;      // messages in the answers taken
    // Processing that ended with the outcome "succeed" (the message is then deleted), duplicates
    // included.
    std::int64_t processed = 0;
    // Duplicate processing: a processing that starts while the same message (by message id) has
    // already been processed successfully by this consumer, or is being processed by another of
    // its workers. Each such start counts once. Processing that failed, crashed or released does
    // not make a later one a duplicate: that is a retry, not a second run of finished work.
    std::int64_t processedMoreThanOnce = 0;
    std::int64_t failed = 0;           // outcome "fail", poison included
    std::int64_t poisoned = 0;         // ... of them because the body matched the poison pattern
    std::int64_t crashed = 0;          // worker crashes (everything the worker held is abandoned)
    std::int64_t released = 0;         // outcome "release" (visibility 0)
    std::int64_t heartbeats = 0;       // visibility extensions made
    std::int64_t deleteErrors = 0;     // deletes the engine refused after a success
    std::int64_t visibilityErrors = 0; // extensions or releases the engine refused
    std::int64_t busyWorkers = 0;      // now: workers holding messages
    // Time from a message's send (SentTimestamp) to the end of its successful processing.
    std::int64_t latencyCount = 0;
    Millis latencyTotal = 0;
    Millis latencyMax = 0;

    std::string lastError{}; // the engine's last refusal, described ("OverLimit: ...")

    // Mean send-to-processed time in ms; 0 before the first.
    double latencyMean() const
    {
        return latencyCount == 0
            ? 0.0
            : static_cast<double>(latencyTotal) / static_cast<double>(latencyCount);
    }
};

// One producer or consumer, acting on `broker` through its public calls with its own origin.
// Passive like the engine: the Simulation asks for its next deadline and tells it to act.
class Actor {
public:
    virtual ~Actor() = default;
    Actor(const Actor&) = delete;
    Actor& operator=(const Actor&) = delete;

    ActorId id() const { return m_id; }
    ActorKind kind() const { return m_kind; }
    ActorState state() const { return m_state; }
    const ActorFigures& figures() const { return m_figures; }
    // "producer orders-feed", "consumer worker" (a consumer with several workers adds "/k" for
    // worker k, from 1).
    const std::string& origin() const { return m_origin; }

    virtual const ActorSpec& spec() const = 0;
    const std::string& name() const { return actorName(spec()); }
    // Replaces what it does; requires state() == Stopped and a spec of its kind that passed
    // checkActorSpec. Its figures, its random stream and (producers) its message number stay.
    virtual void setSpec(const ActorSpec& spec) = 0;

    // The engine time of its earliest action; nullopt while stopped, paused or finished.
    virtual std::optional<Millis> nextAction() const = 0;
    // Performs that earliest action; requires nextAction() (the clock may be past it).
    virtual void act() = 0;

    // Stopped or finished → running, its first action `delay` after `now`; no effect otherwise.
    virtual void start(Millis now, Millis delay) = 0;
    // Anything → stopped: pending actions and long polls are dropped, messages held are
    // abandoned (they come back when their visibility timeout ends).
    virtual void stop() = 0;
    // Running → paused at `now`.
    void pause(Millis now);
    // Paused → running; every deadline moves by now − the pause's start.
    void resume(Millis now);

protected:
    Actor(ActorId id, ActorKind kind, engine::Broker& broker, std::uint64_t seed,
          std::string origin);

    // Moves every pending deadline by `delta` (resume).
    virtual void shift(Millis delta) = 0;
    // The time actions arising now are planned from: `now`, or the pause's start while paused
    // (so that resume() moves them to the resume).
    Millis planFrom(Millis now) const { return m_state == ActorState::Paused ? m_pausedAt : now; }
    Millis now() const { return m_broker.clock().now(); }
    void recordError(const engine::Error& error) { m_figures.lastError = engine::describe(error); }

    engine::Broker& m_broker;
    SimRandom m_random;
    ActorFigures m_figures;
    ActorState m_state = ActorState::Stopped;
    Millis m_pausedAt = 0;
    std::string m_origin;

private:
    ActorId m_id;
    ActorKind m_kind;
};

} // namespace inflight::sim
