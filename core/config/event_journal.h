#pragma once

#include "engine/events.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace inflight::config {

// The engine's event stream as the control API serves it: every event gets a cursor, 1, 2, 3, …,
// and the last `capacity` events are kept so a client can ask for those after a cursor it holds
// ("events?after=<cursor>"). Older events go first; what was dropped is reported, never silently
// skipped. Qt-free, no clock: the control API adds the waiting.
class EventJournal {
public:
    // `firstCursor`: the cursor of its first event (a journal that takes over from another, as
    // when a workspace is switched in the running app, goes on from the other's numbers).
    explicit EventJournal(std::size_t capacity = 100'000, std::uint64_t firstCursor = 1);

    // Appends a batch (as the session emits it once stored).
    void append(std::span<const engine::Event> events);

    struct Page {
        std::vector<const engine::Event*> events; // valid until the next append
        std::uint64_t cursor = 0;  // the cursor of the last event returned, or `after` if none
        std::uint64_t dropped = 0; // events after `after` that are no longer kept
    };
    // Up to `limit` events with a cursor greater than `after`, oldest first.
    Page after(std::uint64_t after, std::size_t limit) const;

    // The cursor of the newest event (firstCursor - 1 before the first).
    std::uint64_t newest() const { return m_first + m_events.size() - 1; }

private:
    const engine::Event& at(std::size_t index) const
    {
        return m_events[(m_oldest + index) % m_events.size()];
    }

    std::size_t m_capacity;
    // A ring: it grows to `capacity` events, then each new event is copied over the oldest (its
    // strings' room and the slot reused, nothing allocated or freed per event).
    std::vector<engine::Event> m_events;
    std::size_t m_oldest = 0;  // index of the oldest event in m_events
    std::uint64_t m_first = 1; // its cursor
};

} // namespace inflight::config
