#include "text/hex.h"

#include <array>
#include <cstring>

namespace inflight::text {

namespace {

// The two digits of every byte, looked up whole: digests and message ids are turned into hex on
// every send and every received message.
constexpr std::array<std::array<char, 2>, 256> kDigitPairs = [] {
    constexpr char kDigits[] = "0123456789abcdef";
    std::array<std::array<char, 2>, 256> pairs{};
    for (std::size_t byte = 0; byte < 256; ++byte)
        pairs[byte] = {kDigits[byte >> 4], kDigits[byte & 0x0f]};
    return pairs;
}();

} // namespace

void hexInto(const unsigned char* bytes, std::size_t size, char* out)
{
    for (std::size_t i = 0; i < size; ++i)
        std::memcpy(out + 2 * i, kDigitPairs[bytes[i]].data(), 2);
}

std::string hexOf(const unsigned char* bytes, std::size_t size)
{
    std::string hex(2 * size, '\0');
    hexInto(bytes, size, hex.data());
    return hex;
}

} // namespace inflight::text
