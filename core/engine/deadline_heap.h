#pragma once

#include "clock.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace inflight::engine {

// A min-heap of (time, message) entries with lazy deletion: an entry whose message has moved on
// is left in place and skipped when it reaches the top (the owner checks validity).
struct DeadlineEntry {
    Millis at;
    std::uint64_t sequence;
    std::uint32_t slot;
};

class DeadlineHeap {
public:
    void push(Millis at, std::uint32_t slot, std::uint64_t sequence)
    {
        m_entries.push_back({at, sequence, slot});
        std::push_heap(m_entries.begin(), m_entries.end(), later);
    }
    bool empty() const { return m_entries.empty(); }
    const DeadlineEntry& top() const { return m_entries.front(); }
    void pop()
    {
        std::pop_heap(m_entries.begin(), m_entries.end(), later);
        m_entries.pop_back();
    }
    void clear() { m_entries.clear(); }
    std::size_t size() const { return m_entries.size(); }
    // Every entry, stale ones too, in no particular order (the invariant check).
    const std::vector<DeadlineEntry>& entries() const { return m_entries; }

private:
    static bool later(const DeadlineEntry& a, const DeadlineEntry& b)
    {
        return a.at > b.at || (a.at == b.at && a.sequence > b.sequence);
    }
    std::vector<DeadlineEntry> m_entries;
};

} // namespace inflight::engine
