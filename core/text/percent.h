#pragma once

// Percent-coding of URIs (RFC 3986 §2.1, §2.3), as SigV4's canonical requests and copied commands
// need it.

#include <string>
#include <string_view>

namespace inflight::text {

// RFC 3986's unreserved characters: A-Z a-z 0-9 - . _ ~
constexpr bool isUnreserved(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
        || c == '.' || c == '_' || c == '~';
}

// Appends `bytes` with every byte but the unreserved ones (and '/' when `keepSlash`) as %XX in
// upper-case hex.
void appendPercentEncoded(std::string& out, std::string_view bytes, bool keepSlash = false);
std::string percentEncoded(std::string_view bytes, bool keepSlash = false);

// %XX as the byte XX; a '%' without two hex digits after it stays as it is; '+' stays '+' (it is a
// space only in forms, which protocol/form.h decodes).
std::string percentDecoded(std::string_view text);

} // namespace inflight::text
