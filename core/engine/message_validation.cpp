#include "engine/message_validation.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

namespace inflight::engine {

namespace {

constexpr std::size_t kMaxMessageAttributes = 10;
constexpr std::size_t kMaxAttributeNameChars = 256;
constexpr std::size_t kMaxAttributeTypeChars = 256;
constexpr std::size_t kMaxTokenIdChars = 128;
constexpr std::size_t kMaxBatchEntryIdChars = 80;
constexpr std::int64_t kMaxNumberDigits = 38;
constexpr std::int64_t kMinNumberExponent = -128;
constexpr std::int64_t kMaxNumberExponent = 126;
// Exponents beyond this are out of range whatever the mantissa; capping keeps parsing
// overflow-free.
constexpr std::int64_t kExponentCap = 1'000'000'000;

constexpr std::string_view kAttributesParameter = "MessageAttributes";
constexpr std::string_view kSystemAttributesParameter = "MessageSystemAttributes";
constexpr std::string_view kTraceHeader = "AWSTraceHeader";
constexpr std::string_view kAllowedCharacters
    = "#x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF";

constexpr char32_t kMalformed = 0xffffffff;

// ---- UTF-8 -------------------------------------------------------------------------------------

bool isContinuation(unsigned char byte)
{
    return (byte & 0xc0) == 0x80;
}

// Decodes one scalar value at `text[at]` and advances `at`. Overlong forms, surrogates, values
// above U+10FFFF and truncated sequences give kMalformed (and advance by one byte).
char32_t decodeUtf8(std::string_view text, std::size_t& at)
{
    const auto* p = reinterpret_cast<const unsigned char*>(text.data()) + at;
    const std::size_t left = text.size() - at;
    const unsigned char lead = p[0];
    if (lead < 0x80) {
        at += 1;
        return lead;
    }
    // Second-byte bounds per lead byte (Unicode Table 3-7) exclude overlongs and surrogates.
    unsigned char low = 0x80, high = 0xbf;
    std::size_t length = 0;
    char32_t value = 0;
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
        value = lead & 0x1f;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        value = lead & 0x0f;
        if (lead == 0xe0)
            low = 0xa0;
        else if (lead == 0xed)
            high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        value = lead & 0x07;
        if (lead == 0xf0)
            low = 0x90;
        else if (lead == 0xf4)
            high = 0x8f;
    } else {
        at += 1;
        return kMalformed;
    }
    if (left < length || p[1] < low || p[1] > high) {
        at += 1;
        return kMalformed;
    }
    value = (value << 6) | (p[1] & 0x3f);
    for (std::size_t i = 2; i < length; ++i) {
        if (!isContinuation(p[i])) {
            at += 1;
            return kMalformed;
        }
        value = (value << 6) | (p[i] & 0x3f);
    }
    at += length;
    return value;
}

bool isAllowedCodePoint(char32_t c)
{
    return c == 0x9 || c == 0xa || c == 0xd || (c >= 0x20 && c <= 0xd7ff)
        || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
}

// True if none of the 8 bytes is below 0x20 or above 0x7f: the common all-printable-ASCII case,
// checked a word at a time because bodies run up to 1 MiB on every send.
bool isPlainAsciiWord(std::uint64_t word)
{
    constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
    constexpr std::uint64_t kSpaces = 0x2020202020202020ULL;
    // A byte below 0x20 borrows and sets its high bit; a byte above 0x7f has it set already.
    return ((word | (word - kSpaces)) & kHighBits) == 0;
}

struct InvalidCharacter {
    std::size_t offset = std::string_view::npos;
    char32_t codePoint = kMalformed;
};

// The first character outside the SQS set, or offset npos when there is none.
InvalidCharacter findInvalidCharacter(std::string_view text)
{
    std::size_t at = 0;
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    while (at < text.size()) {
        // 32 printable ASCII bytes at a time, in a loop of fixed length the compiler vectorizes.
        if (text.size() - at >= 32) {
            unsigned outside = 0;
            for (std::size_t i = 0; i < 32; ++i)
                outside |= static_cast<unsigned char>(bytes[at + i] - 0x20) >= 0x60 ? 1U : 0U;
            if (outside == 0) {
                at += 32;
                continue;
            }
        }
        if (text.size() - at >= 8) {
            std::uint64_t word;
            std::memcpy(&word, text.data() + at, sizeof word);
            if (isPlainAsciiWord(word)) {
                at += 8;
                continue;
            }
        }
        const std::size_t start = at;
        const char32_t c = decodeUtf8(text, at);
        if (c == kMalformed || !isAllowedCodePoint(c))
            return {start, c};
    }
    return {};
}

// ---- messages ----------------------------------------------------------------------------------

std::string hexCodePoint(char32_t c)
{
    static constexpr char kDigits[] = "0123456789ABCDEF";
    std::string hex;
    bool started = false;
    for (int shift = 28; shift >= 0; shift -= 4) {
        const unsigned nibble = (c >> shift) & 0xf;
        started = started || nibble != 0 || shift == 0;
        if (started)
            hex += kDigits[nibble];
    }
    return "#x" + hex;
}

// Names go into error texts; one that is not valid text is left out rather than echoed broken.
std::string quoted(std::string_view text)
{
    if (findInvalidCharacter(text).offset != std::string_view::npos)
        return "(invalid)";
    std::string result = "'";
    result += text;
    result += '\'';
    return result;
}

Error invalidAttribute(std::string message)
{
    return makeError(ErrorCode::InvalidParameterValue, std::move(message),
                     std::string(kAttributesParameter));
}

std::string invalidValueCharacterText(std::string_view kind, std::string_view name,
                                      InvalidCharacter bad)
{
    std::string what = bad.codePoint == kMalformed
        ? std::string("Invalid UTF-8 sequence")
        : "Invalid binary character '" + hexCodePoint(bad.codePoint) + "'";
    return what + " was found in the value of " + std::string(kind) + " " + quoted(name)
        + ", the set of allowed characters is " + std::string(kAllowedCharacters);
}

// ---- attribute rules ---------------------------------------------------------------------------

bool isAsciiAlphanumeric(char32_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Non-ASCII name characters: AWS accepted "attr.1øßä" and documents nothing further, so every
// allowed character is taken except C1 controls, Latin-1 symbols and × ÷ (docs/BEHAVIOUR).
bool isAllowedNameCharacter(char32_t c)
{
    if (c < 0x80)
        return isAsciiAlphanumeric(c) || c == '_' || c == '-' || c == '.';
    if (c < 0xc0 || c == 0xd7 || c == 0xf7)
        return false;
    return isAllowedCodePoint(c);
}

bool startsWithIgnoringCase(std::string_view text, std::string_view prefix)
{
    if (text.size() < prefix.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        const char a = text[i] >= 'A' && text[i] <= 'Z' ? char(text[i] - 'A' + 'a') : text[i];
        if (a != prefix[i])
            return false;
    }
    return true;
}

std::optional<Error> checkAttributeName(std::string_view name)
{
    if (name.empty())
        return invalidAttribute(
            "The request must contain non-empty message (user) attribute names.");

    std::size_t chars = 0;
    bool validCharacters = true;
    for (std::size_t at = 0; at < name.size(); ++chars) {
        const char32_t c = decodeUtf8(name, at);
        validCharacters = validCharacters && c != kMalformed && isAllowedNameCharacter(c);
    }
    if (chars > kMaxAttributeNameChars)
        return invalidAttribute(
            "Message (user) attribute names can be at most 256 characters long.");
    if (!validCharacters)
        return invalidAttribute("Message (user) attribute name " + quoted(name)
                                + " is invalid. Names can only contain alphanumeric characters, "
                                  "hyphens, underscores and periods.");
    if (startsWithIgnoringCase(name, "aws.") || startsWithIgnoringCase(name, "amazon."))
        return invalidAttribute("You can't use message attribute names beginning with 'AWS.' or "
                                "'Amazon.'. These strings are reserved for internal use.");
    if (name.front() == '.' || name.back() == '.' || name.find("..") != std::string_view::npos)
        return invalidAttribute("Message (user) attribute name " + quoted(name)
                                + " is invalid. Names cannot start or end with a period or contain "
                                  "two successive periods.");
    return std::nullopt;
}

enum class BaseType { String, Number, Binary };

// "String", "Number" or "Binary", alone or with a non-empty ".custom" label.
std::optional<BaseType> parseDataType(std::string_view type)
{
    struct Prefix {
        std::string_view text;
        BaseType base;
    };
    for (const Prefix prefix :
         {Prefix{"String", BaseType::String}, Prefix{"Number", BaseType::Number},
          Prefix{"Binary", BaseType::Binary}}) {
        if (type.substr(0, prefix.text.size()) != prefix.text)
            continue;
        const std::string_view rest = type.substr(prefix.text.size());
        if (rest.empty())
            return prefix.base;
        if (rest.size() >= 2 && rest.front() == '.'
            && findInvalidCharacter(rest).offset == std::string_view::npos)
            return prefix.base;
        return std::nullopt;
    }
    return std::nullopt;
}

std::string_view baseTypeName(BaseType base)
{
    switch (base) {
    case BaseType::String: return "String";
    case BaseType::Number: return "Number";
    case BaseType::Binary: return "Binary";
    }
    return "String";
}

enum class NumberCheck { Ok, NotANumber, OutOfRange };

// Decimal syntax as Java's BigDecimal reads it (sign, digits with one optional point, optional
// exponent); then at most 38 significant digits (leading and trailing zeros trimmed) and a
// magnitude within 10^-128 .. 10^+126, as the SQS docs state.
NumberCheck checkNumber(std::string_view text)
{
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
        ++i;
    std::int64_t digits = 0, integerDigits = 0, firstNonZero = -1, lastNonZero = -1;
    bool seenPoint = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            if (c != '0') {
                if (firstNonZero < 0)
                    firstNonZero = digits;
                lastNonZero = digits;
            }
            ++digits;
            if (!seenPoint)
                ++integerDigits;
        } else if (c == '.' && !seenPoint) {
            seenPoint = true;
        } else {
            break;
        }
    }
    if (digits == 0)
        return NumberCheck::NotANumber;

