#include "sim/actor.h"

namespace inflight::sim {

std::string_view actorKindName(ActorKind kind)
{
    return kind == ActorKind::Producer ? "producer" : "consumer";
}

std::string_view actorStateName(ActorState state)
{
    switch (state) {
    case ActorState::Stopped: return "stopped";
    case ActorState::Running: return "running";
    case ActorState::Paused: return "paused";
    case ActorState::Finished: return "finished";
    }
    return "stopped";
}

Actor::Actor(ActorId id, ActorKind kind, engine::Broker& broker, std::uint64_t seed,
             std::string origin)
    : m_broker(broker), m_random(seed), m_origin(std::move(origin)), m_id(id), m_kind(kind)
{
}

void Actor::pause(Millis now)
{
    if (m_state != ActorState::Running)
        return;
    m_state = ActorState::Paused;
    m_pausedAt = now;
}

void Actor::resume(Millis now)
{
    if (m_state != ActorState::Paused)
        return;
    m_state = ActorState::Running;
    shift(std::max<Millis>(now - m_pausedAt, 0));
}

} // namespace inflight::sim
