// MD5 of up to eight byte strings at once, one in each 32-bit lane of vector registers: a receive
// of ten messages answers ten MD5OfBody digests, and OpenSSL (digest.cpp) computes one at a time,
// about 600 instructions a 64-byte block, each step waiting on the one before. Side by side the
// steps are the same instructions for four strings (SSE2, part of every x86-64 CPU) or eight
// (AVX2, used where the CPU reports it at run time). RFC 1321; tests/engine/md5_lanes_test.cpp
// holds each way (eight lanes, four, one by one: Md5Lanes) to OpenSSL for every length across
// block boundaries and batches of every size. Elsewhere than x86-64: OpenSSL, one by one.
#include "digest.h"
#include "hex16.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define INFLIGHT_MD5_LANES 1
#if defined(__GNUC__) // GCC and Clang: AVX2 functions beside the baseline, chosen at run time
#include <immintrin.h>
#define INFLIGHT_MD5_AVX2 1
#define INFLIGHT_AVX2 __attribute__((target("avx2")))
#endif
#endif

namespace inflight::engine {

namespace {

#ifdef INFLIGHT_MD5_LANES

constexpr std::uint32_t kMd5Sine[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

constexpr int kMd5Shift[64] = {
    7,  12, 17, 22, 7,  12, 17, 22, 7,  12, 17, 22, 7,  12, 17, 22, 5,  9,  14, 20, 5,  9,
    14, 20, 5,  9,  14, 20, 5,  9,  14, 20, 4,  11, 16, 23, 4,  11, 16, 23, 4,  11, 16, 23,
    4,  11, 16, 23, 6,  10, 15, 21, 6,  10, 15, 21, 6,  10, 15, 21, 6,  10, 15, 21,
};

constexpr int md5WordOf(int step)
{
    switch (step / 16) {
    case 0: return step;
    case 1: return (5 * step + 1) % 16;
    case 2: return (3 * step + 5) % 16;
    default: return (7 * step) % 16;
    }
}

// One of the 64 steps, for the four lanes: a = b + ((a + f(b, c, d) + K + M) <<< s).
template <int Step>
inline void md5Step(__m128i& a, __m128i b, __m128i c, __m128i d, const __m128i* words)
{
    __m128i f;
    if constexpr (Step < 16)
        f = _mm_or_si128(_mm_and_si128(b, c), _mm_andnot_si128(b, d));
    else if constexpr (Step < 32)
        f = _mm_or_si128(_mm_and_si128(d, b), _mm_andnot_si128(d, c));
    else if constexpr (Step < 48)
        f = _mm_xor_si128(_mm_xor_si128(b, c), d);
    else
        f = _mm_xor_si128(c, _mm_or_si128(b, _mm_xor_si128(d, _mm_set1_epi32(-1))));
    __m128i sum
        = _mm_add_epi32(_mm_add_epi32(a, f),
                        _mm_add_epi32(_mm_set1_epi32(int(kMd5Sine[Step])), words[md5WordOf(Step)]));
    sum = _mm_or_si128(_mm_slli_epi32(sum, kMd5Shift[Step]),
                       _mm_srli_epi32(sum, 32 - kMd5Shift[Step]));
    a = _mm_add_epi32(b, sum);
}

// The 64 steps over one block of each lane, added to `state`.
template <int... Steps>
inline void md5Block(__m128i state[4], const __m128i* words, std::integer_sequence<int, Steps...>)
{
    __m128i a = state[0], b = state[1], c = state[2], d = state[3];
    // The registers turn by one each step: (a, b, c, d) ← (d, a', b, c), four steps a turn.
    const auto turn = [&]<int S>(std::integral_constant<int, S>) {
        if constexpr (S % 4 == 0)
            md5Step<S>(a, b, c, d, words);
        else if constexpr (S % 4 == 1)
            md5Step<S>(d, a, b, c, words);
        else if constexpr (S % 4 == 2)
            md5Step<S>(c, d, a, b, words);
        else
            md5Step<S>(b, c, d, a, words);
    };
    (turn(std::integral_constant<int, Steps>()), ...);
    state[0] = _mm_add_epi32(state[0], a);
    state[1] = _mm_add_epi32(state[1], b);
    state[2] = _mm_add_epi32(state[2], c);
    state[3] = _mm_add_epi32(state[3], d);
}

// One input's blocks: whole blocks straight from its bytes, the last one or two (the rest of its
// bytes, 0x80, zeros, its length in bits) from a buffer of its own.
struct Md5Lane {
    const unsigned char* bytes = nullptr;
    std::size_t blocks = 0; // with the padding
    std::size_t whole = 0;  // blocks read straight from `bytes`
    alignas(16) unsigned char tail[128];

    void start(std::string_view input)
    {
        bytes = reinterpret_cast<const unsigned char*>(input.data());
        blocks = (input.size() + 8) / 64 + 1;
        whole = input.size() / 64;
        const std::size_t rest = input.size() - whole * 64;
        std::memset(tail, 0, sizeof tail);
        if (rest > 0)
            std::memcpy(tail, bytes + whole * 64, rest);
        tail[rest] = 0x80;
        const std::uint64_t bits = std::uint64_t(input.size()) * 8;
        std::memcpy(tail + (blocks - whole) * 64 - 8, &bits, 8); // little-endian
    }

    const unsigned char* block(std::size_t index) const
    {
        return index < whole ? bytes + index * 64 : tail + (index - whole) * 64;
    }
};

// The digests of up to four inputs.
void md5FourLanes(const std::string_view* inputs, std::size_t count, Md5HexText* out)
{
    static const unsigned char kZeros[64] = {};
    std::array<Md5Lane, 4> lanes;
    std::size_t blocks = 0;
    for (std::size_t lane = 0; lane < count; ++lane) {
        lanes[lane].start(inputs[lane]);
        blocks = std::max(blocks, lanes[lane].blocks);
    }
    __m128i state[4] = {_mm_set1_epi32(0x67452301), _mm_set1_epi32(int(0xefcdab89)),
                        _mm_set1_epi32(int(0x98badcfe)), _mm_set1_epi32(0x10325476)};
    for (std::size_t index = 0; index < blocks; ++index) {
        const unsigned char* block[4];
        alignas(16) std::uint32_t finished[4];
        for (std::size_t lane = 0; lane < 4; ++lane) {
            const bool running = lane < count && index < lanes[lane].blocks;
            block[lane] = running ? lanes[lane].block(index) : kZeros;
            finished[lane] = running ? 0 : ~std::uint32_t(0);
        }
        // Word w of every lane in one register: four 4x4 transposes of the lanes' rows.
        __m128i words[16];
        for (int quarter = 0; quarter < 4; ++quarter) {
            const auto row = [&](int lane) {
                return _mm_loadu_si128(reinterpret_cast<const __m128i*>(block[lane]) + quarter);
            };
            const __m128i r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3);
            const __m128i t0 = _mm_unpacklo_epi32(r0, r1); // words 0, 1 of lanes 0, 1
            const __m128i t1 = _mm_unpacklo_epi32(r2, r3); // words 0, 1 of lanes 2, 3
            const __m128i t2 = _mm_unpackhi_epi32(r0, r1); // words 2, 3 of lanes 0, 1
            const __m128i t3 = _mm_unpackhi_epi32(r2, r3);
            words[4 * quarter + 0] = _mm_unpacklo_epi64(t0, t1);
            words[4 * quarter + 1] = _mm_unpackhi_epi64(t0, t1);
            words[4 * quarter + 2] = _mm_unpacklo_epi64(t2, t3);
            words[4 * quarter + 3] = _mm_unpackhi_epi64(t2, t3);
        }
        __m128i next[4] = {state[0], state[1], state[2], state[3]};
        md5Block(next, words, std::make_integer_sequence<int, 64>());
        // A lane past its last block keeps its digest.
        const __m128i keep = _mm_load_si128(reinterpret_cast<const __m128i*>(finished));
        for (int i = 0; i < 4; ++i)
            state[i] = _mm_or_si128(_mm_and_si128(keep, state[i]), _mm_andnot_si128(keep, next[i]));
    }
    alignas(16) std::uint32_t words[4][4];
    for (int i = 0; i < 4; ++i)
        _mm_store_si128(reinterpret_cast<__m128i*>(words[i]), state[i]);
    for (std::size_t lane = 0; lane < count; ++lane) {
        unsigned char digest[16];
        for (int i = 0; i < 4; ++i)
            std::memcpy(digest + 4 * i, &words[i][lane], 4); // little-endian
        hex16(digest, out[lane].resize(32));
    }
}

#ifdef INFLIGHT_MD5_AVX2

// The same over eight lanes of AVX2 registers, where the CPU has them (a receive of ten: eight
// and two, in two passes instead of three). Every function here is compiled for AVX2 and called
// only once the CPU said it has it.
template <int Step>
INFLIGHT_AVX2 inline void md5Step8(__m256i& a, __m256i b, __m256i c, __m256i d,
                                   const __m256i* words)
{
    __m256i f;
    if constexpr (Step < 16)
        f = _mm256_or_si256(_mm256_and_si256(b, c), _mm256_andnot_si256(b, d));
    else if constexpr (Step < 32)
        f = _mm256_or_si256(_mm256_and_si256(d, b), _mm256_andnot_si256(d, c));
    else if constexpr (Step < 48)
        f = _mm256_xor_si256(_mm256_xor_si256(b, c), d);
    else
        f = _mm256_xor_si256(c, _mm256_or_si256(b, _mm256_xor_si256(d, _mm256_set1_epi32(-1))));
    __m256i sum = _mm256_add_epi32(
        _mm256_add_epi32(a, f),
        _mm256_add_epi32(_mm256_set1_epi32(int(kMd5Sine[Step])), words[md5WordOf(Step)]));
    sum = _mm256_or_si256(_mm256_slli_epi32(sum, kMd5Shift[Step]),
                          _mm256_srli_epi32(sum, 32 - kMd5Shift[Step]));
    a = _mm256_add_epi32(b, sum);
}

template <int S>
INFLIGHT_AVX2 inline void md5Turn8(__m256i& a, __m256i& b, __m256i& c, __m256i& d,
                                   const __m256i* words)
{
    if constexpr (S % 4 == 0)
        md5Step8<S>(a, b, c, d, words);
    else if constexpr (S % 4 == 1)
        md5Step8<S>(d, a, b, c, words);
    else if constexpr (S % 4 == 2)
        md5Step8<S>(c, d, a, b, words);
    else
        md5Step8<S>(b, c, d, a, words);
}

template <int... Steps>
INFLIGHT_AVX2 inline void md5Block8(__m256i state[4], const __m256i* words,
                                    std::integer_sequence<int, Steps...>)
{
    __m256i a = state[0], b = state[1], c = state[2], d = state[3];
    (md5Turn8<Steps>(a, b, c, d, words), ...);
    state[0] = _mm256_add_epi32(state[0], a);
    state[1] = _mm256_add_epi32(state[1], b);
    state[2] = _mm256_add_epi32(state[2], c);
    state[3] = _mm256_add_epi32(state[3], d);
}

// Words 4q … 4q + 3 of four lanes' blocks, each word of the four in one register.
INFLIGHT_AVX2 inline void transposeQuarter(const unsigned char* const* block, int quarter,
                                           __m128i out[4])
{
    const __m128i r0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block[0]) + quarter);
    const __m128i r1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block[1]) + quarter);
    const __m128i r2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block[2]) + quarter);
    const __m128i r3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block[3]) + quarter);
    const __m128i t0 = _mm_unpacklo_epi32(r0, r1);
    const __m128i t1 = _mm_unpacklo_epi32(r2, r3);
    const __m128i t2 = _mm_unpackhi_epi32(r0, r1);
    const __m128i t3 = _mm_unpackhi_epi32(r2, r3);
    out[0] = _mm_unpacklo_epi64(t0, t1);
    out[1] = _mm_unpackhi_epi64(t0, t1);
    out[2] = _mm_unpacklo_epi64(t2, t3);
    out[3] = _mm_unpackhi_epi64(t2, t3);
}

