#include "text/hex.h"

namespace inflight::text {

void hexInto(const unsigned char* bytes, std::size_t size, char* out)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    for (std::size_t i = 0; i < size; ++i) {
        out[2 * i] = kDigits[bytes[i] >> 4];
        out[2 * i + 1] = kDigits[bytes[i] & 0x0f];
    }
}

std::string hexOf(const unsigned char* bytes, std::size_t size)
{
    std::string hex(2 * size, '\0');
    hexInto(bytes, size, hex.data());
    return hex;
}

} // namespace inflight::text
