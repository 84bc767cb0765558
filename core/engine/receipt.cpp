#include "receipt.h"

#include "hex16.h"

#include <array>
#include <bit>
#include <cstddef>
#include <cstring>

namespace inflight::engine {

namespace {

// ---- base64 ------------------------------------------------------------------------------------

constexpr char kStandardAlphabet[]
    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kUrlAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// Both directions work on whole base64 groups (3 bytes, 4 characters) through tables, since a
// receive encodes and a delete decodes a handle of twelve groups per message: encoding looks up
// two characters per 12 bits (a table of 4,096 pairs), decoding four values already shifted into
// their place in the group, a character outside the alphabet carrying a flag bit that no valid
// group has.
using PairTable = std::array<std::array<char, 2>, 4096>;

constexpr PairTable makePairTable(const char* alphabet)
{
    PairTable pairs{};
    for (std::size_t i = 0; i < pairs.size(); ++i)
        pairs[i] = {alphabet[i >> 6], alphabet[i & 0x3f]};
    return pairs;
}

constexpr PairTable kStandardPairs = makePairTable(kStandardAlphabet);
constexpr PairTable kUrlPairs = makePairTable(kUrlAlphabet);

constexpr std::uint32_t kInvalid = 0x80000000;

// places[k][c]: the value of character c shifted to the k-th place of a group (18, 12, 6, 0
// bits), or kInvalid.
struct DecodeTable {
    std::array<std::array<std::uint32_t, 256>, 4> places;
};

constexpr DecodeTable makeDecodeTable(const char* alphabet)
{
    DecodeTable table{};
    for (auto& place : table.places)
        for (auto& entry : place)
            entry = kInvalid;
    for (std::uint32_t i = 0; i < 64; ++i)
        for (int k = 0; k < 4; ++k)
            table.places[k][static_cast<unsigned char>(alphabet[i])] = i << (18 - 6 * k);
    return table;
}

constexpr DecodeTable kStandardTable = makeDecodeTable(kStandardAlphabet);
constexpr DecodeTable kUrlTable = makeDecodeTable(kUrlAlphabet);

std::size_t encodedLength(std::size_t bytes, bool pad)
{
    return pad ? (bytes + 2) / 3 * 4 : (bytes * 4 + 2) / 3;
}

// Writes exactly encodedLength(size, pad) characters to `out`.
void encodeInto(const unsigned char* in, std::size_t size, const PairTable& pairs, bool pad,
                char* out)
{
    std::size_t i = 0;
    for (; i + 3 <= size; i += 3) {
        const std::uint32_t group
            = (std::uint32_t{in[i]} << 16) | (std::uint32_t{in[i + 1]} << 8) | in[i + 2];
        std::memcpy(out, pairs[group >> 12].data(), 2);
        std::memcpy(out + 2, pairs[group & 0xfff].data(), 2);
        out += 4;
    }
    const std::size_t rest = size - i;
    if (rest == 0)
        return;
    // One or two bytes left: their characters are the second of a pair whose first is 'A'.
    std::uint32_t group = std::uint32_t{in[i]} << 16;
    if (rest == 2)
        group |= std::uint32_t{in[i + 1]} << 8;
    *out++ = pairs[(group >> 18) & 0x3f][1];
    *out++ = pairs[(group >> 12) & 0x3f][1];
    if (rest == 2)
        *out++ = pairs[(group >> 6) & 0x3f][1];
    if (pad) {
        if (rest == 1)
            *out++ = '=';
        *out++ = '=';
    }
}

// Decodes unpadded text of a valid length ((length % 4) != 1) into `out`, which must hold
// length * 3 / 4 bytes. Rejects characters outside the alphabet and non-zero trailing bits, so
// every byte string has exactly one accepted encoding (an edited handle cannot alias a valid one).
bool decodeInto(std::string_view text, const DecodeTable& table, unsigned char* out)
{
    const auto* in = reinterpret_cast<const unsigned char*>(text.data());
    const auto& [p0, p1, p2, p3] = table.places;
    const std::size_t size = text.size();
    std::size_t i = 0;
    for (; i + 4 <= size; i += 4) {
        const std::uint32_t group = p0[in[i]] | p1[in[i + 1]] | p2[in[i + 2]] | p3[in[i + 3]];
        if (group & kInvalid)
            return false;
        *out++ = static_cast<unsigned char>(group >> 16);
        *out++ = static_cast<unsigned char>(group >> 8);
        *out++ = static_cast<unsigned char>(group);
    }
    const std::size_t rest = size - i;
    if (rest == 0)
        return true;
    if (rest == 1)
        return false;
    const std::uint32_t group = p0[in[i]] | p1[in[i + 1]] | (rest == 3 ? p2[in[i + 2]] : 0);
    if (group & kInvalid)
        return false;
    if (rest == 2 && (group & 0xffff) != 0)
        return false;
    if (rest == 3 && (group & 0xff) != 0)
        return false;
    *out++ = static_cast<unsigned char>(group >> 16);
    if (rest == 3)
        *out++ = static_cast<unsigned char>(group >> 8);
    return true;
}

std::optional<std::string> decodeUnpadded(std::string_view text, const DecodeTable& table)
{
    if (text.size() % 4 == 1)
        return std::nullopt;
    std::string bytes(text.size() * 3 / 4, '\0');
    if (!decodeInto(text, table, reinterpret_cast<unsigned char*>(bytes.data())))
        return std::nullopt;
    return bytes;
}

// ---- receipt layout ----------------------------------------------------------------------------

// 0x01 0x01 0x01 encodes as "AQEB", the prefix AWS's own handles carry; the fourth byte versions
// the layout. Then queueId, slot, sequence, receiveCount, nonce (big-endian) and the checksum.
// Layout 1 (until 2026-12) signed with SipHash-2-4; layout 2, made now, with SipHash-1-3. Both
// decode, so handles given out before an upgrade still work on a reopened workspace.
constexpr unsigned char kLayoutSipHash24 = 0x01;
constexpr unsigned char kLayoutSipHash13 = 0x02;
constexpr std::array<unsigned char, 3> kReceiptHeader{0x01, 0x01, 0x01};
constexpr std::size_t kSignedBytes = 4 + 4 + 4 + 8 + 4 + 4;
constexpr std::size_t kReceiptBytes = kSignedBytes + 8;
constexpr std::size_t kReceiptChars = kReceiptBytes / 3 * 4;
static_assert(kReceiptChars == kReceiptLength);
static_assert(kReceiptBytes % 3 == 0, "a whole number of base64 groups: no padding bits to alias");

// Whole-word loads and stores, swapped where the host's order is not the layout's: a byte loop
// here stays a loop of eight loads and shifts at -O2 (GCC 12), and the checksum reads four words
// on every receive and delete.
static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "a mixed-endian host");

std::uint32_t toBig(std::uint32_t v)
{
    return std::endian::native == std::endian::big ? v : __builtin_bswap32(v);
}

std::uint64_t toBig(std::uint64_t v)
{
    return std::endian::native == std::endian::big ? v : __builtin_bswap64(v);
}

void putBig32(unsigned char* out, std::uint32_t v)
{
    v = toBig(v);
    std::memcpy(out, &v, sizeof v);
}

void putBig64(unsigned char* out, std::uint64_t v)
{
    v = toBig(v);
    std::memcpy(out, &v, sizeof v);
}

std::uint32_t getBig32(const unsigned char* in)
{
    std::uint32_t v;
    std::memcpy(&v, in, sizeof v);
    return toBig(v);
}

std::uint64_t getBig64(const unsigned char* in)
{
    std::uint64_t v;
    std::memcpy(&v, in, sizeof v);
    return toBig(v);
}

std::uint64_t getLittle64(const unsigned char* in)
{
    std::uint64_t v;
    std::memcpy(&v, in, sizeof v);
    return std::endian::native == std::endian::little ? v : __builtin_bswap64(v);
}

constexpr std::uint64_t rotl(std::uint64_t v, int bits)
{
    return (v << bits) | (v >> (64 - bits));
}

// splitmix64's finalizer: spreads a 64-bit engine key into an independent second key half.
constexpr std::uint64_t mix64(std::uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// SipHash-c-d (Aumasson & Bernstein): a keyed PRF, so a changed byte anywhere flips the checksum
// with probability 1 - 2^-64 and handles cannot be made without the key. Handles of layout 2 use
// SipHash-1-3 (the variant Rust's and Python's hash tables use against chosen keys: 7 rounds for
// the 28 signed bytes instead of 12, on every receive and delete); layout 1, SipHash-2-4.
template <int CompressionRounds, int FinalRounds>
std::uint64_t sipHash(const unsigned char* in, std::size_t size, std::uint64_t k0, std::uint64_t k1)
{
    std::uint64_t v0 = 0x736f6d6570736575ULL ^ k0;
    std::uint64_t v1 = 0x646f72616e646f6dULL ^ k1;
    std::uint64_t v2 = 0x6c7967656e657261ULL ^ k0;
    std::uint64_t v3 = 0x7465646279746573ULL ^ k1;
    auto round = [&] {
        v0 += v1;
        v1 = rotl(v1, 13);
        v1 ^= v0;
        v0 = rotl(v0, 32);
        v2 += v3;
        v3 = rotl(v3, 16);
        v3 ^= v2;
        v0 += v3;
        v3 = rotl(v3, 21);
        v3 ^= v0;
        v2 += v1;
        v1 = rotl(v1, 17);
        v1 ^= v2;
        v2 = rotl(v2, 32);
    };
    auto absorb = [&](std::uint64_t m) {
        v3 ^= m;
        for (int i = 0; i < CompressionRounds; ++i)
            round();
        v0 ^= m;
    };
    const std::size_t whole = size / 8 * 8;
    for (std::size_t i = 0; i < whole; i += 8)
        absorb(getLittle64(in + i));
    std::uint64_t last = static_cast<std::uint64_t>(size & 0xff) << 56;
    for (std::size_t i = whole; i < size; ++i)
        last |= static_cast<std::uint64_t>(in[i]) << (8 * (i - whole));
    absorb(last);
    v2 ^= 0xff;
    for (int i = 0; i < FinalRounds; ++i)
        round();
    return v0 ^ v1 ^ v2 ^ v3;
}

// The checksum of the signed bytes, by the layout their fourth byte names.
std::uint64_t receiptChecksum(const unsigned char* signedBytes, std::uint64_t key)
{
    if (signedBytes[3] == kLayoutSipHash24)
        return sipHash<2, 4>(signedBytes, kSignedBytes, key, mix64(key));
    return sipHash<1, 3>(signedBytes, kSignedBytes, key, mix64(key));
}

} // namespace

std::string encodeReceipt(const ReceiptToken& token, std::uint64_t key, std::uint32_t nonce)
{
    return encodeReceiptText(token, key, nonce).str();
}

ReceiptText encodeReceiptText(const ReceiptToken& token, std::uint64_t key, std::uint32_t nonce)
{
    std::array<unsigned char, kReceiptBytes> bytes;
    std::memcpy(bytes.data(), kReceiptHeader.data(), kReceiptHeader.size());
    bytes[3] = kLayoutSipHash13;
    putBig32(bytes.data() + 4, token.queueId);
    putBig32(bytes.data() + 8, token.slot);
    putBig64(bytes.data() + 12, token.sequence);
    putBig32(bytes.data() + 20, token.receiveCount);
    putBig32(bytes.data() + 24, nonce);
    putBig64(bytes.data() + kSignedBytes, receiptChecksum(bytes.data(), key));
    ReceiptText handle;
    encodeInto(bytes.data(), bytes.size(), kUrlPairs, false, handle.resize(kReceiptChars));
    return handle;
}

std::optional<ReceiptToken> decodeReceipt(std::string_view handle, std::uint64_t key)
{
    if (handle.size() != kReceiptChars)
        return std::nullopt;
    std::array<unsigned char, kReceiptBytes> bytes;
    if (!decodeInto(handle, kUrlTable, bytes.data()))
        return std::nullopt;
    if (std::memcmp(bytes.data(), kReceiptHeader.data(), kReceiptHeader.size()) != 0
        || (bytes[3] != kLayoutSipHash24 && bytes[3] != kLayoutSipHash13))
        return std::nullopt;
    if (getBig64(bytes.data() + kSignedBytes) != receiptChecksum(bytes.data(), key))
        return std::nullopt;

    ReceiptToken token;
    token.queueId = getBig32(bytes.data() + 4);
    token.slot = getBig32(bytes.data() + 8);
    token.sequence = getBig64(bytes.data() + 12);
    token.receiveCount = getBig32(bytes.data() + 20);
    return token;
}

std::optional<ReceiptToken> ReceiptMemo::decode(std::string_view handle, std::uint64_t key)
{
    if (handle.size() != kReceiptLength)
        return std::nullopt; // decodeReceipt's first check
    // The last eight characters (the checksum's) differ between any two handles but by chance:
    // they choose the entry and sort out a stranger before the whole handle is compared.
    std::uint64_t tail;
    std::memcpy(&tail, handle.data() + kReceiptLength - sizeof tail, sizeof tail);
    Entry& entry = m_entries[(tail * 0x9e3779b97f4a7c15ULL) >> 58];
    static_assert(kEntries == 64, "the shift above picks one of 64 entries");
    if (entry.used && entry.key == key) {
        std::uint64_t entryTail;
        std::memcpy(&entryTail, entry.handle + kReceiptLength - sizeof entryTail, sizeof entryTail);
        if (entryTail == tail && std::memcmp(entry.handle, handle.data(), kReceiptLength) == 0)
            return entry.token;
    }
    const auto token = decodeReceipt(handle, key);
    if (token) {
        entry.key = key;
        entry.token = *token;
        entry.used = true;
        std::memcpy(entry.handle, handle.data(), kReceiptLength);
    }
    return token;
}

std::string formatMessageId(std::uint64_t high, std::uint64_t low)
{
    return formatMessageIdText(high, low).str();
}

MessageIdText formatMessageIdText(std::uint64_t high, std::uint64_t low)
{
    MessageIdText text;
    char* const id = text.resize(kMessageIdLength);
    high = (high & ~std::uint64_t{0xf000}) | 0x4000;                        // version 4
    low = (low & ~(std::uint64_t{0xc} << 60)) | (std::uint64_t{0x8} << 60); // variant 10xx
    // The 32 digits at once (every send and every receive and delete event formats an id).
    unsigned char bytes[16];
    const std::uint64_t bigHigh = toBig(high), bigLow = toBig(low);
    std::memcpy(bytes, &bigHigh, 8);
    std::memcpy(bytes + 8, &bigLow, 8);
    char hex[32];
    hex16(bytes, hex);
    std::memcpy(id, hex, 8);
    id[8] = '-';
    std::memcpy(id + 9, hex + 8, 4);
    id[13] = '-';
    std::memcpy(id + 14, hex + 12, 4);
    id[18] = '-';
    std::memcpy(id + 19, hex + 16, 4);
    id[23] = '-';
    std::memcpy(id + 24, hex + 20, 12);
    return text;
}

std::string base64Encode(std::string_view bytes)
{
    std::string text(encodedLength(bytes.size(), true), '\0');
    encodeInto(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), kStandardPairs,
               true, text.data());
    return text;
}

std::optional<std::string> base64Decode(std::string_view text)
{
    if (text.size() % 4 != 0)
        return std::nullopt;
    // Padding is only legal as the last one or two characters of the final group.
    std::size_t padding = 0;
    if (!text.empty() && text.back() == '=')
        padding = text.size() >= 2 && text[text.size() - 2] == '=' ? 2 : 1;
    // Without the padding, the final group is 2 or 3 characters; decodeUnpadded then rejects any
    // '=' left inside (it is not in the alphabet) and non-zero bits under the padding.
    return decodeUnpadded(text.substr(0, text.size() - padding), kStandardTable);
}

std::string base64UrlEncode(std::string_view bytes)
{
    std::string text(encodedLength(bytes.size(), false), '\0');
    encodeInto(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), kUrlPairs, false,
               text.data());
    return text;
}

std::optional<std::string> base64UrlDecode(std::string_view text)
{
    return decodeUnpadded(text, kUrlTable);
}

} // namespace inflight::engine
