#pragma once

#include "protocol/sqs_output.h"

#include <QByteArray>

#include <string_view>

namespace inflight::protocol {

// Appends `value` to `out` as compact JSON: the bytes `value.dump(-1, ' ', false,
// error_handler_t::replace)` gives (keys in the object's order, no spaces, `"`, `\` and controls
// escaped as nlohmann-json escapes them, UTF-8 kept as it is, bytes that are not UTF-8 replaced by
// U+FFFD), written straight into the answer's buffer. Strings are copied in runs between the bytes
// that need escaping, and those with bytes past ASCII are checked for UTF-8 with simdjson, instead
// of nlohmann-json's byte-by-byte state machine and its std::string copied into the answer after.
void appendJson(QByteArray& out, const Output& value);

// `text` as appendJson prints a string (quoted, escaped, U+FFFD for bytes that are not UTF-8), for
// answers written without an Output tree (receive_answer.h).
void appendJsonString(QByteArray& out, std::string_view text);

} // namespace inflight::protocol