    std::int64_t exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool negative = false;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            negative = text[i++] == '-';
        const std::size_t start = i;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
            exponent = std::min(exponent * 10 + (text[i] - '0'), kExponentCap);
        if (i == start)
            return NumberCheck::NotANumber;
        if (negative)
            exponent = -exponent;
    }
    if (i != text.size())
        return NumberCheck::NotANumber;

    if (firstNonZero < 0)
        return NumberCheck::Ok; // zero, however written
    const std::int64_t significant = lastNonZero - firstNonZero + 1;
    if (significant > kMaxNumberDigits)
        return NumberCheck::OutOfRange;
    // The power of ten of the leading significant digit.
    const std::int64_t magnitude = integerDigits - 1 - firstNonZero + exponent;
    if (magnitude < kMinNumberExponent || magnitude > kMaxNumberExponent)
        return NumberCheck::OutOfRange;
    if (magnitude == kMaxNumberExponent && significant > 1)
        return NumberCheck::OutOfRange; // above 10^126 itself
    return NumberCheck::Ok;
}

std::optional<Error> checkAttributeValue(std::string_view name, const MessageAttributeValue& value,
                                         BaseType base)
{
    const std::string& text = base == BaseType::Binary ? value.binaryValue : value.stringValue;
    if (text.empty())
        return invalidAttribute("Message (user) attribute " + quoted(name)
                                + " must contain a non-empty value of type '"
                                + std::string(baseTypeName(base)) + "'.");
    switch (base) {
    case BaseType::Binary: return std::nullopt;
    case BaseType::String: {
        const InvalidCharacter bad = findInvalidCharacter(text);
        if (bad.offset != std::string_view::npos)
            return invalidAttribute(
                invalidValueCharacterText("message (user) attribute", name, bad));
        return std::nullopt;
    }
    case BaseType::Number:
        switch (checkNumber(text)) {
        case NumberCheck::Ok: return std::nullopt;
        case NumberCheck::NotANumber:
            return invalidAttribute("Can't cast the value of message (user) attribute "
                                    + quoted(name) + " to a number.");
        case NumberCheck::OutOfRange:
            return invalidAttribute("The value of message (user) attribute " + quoted(name)
                                    + " is out of range. Reason: Numbers can have at most 38 "
                                      "significant digits and must be between 10^-128 and "
                                      "10^+126.");
        }
    }
    return std::nullopt;
}

