#include "protocol/json_writer.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <string_view>

namespace inflight::protocol {

namespace {

void appendView(QByteArray& out, std::string_view text)
{
    out.append(text.data(), qsizetype(text.size()));
}

// The escape nlohmann-json writes for a byte below 0x20 or `"` or `\`.
void appendEscape(QByteArray& out, unsigned char c)
{
    switch (c) {
    case '"': out += "\\\""; return;
    case '\\': out += "\\\\"; return;
    case '\b': out += "\\b"; return;
    case '\t': out += "\\t"; return;
    case '\n': out += "\\n"; return;
    case '\f': out += "\\f"; return;
    case '\r': out += "\\r"; return;
    default: {
        static constexpr char kHex[] = "0123456789abcdef";
        const char escape[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xf]};
        out.append(escape, 6);
    }
    }
}

// The bytes a JSON string cannot hold as they are (a control, `"`, `\`) or whose text must be
// checked as UTF-8 (0x80 and more).
constexpr std::array<unsigned char, 256> kNeedsLook = [] {
    std::array<unsigned char, 256> needs{};
    for (int c = 0; c < 256; ++c)
        needs[std::size_t(c)] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
    return needs;
}();

// Where `text` may first need a look: its first byte of kNeedsLook; text.size() when there is
// none (the common case: ids, receipts, digests, most bodies, which one pass without a branch per
// byte tells).
std::size_t plainPrefix(std::string_view text)
{
    unsigned char seen = 0;
    for (const char c : text)
        seen |= kNeedsLook[static_cast<unsigned char>(c)];
    if (seen == 0)
        return text.size();
    std::size_t at = 0;
    while (!kNeedsLook[static_cast<unsigned char>(text[at])])
        ++at;
    return at;
}

void appendString(QByteArray& out, std::string_view text)
{
    const qsizetype start = out.size();
    const std::size_t plain = plainPrefix(text);
    if (plain == text.size()) {
        // One write, quotes and all: resize grows the buffer geometrically, as append does.
        out.resize(start + qsizetype(text.size()) + 2);
        char* at = out.data() + start;
        *at++ = '"';
        if (!text.empty()) // an empty view's data may be null, which memcpy may not be given
            std::memcpy(at, text.data(), text.size());
        at[text.size()] = '"';
        return;
    }
    out += '"';
    std::size_t run = 0;
    unsigned char high = 0; // any byte of 0x80 or more: the text's UTF-8 is checked at the end
    // The plain prefix is not looked at again: nothing in it is escaped or past ASCII.
    for (std::size_t at = plain; at < text.size(); ++at) {
        const auto c = static_cast<unsigned char>(text[at]);
        high |= c & 0x80;
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        appendView(out, text.substr(run, at - run));
        appendEscape(out, c);
        run = at + 1;
    }
    appendView(out, text.substr(run));
    out += '"';
    if (high && !simdjson::validate_utf8(text.data(), text.size())) {
        // Not UTF-8 (the engine holds only UTF-8; echoed input could be): nlohmann-json's own
        // replacement, for the same bytes.
        out.truncate(start);
        const Output replaced = std::string(text);
        appendView(out, replaced.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
}

template <class Integer>
void appendInteger(QByteArray& out, Integer value)
{
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    out.append(digits, end - digits);
}

// About as many bytes as `value` prints to (strings and keys as they are, a few bytes for each
// value's punctuation), so that an answer's buffer is allocated once.
std::size_t estimatedSize(const Output& value)
{
    switch (value.type()) {
    case nlohmann::json::value_t::object: {
        std::size_t size = 2;
        for (auto it = value.begin(); it != value.end(); ++it)
            size += it.key().size() + 4 + estimatedSize(it.value());
        return size;
    }
    case nlohmann::json::value_t::array: {
        std::size_t size = 2;
        for (const Output& item : value)
            size += 1 + estimatedSize(item);
        return size;
    }
    case nlohmann::json::value_t::string: return value.get_ref<const std::string&>().size() + 8;
    default: return 24;
    }
}

void appendValue(QByteArray& out, const Output& value);

} // namespace

void appendJsonString(QByteArray& out, std::string_view text)
{
    appendString(out, text);
}

void appendJson(QByteArray& out, const Output& value)
{
    out.reserve(out.size() + qsizetype(estimatedSize(value)));
    appendValue(out, value);
}

namespace {

void appendValue(QByteArray& out, const Output& value)
{
    switch (value.type()) {
    case nlohmann::json::value_t::object: {
        out += '{';
        bool first = true;
        for (auto it = value.begin(); it != value.end(); ++it) {
            if (!first)
                out += ',';
            first = false;
            appendString(out, it.key());
            out += ':';
            appendValue(out, it.value());
        }
        out += '}';
        return;
    }
    case nlohmann::json::value_t::array: {
        out += '[';
        bool first = true;
        for (const Output& item : value) {
            if (!first)
                out += ',';
            first = false;
            appendValue(out, item);
        }
        out += ']';
        return;
    }
    case nlohmann::json::value_t::string:
        appendString(out, value.get_ref<const std::string&>());
        return;
    case nlohmann::json::value_t::number_integer:
        appendInteger(out, value.get<std::int64_t>());
        return;
    case nlohmann::json::value_t::number_unsigned:
        appendInteger(out, value.get<std::uint64_t>());
        return;
    case nlohmann::json::value_t::boolean: out += value.get<bool>() ? "true" : "false"; return;
    case nlohmann::json::value_t::null: out += "null"; return;
    case nlohmann::json::value_t::number_float:
    case nlohmann::json::value_t::binary:
    case nlohmann::json::value_t::discarded: break;
    }
    // Floating-point numbers (none in SQS answers) as nlohmann-json prints them.
    appendView(out, value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace

} // namespace inflight::protocol
