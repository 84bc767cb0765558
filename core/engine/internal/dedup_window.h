#pragma once
// A FIFO queue's deduplication window (§5.2): the ids seen in the last five minutes, each with the
// message it let through.
//
// Records sit in a ring in the order they were made, which is the order they expire in (each
// lasts the same window from its send), so expiry pops from the front. An open-addressed index
// (linear probing, each slot the key's hash and the record's place in the ring) finds a key with
// one probe of a flat array and one look at the record, where a node-based map chased a pointer
// per look-up and allocated a node per send. A large ring is made of fixed blocks, so it grows
// without moving its records: a growing window only touches memory it has not used before.
#include "engine/clock.h"

#include <cstddef>
#include <cstdint>
#include <memory>
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

    // The hash insert takes.
    static std::uint32_t hashOf(std::string_view key);

    // Drops the records, oldest first, that expire at or before `now`.
    void expire(Millis now);

    void clear();
    std::size_t size() const { return m_count; }
    bool empty() const { return m_count == 0; }
    std::size_t capacity() const { return m_capacity; } // records it has room for

    const Record* oldest() const { return m_count ? &at(m_head) : nullptr; }

    // Records from the newest back, for as long as `f` returns true.
    template <typename F>
    void forEachNewestWhile(F&& f) const
    {
        for (std::size_t i = m_count; i-- > 0;)
            if (!f(at((m_head + i) & (m_capacity - 1))))
                return;
    }

    // Each record, oldest first.
    template <typename F>
    void forEach(F&& f) const
    {
        for (std::size_t i = 0; i < m_count; ++i)
            f(at((m_head + i) & (m_capacity - 1)));
    }

private:
    struct Slot {
        std::uint32_t hash = 0;  // of the key
        std::uint32_t place = 0; // the record's place in the ring, plus 1; 0: an empty slot
    };

    // A ring of up to kBlock records is one block; a larger one is blocks of kBlock records.
    static constexpr unsigned kBlockShift = 10; // 1,024 records (72 KB)
    static constexpr std::size_t kBlock = std::size_t{1} << kBlockShift;

    std::size_t probeStart(std::uint32_t hash) const { return hash & (m_slots.size() - 1); }
    std::size_t blockSize() const { return std::size_t{1} << m_blockShift; }
    Record& at(std::size_t place)
    {
        return m_blocks[place >> m_blockShift][place & (blockSize() - 1)];
    }
    const Record& at(std::size_t place) const
    {
        return m_blocks[place >> m_blockShift][place & (blockSize() - 1)];
    }
    std::size_t slotOf(std::size_t place) const; // the slot naming ring place `place`
    void eraseSlot(std::size_t slot);
    void grow(); // a full ring to twice its room (past one block without moving a record)
    void relocate(std::size_t capacity); // the records to a new ring, from place 0
    // A new index of twice `capacity` slots, filled from the old one with each record's place
    // mapped by `newPlace`.
    template <typename F>
    void rebuildIndex(std::size_t capacity, F&& newPlace);

    std::vector<std::unique_ptr<Record[]>> m_blocks; // each made when first used
    std::size_t m_capacity = 0;                      // a power of 2 (or 0)
    unsigned m_blockShift = 0;                       // log2 of a block's records
    std::size_t m_head = 0;                          // place of the oldest record
    std::size_t m_count = 0;
    std::vector<Slot> m_slots; // twice the ring's size: at most half full
};

} // namespace inflight::engine
