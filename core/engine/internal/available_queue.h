#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

namespace inflight::engine {

// Available messages of a channel in sequence order (oldest first, as AWS tends to return them).
// New messages arrive in increasing sequence and go to a deque; messages that come back (expiry,
// release) go to a heap; the front is the smaller of the two. Entries may be stale (the message
// left); the owner skips them.
class AvailableQueue {
public:
    struct Entry {
        std::uint64_t sequence;
        std::uint32_t slot;
    };

    void pushNew(std::uint32_t slot, std::uint64_t sequence)
    {
        m_fresh.push_back({sequence, slot});
    }
    void pushReturned(std::uint32_t slot, std::uint64_t sequence)
    {
        m_returned.push_back({sequence, slot});
        std::push_heap(m_returned.begin(), m_returned.end(), greater);
    }

    bool empty() const { return m_fresh.empty() && m_returned.empty(); }

    // Requires !empty().
    Entry front() const
    {
        if (m_returned.empty())
            return m_fresh.front();
        if (m_fresh.empty() || m_returned.front().sequence < m_fresh.front().sequence)
            return m_returned.front();
        return m_fresh.front();
    }

    void popFront()
    {
        if (m_returned.empty()
            || (!m_fresh.empty() && m_fresh.front().sequence < m_returned.front().sequence)) {
            m_fresh.pop_front();
        } else {
            std::pop_heap(m_returned.begin(), m_returned.end(), greater);
            m_returned.pop_back();
        }
    }

    void clear()
    {
        m_fresh.clear();
        m_returned.clear();
    }

    std::size_t entries() const { return m_fresh.size() + m_returned.size(); }
    // Calls fn(entry) for every entry, stale ones too, in no particular order.
    template <class Fn>
    void forEach(Fn fn) const
    {
        for (const Entry& e : m_fresh)
            fn(e);
        for (const Entry& e : m_returned)
            fn(e);
    }

private:
    static bool greater(const Entry& a, const Entry& b) { return a.sequence > b.sequence; }
    std::deque<Entry> m_fresh;
    std::vector<Entry> m_returned;
};

} // namespace inflight::engine
