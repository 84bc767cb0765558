#pragma once

// RFC 4648 base64 (with padding) and base64url (no padding), encoded by OpenSSL. Decoding is
// strict: nullopt (false) for a character outside the alphabet (whitespace included), missing or
// misplaced padding (any padding at all for base64url) and non-zero bits under the padding, so
// that each byte string has exactly one accepted text (an edited receipt handle cannot alias a
// valid one).

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace inflight::text {

std::string base64Encode(std::string_view bytes);
std::optional<std::string> base64Decode(std::string_view text);

std::string base64UrlEncode(std::string_view bytes);
std::optional<std::string> base64UrlDecode(std::string_view text);

// base64url without a string of its own, for texts held in place (receipt handles): `out` gets
// exactly base64UrlLength(bytes.size()) characters.
constexpr std::size_t base64UrlLength(std::size_t bytes)
{
    return (bytes * 4 + 2) / 3;
}
void base64UrlEncodeTo(std::span<const unsigned char> bytes, char* out);
// Decodes `text` into exactly `out.size()` bytes; false when `text` is not the base64url text of
// that many bytes.
bool base64UrlDecodeTo(std::string_view text, std::span<unsigned char> out);

} // namespace inflight::text
