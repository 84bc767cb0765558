#pragma once
// A FIFO queue's deduplication window (§5.2): the ids seen in the last five minutes, each with the
// message it let through.
//
// Records sit in a ring in the order they were made, which is the order they expire in (each
// lasts the same window from its send), so expiry pops from the front. An open-addressed index
// (linear probing, each slot the key's hash and the record's place in the ring) finds a key with
// one probe of a flat array and one look at the record, where a node-based map chased a pointer
// per look-up and allocated a node per send.
#include "engine/clock.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace inflight::engine {

class DedupWindow {
public:
    struct Record {
        std::string key; // dedup id, or group + '\x1f' + dedup id for message-group scope
        Millis expiresAt = 0;
        std::uint64_t idHigh = 0;
        std::uint64_t idLow = 0;
        std::uint64_t sequence = 0;
        std::uint32_t hash = 0; // of key
    };

    // The record of `key`, or nullptr.
    const Record* find(std::string_view key) const;

    // The record of `key` and false when there is one; otherwise a new record of `key` that
    // expires at `expiresAt`, and true (the caller fills in the message). The record stays where
    // it is until the next insert, expire or clear. A record expiring before the newest one is
    // kept until that one goes: expiry follows the order of insertion.
    std::pair<Record*, bool> insert(std::string_view key, Millis expiresAt)
    {
        return insert(key, hashOf(key), expiresAt);
    }
    std::pair<Record*, bool> insert(std::string_view key, std::uint32_t hash, Millis expiresAt);

    // The hash insert takes, and a hint that it is coming: where the look-up of `hash` starts is
    // fetched into the cache while the caller does other work (a send's checks), so the one cache
    // miss of a look-up in a large window is mostly hidden.
    static std::uint32_t hashOf(std::string_view key);
    void prefetch(std::uint32_t hash) const
    {
        if (!m_slots.empty())
            __builtin_prefetch(&m_slots[probeStart(hash)]);
    }

    // Drops the records, oldest first, that expire at or before `now`.
    void expire(Millis now);

    void clear();
    std::size_t size() const { return m_count; }
    bool empty() const { return m_count == 0; }
    std::size_t capacity() const { return m_ring.size(); } // records it has room for

    const Record* oldest() const { return m_count ? &m_ring[m_head] : nullptr; }

    // Records from the newest back, for as long as `f` returns true.
    template <typename F>
    void forEachNewestWhile(F&& f) const
    {
        for (std::size_t i = m_count; i-- > 0;)
            if (!f(m_ring[(m_head + i) & (m_ring.size() - 1)]))
                return;
    }

    // Each record, oldest first.
    template <typename F>
    void forEach(F&& f) const
    {
        for (std::size_t i = 0; i < m_count; ++i)
            f(m_ring[(m_head + i) & (m_ring.size() - 1)]);
    }

private:
    struct Slot {
        std::uint32_t hash = 0;  // of the key
        std::uint32_t place = 0; // the record's index in m_ring, plus 1; 0: an empty slot
    };

    std::size_t probeStart(std::uint32_t hash) const { return hash & (m_slots.size() - 1); }
    std::size_t slotOf(std::size_t place) const; // the slot naming ring index `place`
    void eraseSlot(std::size_t slot);
    void rebuild(std::size_t capacity); // ring and index of `capacity` records (a power of 2)

    std::vector<Record> m_ring; // size a power of 2 (or 0)
    std::size_t m_head = 0;     // index of the oldest record
    std::size_t m_count = 0;
    std::vector<Slot> m_slots; // twice the ring's size: at most half full
};

} // namespace inflight::engine
