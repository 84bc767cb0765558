#pragma once

#include "engine/broker.h"
#include "sim/actor.h"
#include "sim/actor_spec.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace inflight::sim {

// A copy of one actor's state for display (the Simulation panel, the control API).
struct ActorInfo {
    ActorId id = 0;
    ActorKind kind = ActorKind::Producer;
    ActorState state = ActorState::Stopped;
    ActorSpec spec{};
    ActorFigures figures{};
    std::string origin{};
};

// Producers and consumers over one broker, on engine time. Passive like the engine: it never reads
// a real clock and has no thread or timer. Its host asks nextDeadline(), and when engine time
// reaches it calls runDue(now) — beside Broker::nextDeadline() / advance(), with one timer for
// both (the app's Session), or on a manual clock with runUntil() (tests, benchmarks).
//
// Deterministic: every random choice comes from the seed (each actor draws from its own stream,
// SimRandom::seedFor(seed, name)), and actions due at the same time run in a fixed order: by
// actor, in the order they were added, and within an actor in the order its header gives. The
// same broker seed, scenario and seed thus give the same engine event sequence.
//
// Requires the broker to outlive the simulation; actors act only through the broker's public
// calls, each with its own origin (Actor::origin()).
class Simulation {
public:
    explicit Simulation(engine::Broker& broker, std::uint64_t seed = 0);
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    engine::Broker& broker() { return m_broker; }
    std::uint64_t seed() const { return m_seed; }
    // The seed of actors added from now on (those there keep their streams).
    void setSeed(std::uint64_t seed) { m_seed = seed; }

    // Adds an actor after checkActorSpec and checkActorFits against its queue, which must exist
    // (QueueDoesNotExist, parameter "queue"); its name must be free in this simulation
    // (InvalidParameterValue, parameter "name"). It starts at once, its first action
    // spec.startAfter from now, when spec.autoStart; else it is added stopped.
    engine::Result<ActorId> addActor(const ActorSpec& spec);
    // Replaces an actor's spec (of the same kind; checked as addActor does): it is stopped, given
    // the new spec and, if it was running or paused, started again at once. Its figures stay.
    // ResourceNotFound for an unknown id.
    engine::Status editActor(ActorId id, const ActorSpec& spec);
    // Stops and removes it. ResourceNotFound for an unknown id.
    engine::Status removeActor(ActorId id);
    // Actor::start (at once, no startAfter), stop, pause, resume. ResourceNotFound for an unknown
    // id; no effect where the state does not allow it.
    engine::Status startActor(ActorId id);
    engine::Status stopActor(ActorId id);
    engine::Status pauseActor(ActorId id);
    engine::Status resumeActor(ActorId id);

    // In the order added.
    std::vector<ActorInfo> actors() const;
    std::size_t size() const { return m_actors.size(); }
    std::optional<ActorInfo> actor(ActorId id) const;
    std::optional<ActorId> findActor(std::string_view name) const;

    // The earliest action of any running actor; nullopt when none has one.
    std::optional<engine::Millis> nextDeadline() const;
    // Performs every actor action due at or before `now`, earliest first (ties as above),
    // including the ones those actions make due by then. Returns how many ran. Broker calls read
    // the broker's clock; `now` only says how far to go.
    std::size_t runDue(engine::Millis now);
    // Requires `clock` to be the broker's clock and until >= clock.now(). Moves it to `until` in
    // steps: to the earliest of Broker::nextDeadline() and nextDeadline(), where it advances the
    // broker and then runs the actors due; at the end the clock stands at `until`.
    void runUntil(engine::ManualClock& clock, engine::Millis until);

private:
    Actor* find(ActorId id) const;
    engine::Status checkFits(const ActorSpec& spec, const Actor* except) const;

    engine::Broker& m_broker;
    std::uint64_t m_seed;
    ActorId m_nextId = 1;
    std::vector<std::unique_ptr<Actor>> m_actors; // by id
};

} // namespace inflight::sim
