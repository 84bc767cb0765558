#pragma once

// ASCII letters in either case, for protocol tokens (HTTP header names and media types, RFC 9110
// §5.1, §8.3.1; SigV4's lower-cased header names). Bytes of 0x80 or more are left as they are: no
// token holds one, and text past ASCII is never folded by these.

#include <cstddef>
#include <string>
#include <string_view>

namespace inflight::text {

constexpr char asciiLower(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c | 0x20) : c;
}

constexpr bool equalsIgnoringAsciiCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] != b[i] && asciiLower(a[i]) != asciiLower(b[i]))
            return false;
    }
    return true;
}

constexpr bool startsWithIgnoringAsciiCase(std::string_view text, std::string_view prefix)
{
    return text.size() >= prefix.size()
        && equalsIgnoringAsciiCase(text.substr(0, prefix.size()), prefix);
}

// `text` with its ASCII capitals made small.
inline std::string asciiLowercased(std::string_view text)
{
    std::string lowered(text);
    for (char& c : lowered)
        c = asciiLower(c);
    return lowered;
}

} // namespace inflight::text
