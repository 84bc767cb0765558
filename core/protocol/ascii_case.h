#pragma once

// Comparisons of HTTP tokens (header names, media types) with ASCII letters in either case
// (RFC 9110 §5.1, §8.3.1). Inline: Qt's case-insensitive compare folds Latin-1 through a table out
// of line, about 30 instructions a byte, and every request's headers are compared several times.
// Bytes of 0x80 or more are compared as they are: no token holds one.

#include <QByteArrayView>

namespace inflight::protocol {

constexpr unsigned char asciiLower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<unsigned char>(c | 0x20) : c;
}

inline bool equalsIgnoringAsciiCase(QByteArrayView a, QByteArrayView b)
{
    if (a.size() != b.size())
        return false;
    const auto* x = reinterpret_cast<const unsigned char*>(a.data());
    const auto* y = reinterpret_cast<const unsigned char*>(b.data());
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (x[i] != y[i] && asciiLower(x[i]) != asciiLower(y[i]))
            return false;
    }
    return true;
}

inline bool startsWithIgnoringAsciiCase(QByteArrayView text, QByteArrayView prefix)
{
    return text.size() >= prefix.size()
        && equalsIgnoringAsciiCase(text.first(prefix.size()), prefix);
}

} // namespace inflight::protocol
