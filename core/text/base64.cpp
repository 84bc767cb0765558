#include "text/base64.h"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace inflight::text {

namespace {

constexpr std::size_t paddedLength(std::size_t bytes)
{
    return (bytes + 2) / 3 * 4;
}

bool isStandardDigit(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+'
        || c == '/';
}

inline bool isUrlDigit(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
        || c == '_';
}

// Room for the text OpenSSL works on: on the stack for short texts (a receipt handle is decoded
// on every delete), else on the heap.
class Scratch {
public:
    explicit Scratch(std::size_t size)
    {
        if (size > m_small.size()) {
            m_big.resize(size);
            m_data = m_big.data();
        }
    }
    char* data() { return m_data; }
    unsigned char* bytes() { return reinterpret_cast<unsigned char*>(m_data); }

private:
    std::array<char, 256> m_small; // left unset: only what is written is read
    std::vector<char> m_big;
    char* m_data = m_small.data();
};

// Padded standard base64 of `size` bytes into `out`, which holds paddedLength(size) + 1 characters
// (OpenSSL ends the text with a NUL).
void encodePadded(const unsigned char* bytes, std::size_t size, char* out)
{
    EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out), bytes, static_cast<int>(size));
}

// Decodes a padded standard base64 text of `size` bytes whose characters are all digits but for
// one or two final '=' into `out`. OpenSSL decodes it (its decoder is lenient: it takes whitespace
// at either end and '=' anywhere in the last group, which the callers have refused already). A
// text with padding must also be the one encoding of its bytes: its last group, encoded again,
// must be the same (non-zero bits under the padding are refused); without padding every text of
// whole groups is.
bool decodePadded(std::string_view padded, unsigned char* out, std::size_t size)
{
    if (padded.empty())
        return size == 0;
    if (paddedLength(size) != padded.size())
        return false;
    Scratch decoded(padded.size() / 4 * 3);
    const int count
        = EVP_DecodeBlock(decoded.bytes(), reinterpret_cast<const unsigned char*>(padded.data()),
                          static_cast<int>(padded.size()));
    if (count < 0 || static_cast<std::size_t>(count) < size)
        return false;
    if (size % 3 != 0) {
        const std::size_t lastGroup = size / 3 * 3;
        char again[5];
        encodePadded(decoded.bytes() + lastGroup, size - lastGroup, again);
        if (std::string_view(again, 4) != padded.substr(padded.size() - 4))
            return false;
    }
    std::memcpy(out, decoded.data(), size);
    return true;
}

// How many bytes a padded text of valid shape holds.
std::size_t paddedBytes(std::string_view padded)
{
    const std::size_t padding = padded.ends_with("==") ? 2 : padded.ends_with('=') ? 1 : 0;
    return padded.size() / 4 * 3 - padding;
}

// Decodes unpadded base64url `text` into exactly `size` bytes at `out`: false when it holds a
// character outside the base64url alphabet or is not the text of that many bytes.
bool decodeUrl(std::string_view text, unsigned char* out, std::size_t size)
{
    if (text.size() != base64UrlLength(size))
        return false;
    // As standard base64 with its padding, for OpenSSL, each character checked on the way.
    Scratch padded(paddedLength(size));
    char* to = padded.data();
    for (const char c : text) {
        if (!isUrlDigit(c))
            return false;
        *to++ = c == '-' ? '+' : c == '_' ? '/' : c;
    }
    while (std::size_t(to - padded.data()) % 4 != 0)
        *to++ = '=';
    return decodePadded({padded.data(), std::size_t(to - padded.data())}, out, size);
}

// How many bytes an unpadded text of `length` characters holds (nullopt: no byte string has that
// length of text).
std::optional<std::size_t> urlBytes(std::size_t length)
{
    if (length % 4 == 1)
        return std::nullopt;
    return length / 4 * 3 + (length % 4 == 0 ? 0 : length % 4 - 1);
}

} // namespace

std::string base64Encode(std::string_view bytes)
{
    std::string text(paddedLength(bytes.size()) + 1, '\0');
    encodePadded(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), text.data());
    text.pop_back();
    return text;
}

std::optional<std::string> base64Decode(std::string_view text)
{
    if (text.size() % 4 != 0)
        return std::nullopt;
    // Padding only as the last one or two characters; every other character a digit.
    const std::size_t padding = text.ends_with("==") ? 2 : text.ends_with('=') ? 1 : 0;
    if (!std::all_of(text.begin(), text.end() - std::ptrdiff_t(padding), isStandardDigit))
        return std::nullopt;
    std::string bytes(paddedBytes(text), '\0');
    if (!decodePadded(text, reinterpret_cast<unsigned char*>(bytes.data()), bytes.size()))
        return std::nullopt;
    return bytes;
}

std::string base64UrlEncode(std::string_view bytes)
{
    std::string text(base64UrlLength(bytes.size()), '\0');
    base64UrlEncodeTo({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()},
                      text.data());
    return text;
}

std::optional<std::string> base64UrlDecode(std::string_view text)
{
    const std::optional<std::size_t> size = urlBytes(text.size());
    if (!size)
        return std::nullopt;
    std::string bytes(*size, '\0');
    if (!decodeUrl(text, reinterpret_cast<unsigned char*>(bytes.data()), bytes.size()))
        return std::nullopt;
    return bytes;
}

void base64UrlEncodeTo(std::span<const unsigned char> bytes, char* out)
{
    Scratch padded(paddedLength(bytes.size()) + 1);
    encodePadded(bytes.data(), bytes.size(), padded.data());
    const std::size_t length = base64UrlLength(bytes.size());
    for (std::size_t i = 0; i < length; ++i) {
        const char c = padded.data()[i];
        out[i] = c == '+' ? '-' : c == '/' ? '_' : c;
    }
}

bool base64UrlDecodeTo(std::string_view text, std::span<unsigned char> out)
{
    return decodeUrl(text, out.data(), out.size());
}

} // namespace inflight::text
