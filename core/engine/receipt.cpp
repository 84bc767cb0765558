#include "engine/receipt.h"

#include "text/base64.h"
#include "text/hex.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <array>
#include <cstddef>
#include <cstring>
#include <stdexcept>

namespace inflight::engine {

namespace {

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

// The layout's numbers are big-endian.
void putBig(unsigned char* out, std::uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; --i, v >>= 8)
        out[i] = static_cast<unsigned char>(v);
}

std::uint64_t getBig(const unsigned char* in, int bytes)
{
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = (v << 8) | in[i];
    return v;
}

// splitmix64's finalizer: spreads a 64-bit engine key into an independent second key half.
constexpr std::uint64_t mix64(std::uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// SipHash (Aumasson & Bernstein), OpenSSL's: a keyed PRF, so a changed byte anywhere flips the
// checksum with probability 1 - 2^-64 and handles cannot be made without the key. A context per
// thread, keyed once for the engine key and layout it last served; a checksum under the same key
// only restarts it (EVP_MAC_init without a key keeps the key).
class SipHasher {
public:
    SipHasher() : m_mac(EVP_MAC_fetch(nullptr, OSSL_MAC_NAME_SIPHASH, nullptr))
    {
        if (m_mac)
            m_context = EVP_MAC_CTX_new(m_mac);
    }
    ~SipHasher()
    {
        EVP_MAC_CTX_free(m_context);
        EVP_MAC_free(m_mac);
    }
    SipHasher(const SipHasher&) = delete;
    SipHasher& operator=(const SipHasher&) = delete;

    // SipHash-c-d of `size` bytes under the 128-bit key (k0, k1), as the reference's 64-bit value.
    std::uint64_t hash(const unsigned char* in, std::size_t size, std::uint64_t k0,
                       std::uint64_t k1, unsigned compressionRounds, unsigned finalRounds)
    {
        const bool rekey = !m_keyed || k0 != m_k0 || k1 != m_k1
            || compressionRounds != m_compressionRounds || finalRounds != m_finalRounds;
        bool ready = false;
        if (rekey) {
            unsigned char key[16];
            putLittle64(key, k0);
            putLittle64(key + 8, k1);
            std::size_t outputSize = 8;
            const OSSL_PARAM params[]
                = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &outputSize),
                   OSSL_PARAM_construct_uint(OSSL_MAC_PARAM_C_ROUNDS, &compressionRounds),
                   OSSL_PARAM_construct_uint(OSSL_MAC_PARAM_D_ROUNDS, &finalRounds),
                   OSSL_PARAM_construct_end()};
            ready = m_context && EVP_MAC_init(m_context, key, sizeof key, params) == 1;
            m_keyed = ready;
            m_k0 = k0;
            m_k1 = k1;
            m_compressionRounds = compressionRounds;
            m_finalRounds = finalRounds;
        } else {
            ready = EVP_MAC_init(m_context, nullptr, 0, nullptr) == 1;
        }
        unsigned char out[8]{};
        std::size_t written = 0;
        if (!ready || EVP_MAC_update(m_context, in, size) != 1
            || EVP_MAC_final(m_context, out, &written, sizeof out) != 1 || written != sizeof out) {
            // OpenSSL without SipHash (a FIPS-only configuration): no handle can be checked.
            m_keyed = false;
            throw std::runtime_error(
                "OpenSSL's SipHash is not available: receipt handles cannot be made");
        }
        return getLittle64(out);
    }

private:
    static void putLittle64(unsigned char* out, std::uint64_t v)
    {
        for (int i = 0; i < 8; ++i)
            out[i] = static_cast<unsigned char>(v >> (8 * i));
    }
    static std::uint64_t getLittle64(const unsigned char* in)
    {
        std::uint64_t v = 0;
        for (int i = 7; i >= 0; --i)
            v = (v << 8) | in[i];
        return v;
    }

    EVP_MAC* m_mac = nullptr;
    EVP_MAC_CTX* m_context = nullptr;
    bool m_keyed = false;
    std::uint64_t m_k0 = 0;
    std::uint64_t m_k1 = 0;
    unsigned m_compressionRounds = 0;
    unsigned m_finalRounds = 0;
};

