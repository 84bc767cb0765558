#include "text/percent.h"

#include "text/hex.h"

namespace inflight::text {

void appendPercentEncoded(std::string& out, std::string_view bytes, bool keepSlash)
{
    static constexpr char kDigits[] = "0123456789ABCDEF";
    for (const char c : bytes) {
        if (isUnreserved(c) || (keepSlash && c == '/')) {
            out += c;
        } else {
            const auto byte = static_cast<unsigned char>(c);
            out += '%';
            out += kDigits[byte >> 4];
            out += kDigits[byte & 0x0f];
        }
    }
}

std::string percentEncoded(std::string_view bytes, bool keepSlash)
{
    std::string out;
    out.reserve(bytes.size());
    appendPercentEncoded(out, bytes, keepSlash);
    return out;
}

std::string percentDecoded(std::string_view text)
{
    std::string decoded;
    decoded.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const int upper = text[i] == '%' && i + 2 < text.size() ? hexDigitValue(text[i + 1]) : -1;
        const int lower = upper >= 0 ? hexDigitValue(text[i + 2]) : -1;
        if (lower >= 0) {
            decoded += static_cast<char>(upper * 16 + lower);
            i += 2;
        } else {
            decoded += text[i];
        }
    }
    return decoded;
}

} // namespace inflight::text