std::optional<Error> checkAttribute(std::string_view name, const MessageAttributeValue& value)
{
    if (auto error = checkAttributeName(name))
        return error;

    const std::string& type = value.dataType;
    if (type.empty())
        return invalidAttribute("Message (user) attribute " + quoted(name)
                                + " must contain a non-empty attribute type.");
    std::size_t typeChars = 0;
    for (std::size_t at = 0; at < type.size(); ++typeChars)
        decodeUtf8(type, at);
    if (typeChars > kMaxAttributeTypeChars)
        return invalidAttribute("The type of message (user) attribute " + quoted(name)
                                + " can be at most 256 characters long.");
    const std::optional<BaseType> base = parseDataType(type);
    if (!base)
        return invalidAttribute("The type of message (user) attribute " + quoted(name)
                                + " is invalid. You must use only the following supported type "
                                  "prefixes: Binary, Number, String.");
    return checkAttributeValue(name, value, *base);
}

bool isBatchEntryIdCharacter(char c)
{
    return isAsciiAlphanumeric(static_cast<unsigned char>(c)) || c == '-' || c == '_';
}

} // namespace

bool isValidMessageText(std::string_view utf8)
{
    return findInvalidCharacter(utf8).offset == std::string_view::npos;
}

Status validateMessageAttributes(const MessageAttributes& attributes)
{
    if (attributes.size() > kMaxMessageAttributes)
        return invalidAttribute("Number of message attributes [" + std::to_string(attributes.size())
                                + "] exceeds the allowed maximum [10].");
    for (const auto& [name, value] : attributes) {
        if (auto error = checkAttribute(name, value))
            return std::move(*error);
    }
    return Done{};
}

