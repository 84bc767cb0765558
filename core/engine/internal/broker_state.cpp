#include "engine/internal/broker_state.h"

namespace inflight::engine {

BrokerState::BrokerState(const Clock& c, BrokerOptions o)
    : clock(c),
      options(std::move(o)),
      random(options.seed),
      receiptKey(Random(options.seed ^ 0x5eedULL).next())
{
}

void BrokerState::number(std::vector<Event>& events)
{
    for (Event& event : events)
        event.sequence = ++eventsEmitted;
}

void BrokerState::flush()
{
    // Callbacks may call back into the broker; each such call flushes its own work, so loop
    // until nothing is left.
    ++depth;
    while (!pendingEvents.empty() || !completions.empty()) {
        if (!pendingEvents.empty()) {
            std::vector<Event> batch;
            batch.swap(pendingEvents);
            number(batch);
            if (sink)
                sink(batch);
            // The batch's room serves the next one (no growth from one Event at each call),
            // unless the sink's own calls queued events meanwhile.
            batch.clear();
            if (pendingEvents.empty())
                pendingEvents.swap(batch);
            continue;
        }
        auto batch = std::move(completions);
        completions.clear();
        for (auto& [callback, result] : batch) {
            if (callback)
                callback(std::move(result));
            // Events of a nested call are delivered before the next completion runs.
            if (!pendingEvents.empty() && sink) {
                std::vector<Event> events;
                events.swap(pendingEvents);
                number(events);
                sink(events);
            }
        }
    }
    --depth;
}

namespace {

void fillQueueEvent(Event& e, EventKind kind, const Queue& q, Millis time, const Origin& origin)
{
    e.kind = kind;
    e.time = time;
    e.queueId = q.id;
    e.queue = q.name;
    e.origin = origin;
}

} // namespace

Event BrokerState::queueEvent(EventKind kind, const Queue& q, Millis time,
                              const Origin& origin) const
{
    Event e;
    fillQueueEvent(e, kind, q, time, origin);
    return e;
}

Event BrokerState::messageEvent(EventKind kind, const Queue& q, std::uint32_t slot,
                                const Message& m, Millis time, const Origin& origin) const
{
    Event e;
    fillMessageEvent(e, kind, q, slot, m, time, origin);
    return e;
}

Event& BrokerState::emitMessageEvent(EventKind kind, const Queue& q, std::uint32_t slot,
                                     const Message& m, Millis time, const Origin& origin)
{
    Event& e = pendingEvents.emplace_back();
    fillMessageEvent(e, kind, q, slot, m, time, origin);
    return e;
}

void BrokerState::fillMessageEvent(Event& e, EventKind kind, const Queue& q, std::uint32_t slot,
                                   const Message& m, Millis time, const Origin& origin) const
{
    fillQueueEvent(e, kind, q, time, origin);
    e.messageId = formatMessageIdText(m.idHigh, m.idLow);
    e.key = MessageKey{slot, m.sequence};
    e.receiveCount = m.receiveCount;
    e.deadline = m.state == MessageState::InFlight
        ? m.deadline
        : (m.state == MessageState::Delayed ? deliverAt(q, m) : 0);
    if (m.extras)
        e.detail = !m.extras->groupId.empty() ? m.extras->groupId : m.extras->channelId;
}

Queue* BrokerState::findQueue(std::string_view name)
{
    auto it = queues.find(name);
    return it == queues.end() ? nullptr : it->second.get();
}

Result<Queue*> BrokerState::requireQueue(std::string_view name)
{
    if (Queue* q = findQueue(name))
        return q;
    return makeError(ErrorCode::QueueDoesNotExist, "The specified queue does not exist.",
                     "QueueUrl");
}

Result<Queue*> BrokerState::settledQueue(std::string_view name, Millis now)
{
    auto q = requireQueue(name);
    if (q)
        settle(**q, now);
    return q;
}

Queue* BrokerState::findQueueByArn(std::string_view arn)
{
    const std::string prefix = arnFor("");
    if (arn.size() <= prefix.size() || arn.compare(0, prefix.size(), prefix) != 0)
        return nullptr;
    return findQueue(arn.substr(prefix.size()));
}

std::string BrokerState::arnFor(std::string_view name) const
{
    return "arn:aws:sqs:" + options.region + ":" + options.accountId + ":" + std::string(name);
}

std::uint16_t StringTable::intern(const std::string& text)
{
    if (text.empty())
        return 0;
    if (auto it = m_index.find(text); it != m_index.end())
        return it->second;
    if (m_names.size() > 0xffff)
        return 0;
    const auto index = static_cast<std::uint16_t>(m_names.size());
    m_names.push_back(text);
    m_index.emplace(text, index);
    return index;
}

} // namespace inflight::engine
