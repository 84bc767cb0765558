#pragma once

#include "engine/events.h"
#include "ui/models/event_record.h"

#include <QObject>

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace inflight::session {
class Session;
}

namespace inflight::ui {

// The events of each message, by message id, since the window opened: what the timeline of a
// message shows, including what happened before it was selected. A move to a DLQ keeps the id, so
// a message's history spans queues. Bounded: past maxEntries() events in total, the messages
// seen first are forgotten first (all their events at once).
class MessageHistory : public QObject {
    Q_OBJECT
public:
    static constexpr std::size_t kDefaultMaxEntries = 500'000;

    // `session` must outlive the history.
    explicit MessageHistory(session::Session& session, QObject* parent = nullptr,
                            std::size_t maxEntries = kDefaultMaxEntries);

    // The events of `messageId`, oldest first; empty if unknown or forgotten. The reference is
    // valid until the next event batch.
    const std::vector<EventRecord>& events(const QString& messageId) const;
    // Changes whenever a message's history is forgotten and started again; 0 if unknown.
    std::uint64_t generation(const QString& messageId) const;
    std::size_t entryCount() const { return m_entries; }
    std::size_t messageCount() const { return m_messages.size(); }
    std::size_t maxEntries() const { return m_maxEntries; }

Q_SIGNALS:
    // After each event batch that added or forgot something.
    void changed();

private:
    struct Message {
        std::vector<EventRecord> events;
        std::uint64_t generation = 0;
    };

    void onEvents(const std::vector<engine::Event>& events);
    void evict();

    std::unordered_map<QString, Message> m_messages;
    std::deque<QString> m_order; // message ids, first seen first
    std::size_t m_entries = 0;
    std::size_t m_maxEntries;
    std::uint64_t m_nextGeneration = 1;
    StringPool m_strings;
};

} // namespace inflight::ui
