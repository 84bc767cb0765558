#include "ui/models/message_history.h"

#include "session/session.h"
#include "ui/models/model_text.h"

namespace inflight::ui {

MessageHistory::MessageHistory(session::Session& session, QObject* parent, std::size_t maxEntries)
    : QObject(parent), m_maxEntries(std::max<std::size_t>(maxEntries, 1))
{
    connect(&session, &session::Session::eventsReady, this, &MessageHistory::onEvents);
}

const std::vector<EventRecord>& MessageHistory::events(const QString& messageId) const
{
    static const std::vector<EventRecord> none;
    auto it = m_messages.find(messageId);
    return it == m_messages.end() ? none : it->second.events;
}

std::uint64_t MessageHistory::generation(const QString& messageId) const
{
    auto it = m_messages.find(messageId);
    return it == m_messages.end() ? 0 : it->second.generation;
}

void MessageHistory::onEvents(const std::vector<engine::Event>& events)
{
    bool changed = false;
    auto add = [this](EventRecord record) {
        auto [it, inserted] = m_messages.try_emplace(record.messageId);
        if (inserted) {
            it->second.generation = m_nextGeneration++;
            m_order.push_back(record.messageId);
        }
        record.messageId = it->first; // one shared copy of the id per message
        it->second.events.push_back(std::move(record));
        ++m_entries;
    };
    for (const engine::Event& e : events) {
        if (e.messageId.empty())
            continue;
        EventRecord record = makeEventRecord(e, m_strings);
        if (!e.relatedMessageId.empty()) {
            // A task's move sends a new message: its timeline starts here, in the destination.
            EventRecord arrival = record;
            arrival.kind = engine::EventKind::MessageSent;
            arrival.queue = m_strings.intern(e.detail);
            arrival.messageId = toQString(e.relatedMessageId);
            arrival.detail = tr("moved from %1").arg(toQString(e.queue));
            arrival.receiveCount = 0;
            arrival.deadline = record.time; // available in the destination at once
            add(std::move(record));
            add(std::move(arrival));
        } else {
            add(std::move(record));
        }
        changed = true;
    }
    if (m_entries > m_maxEntries)
        evict();
    if (changed)
        Q_EMIT this->changed();
}

void MessageHistory::evict()
{
    while (m_entries > m_maxEntries && !m_order.empty()) {
        auto it = m_messages.find(m_order.front());
        m_order.pop_front();
        if (it == m_messages.end())
            continue;
        m_entries -= it->second.events.size();
        m_messages.erase(it);
    }
}

} // namespace inflight::ui
