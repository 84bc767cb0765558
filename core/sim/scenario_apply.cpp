// Applying a scenario (scenario.h): every actor checked against its queue first, then the queues
// (all or nothing, config::applyQueueConfig), then the actors.
#include "sim/scenario.h"

#include "config/queue_config_positions.h"

namespace inflight::sim {

namespace {

using config::ConfigPosition;
using engine::Done;
using engine::Error;
using engine::Status;

ConfigPosition fieldPosition(const ScenarioActor& actor, const std::string& parameter)
{
    if (const auto it = actor.fields.find(parameter); it != actor.fields.end())
        return it->second;
    ConfigPosition at = actor.position;
    at.path = at.path.empty() ? parameter : at.path + "." + parameter;
    return at;
}

bool isTrue(const std::string& value)
{
    return value == "true" || value == "True" || value == "TRUE";
}

// The kind of the actor's queue and whether it deduplicates by content: from the file, else
// from the broker; nullopt when it is in neither.
std::optional<QueueFacts> factsOf(engine::Broker& broker, const Scenario& scenario,
                                  const std::string& queue)
{
    for (const config::ConfigQueue& declared : scenario.queues.queues)
        if (declared.name == queue) {
            const auto it = declared.attributes.find("ContentBasedDeduplication");
            return QueueFacts{declared.kind, it != declared.attributes.end() && isTrue(it->second)};
        }
    const auto ref = broker.getQueue(queue);
    if (!ref)
        return std::nullopt;
    QueueFacts facts{.kind = ref->kind};
    if (ref->kind == engine::QueueKind::Fifo) {
        const auto attributes = broker.getQueueAttributes(queue, {"ContentBasedDeduplication"});
        facts.contentBasedDeduplication = attributes
            && attributes->count("ContentBasedDeduplication")
            && attributes->at("ContentBasedDeduplication") == "true";
    }
    return facts;
}

Status checkActors(Simulation& simulation, const Scenario& scenario)
{
    for (const ScenarioActor& actor : scenario.actors) {
        const std::string& name = actorName(actor.spec);
        if (simulation.findActor(name))
            return config::configError(fieldPosition(actor, "name"),
                                       "the simulation has an actor named " + name + " already");
        const std::string& queue = actorQueue(actor.spec);
        const auto facts = factsOf(simulation.broker(), scenario, queue);
        if (!facts)
            return config::configError(fieldPosition(actor, "queue"),
                                       "the queue " + queue
                                           + " is neither in this scenario nor an existing "
                                             "queue");
        if (Status fits = checkActorFits(actor.spec, *facts); !fits)
            return config::configError(fieldPosition(actor, fits.error().parameter),
                                       fits.error().message);
    }
    return Done{};
}

} // namespace

engine::Result<ScenarioApplied> applyScenario(Simulation& simulation, const Scenario& scenario,
                                              const engine::Origin& origin)
{
    if (Status actors = checkActors(simulation, scenario); !actors)
        return actors.error();
    ScenarioApplied applied;
    auto queues = config::applyQueueConfig(simulation.broker(), scenario.queues, origin);
    if (!queues)
        return queues.error();
    applied.queues = *queues;
    simulation.setSeed(scenario.seed);
    for (const ScenarioActor& actor : scenario.actors) {
        auto added = simulation.addActor(actor.spec);
        if (!added) {
            // Not reached: the checks above are addActor's. Take back the actors added.
            for (const ActorId id : applied.actors)
                (void)simulation.removeActor(id);
            return config::configError(fieldPosition(actor, added.error().parameter),
                                       added.error());
        }
        applied.actors.push_back(*added);
    }
    return applied;
}

} // namespace inflight::sim
