// Applying a configuration file (queue_config_file.h): the same steps first on a scratch copy of
// the broker's queues, then, when all of them pass there, on the broker itself.
#include "config/queue_config_file.h"

#include "config/queue_config_positions.h"
#include "engine/queue_config.h"
#include "engine/snapshot.h"

namespace inflight::config {

namespace {

using engine::Done;
using engine::Error;
using engine::QueueKind;
using engine::Result;
using engine::Status;

// `from`'s queues with their configuration, tags and counters, but neither messages nor the
// deduplication and receive-attempt history, which no step of a file depends on; and the
// re-create windows of queues deleted recently.
Status copyQueues(engine::Broker& from, engine::Broker& to)
{
    const engine::BrokerRecord live = from.brokerRecord();
    engine::BrokerRecord record;
    record.nextQueueId = live.nextQueueId;
    record.deletedAt = live.deletedAt;
    if (Status restored = to.restoreBroker(record); !restored)
        return restored;
    for (engine::QueueRecord queue : from.queueRecords()) {
        queue.deduplication.clear();
        queue.attempts.clear();
        if (Status restored = to.restoreQueue(queue); !restored)
            return restored;
    }
    to.finishRestore();
    return Done{};
}

std::string_view kindWord(QueueKind kind)
{
    switch (kind) {
    case QueueKind::Standard: return "a standard";
    case QueueKind::Fifo: return "a FIFO";
    case QueueKind::Oci: return "an OCI";
    }
    return "a";
}

// One pass of the file over one broker.
class Applier {
public:
    Applier(engine::Broker& broker, const engine::Origin& origin, bool trial)
        : m_broker(broker), m_origin(origin), m_trial(trial)
    {
    }

    Result<ConfigApplied> run(const QueueConfigFile& config)
    {
        for (const std::size_t index : config.creationOrder)
            if (Status applied = apply(config.queues[index]); !applied)
                return applied.error();
        return m_applied;
    }

private:
    Status apply(const ConfigQueue& queue)
    {
        // Targets in the file come first (creationOrder), so a missing one is missing everywhere.
        if (!queue.deadLetterTarget.empty() && !m_broker.getQueue(queue.deadLetterTarget))
            return configError(queue.deadLetterTargetPosition,
                               "the dead-letter queue " + queue.deadLetterTarget
                                   + " is neither in this file nor an existing queue");
        const engine::StringMap attributes
            = withQueueArns(queue.attributes,
                            [this](const std::string& name) { return m_broker.arnForName(name); });
        const auto existing = m_broker.getQueue(queue.name);
        if (!existing)
            return create(queue, attributes);
        if (existing->kind != queue.kind)
            return configError(queue.typePosition,
                               "a queue named " + queue.name + " exists already, as "
                                   + std::string(kindWord(existing->kind)) + " queue");
        if (Status updated = update(queue, attributes); !updated)
            return updated;
        // The trial also checks the messages an existing queue will not be sent.
        return m_trial ? send(queue) : Status(Done{});
    }

    Status create(const ConfigQueue& queue, const engine::StringMap& attributes)
    {
        const auto created = m_broker.createQueue(engine::CreateQueueRequest{
            .name = queue.name,
            .attributes = attributes,
            .tags = queue.tags,
            .oci = queue.kind == QueueKind::Oci,
            .origin = m_origin,
        });
        if (!created)
            return configError(positionOfQueueError(queue, created.error()), created.error());
        ++m_applied.queuesCreated;
        return send(queue);
    }

    // The file's attributes and tags that differ from the queue's; nothing when none do.
    Status update(const ConfigQueue& queue, const engine::StringMap& attributes)
    {
        auto record = m_broker.queueRecord(queue.name);
        if (!record)
            return configError(queue.namePosition, record.error());
        auto current = engine::configForCreate(record->attributes, record->oci, m_broker.options());
        if (!current)
            return configError(queue.namePosition, current.error());
        engine::StringMap changed;
        for (const auto& [name, value] : attributes)
            if (engine::firstDifferingAttribute(*current, {{name, value}}))
                changed[name] = value;
        if (queue.kind == QueueKind::Oci && changed.contains("retentionInSeconds"))
            return configError(queue.attributePositions.at("retentionInSeconds"),
                               "the retention of an OCI queue is set when it is created: "
                                   + queue.name + " keeps messages "
                                   + record->attributes["retentionInSeconds"]
                                   + " seconds (delete the queue to change it)");
        if (!changed.empty())
            if (Status set = m_broker.setQueueAttributes(queue.name, changed, m_origin); !set)
                return configError(positionOfQueueError(queue, set.error()), set.error());

        engine::StringMap newTags;
        for (const auto& [key, value] : queue.tags)
            if (const auto it = record->tags.find(key);
                it == record->tags.end() || it->second != value)
                newTags[key] = value;
        if (!newTags.empty())
            if (Status tagged = m_broker.tagQueue(queue.name, newTags, m_origin); !tagged)
                return configError(positionOfQueueError(queue, tagged.error()), tagged.error());

        ++(changed.empty() && newTags.empty() ? m_applied.queuesUnchanged
                                              : m_applied.queuesUpdated);
        return Done{};
    }

    Status send(const ConfigQueue& queue)
    {
        for (const ConfigMessage& message : queue.messages) {
            engine::SendMessageRequest request = message.request;
            request.origin = m_origin;
            const auto sent = m_broker.sendMessage(request);
            if (!sent)
                return configError(positionOfMessageError(message, sent.error()), sent.error());
            if (!sent->deduplicated)
                ++m_applied.messagesSent;
        }
        return Done{};
    }

    engine::Broker& m_broker;
    const engine::Origin& m_origin;
    bool m_trial;
    ConfigApplied m_applied;
};

} // namespace

engine::Result<ConfigApplied> applyQueueConfig(engine::Broker& broker,
                                               const QueueConfigFile& config,
                                               const engine::Origin& origin)
{
    {
        engine::Broker scratch(broker.clock(), broker.options());
        if (Status copied = copyQueues(broker, scratch); !copied)
            return engine::makeError(copied.error().code,
                                     "cannot try the file on a copy of the queues: "
                                         + copied.error().message,
                                     copied.error().parameter);
        if (auto tried = Applier(scratch, origin, /*trial=*/true).run(config); !tried)
            return tried.error();
    }
    return Applier(broker, origin, /*trial=*/false).run(config);
}

} // namespace inflight::config
