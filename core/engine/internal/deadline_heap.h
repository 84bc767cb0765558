#pragma once

#include "engine/clock.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

namespace inflight::engine {

// (time, message) entries taken earliest first, with lazy deletion: an entry whose message has
// moved on is left in place and skipped when it reaches the top (the owner checks validity).
struct DeadlineEntry {
    Millis at;
    std::uint64_t sequence;
    std::uint32_t slot;
};

// Most deadlines arrive in order: a queue's retention base is the send time, its visibility
// deadline the receive time plus the queue's timeout. Those go to the back of a run, taken from
// its front, each in constant time and in the order they sit in memory; only an entry earlier
// than the run's last (a per-receive timeout shorter than the queue's, a changed visibility, a
// redriven message's older retention base) goes to a binary heap. The top is the earlier of the
// two fronts. With a million messages waiting, the heap's pops walked twenty levels of a 24 MB
// array for every deleted message's stale entry.
class DeadlineHeap {
public:
    void push(Millis at, std::uint32_t slot, std::uint64_t sequence)
    {
        const DeadlineEntry e{at, sequence, slot};
        if (m_run.empty() || !later(m_run.back(), e)) {
            m_run.push_back(e);
        } else {
            m_heap.push_back(e);
            std::push_heap(m_heap.begin(), m_heap.end(), later);
        }
    }
    bool empty() const { return m_run.empty() && m_heap.empty(); }
    const DeadlineEntry& top() const { return fromRun() ? m_run.front() : m_heap.front(); }
    void pop()
    {
        if (fromRun()) {
            m_run.pop_front();
        } else {
            std::pop_heap(m_heap.begin(), m_heap.end(), later);
            m_heap.pop_back();
        }
    }
    void clear()
    {
        m_run.clear();
        m_heap.clear();
    }
    std::size_t size() const { return m_run.size() + m_heap.size(); }
    // Every entry, stale ones too, in no particular order (the invariant check).
    template <typename F>
    void forEach(F&& f) const
    {
        for (const DeadlineEntry& e : m_run)
            f(e);
        for (const DeadlineEntry& e : m_heap)
            f(e);
    }

private:
    static bool later(const DeadlineEntry& a, const DeadlineEntry& b)
    {
        return a.at > b.at || (a.at == b.at && a.sequence > b.sequence);
    }
    // Whether the top is the run's front (not empty() is the caller's to know).
    bool fromRun() const
    {
        return m_heap.empty() || (!m_run.empty() && !later(m_run.front(), m_heap.front()));
    }

    std::deque<DeadlineEntry> m_run;   // in order: each entry no earlier than the one before
    std::vector<DeadlineEntry> m_heap; // the rest, a min-heap
};

} // namespace inflight::engine
