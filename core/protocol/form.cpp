// Form decoding by hand, because QUrlQuery cannot refuse what it cannot represent: it replaces
// bytes that are not UTF-8 with U+FFFD and even turns a percent-encoded U+FFFF into three of them,
// so a body would be stored other than as sent, or pass the engine's character check it fails.
// QByteArray::fromPercentEncoding does not check its hex digits ("%zz" becomes a byte), so the
// percent decoding is here too. simdjson (already the JSON codec's parser) checks the UTF-8; the
// Query codec takes the text as it is, without a QString on the way (docs/PERFORMANCE.md).
#include "protocol/form.h"

#include "protocol/byte_scan.h"
#include "protocol/utf8.h"

#include <simdjson.h>

#include <cstring>
#include <string_view>

namespace inflight::protocol {

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

// Where the next '%' or '+' is in `text` from `at` (text.size() if none): eight bytes at a time.
std::size_t nextEscape(std::string_view text, std::size_t at)
{
    while (at + 8 <= text.size()) {
        const std::uint64_t word = bytescan::load(text.data() + at);
        if (bytescan::anyEqual(word, '%') || bytescan::anyEqual(word, '+'))
            break;
        at += 8;
    }
    while (at < text.size() && text[at] != '%' && text[at] != '+')
        ++at;
    return at;
}

// `text` with '+' as a space and each %XX as the byte XX, into `out`, which has room for
// text.size() bytes. Returns the bytes written and whether a %XX gave a byte past ASCII. Runs of
// plain text between escapes (a receipt handle's letters between its %2B and %2F) are found a
// word at a time and copied whole.
std::pair<std::size_t, bool> percentDecode(std::string_view text, char* const out)
{
    char* to = out;
    bool decodedHigh = false;
    for (std::size_t at = 0;;) {
        const std::size_t escape = nextEscape(text, at);
        if (escape > at) {
            std::memcpy(to, text.data() + at, escape - at);
            to += escape - at;
        }
        if (escape == text.size())
            break;
        at = escape;
        const char c = text[at];
        const int high = c == '%' && at + 2 < text.size() ? hexValue(text[at + 1]) : -1;
        const int low = high >= 0 ? hexValue(text[at + 2]) : -1;
        if (low >= 0) {
            decodedHigh = decodedHigh || high >= 8;
            *to++ = char(high * 16 + low);
            at += 3;
        } else {
            *to++ = c == '+' ? ' ' : c;
            at += 1;
        }
    }
    return {std::size_t(to - out), decodedHigh};
}

} // namespace

std::optional<std::size_t> decodeFormInto(std::string_view text, char* const out, FormViews& pairs)
{
    // A form of plain ASCII whose escapes give plain ASCII (nearly every request: SDKs escape
    // the URL's and the receipts' punctuation, not text past ASCII) is UTF-8 as it stands; only
    // the pairs of other forms are checked, each as it is decoded.
    const bool asciiForm = bytescan::isAscii(text);
    char* to = out;
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('&', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view pair = text.substr(start, end - start);
        start = end + 1;
        if (pair.empty())
            continue;
        const std::size_t equals = pair.find('=');
        const auto [nameSize, highName] = percentDecode(pair.substr(0, equals), to);
        const std::string_view name(to, nameSize);
        to += nameSize;
        const auto [valueSize, highValue] = percentDecode(
            equals == std::string_view::npos ? std::string_view() : pair.substr(equals + 1), to);
        const std::string_view value(to, valueSize);
        to += valueSize;
        pairs.emplace_back(name, value);
        if (asciiForm && !highName && !highValue)
            continue;
        if (!simdjson::validate_utf8(name.data(), name.size())
            || !simdjson::validate_utf8(value.data(), value.size()))
            return std::nullopt;
    }
    return std::size_t(to - out);
}

namespace {

// The form's pairs as views of `decoded` (made as large as the form), or nullopt (not UTF-8).
std::optional<FormViews> decodeFormViews(const QByteArray& encoded, std::string& decoded)
{
    decoded.assign(std::size_t(encoded.size()), '\0');
    FormViews views;
    if (!decodeFormInto(std::string_view(encoded.constData(), std::size_t(encoded.size())),
                        decoded.data(), views))
        return std::nullopt;
    return views;
}

} // namespace

bool appendFormPairs(const QByteArray& encoded, FormPairs& pairs)
{
    std::string decoded;
    const std::optional<FormViews> views = decodeFormViews(encoded, decoded);
    if (!views)
        return false;
    pairs.reserve(pairs.size() + views->size());
    for (const auto& [name, value] : *views)
        pairs.emplace_back(std::string(name), std::string(value));
    return true;
}

std::optional<FormParameters> decodeForm(const QByteArray& encoded)
{
    std::string decoded;
    const std::optional<FormViews> views = decodeFormViews(encoded, decoded);
    if (!views)
        return std::nullopt;
    FormParameters parameters;
    parameters.reserve(qsizetype(views->size()));
    for (const auto& [name, value] : *views)
        parameters.append({textOf(name), textOf(value)});
    return parameters;
}

} // namespace inflight::protocol