// The checksum of the signed bytes, by the layout their fourth byte names.
std::uint64_t receiptChecksum(const unsigned char* signedBytes, std::uint64_t key)
{
    thread_local SipHasher hasher;
    if (signedBytes[3] == kLayoutSipHash24)
        return hasher.hash(signedBytes, kSignedBytes, key, mix64(key), 2, 4);
    return hasher.hash(signedBytes, kSignedBytes, key, mix64(key), 1, 3);
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
    putBig(bytes.data() + 4, token.queueId, 4);
    putBig(bytes.data() + 8, token.slot, 4);
    putBig(bytes.data() + 12, token.sequence, 8);
    putBig(bytes.data() + 20, token.receiveCount, 4);
    putBig(bytes.data() + 24, nonce, 4);
    putBig(bytes.data() + kSignedBytes, receiptChecksum(bytes.data(), key), 8);
    ReceiptText handle;
    text::base64UrlEncodeTo(bytes, handle.resize(kReceiptChars));
    return handle;
}

std::optional<ReceiptToken> decodeReceipt(std::string_view handle, std::uint64_t key)
{
    if (handle.size() != kReceiptChars)
        return std::nullopt;
    std::array<unsigned char, kReceiptBytes> bytes;
    if (!text::base64UrlDecodeTo(handle, bytes))
        return std::nullopt;
    if (std::memcmp(bytes.data(), kReceiptHeader.data(), kReceiptHeader.size()) != 0
        || (bytes[3] != kLayoutSipHash24 && bytes[3] != kLayoutSipHash13))
        return std::nullopt;
    if (getBig(bytes.data() + kSignedBytes, 8) != receiptChecksum(bytes.data(), key))
        return std::nullopt;

    ReceiptToken token;
    token.queueId = std::uint32_t(getBig(bytes.data() + 4, 4));
    token.slot = std::uint32_t(getBig(bytes.data() + 8, 4));
    token.sequence = getBig(bytes.data() + 12, 8);
    token.receiveCount = std::uint32_t(getBig(bytes.data() + 20, 4));
    return token;
}

ReceiptMemo::Entry& ReceiptMemo::entryFor(std::string_view handle)
{
    // The last eight characters (the checksum's) differ between any two handles but by chance:
    // they choose the entry and sort out a stranger before the whole handle is compared.
    std::uint64_t tail;
    std::memcpy(&tail, handle.data() + kReceiptLength - sizeof tail, sizeof tail);
    return m_entries[(tail * 0x9e3779b97f4a7c15ULL) >> (64 - kEntryBits)];
}

std::optional<ReceiptToken> ReceiptMemo::decode(std::string_view handle, std::uint64_t key)
{
    if (handle.size() != kReceiptLength)
        return std::nullopt; // decodeReceipt's first check
    Entry& entry = entryFor(handle);
    if (entry.used && entry.key == key
        && std::memcmp(entry.handle, handle.data(), kReceiptLength) == 0)
        return entry.token;
    const auto token = decodeReceipt(handle, key);
    if (token)
        remember(handle, *token, key);
    return token;
}

void ReceiptMemo::remember(std::string_view handle, const ReceiptToken& token, std::uint64_t key)
{
    if (handle.size() != kReceiptLength)
        return;
    Entry& entry = entryFor(handle);
    entry.key = key;
    entry.token = token;
    entry.used = true;
    std::memcpy(entry.handle, handle.data(), kReceiptLength);
}

std::string formatMessageId(std::uint64_t high, std::uint64_t low)
{
    return formatMessageIdText(high, low).str();
}

MessageIdText formatMessageIdText(std::uint64_t high, std::uint64_t low)
{
    MessageIdText formatted;
    char* const id = formatted.resize(kMessageIdLength);
    high = (high & ~std::uint64_t{0xf000}) | 0x4000;                        // version 4
    low = (low & ~(std::uint64_t{0xc} << 60)) | (std::uint64_t{0x8} << 60); // variant 10xx
    unsigned char bytes[16];
    putBig(bytes, high, 8);
    putBig(bytes + 8, low, 8);
    char hex[32];
    text::hexInto(bytes, sizeof bytes, hex);
    std::memcpy(id, hex, 8);
    id[8] = '-';
    std::memcpy(id + 9, hex + 8, 4);
    id[13] = '-';
    std::memcpy(id + 14, hex + 12, 4);
    id[18] = '-';
    std::memcpy(id + 19, hex + 16, 4);
    id[23] = '-';
    std::memcpy(id + 24, hex + 20, 12);
    return formatted;
}

} // namespace inflight::engine
