// Message validation rules of §1.3, §4.1 (steps 3, 4, 5, 8) and §4.2, with cases B.29–B.51.

#include "engine/message_validation.h"
#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <cctype>
#include <ostream>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

MessageAttributes attributesNamed(int count)
{
    MessageAttributes attributes;
    for (int i = 1; i <= count; ++i)
        attributes["attrib" + std::to_string(i)] = stringAttribute("World");
    return attributes;
}

// The error of a failed Status, or a sentinel so a wrongly passing check fails the comparison.
Error errorOf(const Status& status)
{
    if (status.ok())
        return makeError(ErrorCode::MissingParameter, "<passed>");
    return status.error();
}

// ---- body characters (§1.3, B.29) --------------------------------------------------------------

struct TextCase {
    const char* label;
    std::string text;
};

void PrintTo(const TextCase& c, std::ostream* os)
{
    *os << c.label;
}

class RejectsBodyCharacter : public testing::TestWithParam<TextCase> {};

TEST_P(RejectsBodyCharacter, inMiddleOfBody)
{
    EXPECT_FALSE(isValidMessageText("Invalid-" + GetParam().text + "-body"));
}

TEST_P(RejectsBodyCharacter, atEveryOffsetOfALongBody)
{
    // Bodies are checked eight bytes at a time; a bad character must be found in any lane.
    for (std::size_t offset = 0; offset < 24; ++offset) {
        std::string body(40, 'a');
        body.insert(offset, GetParam().text);
        ASSERT_FALSE(isValidMessageText(body)) << "offset " << offset;
    }
}

INSTANTIATE_TEST_SUITE_P(
    B29, RejectsBodyCharacter,
    testing::Values(
        TextCase{"U+0000", std::string(1, '\0')}, TextCase{"U+0008", "\x08"},
        TextCase{"U+0013", "\x13"}, TextCase{"U+000B", "\x0b"}, TextCase{"U+001F", "\x1f"},
        TextCase{"U+FFFE", "\xef\xbf\xbe"}, TextCase{"U+FFFF", "\xef\xbf\xbf"},
        TextCase{"lone high surrogate", "\xed\xa0\x80"},
        TextCase{"lone low surrogate", "\xed\xbf\xbf"}, TextCase{"overlong slash", "\xc0\xaf"},
        TextCase{"overlong three-byte", "\xe0\x80\xaf"},
        TextCase{"overlong four-byte", "\xf0\x80\x80\xaf"},
        TextCase{"above U+10FFFF", "\xf4\x90\x80\x80"},
        TextCase{"lead byte F5", "\xf5\x80\x80\x80"}, TextCase{"stray continuation", "\x80"},
        TextCase{"truncated sequence", "\xe2\x82"}, TextCase{"Latin-1 byte", "\xe9"}),
    [](const testing::TestParamInfo<TextCase>& info) { return std::to_string(info.index); });

class AcceptsBodyCharacter : public testing::TestWithParam<TextCase> {};

TEST_P(AcceptsBodyCharacter, inMiddleOfBody)
{
    EXPECT_TRUE(isValidMessageText("Valid-" + GetParam().text + "-body-of-some-length"));
}

INSTANTIATE_TEST_SUITE_P(
    B29, AcceptsBodyCharacter,
    testing::Values(TextCase{"tab", "\t"}, TextCase{"line feed", "\n"},
                    TextCase{"carriage return", "\r"}, TextCase{"CRLF", "\r\n"},
                    TextCase{"space", " "}, TextCase{"U+007F", "\x7f"},
                    TextCase{"U+0080", "\xc2\x80"}, TextCase{"U+00F8", "\xc3\xb8"},
                    TextCase{"U+D7FF", "\xed\x9f\xbf"}, TextCase{"U+E000", "\xee\x80\x80"},
                    TextCase{"U+FFFD", "\xef\xbf\xbd"}, TextCase{"U+10000", "\xf0\x90\x80\x80"},
                    TextCase{"U+1F600", "\xf0\x9f\x98\x80"},
                    TextCase{"U+10FFFF", "\xf4\x8f\xbf\xbf"}),
    [](const testing::TestParamInfo<TextCase>& info) { return std::to_string(info.index); });

