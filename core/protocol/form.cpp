// Form decoding by hand, because QUrlQuery cannot refuse what it cannot represent: it replaces
// bytes that are not UTF-8 with U+FFFD and even turns a percent-encoded U+FFFF into three of them,
// so a body would be stored other than as sent, or pass the engine's character check it fails.
// QByteArray::fromPercentEncoding does not check its hex digits ("%zz" becomes a byte), so the
// percent decoding is here too (text/percent.h's leaves '+' alone: forms make it a space).
// simdjson (already the JSON codec's parser) checks the UTF-8; the Query codec takes the text as
// it is, without a QString on the way.
#include "protocol/form.h"

#include "protocol/utf8.h"
#include "text/hex.h"

#include <simdjson.h>

#include <cstring>
#include <string_view>

namespace inflight::protocol {

namespace {

// Writes the decoded bytes of one name or value to `to` and returns where they end: '+' is a
// space, %XX the byte XX, a '%' without two hex digits after it itself. Most parts have neither
// (SDKs escape the URL's and the receipts' punctuation, and a body's text mostly stays as it is):
// those are found by memchr and copied whole.
char* decodePart(std::string_view part, char* to)
{
    if (part.empty())
        return to;
    if (std::memchr(part.data(), '%', part.size()) == nullptr
        && std::memchr(part.data(), '+', part.size()) == nullptr) {
        std::memcpy(to, part.data(), part.size());
        return to + part.size();
    }
    for (std::size_t at = 0; at < part.size(); ++at) {
        const char c = part[at];
        if (c == '+') {
            *to++ = ' ';
            continue;
        }
        const int upper = c == '%' && at + 2 < part.size() ? text::hexDigitValue(part[at + 1]) : -1;
        const int lower = upper >= 0 ? text::hexDigitValue(part[at + 2]) : -1;
        if (lower >= 0) {
            *to++ = char(upper * 16 + lower);
            at += 2;
        } else {
            *to++ = c;
        }
    }
    return to;
}

bool isUtf8(std::string_view text)
{
    return simdjson::validate_utf8(text.data(), text.size());
}

// The error of `pair`, found not UTF-8 at `position` in its form (from 1): its name is checked
// first, as the decoder checks it.
FormError notUtf8(const std::pair<std::string_view, std::string_view>& pair, std::size_t position)
{
    if (!isUtf8(pair.first))
        return FormError{position, FormError::Part::Name, {}};
    return FormError{position, FormError::Part::Value, engine::excerpt(pair.first)};
}

} // namespace

std::string describe(const FormError& error)
{
    const std::string place = "pair " + std::to_string(error.pair);
    if (error.part == FormError::Part::Name)
        return "the name of " + place + " is not UTF-8 once percent-decoded";
    return "the value of " + (error.name.empty() ? place : error.name + " (" + place + ")")
        + " is not UTF-8 once percent-decoded";
}

FormResult<std::size_t> decodeFormInto(std::string_view text, char* const out, FormViews& pairs)
{
    // The pairs between '&'s; a pair's name up to its first '=' (a value's own '=' stays in it).
    // Each part is decoded on its own, into `out` after the one before.
    char* to = out;
    const std::size_t firstPair = pairs.size();
    for (std::size_t start = 0; start <= text.size();) {
        // (An empty view's data may be null, which memchr may not be given.)
        const auto* amp = start < text.size()
            ? static_cast<const char*>(std::memchr(text.data() + start, '&', text.size() - start))
            : nullptr;
        const std::size_t end = amp ? std::size_t(amp - text.data()) : text.size();
        const std::string_view pair = text.substr(start, end - start);
        start = end + 1;
        if (pair.empty())
            continue; // "&&" or an empty form: no pair
        const std::size_t equals = pair.find('=');
        char* const name = to;
        to = decodePart(pair.substr(0, equals), to);
        char* const value = to;
        if (equals != std::string_view::npos)
            to = decodePart(pair.substr(equals + 1), to);
        const std::string_view pairName(name, std::size_t(value - name));
        const std::string_view pairValue(value, std::size_t(to - value));
        pairs.emplace_back(pairName, pairValue);
    }
    // All the decoded text at once (one call instead of two a pair): when it is UTF-8 and no part
    // starts inside a character (with a continuation byte), every part is UTF-8 on its own.
    const auto startsInside = [](std::string_view part) {
        return !part.empty() && (static_cast<unsigned char>(part.front()) & 0xC0) == 0x80;
    };
    bool whole = isUtf8({out, std::size_t(to - out)});
    for (std::size_t i = firstPair; whole && i < pairs.size(); ++i)
        whole = !startsInside(pairs[i].first) && !startsInside(pairs[i].second);
    if (!whole) {
        for (std::size_t i = firstPair; i < pairs.size(); ++i) {
            if (!isUtf8(pairs[i].first) || !isUtf8(pairs[i].second)) {
                pairs.resize(i + 1);
                return notUtf8(pairs.back(), pairs.size() - firstPair);
            }
        }
    }
    return std::size_t(to - out);
}

namespace {

// The form's pairs as views of `decoded` (made as large as the form), or why it cannot be read.
FormResult<FormViews> decodeFormViews(const QByteArray& encoded, std::string& decoded)
{
    decoded.assign(std::size_t(encoded.size()), '\0');
    FormViews views;
    const FormResult<std::size_t> written = decodeFormInto(
        std::string_view(encoded.constData(), std::size_t(encoded.size())), decoded.data(), views);
    if (!written)
        return written.error();
    return views;
}

} // namespace

FormResult<engine::Done> appendFormPairs(const QByteArray& encoded, FormPairs& pairs)
{
    std::string decoded;
    const FormResult<FormViews> views = decodeFormViews(encoded, decoded);
    if (!views)
        return views.error();
    pairs.reserve(pairs.size() + views->size());
    for (const auto& [name, value] : *views)
        pairs.emplace_back(std::string(name), std::string(value));
    return engine::Done{};
}

FormResult<FormParameters> decodeForm(const QByteArray& encoded)
{
    std::string decoded;
    const FormResult<FormViews> views = decodeFormViews(encoded, decoded);
    if (!views)
        return views.error();
    FormParameters parameters;
    parameters.reserve(qsizetype(views->size()));
    for (const auto& [name, value] : *views)
        parameters.append({textOf(name), textOf(value)});
    return parameters;
}

} // namespace inflight::protocol
