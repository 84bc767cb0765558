#pragma once

// Bytes as hex digits and back: digests (MD5OfBody, SHA-256 in SigV4), message ids.

#include <cstddef>
#include <string>
#include <string_view>

namespace inflight::text {

// Writes 2 * size lower-case hex digits to `out`, two per byte in order.
void hexInto(const unsigned char* bytes, std::size_t size, char* out);
std::string hexOf(const unsigned char* bytes, std::size_t size);
inline std::string hexOf(std::string_view bytes)
{
    return hexOf(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

// The value of one hex digit (either case), or -1.
constexpr int hexDigitValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

} // namespace inflight::text
