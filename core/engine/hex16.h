#pragma once

// Sixteen bytes as 32 lowercase hex digits, in their order: MD5 digests (every send and every
// received message) and message ids (every send, receive and delete event). With SSE2 (every
// x86-64 CPU) all 32 at once: each byte's nibbles side by side, then '0' + n, or 'a' + n - 10
// past 9; elsewhere a digit at a time.

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace inflight::engine {

inline void hex16(const unsigned char* bytes, char* out)
{
#if defined(__SSE2__)
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes));
    const __m128i mask = _mm_set1_epi8(0x0f);
    const __m128i high = _mm_and_si128(_mm_srli_epi16(v, 4), mask);
    const __m128i low = _mm_and_si128(v, mask);
    const auto digits = [](__m128i n) {
        const __m128i pastNine = _mm_cmpgt_epi8(n, _mm_set1_epi8(9));
        return _mm_add_epi8(_mm_add_epi8(n, _mm_set1_epi8('0')),
                            _mm_and_si128(pastNine, _mm_set1_epi8('a' - '0' - 10)));
    };
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), digits(_mm_unpacklo_epi8(high, low)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16), digits(_mm_unpackhi_epi8(high, low)));
#else
    static constexpr char kDigits[] = "0123456789abcdef";
    for (int i = 0; i < 16; ++i) {
        out[2 * i] = kDigits[bytes[i] >> 4];
        out[2 * i + 1] = kDigits[bytes[i] & 0x0f];
    }
#endif
}

} // namespace inflight::engine
