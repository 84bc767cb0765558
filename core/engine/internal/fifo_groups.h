#pragma once

#include "engine/internal/message_store.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::engine {

// A FIFO message group: its messages in send order (an intrusive list through Message::next/
// prev). Servable when its head is available; servable groups wait in a ring, served in turn.
struct FifoGroup {
    std::string id;
    std::uint32_t head = kNoSlot;
    std::uint32_t tail = kNoSlot;
    std::int64_t count = 0;
    std::int64_t inFlight = 0;
    bool servable = false;
    FifoGroup* ringPrev = nullptr;
    FifoGroup* ringNext = nullptr;
    std::uint64_t visitStamp = 0; // the receive that last served it
    // FifoGroups' bookkeeping: the id's hash, and where the group sits in the list.
    std::uint32_t idHash = 0;
    std::uint32_t listed = 0;
};

// A FIFO queue's groups by id. Every send finds its group (and a group is made and dropped as
// it gets its first message and loses its last), so the look-up is one probe of a small flat
// index of 8-byte slots (32 bits of the id's hash, the group's place in a dense list) and one
// look at the group, which each send touches anyway. Each group is allocated once and never
// moves: messages and the servable ring point at it. The list is in no particular order.
class FifoGroups {
public:
    FifoGroup* find(std::string_view id) const;
    FifoGroup& findOrCreate(std::string_view id);
    void erase(FifoGroup& group); // the group is freed
    void clear();

    std::size_t size() const { return m_groups.size(); }
    bool empty() const { return m_groups.empty(); }
    auto begin() const { return m_groups.begin(); }
    auto end() const { return m_groups.end(); }

private:
    struct Slot {
        std::uint32_t hash = 0;
        std::uint32_t place = 0; // the group's place in m_groups, plus 1; 0: an empty slot
    };
    static std::uint32_t hashOf(std::string_view id);
    std::size_t probeStart(std::uint32_t hash) const { return hash & (m_slots.size() - 1); }
    // The slot holding `id`, or the empty slot where its probe ends.
    std::size_t slotFor(std::string_view id, std::uint32_t hash) const;
    void growIndex(); // to twice the slots, each group's slot placed again

    std::vector<std::unique_ptr<FifoGroup>> m_groups;
    std::vector<Slot> m_slots; // a power of two, at most half full (or none)
};

} // namespace inflight::engine
