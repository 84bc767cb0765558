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

#include <string_view>

namespace inflight::protocol {

namespace {

// A byte the decoder acts on: the pairs' and names' separators and the escapes.
bool isFormSpecial(char c)
{
    return c == '&' || c == '=' || c == '%' || c == '+';
}

// Copies the plain bytes of text[at..] to `to` (advancing it) up to the next byte the decoder acts
// on, and returns where that byte is (text.size() if none); `high` becomes true when a copied byte
// is past ASCII.
std::size_t copyPlain(std::string_view text, std::size_t at, char*& to, bool& high)
{
    for (; at < text.size() && !isFormSpecial(text[at]); ++at) {
        high = high || static_cast<unsigned char>(text[at]) >= 0x80;
        *to++ = text[at];
    }
    return at;
}

// The error of `pair`, found not UTF-8 at `position` in its form (from 1): its name is checked
// first, as the decoder checks it.
FormError notUtf8(const std::pair<std::string_view, std::string_view>& pair, std::size_t position)
{
    if (!simdjson::validate_utf8(pair.first.data(), pair.first.size()))
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
    // One pass over the form, its plain runs copied by copyPlain. Per pair: where it began in the
    // form, where its name and (after its first '=') its value begin in `out`, and whether it
    // holds a byte past ASCII, as sent or decoded.
    char* to = out;
    const std::size_t firstPair = pairs.size();
    std::size_t pairStart = 0;
    char* name = out;
    char* value = nullptr;
    bool high = false;
    // Adds the pair that ends at `at`; false when it is not UTF-8 (added all the same, for
    // notUtf8 to tell which part is not). A pair of plain ASCII (nearly every one: SDKs escape
    // the URL's and the receipts' punctuation, not text past ASCII) is UTF-8 as it stands; only
    // the others are checked.
    const auto endPair = [&](std::size_t at) {
        if (at == pairStart)
            return true; // "&&" or an empty form: no pair
        const std::string_view pairName(name, std::size_t((value ? value : to) - name));
        const std::string_view pairValue(value ? value : to, value ? std::size_t(to - value) : 0);
        pairs.emplace_back(pairName, pairValue);
        return !high
            || (simdjson::validate_utf8(pairName.data(), pairName.size())
                && simdjson::validate_utf8(pairValue.data(), pairValue.size()));
    };
    for (std::size_t at = 0;;) {
        at = copyPlain(text, at, to, high);
        if (at == text.size())
            break;
        switch (text[at]) {
        case '&':
            if (!endPair(at))
                return notUtf8(pairs.back(), pairs.size() - firstPair);
            pairStart = ++at;
            name = to;
            value = nullptr;
            high = false;
            break;
        case '=':
            if (value)
                *to++ = '='; // a value's '=' is its own
            else
                value = to;
            ++at;
            break;
        case '+':
            *to++ = ' ';
            ++at;
            break;
        default: { // '%': the byte of its two hex digits, or itself without them
            const int upper = at + 2 < text.size() ? text::hexDigitValue(text[at + 1]) : -1;
            const int lower = upper >= 0 ? text::hexDigitValue(text[at + 2]) : -1;
            if (lower >= 0) {
                high = high || upper >= 8;
                *to++ = char(upper * 16 + lower);
                at += 3;
            } else {
                *to++ = '%';
                ++at;
            }
        }
        }
    }
    if (!endPair(text.size()))
        return notUtf8(pairs.back(), pairs.size() - firstPair);
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
