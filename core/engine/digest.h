#pragma once

#include "engine/inline_text.h"
#include "engine/types.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace inflight::engine {

// Lower-case hex MD5 of the bytes (MD5OfMessageBody / MD5OfBody).
std::string md5Hex(std::string_view bytes);
// The same, held in the object (no heap): for answers that write it out at once.
using Md5HexText = InlineText<32>;
Md5HexText md5HexText(std::string_view bytes);
// Lower-case hex SHA-256 of the bytes (content-based deduplication id).
std::string sha256Hex(std::string_view bytes);

// MD5OfMessageAttributes (§2.6): attributes sorted by name; each contributes 4-byte big-endian
// length + name, length + DataType, a transport byte (1 String/Number, 2 Binary), length +
// value bytes. Empty string for an empty map. Also used for MD5OfMessageSystemAttributes.
std::string md5OfMessageAttributes(const MessageAttributes& attributes);

} // namespace inflight::engine