Status validateMessageSystemAttributes(const MessageAttributes& attributes)
{
    auto invalid = [](std::string message) {
        return makeError(ErrorCode::InvalidParameterValue, std::move(message),
                         std::string(kSystemAttributesParameter));
    };
    for (const auto& [name, value] : attributes) {
        if (name != kTraceHeader)
            return invalid("Message system attribute name " + quoted(name) + " is invalid.");
        if (value.dataType != "String")
            return invalid("Message system attribute 'AWSTraceHeader' must be of type 'String'.");
        if (value.stringValue.empty())
            return invalid("Message system attribute 'AWSTraceHeader' must contain a non-empty "
                           "value of type 'String'.");
        const InvalidCharacter bad = findInvalidCharacter(value.stringValue);
        if (bad.offset != std::string_view::npos)
            return invalid(invalidValueCharacterText("message system attribute", name, bad));
    }
    return Done{};
}

std::int64_t messageSize(std::string_view body, const MessageAttributes& attributes)
{
    auto size = static_cast<std::int64_t>(body.size());
    for (const auto& [name, value] : attributes) {
        const std::string& bytes = value.isBinary() ? value.binaryValue : value.stringValue;
        size += static_cast<std::int64_t>(name.size() + value.dataType.size() + bytes.size());
    }
    return size;
}

bool isValidTokenId(std::string_view id)
{
    if (id.empty() || id.size() > kMaxTokenIdChars)
        return false;
    // 0x21..0x7e is exactly the ASCII letters, digits and punctuation: no space, no controls.
    for (const char c : id) {
        if (c < 0x21 || c > 0x7e)
            return false;
    }
    return true;
}

Error invalidTokenIdError(std::string_view parameter, std::string_view value)
{
    std::string message = "Value ";
    message += value;
    message += " for parameter ";
    message += parameter;
    message += " is invalid. Reason: ";
    message += parameter;
    message += " can only include alphanumeric and punctuation characters. 1 to 128 in length.";
    return makeError(ErrorCode::InvalidParameterValue, std::move(message), std::string(parameter));
}

bool isValidBatchEntryId(std::string_view id)
{
    if (id.empty() || id.size() > kMaxBatchEntryIdChars)
        return false;
    for (const char c : id) {
        if (!isBatchEntryIdCharacter(c))
            return false;
    }
    return true;
}

Status validateBatchEntryIds(const std::vector<std::string_view>& ids, std::size_t maxEntries)
{
    if (ids.empty())
        return makeError(ErrorCode::EmptyBatchRequest,
                         "There should be at least one batch request entry in the request.");
    if (ids.size() > maxEntries)
        return makeError(ErrorCode::TooManyEntriesInBatchRequest,
                         "Maximum number of entries per request are " + std::to_string(maxEntries)
                             + ". You have sent " + std::to_string(ids.size()) + ".");
    for (const std::string_view id : ids) {
        if (!isValidBatchEntryId(id))
            return makeError(ErrorCode::InvalidBatchEntryId,
                             "A batch entry id can only contain alphanumeric characters, hyphens "
                             "and underscores. It can be at most 80 letters long.");
    }
    // At most maxEntries (10, or 20 for OCI) ids: pairwise comparison beats building a set. Each
    // id's length and first eight characters make a key compared first (45 string compares, each
    // a call, cost a batch of ten more than the rest of its validation).
    const auto keyOf = [](std::string_view id) {
        std::uint64_t word = 0;
        std::memcpy(&word, id.data(), std::min<std::size_t>(id.size(), sizeof word));
        return std::pair{word, id.size()};
    };
    std::array<std::pair<std::uint64_t, std::size_t>, 32> keyRoom;
    std::vector<std::pair<std::uint64_t, std::size_t>> keyHeap;
    std::pair<std::uint64_t, std::size_t>* keys = keyRoom.data();
    if (ids.size() > keyRoom.size()) {
        keyHeap.resize(ids.size());
        keys = keyHeap.data();
    }
    for (std::size_t i = 0; i < ids.size(); ++i)
        keys[i] = keyOf(ids[i]);
    for (std::size_t i = 1; i < ids.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (keys[i] == keys[j] && ids[i] == ids[j])
                return makeError(ErrorCode::BatchEntryIdsNotDistinct,
                                 "Id " + std::string(ids[i]) + " repeated.");
        }
    }
    return Done{};
}

} // namespace inflight::engine
