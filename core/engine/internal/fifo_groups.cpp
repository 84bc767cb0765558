#include "engine/internal/fifo_groups.h"
#include "engine/internal/linear_probing.h"

#include <algorithm>
#include <functional>

namespace inflight::engine {

namespace {
constexpr std::size_t kSmallestIndex = 16;
}

std::uint32_t FifoGroups::hashOf(std::string_view id)
{
    const std::uint64_t hash = std::hash<std::string_view>{}(id);
    return static_cast<std::uint32_t>(hash ^ (hash >> 32));
}

std::size_t FifoGroups::slotFor(std::string_view id, std::uint32_t hash) const
{
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = probeStart(hash);
    for (; m_slots[i].place != 0; i = (i + 1) & mask) {
        const Slot& slot = m_slots[i];
        if (slot.hash == hash && m_groups[slot.place - 1]->id == id)
            break;
    }
    return i;
}

FifoGroup* FifoGroups::find(std::string_view id) const
{
    if (m_groups.empty())
        return nullptr;
    const Slot& slot = m_slots[slotFor(id, hashOf(id))];
    return slot.place != 0 ? m_groups[slot.place - 1].get() : nullptr;
}

FifoGroup& FifoGroups::findOrCreate(std::string_view id)
{
    if (2 * (m_groups.size() + 1) > m_slots.size())
        growIndex();
    const std::uint32_t hash = hashOf(id);
    Slot& slot = m_slots[slotFor(id, hash)];
    if (slot.place != 0)
        return *m_groups[slot.place - 1];
    auto group = std::make_unique<FifoGroup>();
    group->id = id;
    group->idHash = hash;
    group->listed = static_cast<std::uint32_t>(m_groups.size());
    m_groups.push_back(std::move(group));
    slot = Slot{hash, static_cast<std::uint32_t>(m_groups.size())};
    return *m_groups.back();
}

void FifoGroups::erase(FifoGroup& group)
{
    const std::size_t place = group.listed;
    eraseProbedSlot(
        m_slots, slotFor(group.id, group.idHash), [](const Slot& s) { return s.place == 0; },
        [&](const Slot& s) { return probeStart(s.hash); });
    // The list's last group takes the freed place; its slot names the new place.
    if (place + 1 != m_groups.size()) {
        FifoGroup& last = *m_groups.back();
        m_slots[slotFor(last.id, last.idHash)].place = static_cast<std::uint32_t>(place + 1);
        last.listed = static_cast<std::uint32_t>(place);
        m_groups[place] = std::move(m_groups.back());
    }
    m_groups.pop_back();
}

void FifoGroups::clear()
{
    m_groups.clear();
    m_slots.clear();
}

void FifoGroups::growIndex()
{
    m_slots.assign(std::max(kSmallestIndex, 2 * m_slots.size()), Slot{});
    const std::size_t mask = m_slots.size() - 1;
    for (const auto& group : m_groups) {
        std::size_t i = probeStart(group->idHash);
        while (m_slots[i].place != 0)
            i = (i + 1) & mask;
        m_slots[i] = Slot{group->idHash, group->listed + 1};
    }
}

} // namespace inflight::engine
