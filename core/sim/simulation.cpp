#include "sim/simulation.h"

#include "sim/consumer.h"
#include "sim/producer.h"

#include <algorithm>
#include <cassert>

namespace inflight::sim {

namespace {

using engine::Done;
using engine::ErrorCode;
using engine::Millis;
using engine::Status;

engine::Error unknownActor(ActorId id)
{
    return engine::makeError(ErrorCode::ResourceNotFound,
                             "There is no actor " + std::to_string(id) + ".", "id");
}

} // namespace

Simulation::Simulation(engine::Broker& broker, std::uint64_t seed) : m_broker(broker), m_seed(seed)
{
}

Simulation::~Simulation() = default;

Actor* Simulation::find(ActorId id) const
{
    const auto it
        = std::lower_bound(m_actors.begin(), m_actors.end(), id,
                           [](const auto& actor, ActorId key) { return actor->id() < key; });
    return it != m_actors.end() && (*it)->id() == id ? it->get() : nullptr;
}

Status Simulation::checkFits(const ActorSpec& spec, const Actor* except) const
{
    if (Status valid = checkActorSpec(spec); !valid)
        return valid;
    const std::string& name = actorName(spec);
    for (const auto& actor : m_actors)
        if (actor.get() != except && actor->name() == name)
            return engine::makeError(ErrorCode::InvalidParameterValue,
                                     "An actor named " + name + " exists already.", "name");
    const std::string& queue = actorQueue(spec);
    const auto ref = m_broker.getQueue(queue);
    if (!ref)
        return engine::makeError(ErrorCode::QueueDoesNotExist,
                                 "The queue " + queue + " does not exist.", "queue");
    QueueFacts facts{.kind = ref->kind};
    if (ref->kind == engine::QueueKind::Fifo) {
        const auto attributes = m_broker.getQueueAttributes(queue, {"ContentBasedDeduplication"});
        facts.contentBasedDeduplication = attributes
            && attributes->count("ContentBasedDeduplication")
            && attributes->at("ContentBasedDeduplication") == "true";
    }
    return checkActorFits(spec, facts);
}

engine::Result<ActorId> Simulation::addActor(const ActorSpec& spec)
{
    if (Status fits = checkFits(spec, nullptr); !fits)
        return fits.error();
    const ActorId id = m_nextId++;
    const std::uint64_t seed = SimRandom::seedFor(m_seed, actorName(spec));
    std::unique_ptr<Actor> actor;
    if (const auto* producer = std::get_if<ProducerSpec>(&spec))
        actor = std::make_unique<Producer>(id, m_broker, seed, *producer);
    else
        actor = std::make_unique<Consumer>(id, m_broker, seed, std::get<ConsumerSpec>(spec));
    const bool autoStart = std::visit([](const auto& s) { return s.autoStart; }, spec);
    const Millis startAfter = std::visit([](const auto& s) { return s.startAfter; }, spec);
    if (autoStart)
        actor->start(m_broker.clock().now(), startAfter);
    m_actors.push_back(std::move(actor));
    return id;
}

Status Simulation::editActor(ActorId id, const ActorSpec& spec)
{
    Actor* actor = find(id);
    if (!actor)
        return unknownActor(id);
    if (spec.index() != actor->spec().index())
        return engine::makeError(ErrorCode::InvalidParameterValue,
                                 "An actor keeps its kind: " + actor->name() + " is a "
                                     + std::string(actorKindName(actor->kind())) + ".",
                                 "type");
    if (Status fits = checkFits(spec, actor); !fits)
        return fits;
    const bool active
        = actor->state() == ActorState::Running || actor->state() == ActorState::Paused;
    actor->stop();
    actor->setSpec(spec);
    if (active)
        actor->start(m_broker.clock().now(), 0);
    return Done{};
}

Status Simulation::removeActor(ActorId id)
{
    Actor* actor = find(id);
    if (!actor)
        return unknownActor(id);
    actor->stop();
    std::erase_if(m_actors, [&](const auto& a) { return a.get() == actor; });
    return Done{};
}

Status Simulation::startActor(ActorId id)
{
    Actor* actor = find(id);
    if (!actor)
        return unknownActor(id);
    if (actor->state() == ActorState::Paused)
        actor->resume(m_broker.clock().now());
    else
        actor->start(m_broker.clock().now(), 0);
    return Done{};
}

Status Simulation::stopActor(ActorId id)
{
    Actor* actor = find(id);
    if (!actor)
        return unknownActor(id);
    if (actor->state() != ActorState::Finished)
        actor->stop();
    return Done{};
}

Status Simulation::pauseActor(ActorId id)
{
    Actor* actor = find(id);
    if (!actor)
        return unknownActor(id);
    actor->pause(m_broker.clock().now());
    return Done{};
}

Status Simulation::resumeActor(ActorId id)
{
    Actor* actor = find(id);
    if (!actor)
        return unknownActor(id);
    actor->resume(m_broker.clock().now());
    return Done{};
}

std::vector<ActorInfo> Simulation::actors() const
{
    std::vector<ActorInfo> result;
    result.reserve(m_actors.size());
    for (const auto& actor : m_actors)
        result.push_back(*this->actor(actor->id()));
    return result;
}

std::optional<ActorInfo> Simulation::actor(ActorId id) const
{
    const Actor* actor = find(id);
    if (!actor)
        return std::nullopt;
    return ActorInfo{actor->id(),   actor->kind(),    actor->state(),
                     actor->spec(), actor->figures(), actor->origin()};
}

std::optional<ActorId> Simulation::findActor(std::string_view name) const
{
    for (const auto& actor : m_actors)
        if (actor->name() == name)
            return actor->id();
    return std::nullopt;
}

std::optional<Millis> Simulation::nextDeadline() const
{
    std::optional<Millis> best;
    for (const auto& actor : m_actors)
        if (const auto t = actor->nextAction(); t && (!best || *t < *best))
            best = t;
    return best;
}

std::size_t Simulation::runDue(Millis now)
{
    std::size_t ran = 0;
    for (;;) {
        Actor* next = nullptr;
        Millis best = engine::kNoDeadline;
        for (const auto& actor : m_actors)
            if (const auto t = actor->nextAction(); t && *t < best) {
                best = *t;
                next = actor.get();
            }
        if (!next || best > now)
            return ran;
        next->act();
        ++ran;
    }
}

void Simulation::runUntil(engine::ManualClock& clock, Millis until)
{
    assert(&m_broker.clock() == &clock);
    // advance(t) processes everything due at or before t, so a broker deadline still at or
    // before t afterwards is an early one (broker.h allows that): look past it.
    Millis brokerFloor = clock.now();
    for (;;) {
        const Millis brokerNext = std::max(m_broker.nextDeadline(), brokerFloor);
        const Millis actorNext = nextDeadline().value_or(engine::kNoDeadline);
        const Millis t = std::max(std::min(brokerNext, actorNext), clock.now());
        if (t > until)
            break;
        clock.set(t);
        m_broker.advance(t);
        runDue(t);
        brokerFloor = t + 1;
    }
    clock.set(until);
    m_broker.advance(until);
}

} // namespace inflight::sim
