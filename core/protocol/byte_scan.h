#pragma once

#include <cstdint>
#include <cstring>

namespace inflight::protocol::bytescan {

// Eight bytes of text at a time (SWAR): the answers' printers skip runs of plain text a word at a
// time and look at single bytes only in a word that holds one they must act on. Each test says
// whether any of the word's bytes matches (exact for "any"; which byte is left to the caller).

inline constexpr std::uint64_t kOnes = 0x0101010101010101ull;
inline constexpr std::uint64_t kHighs = 0x8080808080808080ull;

inline std::uint64_t load(const char* at)
{
    std::uint64_t word;
    std::memcpy(&word, at, sizeof word);
    return word;
}

// Any byte of 0x80 or more.
inline bool anyHigh(std::uint64_t word)
{
    return (word & kHighs) != 0;
}

// Any byte below `n` (n <= 128).
inline bool anyBelow(std::uint64_t word, unsigned char n)
{
    return ((word - kOnes * n) & ~word & kHighs) != 0;
}

// Any byte equal to `c`.
inline bool anyEqual(std::uint64_t word, unsigned char c)
{
    const std::uint64_t x = word ^ (kOnes * c);
    return ((x - kOnes) & ~x & kHighs) != 0;
}

} // namespace inflight::protocol::bytescan