TEST(MessageText, acceptsEmptyAndLargeBodies)
{
    EXPECT_TRUE(isValidMessageText(""));
    EXPECT_TRUE(isValidMessageText(std::string(1048576, 'x')));
}

// ---- attribute count (B.35) --------------------------------------------------------------------

TEST(MessageAttributes, acceptsTenMessageAttributes)
{
    EXPECT_TRUE(validateMessageAttributes(attributesNamed(10)).ok());
}

TEST(MessageAttributes, rejectsElevenMessageAttributes)
{
    const Error error = errorOf(validateMessageAttributes(attributesNamed(11)));
    EXPECT_EQ(error.code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(error.message, "Number of message attributes [11] exceeds the allowed maximum [10].");
    EXPECT_EQ(error.parameter, "MessageAttributes");
}

TEST(MessageAttributes, acceptsNoAttributes)
{
    EXPECT_TRUE(validateMessageAttributes({}).ok());
}

// ---- attribute names (§1.3) --------------------------------------------------------------------

struct NameCase {
    std::string name;
    bool valid;
};

void PrintTo(const NameCase& c, std::ostream* os)
{
    *os << '"' << c.name.substr(0, 40) << (c.name.size() > 40 ? "..." : "") << "\" ("
        << c.name.size() << " bytes)";
}

class AttributeName : public testing::TestWithParam<NameCase> {};

TEST_P(AttributeName, followsNameRules)
{
    const Status status = validateMessageAttributes({{GetParam().name, stringAttribute("v")}});
    EXPECT_EQ(status.ok(), GetParam().valid);
    if (!status.ok()) {
        EXPECT_EQ(status.error().code, ErrorCode::InvalidParameterValue);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Boundaries, AttributeName,
    testing::Values(NameCase{std::string(256, 'n'), true}, NameCase{std::string(257, 'n'), false},
                    // 256 characters of two bytes each: the limit counts characters.
                    NameCase{[] {
                                 std::string s;
                                 for (int i = 0; i < 256; ++i)
                                     s += "\xc3\xb8";
                                 return s;
                             }(),
                             true},
                    NameCase{"", false}, NameCase{"a", true}, NameCase{"A-b_c.d9", true},
                    NameCase{"attr.1\xc3\xb8\xc3\x9f\xc3\xa4", true}, // attr.1øßä [AWS-OBS]
                    NameCase{"AWS.x", false}, NameCase{"aWs.x", false}, NameCase{"aws.x", false},
                    NameCase{"Amazon.x", false}, NameCase{"amazon.x", false},
                    NameCase{"AMAZON.x", false}, NameCase{"AWS", true}, NameCase{"AWSx.y", true},
                    NameCase{"Amazonian.y", true}, NameCase{"x.AWS.y", true}, NameCase{".x", false},
                    NameCase{"x.", false}, NameCase{".", false}, NameCase{"a..b", false},
                    NameCase{"a.b.c", true}, NameCase{"a b", false}, NameCase{"a!b", false},
                    NameCase{"a\"b", false}, NameCase{"a(b", false}, NameCase{"a?b", false},
                    NameCase{"a/b", false},
                    NameCase{"a\xc2\xa7"
                             "b",
                             false}, // § [AWS-OBS: rejected]
                    NameCase{"a\xc3\x97"
                             "b",
                             false}, // ×
                    NameCase{"a\xe9"
                             "b",
                             false}, // not UTF-8
                    NameCase{std::string("a\0b", 3), false}));

TEST(MessageAttributes, rejectsReservedPrefixWithReason)
{
    const Error error = errorOf(validateMessageAttributes({{"AWS.x", stringAttribute("v")}}));
    EXPECT_EQ(error.code, ErrorCode::InvalidParameterValue);
    EXPECT_NE(error.message.find("'AWS.' or 'Amazon.'"), std::string::npos) << error.message;
}

TEST(MessageAttributes, rejectsPeriodRulesWithReason)
{
    const Error error = errorOf(validateMessageAttributes({{"a..b", stringAttribute("v")}}));
    EXPECT_EQ(error.code, ErrorCode::InvalidParameterValue);
    EXPECT_NE(error.message.find("'a..b'"), std::string::npos) << error.message;
    EXPECT_NE(error.message.find("period"), std::string::npos) << error.message;
}

// ---- attribute data types ----------------------------------------------------------------------

struct TypeCase {
    std::string dataType;
    bool valid;
};

void PrintTo(const TypeCase& c, std::ostream* os)
{
    *os << '"' << c.dataType.substr(0, 40) << "\" (" << c.dataType.size() << " chars)";
}

class AttributeDataType : public testing::TestWithParam<TypeCase> {};

TEST_P(AttributeDataType, followsTypeRules)
{
    // A value that every base type accepts: a number for Number, bytes for Binary.
    MessageAttributeValue value = GetParam().dataType.rfind("Binary", 0) == 0
        ? binaryAttribute("\x01\x02")
        : stringAttribute("42");
    value.dataType = GetParam().dataType;
    const Status status = validateMessageAttributes({{"attr", value}});
    EXPECT_EQ(status.ok(), GetParam().valid);
    if (!status.ok()) {
        EXPECT_EQ(status.error().code, ErrorCode::InvalidParameterValue);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Boundaries, AttributeDataType,
    testing::Values(TypeCase{"String", true}, TypeCase{"Number", true}, TypeCase{"Binary", true},
                    TypeCase{"Number.int", true}, TypeCase{"Binary.png", true},
                    TypeCase{"String.json", true}, TypeCase{"String.a.b", true},
                    TypeCase{"String." + std::string(249, 'x'), true},  // 256 characters
                    TypeCase{"String." + std::string(250, 'x'), false}, // 257 characters
                    TypeCase{"", false}, TypeCase{"Str", false}, TypeCase{"Integer", false},
                    TypeCase{"string", false}, TypeCase{"NUMBER", false},
                    TypeCase{"String.", false}, TypeCase{"Stringy", false},
                    TypeCase{" String", false}, TypeCase{"StringList", false}));

TEST(MessageAttributes, rejectsUnknownTypeWithSupportedPrefixes)
{
    const Error error
        = errorOf(validateMessageAttributes({{"attr", stringAttribute("v", "Integer")}}));
    EXPECT_EQ(error.code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(error.message,
              "The type of message (user) attribute 'attr' is invalid. You must use only the "
              "following supported type prefixes: Binary, Number, String.");
}

// ---- attribute values (B.33) -------------------------------------------------------------------

TEST(MessageAttributes, rejectsEmptyStringValue)
{
    const Error error = errorOf(validateMessageAttributes({{"ErrorDetails", stringAttribute("")}}));
    EXPECT_EQ(error.code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(error.message,
              "Message (user) attribute 'ErrorDetails' must contain a non-empty value of type "
              "'String'.");
}

TEST(MessageAttributes, rejectsEmptyBinaryValue)
{
    const Error error = errorOf(validateMessageAttributes({{"blob", binaryAttribute("")}}));
    EXPECT_EQ(error.code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(error.message,
              "Message (user) attribute 'blob' must contain a non-empty value of type 'Binary'.");
}

TEST(MessageAttributes, rejectsBinaryTypeCarryingOnlyAStringValue)
{
    // A Binary attribute's value is its bytes; a string value does not stand in for them.
    MessageAttributeValue value = stringAttribute("text", "Binary");
    EXPECT_FALSE(validateMessageAttributes({{"blob", value}}).ok());
}

TEST(MessageAttributes, rejectsEmptyNumberAndCustomTypedValues)
{
    EXPECT_FALSE(validateMessageAttributes({{"n", stringAttribute("", "Number")}}).ok());
    EXPECT_FALSE(validateMessageAttributes({{"n", stringAttribute("", "Number.int")}}).ok());
    EXPECT_FALSE(validateMessageAttributes({{"s", stringAttribute("", "String.json")}}).ok());
    EXPECT_FALSE(validateMessageAttributes({{"b", binaryAttribute("", "Binary.png")}}).ok());
}

TEST(MessageAttributes, acceptsBinaryValueWithAnyBytes)
{
    // Binary values are raw bytes: NUL and invalid UTF-8 are fine there.
    EXPECT_TRUE(
        validateMessageAttributes({{"b", binaryAttribute(std::string("\0\xff\x08", 3))}}).ok());
}

TEST(MessageAttributes, rejectsStringValueWithForbiddenCharactersAsInvalidParameterValue)
{
    // §4.1 step 4: InvalidParameterValue, not InvalidMessageContents.
    for (const std::string& value : {std::string("a\0b", 3), std::string("Invalid-\x08,\x0b"),
                                     std::string("\xef\xbf\xbf"), std::string("\xed\xa0\x80")}) {
        const Error error = errorOf(validateMessageAttributes({{"attr1", stringAttribute(value)}}));
        EXPECT_EQ(error.code, ErrorCode::InvalidParameterValue);
        EXPECT_NE(error.message.find("'attr1'"), std::string::npos) << error.message;
    }
    const Error nul
        = errorOf(validateMessageAttributes({{"attr1", stringAttribute(std::string("a\0b", 3))}}));
    EXPECT_NE(nul.message.find("'#x0'"), std::string::npos) << nul.message;
}

TEST(MessageAttributes, acceptsStringValueWithAllowedCharacters)
{
    EXPECT_TRUE(validateMessageAttributes(
                    {{"attr", stringAttribute("tab\tnl\ncr\r \xee\x80\x80 \xf0\x9f\x98\x80")}})
                    .ok());
}

struct NumberCase {
    std::string value;
    bool valid;
};

void PrintTo(const NumberCase& c, std::ostream* os)
{
    *os << '"' << c.value << '"';
}

class NumberAttribute : public testing::TestWithParam<NumberCase> {};

TEST_P(NumberAttribute, followsNumberRules)
{
    for (const char* type : {"Number", "Number.int"}) {
        const Status status
            = validateMessageAttributes({{"n", stringAttribute(GetParam().value, type)}});
        EXPECT_EQ(status.ok(), GetParam().valid) << type;
        if (!status.ok()) {
            EXPECT_EQ(status.error().code, ErrorCode::InvalidParameterValue);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Boundaries, NumberAttribute,
    testing::Values(
        NumberCase{"12.5e3", true}, NumberCase{"0", true}, NumberCase{"-7", true},
        NumberCase{"+7", true}, NumberCase{"3.14", true}, NumberCase{".5", true},
        NumberCase{"5.", true}, NumberCase{"1E+5", true}, NumberCase{"1e-5", true},
        NumberCase{"0.000", true}, NumberCase{"-0", true},
        NumberCase{"12345678901234567890123456789012345678", true},          // 38 digits
        NumberCase{"123456789012345678901234567890123456789", false},        // 39 digits
        NumberCase{"-1234567890123456789.0123456789012345678", true},        // 38 across a point
        NumberCase{"1234567890123456789.01234567890123456789", false},       // 39 across a point
        NumberCase{"1234567890123456789012345678901234567800000", true},     // trailing zeros trim
        NumberCase{"0.000001234567890123456789012345678901234567800", true}, // so do leading ones
        NumberCase{"1e126", true}, NumberCase{"1.1e126", false}, NumberCase{"1e127", false},
        NumberCase{"9.99e125", true}, NumberCase{"1e-128", true}, NumberCase{"1e-129", false},
        NumberCase{"0.1e-127", true}, NumberCase{"0e999999999999", true},
        NumberCase{"1e99999999999999999999", false}, NumberCase{"abc", false},
        NumberCase{"", false}, NumberCase{".", false}, NumberCase{"-", false},
        NumberCase{"1e", false}, NumberCase{"e5", false}, NumberCase{"1.2.3", false},
        NumberCase{" 1", false}, NumberCase{"1 ", false}, NumberCase{"1,5", false},
        NumberCase{"0x10", false}, NumberCase{"NaN", false}, NumberCase{"Infinity", false},
        NumberCase{"--1", false}, NumberCase{"1e+-5", false}));

TEST(MessageAttributes, rejectsNonNumericNumberWithCastReason)
{
    const Error error
        = errorOf(validateMessageAttributes({{"Hello", stringAttribute("world", "Number")}}));
    EXPECT_EQ(error.code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(error.message,
              "Can't cast the value of message (user) attribute 'Hello' to a number.");
}

TEST(MessageAttributes, reportsFirstInvalidAttributeInNameOrder)
{
    const Error error = errorOf(validateMessageAttributes({{"b", stringAttribute("")},
                                                           {"a", stringAttribute("", "Number")},
                                                           {"c", stringAttribute("ok")}}));
    EXPECT_NE(error.message.find("'a'"), std::string::npos) << error.message;
}

// ---- system attributes -------------------------------------------------------------------------

TEST(MessageSystemAttributes, acceptsAwsTraceHeaderString)
{
    EXPECT_TRUE(
        validateMessageSystemAttributes(
            {{"AWSTraceHeader", stringAttribute("Root=1-5759e988-bd862e3fe1be46a994272793")}})
            .ok());
    EXPECT_TRUE(validateMessageSystemAttributes({}).ok());
}

TEST(MessageSystemAttributes, rejectsOtherNames)
{
    const Error error
        = errorOf(validateMessageSystemAttributes({{"Hello", stringAttribute("World")}}));
    EXPECT_EQ(error.code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(error.message, "Message system attribute name 'Hello' is invalid.");
    EXPECT_EQ(error.parameter, "MessageSystemAttributes");
}

TEST(MessageSystemAttributes, rejectsNonStringOrEmptyTraceHeader)
{
    EXPECT_FALSE(validateMessageSystemAttributes({{"AWSTraceHeader", binaryAttribute("x")}}).ok());
    EXPECT_FALSE(
        validateMessageSystemAttributes({{"AWSTraceHeader", stringAttribute("1", "Number")}}).ok());
    EXPECT_FALSE(validateMessageSystemAttributes({{"AWSTraceHeader", stringAttribute("")}}).ok());
    EXPECT_FALSE(validateMessageSystemAttributes(
                     {{"AWSTraceHeader", stringAttribute(std::string("a\0", 2))}})
                     .ok());
}

// ---- message size (§1.3, B.31, B.51) -----------------------------------------------------------

TEST(MessageSize, countsBodyPlusNameTypeAndValueBytes)
{
    // B.31: 1 048 576 − 8 body bytes + k/String/x is exactly the 1 MiB default limit.
    const std::string body(1048568, 'a');
    EXPECT_EQ(messageSize(body, {{"k", stringAttribute("x")}}), 1048576);
    EXPECT_EQ(messageSize(body + "a", {{"k", stringAttribute("x")}}), 1048577);
}

TEST(MessageSize, batchOfB51AddsUpToOneByteOverTheLimit)
{
    const std::string body(1048568, 'a');
    EXPECT_EQ(messageSize(body, {{"k", stringAttribute("x")}}) + messageSize("a", {}), 1048577);
}

TEST(MessageSize, countsMultiByteUtf8InBytes)
{
    EXPECT_EQ(messageSize("\xc3\xb8", {}), 2);         // ø
    EXPECT_EQ(messageSize("\xe2\x82\xac", {}), 3);     // €
    EXPECT_EQ(messageSize("\xf0\x9f\x98\x80", {}), 4); // 😀
    EXPECT_EQ(messageSize("", {{"attr.1\xc3\xb8", stringAttribute("\xe2\x82\xac")}}), 8 + 6 + 3);
}

TEST(MessageSize, countsBinaryValueBytesAndCustomTypeInFull)
{
    MessageAttributeValue value = binaryAttribute(std::string(10, '\0'), "Binary.png");
    value.stringValue = "ignored";
    EXPECT_EQ(messageSize("body", {{"img", value}}), 4 + 3 + 10 + 10);
    EXPECT_EQ(messageSize("", {{"n", stringAttribute("42", "Number.int")}}), 1 + 10 + 2);
}

// ---- MessageGroupId / MessageDeduplicationId (§4.1 step 8) -------------------------------------

struct TokenCase {
    std::string id;
    bool valid;
};

void PrintTo(const TokenCase& c, std::ostream* os)
{
    *os << '"' << c.id.substr(0, 40) << "\" (" << c.id.size() << " chars)";
}

class TokenId : public testing::TestWithParam<TokenCase> {};

TEST_P(TokenId, followsTokenRules)
{
    EXPECT_EQ(isValidTokenId(GetParam().id), GetParam().valid);
}

INSTANTIATE_TEST_SUITE_P(
    Boundaries, TokenId,
    testing::Values(TokenCase{"g", true}, TokenCase{std::string(128, 'g'), true},
                    TokenCase{"", false}, TokenCase{std::string(129, 'g'), false},
                    TokenCase{"group 123", false}, TokenCase{"group-123_A.b", true},
                    TokenCase{"tab\there", false}, TokenCase{"del\x7f", false},
                    TokenCase{"gr\xc3\xbcppe", false}, TokenCase{std::string("a\0b", 3), false},
                    TokenCase{"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", true}));

TEST(TokenId, acceptsEveryAsciiPunctuationCharacter)
{
    for (char c = 0x21; c < 0x7f; ++c) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            continue;
        EXPECT_TRUE(isValidTokenId(std::string(1, c))) << c;
        EXPECT_TRUE(isValidTokenId("group" + std::string(1, c) + "1")) << c;
    }
}

TEST(TokenId, invalidGroupIdErrorHasAwsText)
{
    const Error error = invalidTokenIdError("MessageGroupId", "group 123");
    EXPECT_EQ(error.code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(error.message,
              "Value group 123 for parameter MessageGroupId is invalid. Reason: MessageGroupId can "
              "only include alphanumeric and punctuation characters. 1 to 128 in length.");
    EXPECT_EQ(error.parameter, "MessageGroupId");
}

TEST(TokenId, invalidDeduplicationIdErrorHasAwsText)
{
    const Error error = invalidTokenIdError("MessageDeduplicationId", "");
    EXPECT_EQ(error.code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(error.message,
              "Value  for parameter MessageDeduplicationId is invalid. Reason: "
              "MessageDeduplicationId can only include alphanumeric and punctuation characters. 1 "
              "to 128 in length.");
    EXPECT_EQ(error.parameter, "MessageDeduplicationId");
}

// ---- batch entry ids (§4.2, B.45, B.47) --------------------------------------------------------

struct BatchIdCase {
    std::string id;
    bool valid;
};

void PrintTo(const BatchIdCase& c, std::ostream* os)
{
    *os << '"' << c.id.substr(0, 40) << "\" (" << c.id.size() << " chars)";
}

class BatchEntryId : public testing::TestWithParam<BatchIdCase> {};

TEST_P(BatchEntryId, followsIdRules)
{
    EXPECT_EQ(isValidBatchEntryId(GetParam().id), GetParam().valid);
}

INSTANTIATE_TEST_SUITE_P(Boundaries, BatchEntryId,
                         testing::Values(BatchIdCase{"a", true},
                                         BatchIdCase{std::string(80, 'a'), true},
                                         BatchIdCase{std::string(81, 'a'), false},
                                         BatchIdCase{"", false}, BatchIdCase{"a-B_9", true},
                                         BatchIdCase{"a.b", false}, BatchIdCase{"a b", false},
                                         BatchIdCase{"a!", false}, BatchIdCase{"\xc3\xb8", false}));

std::vector<std::string> numberedIds(int count)
{
    std::vector<std::string> ids;
    for (int i = 0; i < count; ++i)
        ids.push_back("id-" + std::to_string(i));
    return ids;
}

Status validateIds(const std::vector<std::string>& ids, std::size_t maxEntries = 10)
{
    const std::vector<std::string_view> views(ids.begin(), ids.end());
    return validateBatchEntryIds(views, maxEntries);
}

TEST(BatchEntryIds, acceptsOneToTenDistinctIds)
{
    EXPECT_TRUE(validateIds(numberedIds(1)).ok());
    EXPECT_TRUE(validateIds(numberedIds(10)).ok());
}

TEST(BatchEntryIds, rejectsEmptyBatchRequest)
{
    const Error error = errorOf(validateIds({}));
    EXPECT_EQ(error.code, ErrorCode::EmptyBatchRequest);
    EXPECT_EQ(error.message, "There should be at least one batch request entry in the request.");
}

TEST(BatchEntryIds, rejectsElevenEntries)
{
    const Error error = errorOf(validateIds(numberedIds(11)));
    EXPECT_EQ(error.code, ErrorCode::TooManyEntriesInBatchRequest);
    EXPECT_EQ(error.message, "Maximum number of entries per request are 10. You have sent 11.");
}

TEST(BatchEntryIds, rejectsTwentyEntries)
{
    const Error error = errorOf(validateIds(numberedIds(20)));
    EXPECT_EQ(error.code, ErrorCode::TooManyEntriesInBatchRequest);
    EXPECT_EQ(error.message, "Maximum number of entries per request are 10. You have sent 20.");
}

TEST(BatchEntryIds, honoursAnotherMaximum)
{
    EXPECT_TRUE(validateIds(numberedIds(20), 20).ok());
    const Error error = errorOf(validateIds(numberedIds(21), 20));
    EXPECT_EQ(error.code, ErrorCode::TooManyEntriesInBatchRequest);
    EXPECT_EQ(error.message, "Maximum number of entries per request are 20. You have sent 21.");
}

TEST(BatchEntryIds, rejectsDuplicateIds)
{
    const Error error = errorOf(validateIds({"a", "b", "a"}));
    EXPECT_EQ(error.code, ErrorCode::BatchEntryIdsNotDistinct);
    EXPECT_EQ(error.message, "Id a repeated.");
}

TEST(BatchEntryIds, comparesIdsWholeNotByTheirFirstEightCharacters)
{
    // Same length and first eight characters, differing after them: distinct.
    EXPECT_TRUE(validateIds({"abcdefgh-1", "abcdefgh-2", "abcdefgh_1"}).ok());
    // One a prefix of the other (the shorter's key has zeros where the longer has characters).
    EXPECT_TRUE(validateIds({"abc", "abcd", "abc0", "ab"}).ok());
    EXPECT_TRUE(validateIds({"abcdefgh", "abcdefghi"}).ok());
    // The same long id, anywhere in a batch of ten, is caught.
    std::vector<std::string> ids;
    for (int i = 0; i < 10; ++i)
        ids.push_back(std::string(70, 'x') + std::to_string(1000 + i));
    ids[9] = ids[4];
    const Error error = errorOf(validateIds({ids.begin(), ids.end()}));
    EXPECT_EQ(error.code, ErrorCode::BatchEntryIdsNotDistinct);
    EXPECT_EQ(error.message, "Id " + ids[4] + " repeated.");
    // Twenty ids (OCI's maximum) that share their first eight characters, the last repeating one.
    std::vector<std::string> twenty;
    for (int i = 0; i < 20; ++i)
        twenty.push_back("entry-id" + std::to_string(i));
    EXPECT_TRUE(validateIds({twenty.begin(), twenty.end()}, 20).ok());
    twenty[19] = twenty[0];
    EXPECT_EQ(errorOf(validateIds({twenty.begin(), twenty.end()}, 20)).code,
              ErrorCode::BatchEntryIdsNotDistinct);
}

TEST(BatchEntryIds, idsAreCaseSensitive)
{
    EXPECT_TRUE(validateIds({"a", "A"}).ok());
}

TEST(BatchEntryIds, rejectsInvalidBatchEntryId)
{
    const Error error = errorOf(validateIds({"ok", "a.b"}));
    EXPECT_EQ(error.code, ErrorCode::InvalidBatchEntryId);
    EXPECT_EQ(error.message,
              "A batch entry id can only contain alphanumeric characters, hyphens and underscores. "
              "It can be at most 80 letters long.");
}

TEST(BatchEntryIds, checksCountBeforeIdsAndFormatBeforeDistinctness)
{
    // §4.2's order: an 11-entry batch of bad, repeated ids is "too many" first ...
    EXPECT_EQ(errorOf(validateIds(std::vector<std::string>(11, "a.b"))).code,
              ErrorCode::TooManyEntriesInBatchRequest);
    // ... and a repeated id does not hide a malformed one after it.
    EXPECT_EQ(errorOf(validateIds({"a", "a", "b c"})).code, ErrorCode::InvalidBatchEntryId);
}

} // namespace
} // namespace inflight::engine
