#pragma once

namespace inflight::engine {

// Starts loading the cache line at `p` into the cache: a hint, which never faults and changes
// nothing. The empty asm statement keeps it: GCC 12 at -O2 drops a `__builtin_prefetch` under a
// condition on a vector's size or a pointer loaded just before (the deduplication window's
// prefetch had never been emitted until this helper existed; check with objdump).
inline void prefetchLine(const void* p)
{
    __builtin_prefetch(p);
    asm volatile("" : : "r"(p));
}

} // namespace inflight::engine
