#include "engine/digest.h"

#include "text/hex.h"

#include <openssl/evp.h>
#include <openssl/md5.h>
#include <openssl/sha.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace inflight::engine {

namespace {

// Attribute sets this small are framed on the stack; only unusually large ones pay for a heap
// buffer.
constexpr std::size_t kStackFrameBytes = 2048;

constexpr std::uint8_t kTransportString = 1;
constexpr std::uint8_t kTransportBinary = 2;

// MD5 and SHA-256 come from OpenSSL. SHA-256 (content-based deduplication ids, a FIFO send's
// at most) through EVP, the algorithm fetched once (a fetch by name on every call would look the
// provider up each time).
void digestRaw(const EVP_MD* algorithm, const void* data, std::size_t size, unsigned char* out)
{
    unsigned int length = 0;
    if (algorithm == nullptr || EVP_Digest(data, size, out, &length, algorithm, nullptr) != 1)
        throw std::runtime_error("OpenSSL could not compute a digest");
}

// MD5 is on every send and every received message (MD5OfMessageBody, MD5OfBody): OpenSSL's MD5
// functions, which skip EVP's context allocation and provider dispatch -- 1,480 instructions for a
// 100-byte body against EVP_Digest's 2,590 (the figure: instructions per SendMessage and per
// received message, docs/PERFORMANCE.md). OpenSSL 3 marks them deprecated, not removed; where a
// build of OpenSSL leaves them out, EVP.
void md5Raw(const void* data, std::size_t size, unsigned char out[MD5_DIGEST_LENGTH])
{
#ifndef OPENSSL_NO_DEPRECATED_3_0
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    MD5_CTX context;
    MD5_Init(&context);
    MD5_Update(&context, data, size);
    MD5_Final(out, &context);
#pragma GCC diagnostic pop
#else
    static EVP_MD* const md5 = EVP_MD_fetch(nullptr, "MD5", nullptr);
    digestRaw(md5, data, size, out);
#endif
}

std::string toHex(const unsigned char* bytes, std::size_t size)
{
    return text::hexOf(bytes, size);
}

const std::string& attributeValue(const MessageAttributeValue& value)
{
    return value.isBinary() ? value.binaryValue : value.stringValue;
}

std::size_t framedSize(const MessageAttributes& attributes)
{
    std::size_t total = 0;
    for (const auto& [name, value] : attributes)
        total += 4 + name.size() + 4 + value.dataType.size() + 1 + 4 + attributeValue(value).size();
    return total;
}

unsigned char* putLengthPrefixed(unsigned char* out, const std::string& text)
{
    const auto size = static_cast<std::uint32_t>(text.size());
    out[0] = static_cast<unsigned char>(size >> 24);
    out[1] = static_cast<unsigned char>(size >> 16);
    out[2] = static_cast<unsigned char>(size >> 8);
    out[3] = static_cast<unsigned char>(size);
    if (!text.empty())
        std::memcpy(out + 4, text.data(), text.size());
    return out + 4 + text.size();
}

void frameAttributes(const MessageAttributes& attributes, unsigned char* out)
{
    // std::map iterates in byte order of the names, which is the order §2.6 requires.
    for (const auto& [name, value] : attributes) {
        out = putLengthPrefixed(out, name);
        out = putLengthPrefixed(out, value.dataType);
        *out++ = value.isBinary() ? kTransportBinary : kTransportString;
        out = putLengthPrefixed(out, attributeValue(value));
    }
}

} // namespace

std::string md5Hex(std::string_view bytes)
{
    unsigned char digest[MD5_DIGEST_LENGTH];
    md5Raw(bytes.data(), bytes.size(), digest);
    return toHex(digest, sizeof digest);
}

Md5HexText md5HexText(std::string_view bytes)
{
    unsigned char digest[MD5_DIGEST_LENGTH];
    md5Raw(bytes.data(), bytes.size(), digest);
    Md5HexText hex;
    text::hexInto(digest, sizeof digest, hex.resize(2 * sizeof digest));
    return hex;
}

std::string sha256Hex(std::string_view bytes)
{
    unsigned char digest[SHA256_DIGEST_LENGTH];
    static EVP_MD* const sha256 = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    digestRaw(sha256, bytes.data(), bytes.size(), digest);
    return toHex(digest, sizeof digest);
}

std::string md5OfMessageAttributes(const MessageAttributes& attributes)
{
    if (attributes.empty())
        return {};

    unsigned char digest[MD5_DIGEST_LENGTH];
    const std::size_t size = framedSize(attributes);
    if (size <= kStackFrameBytes) {
        std::array<unsigned char, kStackFrameBytes> frame;
        frameAttributes(attributes, frame.data());
        md5Raw(frame.data(), size, digest);
    } else {
        std::vector<unsigned char> frame(size);
        frameAttributes(attributes, frame.data());
        md5Raw(frame.data(), size, digest);
    }
    return toHex(digest, sizeof digest);
}

} // namespace inflight::engine
