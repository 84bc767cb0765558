#pragma once

#include <cstddef>
#include <cstdint>

namespace inflight::engine {

// Starts loading the cache line at `p` into the cache: a hint, which never faults and changes
// nothing. The empty asm statement keeps it: GCC 12 at -O2 drops a `__builtin_prefetch` in some
// conditional code (one under a test of a vector's size is enough), and did so to every one the
// FIFO send and receive had, the deduplication window's included, until this helper existed.
// tests/engine/checks/prefetch_is_emitted.sh looks for them in the library's code.
inline void prefetchLine(const void* p)
{
    __builtin_prefetch(p);
    asm volatile("" : : "r"(p));
}

// Every cache line of [p, p + bytes), at most `maxLines` of them (a long body streams in on its
// own once its copy starts).
inline void prefetchRange(const void* p, std::size_t bytes, std::size_t maxLines = 8)
{
    if (bytes == 0)
        return;
    constexpr std::uintptr_t kLine = 64;
    const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(p) & ~(kLine - 1);
    const std::uintptr_t last = (reinterpret_cast<std::uintptr_t>(p) + bytes - 1) & ~(kLine - 1);
    for (std::uintptr_t line = first; line <= last && maxLines > 0; line += kLine, --maxLines)
        prefetchLine(reinterpret_cast<const void*>(line));
}

} // namespace inflight::engine
