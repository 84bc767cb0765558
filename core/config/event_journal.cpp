#include "config/event_journal.h"

#include <algorithm>

namespace inflight::config {

EventJournal::EventJournal(std::size_t capacity, std::uint64_t firstCursor)
    : m_capacity(std::max<std::size_t>(capacity, 1)),
      m_first(std::max<std::uint64_t>(firstCursor, 1))
{
}

void EventJournal::append(std::span<const engine::Event> events)
{
    for (const engine::Event& event : events) {
        if (m_events.size() < m_capacity) {
            if (m_events.size() == m_events.capacity())
                m_events.reserve(
                    std::min(m_capacity, std::max<std::size_t>(1024, m_events.size() * 2)));
            m_events.push_back(event);
            continue;
        }
        m_events[m_oldest] = event;
        m_oldest = (m_oldest + 1) % m_events.size();
        ++m_first;
    }
}

EventJournal::Page EventJournal::after(std::uint64_t after, std::size_t limit) const
{
    Page page;
    page.cursor = after;
    std::uint64_t from = after + 1; // the first cursor wanted
    if (from < m_first) {
        page.dropped = m_first - from;
        from = m_first;
    }
    const std::uint64_t end = m_first + m_events.size();
    for (std::uint64_t cursor = from; cursor < end && page.events.size() < limit; ++cursor) {
        page.events.push_back(&at(static_cast<std::size_t>(cursor - m_first)));
        page.cursor = cursor;
    }
    if (page.events.empty() && after > newest())
        page.cursor = after; // a cursor from the future (another run) is answered as it is
    return page;
}

} // namespace inflight::config