// The digests of up to eight inputs.
INFLIGHT_AVX2 void md5EightLanes(const std::string_view* inputs, std::size_t count, Md5HexText* out)
{
    static const unsigned char kZeros[64] = {};
    std::array<Md5Lane, 8> lanes;
    std::size_t blocks = 0;
    for (std::size_t lane = 0; lane < count; ++lane) {
        lanes[lane].start(inputs[lane]);
        blocks = std::max(blocks, lanes[lane].blocks);
    }
    __m256i state[4] = {_mm256_set1_epi32(0x67452301), _mm256_set1_epi32(int(0xefcdab89)),
                        _mm256_set1_epi32(int(0x98badcfe)), _mm256_set1_epi32(0x10325476)};
    for (std::size_t index = 0; index < blocks; ++index) {
        const unsigned char* block[8];
        alignas(32) std::uint32_t finished[8];
        for (std::size_t lane = 0; lane < 8; ++lane) {
            const bool running = lane < count && index < lanes[lane].blocks;
            block[lane] = running ? lanes[lane].block(index) : kZeros;
            finished[lane] = running ? 0 : ~std::uint32_t(0);
        }
        __m256i words[16];
        for (int quarter = 0; quarter < 4; ++quarter) {
            __m128i low[4], high[4];
            transposeQuarter(block, quarter, low);
            transposeQuarter(block + 4, quarter, high);
            for (int k = 0; k < 4; ++k)
                words[4 * quarter + k] = _mm256_set_m128i(high[k], low[k]);
        }
        __m256i next[4] = {state[0], state[1], state[2], state[3]};
        md5Block8(next, words, std::make_integer_sequence<int, 64>());
        // A lane past its last block keeps its digest.
        const __m256i keep = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(finished));
        for (int i = 0; i < 4; ++i)
            state[i] = _mm256_blendv_epi8(next[i], state[i], keep);
    }
    alignas(32) std::uint32_t words[4][8];
    for (int i = 0; i < 4; ++i)
        _mm256_store_si256(reinterpret_cast<__m256i*>(words[i]), state[i]);
    for (std::size_t lane = 0; lane < count; ++lane) {
        unsigned char digest[16];
        for (int i = 0; i < 4; ++i)
            std::memcpy(digest + 4 * i, &words[i][lane], 4); // little-endian
        hex16(digest, out[lane].resize(32));
    }
}

bool haveAvx2()
{
    static const bool have = __builtin_cpu_supports("avx2");
    return have;
}

#endif

#endif

} // namespace

void md5HexTexts(std::span<const std::string_view> inputs, std::span<Md5HexText> out,
                 Md5Lanes lanes)
{
    const std::size_t count = std::min(inputs.size(), out.size());
    std::size_t at = 0;
#ifdef INFLIGHT_MD5_AVX2
    if (lanes == Md5Lanes::Widest && haveAvx2())
        for (; at + 4 < count; at += 8) // five or more left: eight lanes
            md5EightLanes(inputs.data() + at, std::min<std::size_t>(8, count - at),
                          out.data() + at);
#endif
#ifdef INFLIGHT_MD5_LANES
    if (lanes != Md5Lanes::One)
        for (; at + 1 < count; at += 4) // one left alone is quicker by OpenSSL
            md5FourLanes(inputs.data() + at, std::min<std::size_t>(4, count - at), out.data() + at);
#endif
    for (; at < count; ++at)
        out[at] = md5HexText(inputs[at]);
}

} // namespace inflight::engine
