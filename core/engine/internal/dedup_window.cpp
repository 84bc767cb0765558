#include "engine/internal/dedup_window.h"
#include "engine/internal/linear_probing.h"

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
        if (slot.hash == hash && at(slot.place - 1).key == key)
            return &at(slot.place - 1);
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
            if (slot.hash == hash && at(slot.place - 1).key == key)
                return {&at(slot.place - 1), false};
        }
        free = i;
    }
    if (m_count == m_capacity) {
        grow();
        const std::size_t mask = m_slots.size() - 1;
        for (free = probeStart(hash); m_slots[free].place != 0; free = (free + 1) & mask) {}
    }
    const std::size_t place = (m_head + m_count) & (m_capacity - 1);
    std::unique_ptr<Record[]>& block = m_blocks[place >> m_blockShift];
    if (!block)
        block = std::make_unique<Record[]>(blockSize());
    Record& record = block[place & (blockSize() - 1)];
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
    const std::size_t ringMask = m_capacity - 1;
    while (m_count != 0 && at(m_head).expiresAt <= now) {
        eraseSlot(slotOf(m_head));
        at(m_head).key.clear();
        m_head = (m_head + 1) & ringMask;
        --m_count;
    }
    // A burst's room goes back once the window is mostly empty: to twice what is left.
    if (m_capacity > kShrinkAbove && m_count * kShrinkFraction < m_capacity)
        relocate(std::max(kSmallest, std::bit_ceil(2 * m_count)));
}

void DedupWindow::clear()
{
    m_blocks = decltype(m_blocks)();
    m_slots = decltype(m_slots)();
    m_capacity = m_head = m_count = 0;
    m_blockShift = 0;
}

std::size_t DedupWindow::slotOf(std::size_t place) const
{
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = probeStart(at(place).hash);
    while (m_slots[i].place != place + 1)
        i = (i + 1) & mask;
    return i;
}

void DedupWindow::eraseSlot(std::size_t slot)
{
    eraseProbedSlot(
        m_slots, slot, [](const Slot& s) { return s.place == 0; },
        [&](const Slot& s) { return probeStart(s.hash); });
}

// The ring is full, so its newest records are the ones at places below the head (when the head is
// not at 0). Doubling the room past one block, they move up by the old size and every record
// keeps its order: whole blocks move as pointers, and only the head's block, when the head is
// inside it, has its lower part moved into a new block.
void DedupWindow::grow()
{
    const std::size_t old = m_capacity;
    if (2 * old <= kBlock) {
        relocate(std::max(kSmallest, 2 * old));
        return;
    }
    m_capacity = 2 * old;
    m_blocks.resize(m_capacity / kBlock);
    const std::size_t headBlock = m_head >> kBlockShift;
    const std::size_t up = old / kBlock;
    for (std::size_t b = 0; b < headBlock; ++b)
        m_blocks[b + up] = std::move(m_blocks[b]);
    if (const std::size_t within = m_head & (kBlock - 1); within != 0) {
        m_blocks[headBlock + up] = std::make_unique<Record[]>(kBlock);
        for (std::size_t i = 0; i < within; ++i)
            m_blocks[headBlock + up][i] = std::move(m_blocks[headBlock][i]);
    }
    const std::size_t head = m_head;
    rebuildIndex(m_capacity, [&](std::size_t place) { return place < head ? place + old : place; });
}

void DedupWindow::relocate(std::size_t capacity)
{
    const std::size_t oldMask = m_capacity - 1;
    const unsigned shift = std::min(kBlockShift, static_cast<unsigned>(std::countr_zero(capacity)));
    const std::size_t block = std::size_t{1} << shift;
    std::vector<std::unique_ptr<Record[]>> blocks(capacity >> shift);
    for (std::size_t i = 0; i < m_count; ++i) {
        std::unique_ptr<Record[]>& to = blocks[i >> shift];
        if (!to)
            to = std::make_unique<Record[]>(block);
        to[i & (block - 1)] = std::move(at((m_head + i) & oldMask));
    }
    m_blocks = std::move(blocks);
    m_capacity = capacity;
    m_blockShift = shift;
    const std::size_t head = m_head;
    rebuildIndex(capacity, [&](std::size_t place) { return (place - head) & oldMask; });
    m_head = 0;
}

// The new index is filled from the old one, read in order: a slot's new start is its hash under
// the new mask, so the writes go forward in one or a few runs rather than one cache miss per
// record (as reading the records' hashes from the ring would). The walk starts after an empty
// slot, so it meets each run of full slots from its beginning (any order of inserts would keep
// every key reachable from its start; this one keeps the writes in order).
template <typename F>
void DedupWindow::rebuildIndex(std::size_t capacity, F&& newPlace)
{
    std::vector<Slot> slots(2 * capacity);
    const std::size_t mask = slots.size() - 1;
    if (m_count != 0) {
        const std::size_t oldMask = m_slots.size() - 1;
        std::size_t empty = 0;
        while (m_slots[empty].place != 0)
            ++empty;
        for (std::size_t k = 1; k <= m_slots.size(); ++k) {
            const Slot& slot = m_slots[(empty + k) & oldMask];
            if (slot.place == 0)
                continue;
            std::size_t at = slot.hash & mask;
            while (slots[at].place != 0)
                at = (at + 1) & mask;
            slots[at] = Slot{slot.hash, static_cast<std::uint32_t>(newPlace(slot.place - 1) + 1)};
        }
    }
    m_slots = std::move(slots);
}

} // namespace inflight::engine
