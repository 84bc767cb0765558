#include "engine/dedup_window.h"

#include <algorithm>
#include <bit>
#include <functional>

namespace inflight::engine {

namespace {

constexpr std::size_t kSmallest = 16;      // records, the first time one is inserted
constexpr std::size_t kShrinkAbove = 1024; // a ring larger than this shrinks
constexpr std::size_t kShrinkFraction = 8; // ... once less than this fraction of it is used

} // namespace

// 32 bits: a slot is 8 bytes, so more of the index stays in the caches. The index holds at most
// 2^31 slots, so the bits choose the slot to start at and also tell most keys apart.
std::uint32_t DedupWindow::hashOf(std::string_view key)
{
    const std::uint64_t hash = std::hash<std::string_view>{}(key);
    return static_cast<std::uint32_t>(hash ^ (hash >> 32));
}

const DedupWindow::Record* DedupWindow::find(std::string_view key) const
{
    if (m_count == 0)
        return nullptr;
    const std::uint32_t hash = hashOf(key);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = probeStart(hash); m_slots[i].place != 0; i = (i + 1) & mask) {
        const Slot& slot = m_slots[i];
        if (slot.hash == hash && m_ring[slot.place - 1].key == key)
            return &m_ring[slot.place - 1];
    }
    return nullptr;
}

std::pair<DedupWindow::Record*, bool> DedupWindow::insert(std::string_view key, std::uint32_t hash,
                                                          Millis expiresAt)
{
    std::size_t free = 0;
    if (!m_slots.empty()) {
        const std::size_t mask = m_slots.size() - 1;
        std::size_t i = probeStart(hash);
        for (; m_slots[i].place != 0; i = (i + 1) & mask) {
            const Slot& slot = m_slots[i];
            if (slot.hash == hash && m_ring[slot.place - 1].key == key)
                return {&m_ring[slot.place - 1], false};
        }
        free = i;
    }
    if (m_count == m_ring.size()) {
        rebuild(std::max(kSmallest, 2 * m_ring.size()));
        const std::size_t mask = m_slots.size() - 1;
        for (free = probeStart(hash); m_slots[free].place != 0; free = (free + 1) & mask) {}
    }
    const std::size_t place = (m_head + m_count) & (m_ring.size() - 1);
    Record& record = m_ring[place];
    record.key.assign(key); // the ring's strings keep their room: a long key reuses it
    record.expiresAt = expiresAt;
    record.idHigh = record.idLow = record.sequence = 0;
    record.hash = hash;
    m_slots[free] = Slot{hash, static_cast<std::uint32_t>(place + 1)};
    ++m_count;
    return {&record, true};
}

void DedupWindow::expire(Millis now)
{
    if (m_count == 0)
        return;
    const std::size_t ringMask = m_ring.size() - 1;
    while (m_count != 0 && m_ring[m_head].expiresAt <= now) {
        eraseSlot(slotOf(m_head));
        m_ring[m_head].key.clear();
        m_head = (m_head + 1) & ringMask;
        --m_count;
    }
    // A burst's room goes back once the window is mostly empty: to twice what is left.
    if (m_ring.size() > kShrinkAbove && m_count * kShrinkFraction < m_ring.size())
        rebuild(std::max(kSmallest, std::bit_ceil(2 * m_count)));
}

void DedupWindow::clear()
{
    m_ring = {};
    m_slots = {};
    m_head = m_count = 0;
}

std::size_t DedupWindow::slotOf(std::size_t place) const
{
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = probeStart(m_ring[place].hash);
    while (m_slots[i].place != place + 1)
        i = (i + 1) & mask;
    return i;
}

// Linear probing without tombstones: the slots after the freed one that probed past it move back
// into it, so every key stays reachable from where its probe starts.
void DedupWindow::eraseSlot(std::size_t slot)
{
    const std::size_t mask = m_slots.size() - 1;
    std::size_t hole = slot;
    for (std::size_t i = (hole + 1) & mask; m_slots[i].place != 0; i = (i + 1) & mask) {
        const std::size_t start = probeStart(m_slots[i].hash);
        // Slot i stays where it is if its probe starts after the hole (cyclically, up to i).
        const bool staysPut
            = hole <= i ? (start > hole && start <= i) : (start > hole || start <= i);
        if (staysPut)
            continue;
        m_slots[hole] = m_slots[i];
        hole = i;
    }
    m_slots[hole] = Slot{};
}

void DedupWindow::rebuild(std::size_t capacity)
{
    std::vector<Record> ring(capacity);
    const std::size_t oldMask = m_ring.empty() ? 0 : m_ring.size() - 1;
    for (std::size_t i = 0; i < m_count; ++i)
        ring[i] = std::move(m_ring[(m_head + i) & oldMask]);
    m_ring = std::move(ring);
    m_head = 0;
    m_slots.assign(2 * capacity, Slot{});
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = 0; i < m_count; ++i) {
        std::size_t at = probeStart(m_ring[i].hash);
        while (m_slots[at].place != 0)
            at = (at + 1) & mask;
        m_slots[at] = Slot{m_ring[i].hash, static_cast<std::uint32_t>(i + 1)};
    }
}

} // namespace inflight::engine
