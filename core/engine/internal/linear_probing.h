#pragma once

#include <cstddef>
#include <vector>

namespace inflight::engine {

// Erasing from an open-addressed index with linear probing, without tombstones: the slots after
// the freed one that probed past it move back into it, so every key stays reachable from where
// its probe starts. `Slot` is empty when value-initialised and tells so by `empty(slot)`;
// `probeStart(slot)` is where that slot's key starts probing. The size is a power of two.
template <typename Slot, typename IsEmpty, typename ProbeStart>
void eraseProbedSlot(std::vector<Slot>& slots, std::size_t slot, IsEmpty&& empty,
                     ProbeStart&& probeStart)
{
    const std::size_t mask = slots.size() - 1;
    std::size_t hole = slot;
    for (std::size_t i = (hole + 1) & mask; !empty(slots[i]); i = (i + 1) & mask) {
        const std::size_t start = probeStart(slots[i]);
        // Slot i stays where it is if its probe starts after the hole (cyclically, up to i).
        const bool staysPut
            = hole <= i ? (start > hole && start <= i) : (start > hole || start <= i);
        if (staysPut)
            continue;
        slots[hole] = slots[i];
        hole = i;
    }
    slots[hole] = Slot{};
}

} // namespace inflight::engine
