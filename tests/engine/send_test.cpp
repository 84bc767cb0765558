// SendMessage and SendMessageBatch through Broker (spec §1.2, §1.3, §2.6, §4.1, §4.2, §5.6, §9;
// edge cases B.25–B.51): the validation order of §4.1 and which error wins when two rules are
// broken, size accounting and its boundaries, delays, FIFO group/dedup ids, system attributes,
// sequence numbers, message ids, digests end to end and the batch rules.

#include "engine/digest.h"
#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <ostream>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::engine {
namespace {

constexpr std::int64_t kOneMiB = 1'048'576;
const std::string kStandard = "q";
const std::string kFifo = "q.fifo";

const std::string kMissingBodyText = "The request must contain the parameter MessageBody.";
const std::string kMissingGroupText = "The request must contain the parameter MessageGroupId.";
const std::string kMissingDedupText = "The queue should either have ContentBasedDeduplication "
                                      "enabled or MessageDeduplicationId provided explicitly";
const std::string kEmptyErrorDetailsText = "Message (user) attribute 'ErrorDetails' must contain "
                                           "a non-empty value of type 'String'.";
const std::string kBadBatchIdText = "A batch entry id can only contain alphanumeric characters, "
                                    "hyphens and underscores. It can be at most 80 letters long.";
// U+001E inside the value; the literal is split so "\x1e" does not swallow the "00" after it.
const std::string kTraceparentBytes = "traceparent\x1e"
                                      "00-774062d6c37081a5a0b9b5b88e30627c-2d2482211f6489da-01";

std::string tooLargeText(std::int64_t maximum)
{
    return "One or more parameters are invalid. Reason: Message must be shorter than "
        + std::to_string(maximum) + " bytes.";
}

std::string tooLargeInBatchText(std::int64_t maximum)
{
    return "One or more parameters cannot be validated. Reason: Message must be shorter than "
        + std::to_string(maximum) + " bytes.";
}

std::string fifoDelayText(std::int64_t delay)
{
    return "Value " + std::to_string(delay)
        + " for parameter DelaySeconds is invalid. Reason: The request include parameter that is "
          "not valid for this queue type.";
}

std::string badTokenIdText(std::string_view parameter, std::string_view value)
{
    return "Value " + std::string(value) + " for parameter " + std::string(parameter)
        + " is invalid. Reason: " + std::string(parameter)
        + " can only include alphanumeric and punctuation characters. 1 to 128 in length.";
}

MessageAttributes attributesNamed(int count)
{
    MessageAttributes attributes;
    for (int i = 1; i <= count; ++i)
        attributes["attr" + std::to_string(i)] = stringAttribute("value" + std::to_string(i));
    return attributes;
}

SendMessageRequest message(std::string_view queue, std::optional<std::string> body)
{
    SendMessageRequest r;
    r.queue = std::string(queue);
    r.body = std::move(body);
    return r;
}

SendMessageRequest fifoMessage(std::string body, std::optional<std::string> group,
                               std::optional<std::string> dedup)
{
    SendMessageRequest r = message(kFifo, std::move(body));
    r.groupId = std::move(group);
    r.deduplicationId = std::move(dedup);
    return r;
}

BatchSendEntry entry(std::string id, std::string body)
{
    BatchSendEntry e;
    e.id = std::move(id);
    e.message.body = std::move(body);
    return e;
}

BatchSendEntry fifoEntry(std::string id, std::string body, std::optional<std::string> group,
                         std::optional<std::string> dedup)
{
    BatchSendEntry e = entry(std::move(id), std::move(body));
    e.message.groupId = std::move(group);
    e.message.deduplicationId = std::move(dedup);
    return e;
}

bool isLowerCaseUuid(const std::string& id)
{
    static const std::regex kUuid("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    return std::regex_match(id, kUuid);
}

bool isDecimal(const std::string& text)
{
    return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

// a < b for decimal strings of any length (AWS sequence numbers are 128-bit).
bool decimalLess(const std::string& a, const std::string& b)
{
    auto strip = [](const std::string& s) {
        const std::size_t first = s.find_first_not_of('0');
        return first == std::string::npos ? std::string("0") : s.substr(first);
    };
    const std::string x = strip(a), y = strip(b);
    return x.size() != y.size() ? x.size() < y.size() : x < y;
}

class SendTest : public EngineTest {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(succeeds(tryCreate(kStandard)));
        ASSERT_TRUE(succeeds(tryCreate(kFifo, {{"FifoQueue", "true"}})));
    }

    void setAttribute(std::string_view queue, const std::string& name, const std::string& value)
    {
        ASSERT_TRUE(succeeds(broker.setQueueAttributes(queue, {{name, value}}, "test")));
    }

    std::int64_t stored(std::string_view queue)
    {
        auto stats = broker.queueStats(queue);
        EXPECT_TRUE(succeeds(stats));
        return stats ? stats->available + stats->inFlight + stats->delayed : -1;
    }

    // Up to `max` messages with the attributes named (every one unless told).
    std::vector<ReceivedMessage> receive(std::string_view queue,
                                         std::vector<std::string> systemAttributes = {"All"},
                                         std::vector<std::string> messageAttributes = {"All"},
                                         std::int64_t max = 10)
    {
        return EngineTest::receive(
            ReceiveRequest{.queue = std::string(queue),
                           .maxMessages = max,
                           .systemAttributeNames = std::move(systemAttributes),
                           .messageAttributeNames = std::move(messageAttributes)});
    }

    // Sends `body` to the standard queue and returns what a receive with All gives back.
    std::optional<ReceivedMessage> roundTrip(SendMessageRequest request)
    {
        auto sent = broker.sendMessage(request);
        EXPECT_TRUE(succeeds(sent));
        if (!sent)
            return std::nullopt;
        auto messages = receive(request.queue);
        EXPECT_EQ(messages.size(), 1u);
        if (messages.size() != 1)
            return std::nullopt;
        EXPECT_EQ(messages[0].messageId, sent->messageId);
        return messages[0];
    }
};

// ---- §4.1 step 1–2: queue and body ---------------------------------------------------------------

TEST_F(SendTest, sendToUnknownQueueFailsWithQueueDoesNotExist)
{
    EXPECT_TRUE(failsWith(broker.sendMessage(message("nope", "hello")),
                          ErrorCode::QueueDoesNotExist, "The specified queue does not exist."));
}

TEST_F(SendTest, unknownQueueWinsOverMissingBody)
{
    EXPECT_TRUE(
        failsWith(broker.sendMessage(message("nope", std::nullopt)), ErrorCode::QueueDoesNotExist));
}

TEST_F(SendTest, absentBodyFailsWithMissingParameter)
{
    EXPECT_TRUE(failsWith(broker.sendMessage(message(kStandard, std::nullopt)),
                          ErrorCode::MissingParameter, kMissingBodyText));
    EXPECT_EQ(stored(kStandard), 0);
}

TEST_F(SendTest, emptyBodyFailsWithMissingParameter)
{
    EXPECT_TRUE(failsWith(broker.sendMessage(message(kStandard, "")), ErrorCode::MissingParameter,
                          kMissingBodyText));
    EXPECT_EQ(stored(kStandard), 0);
}

TEST_F(SendTest, oneCharacterBodyIsAccepted)
{
    EXPECT_TRUE(succeeds(broker.sendMessage(message(kStandard, "a"))));
    EXPECT_EQ(stored(kStandard), 1);
}

// ---- §4.1: which error wins when two rules are broken ----------------------------------------------

TEST_F(SendTest, missingBodyWinsOverInvalidAttribute)
{
    SendMessageRequest r = message(kStandard, std::nullopt);
    r.attributes["ErrorDetails"] = stringAttribute("");
    EXPECT_TRUE(failsWith(broker.sendMessage(r), ErrorCode::MissingParameter, kMissingBodyText));
}

TEST_F(SendTest, emptyBodyWinsOverBadDelayAndMissingGroupOnFifo)
{
    SendMessageRequest r = fifoMessage("", std::nullopt, std::nullopt);
    r.delaySeconds = 901;
    EXPECT_TRUE(failsWith(broker.sendMessage(r), ErrorCode::MissingParameter, kMissingBodyText));
}

TEST_F(SendTest, invalidBodyCharactersWinOverInvalidAttribute)
{
    SendMessageRequest r = message(kStandard, std::string("a\x01", 2));
    r.attributes["ErrorDetails"] = stringAttribute("");
    EXPECT_TRUE(failsWith(broker.sendMessage(r), ErrorCode::InvalidMessageContents));
}

TEST_F(SendTest, invalidBodyCharactersWinOverTooLarge)
{
    std::string body(static_cast<std::size_t>(kOneMiB) + 10, 'a');
    body[5] = '\0';
    EXPECT_TRUE(
        failsWith(broker.sendMessage(message(kStandard, body)), ErrorCode::InvalidMessageContents));
}

TEST_F(SendTest, invalidAttributeWinsOverTooLarge)
{
    SendMessageRequest r = message(kStandard, std::string(static_cast<std::size_t>(kOneMiB), 'a'));
    r.attributes["ErrorDetails"] = stringAttribute("");
    EXPECT_TRUE(
        failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue, kEmptyErrorDetailsText));
}

TEST_F(SendTest, tooLargeWinsOverBadDelay)
{
    SendMessageRequest r
        = message(kStandard, std::string(static_cast<std::size_t>(kOneMiB) + 1, 'a'));
    r.delaySeconds = 901;
    EXPECT_TRUE(
        failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue, tooLargeText(kOneMiB)));
}

TEST_F(SendTest, tooLargeWinsOverMissingGroupOnFifo)
{
    SendMessageRequest r
        = fifoMessage(std::string(static_cast<std::size_t>(kOneMiB) + 1, 'a'), std::nullopt, "d");
    EXPECT_TRUE(
        failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue, tooLargeText(kOneMiB)));
}

TEST_F(SendTest, fifoNonZeroDelayWinsOverMissingGroup)
{
    SendMessageRequest r = fifoMessage("body", std::nullopt, std::nullopt);
    r.delaySeconds = 5;
    EXPECT_TRUE(
        failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue, fifoDelayText(5)));
}

TEST_F(SendTest, missingGroupWinsOverMissingDeduplicationId)
{
    EXPECT_TRUE(failsWith(broker.sendMessage(fifoMessage("body", std::nullopt, std::nullopt)),
                          ErrorCode::MissingParameter, kMissingGroupText));
}

TEST_F(SendTest, missingGroupWinsOverBadDeduplicationIdFormat)
{
    EXPECT_TRUE(failsWith(broker.sendMessage(fifoMessage("body", std::nullopt, "dedup 1")),
                          ErrorCode::MissingParameter, kMissingGroupText));
}

TEST_F(SendTest, missingDeduplicationIdWinsOverBadGroupFormat)
{
    EXPECT_TRUE(failsWith(broker.sendMessage(fifoMessage("body", "group 123", std::nullopt)),
                          ErrorCode::InvalidParameterValue, kMissingDedupText));
}

TEST_F(SendTest, groupFormatIsCheckedBeforeDeduplicationIdFormat)
{
    EXPECT_TRUE(failsWith(broker.sendMessage(fifoMessage("body", "group 123", "dedup 1")),
                          ErrorCode::InvalidParameterValue,
                          badTokenIdText("MessageGroupId", "group 123")));
}

// ---- §1.3, §4.1 step 3: body characters (B.29) -------------------------------------------------------

struct BodyCase {
    const char* label;
    std::string text;
};

void PrintTo(const BodyCase& c, std::ostream* os)
{
    *os << c.label;
}

std::string caseLabel(const testing::TestParamInfo<BodyCase>& info)
{
    return info.param.label;
}

class SendRejectsBodyCharacter : public SendTest, public testing::WithParamInterface<BodyCase> {};

TEST_P(SendRejectsBodyCharacter, withInvalidMessageContentsAndStoresNothing)
{
    EXPECT_TRUE(failsWith(broker.sendMessage(message(kStandard, "x" + GetParam().text + "y")),
                          ErrorCode::InvalidMessageContents));
    EXPECT_EQ(stored(kStandard), 0);
}

INSTANTIATE_TEST_SUITE_P(
    B29, SendRejectsBodyCharacter,
    testing::Values(BodyCase{"U0000", std::string(1, '\0')}, BodyCase{"U0001", "\x01"},
                    BodyCase{"U0008", "\x08"}, BodyCase{"U000B", "\x0b"}, BodyCase{"U0013", "\x13"},
                    BodyCase{"U001F", "\x1f"}, BodyCase{"UD800EncodedSurrogate", "\xed\xa0\x80"},
                    BodyCase{"UFFFE", "\xef\xbf\xbe"}, BodyCase{"UFFFF", "\xef\xbf\xbf"},
                    BodyCase{"MalformedUtf8", "\xff"}, BodyCase{"TruncatedUtf8", "\xc3"}),
    caseLabel);

class SendAcceptsBodyCharacter : public SendTest, public testing::WithParamInterface<BodyCase> {};

TEST_P(SendAcceptsBodyCharacter, andReceiveReturnsTheBodyByteExact)
{
    const std::string body = "x" + GetParam().text + "y";
    auto received = roundTrip(message(kStandard, body));
    ASSERT_TRUE(received);
    EXPECT_EQ(received->body, body);
    EXPECT_EQ(received->md5OfBody(), md5Hex(body));
}

INSTANTIATE_TEST_SUITE_P(B29, SendAcceptsBodyCharacter,
                         testing::Values(BodyCase{"Tab", "\t"}, BodyCase{"LineFeed", "\n"},
                                         BodyCase{"CarriageReturn", "\r"}, BodyCase{"CrLf", "\r\n"},
                                         BodyCase{"Space", " "}, BodyCase{"UD7FF", "\xed\x9f\xbf"},
                                         BodyCase{"UE000", "\xee\x80\x80"},
                                         BodyCase{"UFFFD", "\xef\xbf\xbd"},
                                         BodyCase{"U10000", "\xf0\x90\x80\x80"},
                                         BodyCase{"U10FFFF", "\xf4\x8f\xbf\xbf"},
                                         BodyCase{"Mixed",
                                                  "a\tb\nc\rd\r\ne\xee\x80\x80"
                                                  "f\xf0\x90\x80\x80"
                                                  "g"}),
                         caseLabel);

TEST_F(SendTest, bodyMadeOnlyOfWhitespaceControlsRoundTrips)
{
    auto received = roundTrip(message(kStandard, "\r\n\t\r"));
    ASSERT_TRUE(received);
    EXPECT_EQ(received->body, "\r\n\t\r");
}

// ---- §1.3, §4.1 step 4: message attributes (B.33, B.35) ----------------------------------------------

TEST_F(SendTest, tenAttributesAreAcceptedAndReturned)
{
    SendMessageRequest r = message(kStandard, "body");
    r.attributes = attributesNamed(10);
    auto received = roundTrip(r);
    ASSERT_TRUE(received);
    EXPECT_EQ(received->attributes, attributesNamed(10));
}

TEST_F(SendTest, elevenAttributesAreRejected)
{
    SendMessageRequest r = message(kStandard, "body");
    r.attributes = attributesNamed(11);
    EXPECT_TRUE(failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue));
    EXPECT_EQ(stored(kStandard), 0);
}

TEST_F(SendTest, emptyStringAttributeValueIsRejectedWithAwsText)
{
    SendMessageRequest r = message(kStandard, "body");
    r.attributes["ErrorDetails"] = stringAttribute("");
    EXPECT_TRUE(
        failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue, kEmptyErrorDetailsText));
    EXPECT_EQ(stored(kStandard), 0);
}

TEST_F(SendTest, emptyBinaryAttributeValueIsRejected)
{
    SendMessageRequest r = message(kStandard, "body");
    r.attributes["blob"] = binaryAttribute("");
    EXPECT_TRUE(failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue));
}

TEST_F(SendTest, stringAttributeWithForbiddenCharacterIsInvalidParameterValue)
{
    // Not InvalidMessageContents: that code is for the body only (§4.1 step 4).
    for (const std::string& bad :
         {std::string(1, '\0'), std::string("\x08"), std::string("\xef\xbf\xbf")}) {
        SendMessageRequest r = message(kStandard, "body");
        r.attributes["note"] = stringAttribute("a" + bad + "b");
        EXPECT_TRUE(failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue));
    }
    EXPECT_EQ(stored(kStandard), 0);
}

TEST_F(SendTest, stringAttributeWithAllowedControlsIsAccepted)
{
    SendMessageRequest r = message(kStandard, "body");
    r.attributes["note"] = stringAttribute("a\tb\r\nc\xee\x80\x80");
    auto received = roundTrip(r);
    ASSERT_TRUE(received);
    EXPECT_EQ(received->attributes.at("note").stringValue, "a\tb\r\nc\xee\x80\x80");
}

TEST_F(SendTest, reservedOrMalformedAttributeNamesAndTypesAreRejected)
{
    const std::vector<std::pair<std::string, MessageAttributeValue>> bad = {
        {"AWS.thing", stringAttribute("v")},       {"amazon.thing", stringAttribute("v")},
        {".lead", stringAttribute("v")},           {"trail.", stringAttribute("v")},
        {"two..dots", stringAttribute("v")},       {"sp ace", stringAttribute("v")},
        {"ok", stringAttribute("v", "Text")},      {"ok", stringAttribute("v", "")},
        {"num", stringAttribute("abc", "Number")},
    };
    for (const auto& [name, value] : bad) {
        SendMessageRequest r = message(kStandard, "body");
        r.attributes[name] = value;
        EXPECT_TRUE(failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue))
            << name << " / " << value.dataType;
    }
    EXPECT_EQ(stored(kStandard), 0);
}

// ---- §1.3, §4.1 step 5: size (B.31) -----------------------------------------------------------------

TEST_F(SendTest, messageOfExactlyDefaultMaximumIncludingAttributeIsAccepted)
{
    // Case 31: 1 048 576 − 8 body bytes + k/String/x (1 + 6 + 1 bytes) = 1 048 576.
    SendMessageRequest r = message(kStandard, std::string(kOneMiB - 8, 'a'));
    r.attributes["k"] = stringAttribute("x");
    EXPECT_TRUE(succeeds(broker.sendMessage(r)));
}

TEST_F(SendTest, messageOneByteOverDefaultMaximumIsRejectedWithAwsText)
{
    SendMessageRequest r = message(kStandard, std::string(kOneMiB - 7, 'a'));
    r.attributes["k"] = stringAttribute("x");
    EXPECT_TRUE(failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue,
                          "One or more parameters are invalid. Reason: Message must be shorter "
                          "than 1048576 bytes."));
    EXPECT_EQ(stored(kStandard), 0);
}

TEST_F(SendTest, bodyAloneAtDefaultMaximumIsAcceptedAndOneMoreRejected)
{
    EXPECT_TRUE(succeeds(broker.sendMessage(message(kStandard, std::string(kOneMiB, 'a')))));
    EXPECT_TRUE(failsWith(broker.sendMessage(message(kStandard, std::string(kOneMiB + 1, 'a'))),
                          ErrorCode::InvalidParameterValue, tooLargeText(kOneMiB)));
}

TEST_F(SendTest, lowerMaximumMessageSizeIsInclusiveBoundary)
{
    create("small", {{"MaximumMessageSize", "1024"}});
    EXPECT_TRUE(succeeds(broker.sendMessage(message("small", std::string(1024, 'a')))));
    EXPECT_TRUE(failsWith(broker.sendMessage(message("small", std::string(1025, 'a'))),
                          ErrorCode::InvalidParameterValue, tooLargeText(1024)));
    EXPECT_EQ(stored("small"), 1);
}

TEST_F(SendTest, maximumMessageSizeChangedLaterAppliesToNextSend)
{
    setAttribute(kStandard, "MaximumMessageSize", "2048");
    EXPECT_TRUE(succeeds(broker.sendMessage(message(kStandard, std::string(2048, 'a')))));
    EXPECT_TRUE(failsWith(broker.sendMessage(message(kStandard, std::string(2049, 'a'))),
                          ErrorCode::InvalidParameterValue, tooLargeText(2048)));
}

TEST_F(SendTest, sizeCountsUtf8BytesNotCharacters)
{
    create("small", {{"MaximumMessageSize", "1024"}});
    std::string twoByteChars;
    for (int i = 0; i < 512; ++i)
        twoByteChars += "\xc3\xa9"; // é
    EXPECT_TRUE(succeeds(broker.sendMessage(message("small", twoByteChars))));
    EXPECT_TRUE(failsWith(broker.sendMessage(message("small", twoByteChars + "a")),
                          ErrorCode::InvalidParameterValue, tooLargeText(1024)));
}

TEST_F(SendTest, sizeCountsBinaryAttributeNameTypeAndRawBytes)
{
    create("small", {{"MaximumMessageSize", "1024"}});
    // "blob" (4) + "Binary" (6) + 10 raw bytes = 20.
    SendMessageRequest r = message("small", std::string(1004, 'a'));
    r.attributes["blob"] = binaryAttribute(std::string(10, '\xff'));
    EXPECT_TRUE(succeeds(broker.sendMessage(r)));
    r.body = std::string(1005, 'a');
    EXPECT_TRUE(
        failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue, tooLargeText(1024)));
}

TEST_F(SendTest, sizeCountsCustomTypeStringInFull)
{
    create("small", {{"MaximumMessageSize", "1024"}});
    // "n" (1) + "Number.int" (10) + "42" (2) = 13.
    SendMessageRequest r = message("small", std::string(1011, 'a'));
    r.attributes["n"] = stringAttribute("42", "Number.int");
    EXPECT_TRUE(succeeds(broker.sendMessage(r)));
    r.body = std::string(1012, 'a');
    EXPECT_TRUE(
        failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue, tooLargeText(1024)));
}

TEST_F(SendTest, traceHeaderDoesNotCountTowardsSize)
{
    create("small", {{"MaximumMessageSize", "1024"}});
    SendMessageRequest r = message("small", std::string(1024, 'a'));
    r.systemAttributes["AWSTraceHeader"]
        = stringAttribute("Root=1-5759e988-bd862e3fe1be46a994272793");
    EXPECT_TRUE(succeeds(broker.sendMessage(r)));
}

// ---- §4.1 step 6, §5.6: DelaySeconds (B.37, B.39) ----------------------------------------------------

TEST_F(SendTest, delayZeroIsReceivableAtOnce)
{
    SendMessageRequest r = message(kStandard, "now");
    r.delaySeconds = 0;
    ASSERT_TRUE(succeeds(broker.sendMessage(r)));
    EXPECT_EQ(receive(kStandard).size(), 1u);
}

TEST_F(SendTest, delay900IsAcceptedAndDelaysUntilExactly900Seconds)
{
    SendMessageRequest r = message(kStandard, "later");
    r.delaySeconds = 900;
    ASSERT_TRUE(succeeds(broker.sendMessage(r)));
    clock.advance(900'000 - 1);
    EXPECT_TRUE(receive(kStandard).empty());
    EXPECT_EQ(attribute(kStandard, "ApproximateNumberOfMessagesDelayed"), "1");
    clock.advance(1);
    EXPECT_EQ(attribute(kStandard, "ApproximateNumberOfMessagesDelayed"), "0");
    EXPECT_EQ(receive(kStandard).size(), 1u);
}

TEST_F(SendTest, delayOutOfRangeIsRejected)
{
    for (const std::int64_t delay : {std::int64_t{901}, std::int64_t{-1}}) {
        SendMessageRequest r = message(kStandard, "body");
        r.delaySeconds = delay;
        EXPECT_TRUE(failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue)) << delay;
    }
    EXPECT_EQ(stored(kStandard), 0);
}

TEST_F(SendTest, perMessageDelayOverridesLongerQueueDelay)
{
    setAttribute(kStandard, "DelaySeconds", "60");
    SendMessageRequest r = message(kStandard, "m");
    r.delaySeconds = 5;
    ASSERT_TRUE(succeeds(broker.sendMessage(r)));
    EXPECT_EQ(attribute(kStandard, "ApproximateNumberOfMessagesDelayed"), "1");
    EXPECT_EQ(attribute(kStandard, "ApproximateNumberOfMessages"), "0");
    clock.advance(4'999);
    EXPECT_TRUE(receive(kStandard).empty());
    clock.advance(1);
    EXPECT_EQ(attribute(kStandard, "ApproximateNumberOfMessagesDelayed"), "0");
    EXPECT_EQ(attribute(kStandard, "ApproximateNumberOfMessages"), "1");
    EXPECT_EQ(receive(kStandard).size(), 1u);
}

TEST_F(SendTest, perMessageDelayOverridesShorterQueueDelay)
{
    setAttribute(kStandard, "DelaySeconds", "5");
    SendMessageRequest r = message(kStandard, "m");
    r.delaySeconds = 30;
    ASSERT_TRUE(succeeds(broker.sendMessage(r)));
    clock.advance(29'999);
    EXPECT_TRUE(receive(kStandard).empty());
    EXPECT_EQ(attribute(kStandard, "ApproximateNumberOfMessagesDelayed"), "1");
    clock.advance(1);
    EXPECT_EQ(receive(kStandard).size(), 1u);
}

TEST_F(SendTest, perMessageZeroDelayOverridesQueueDelay)
{
    setAttribute(kStandard, "DelaySeconds", "60");
    SendMessageRequest r = message(kStandard, "m");
    r.delaySeconds = 0;
    ASSERT_TRUE(succeeds(broker.sendMessage(r)));
    EXPECT_EQ(attribute(kStandard, "ApproximateNumberOfMessagesDelayed"), "0");
    EXPECT_EQ(receive(kStandard).size(), 1u);
}

TEST_F(SendTest, omittedDelayUsesQueueDelay)
{
    setAttribute(kStandard, "DelaySeconds", "60");
    ASSERT_TRUE(succeeds(broker.sendMessage(message(kStandard, "m"))));
    clock.advance(59'999);
    EXPECT_TRUE(receive(kStandard).empty());
    EXPECT_EQ(attribute(kStandard, "ApproximateNumberOfMessagesDelayed"), "1");
    clock.advance(1);
    EXPECT_EQ(receive(kStandard).size(), 1u);
}

TEST_F(SendTest, standardQueueDelayChangeIsNotRetroactive)
{
    setAttribute(kStandard, "DelaySeconds", "60");
    ASSERT_TRUE(succeeds(broker.sendMessage(message(kStandard, "m"))));
    clock.advance(10'000);
    setAttribute(kStandard, "DelaySeconds", "0");
    EXPECT_TRUE(receive(kStandard).empty());
    clock.advance(49'999);
    EXPECT_TRUE(receive(kStandard).empty());
    clock.advance(1);
    EXPECT_EQ(receive(kStandard).size(), 1u);
}

TEST_F(SendTest, fifoQueueDelayChangeIsRetroactive)
{
    setAttribute(kFifo, "DelaySeconds", "60");
    ASSERT_TRUE(succeeds(broker.sendMessage(fifoMessage("m", "g", "d"))));
    clock.advance(10'000);
    EXPECT_TRUE(receive(kFifo).empty());
    setAttribute(kFifo, "DelaySeconds", "0");
    EXPECT_EQ(receive(kFifo).size(), 1u);
}

TEST_F(SendTest, visibilityStartsAtReceiveWhileDelayStartsAtSend)
{
    SendMessageRequest r = message(kStandard, "m");
    r.delaySeconds = 10;
    ASSERT_TRUE(succeeds(broker.sendMessage(r)));
    clock.advance(10'000);
    ReceiveRequest rr;
    rr.queue = std::string(kStandard);
    rr.visibilityTimeout = 5;
    ASSERT_EQ(broker.receiveMessage(rr)->messages.size(), 1u);
    clock.advance(4'999);
    EXPECT_TRUE(receive(kStandard).empty());
    clock.advance(1);
    EXPECT_EQ(receive(kStandard).size(), 1u);
}

class FifoRejectsNonZeroDelay : public SendTest,
                                public testing::WithParamInterface<std::int64_t> {};

TEST_P(FifoRejectsNonZeroDelay, withQueueTypeText)
{
    SendMessageRequest r = fifoMessage("m", "g", "d");
    r.delaySeconds = GetParam();
    EXPECT_TRUE(failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue,
                          fifoDelayText(GetParam())));
    EXPECT_EQ(stored(kFifo), 0);
}

INSTANTIATE_TEST_SUITE_P(AwsObserved, FifoRejectsNonZeroDelay, testing::Values(1, 5, 900));

TEST_F(SendTest, fifoDelayOutOfRangeIsInvalidParameterValue)
{
    SendMessageRequest r = fifoMessage("m", "g", "d");
    r.delaySeconds = 901;
    EXPECT_TRUE(failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue));
}

TEST_F(SendTest, fifoZeroDelayIsAcceptedAndQueueDelayStillApplies)
{
    setAttribute(kFifo, "DelaySeconds", "10");
    SendMessageRequest r = fifoMessage("m", "g", "d");
    r.delaySeconds = 0;
    ASSERT_TRUE(succeeds(broker.sendMessage(r)));
    EXPECT_EQ(attribute(kFifo, "ApproximateNumberOfMessagesDelayed"), "1");
    clock.advance(9'999);
    EXPECT_TRUE(receive(kFifo).empty());
    clock.advance(1);
    EXPECT_EQ(receive(kFifo).size(), 1u);
}

// ---- §4.1 steps 7–9: FIFO group and deduplication ids (B.41) -------------------------------------

TEST_F(SendTest, fifoWithoutGroupFailsWithMissingParameter)
{
    EXPECT_TRUE(failsWith(broker.sendMessage(fifoMessage("m", std::nullopt, "d")),
                          ErrorCode::MissingParameter, kMissingGroupText));
    EXPECT_EQ(stored(kFifo), 0);
}

TEST_F(SendTest, fifoWithoutDeduplicationIdOrContentBasedDeduplicationFails)
{
    EXPECT_TRUE(failsWith(broker.sendMessage(fifoMessage("m", "g", std::nullopt)),
                          ErrorCode::InvalidParameterValue, kMissingDedupText));
    EXPECT_EQ(stored(kFifo), 0);
}

TEST_F(SendTest, fifoWithContentBasedDeduplicationNeedsNoDeduplicationId)
{
    create("cbd.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}});
    SendMessageRequest r = fifoMessage("m", "g", std::nullopt);
    r.queue = "cbd.fifo";
    EXPECT_TRUE(succeeds(broker.sendMessage(r)));
    EXPECT_EQ(stored("cbd.fifo"), 1);
}

struct TokenIdCase {
    const char* label;
    std::string value;
};

void PrintTo(const TokenIdCase& c, std::ostream* os)
{
    *os << c.label;
}

std::string tokenLabel(const testing::TestParamInfo<TokenIdCase>& info)
{
    return info.param.label;
}

const std::string kAllPunctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

class FifoRejectsTokenId : public SendTest, public testing::WithParamInterface<TokenIdCase> {};

TEST_P(FifoRejectsTokenId, asMessageGroupId)
{
    EXPECT_TRUE(failsWith(broker.sendMessage(fifoMessage("m", GetParam().value, "d")),
                          ErrorCode::InvalidParameterValue,
                          badTokenIdText("MessageGroupId", GetParam().value)));
    EXPECT_EQ(stored(kFifo), 0);
}

TEST_P(FifoRejectsTokenId, asMessageDeduplicationId)
{
    EXPECT_TRUE(failsWith(broker.sendMessage(fifoMessage("m", "g", GetParam().value)),
                          ErrorCode::InvalidParameterValue,
                          badTokenIdText("MessageDeduplicationId", GetParam().value)));
    EXPECT_EQ(stored(kFifo), 0);
}

INSTANTIATE_TEST_SUITE_P(B41, FifoRejectsTokenId,
                         testing::Values(TokenIdCase{"Empty", ""},
                                         TokenIdCase{"Chars129", std::string(129, 'a')},
                                         TokenIdCase{"InnerSpace", "group 123"},
                                         TokenIdCase{"Tab", "a\tb"},
                                         TokenIdCase{"NonAscii", "gr\xc3\xbcppe"}),
                         tokenLabel);

class FifoAcceptsTokenId : public SendTest, public testing::WithParamInterface<TokenIdCase> {};

TEST_P(FifoAcceptsTokenId, asMessageGroupIdAndDeduplicationId)
{
    ASSERT_TRUE(succeeds(broker.sendMessage(fifoMessage("m", GetParam().value, GetParam().value))));
    auto messages = receive(kFifo);
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_EQ(messages[0].systemAttributes["MessageGroupId"], GetParam().value);
    EXPECT_EQ(messages[0].systemAttributes["MessageDeduplicationId"], GetParam().value);
}

INSTANTIATE_TEST_SUITE_P(B41, FifoAcceptsTokenId,
                         testing::Values(TokenIdCase{"OneChar", "a"},
                                         TokenIdCase{"Chars128", std::string(128, 'z')},
                                         TokenIdCase{"AllPunctuation", kAllPunctuation},
                                         TokenIdCase{"Alphanumeric", "Group0123456789xyzXYZ"}),
                         tokenLabel);

TEST_F(SendTest, standardQueueAcceptsGroupIdAndReturnsItWithoutSequenceNumber)
{
    SendMessageRequest r = message(kStandard, "fair");
    r.groupId = "tenant-1";
    auto sent = broker.sendMessage(r);
    ASSERT_TRUE(succeeds(sent));
    EXPECT_TRUE(sent->sequenceNumber.empty());
    auto messages = receive(kStandard);
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_EQ(messages[0].systemAttributes["MessageGroupId"], "tenant-1");
    EXPECT_EQ(messages[0].systemAttributes.count("SequenceNumber"), 0u);
    EXPECT_EQ(messages[0].systemAttributes.count("MessageDeduplicationId"), 0u);
}

TEST_F(SendTest, standardQueueGroupIdDoesNotBlockTheGroup)
{
    for (const char* body : {"one", "two"}) {
        SendMessageRequest r = message(kStandard, body);
        r.groupId = "g";
        ASSERT_TRUE(succeeds(broker.sendMessage(r)));
    }
    // A FIFO group would stop at the first in-flight message; a standard queue must not.
    EXPECT_EQ(receive(kStandard, {}, {}, 1).size(), 1u);
    EXPECT_EQ(receive(kStandard, {}, {}, 1).size(), 1u);
}

TEST_F(SendTest, standardQueueWithoutGroupIdReturnsNoGroupAttribute)
{
    ASSERT_TRUE(succeeds(broker.sendMessage(message(kStandard, "m"))));
    auto messages = receive(kStandard);
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_EQ(messages[0].systemAttributes.count("MessageGroupId"), 0u);
}

TEST_F(SendTest, standardQueueRejectsDeduplicationId)
{
    // Text UNCONFIRMED (§9 item 4): only the code is asserted.
    SendMessageRequest r = message(kStandard, "m");
    r.deduplicationId = "d";
    EXPECT_TRUE(failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue));
    EXPECT_EQ(stored(kStandard), 0);
}

// ---- §1.3: system attributes ---------------------------------------------------------------------

TEST_F(SendTest, traceHeaderIsAcceptedAndReturnedWithAll)
{
    SendMessageRequest r = message(kStandard, "traced");
    r.systemAttributes["AWSTraceHeader"] = stringAttribute("Root=1-abc;Sampled=1");
    auto received = roundTrip(r);
    ASSERT_TRUE(received);
    EXPECT_EQ(received->systemAttributes["AWSTraceHeader"], "Root=1-abc;Sampled=1");
    // A system attribute is not a message attribute.
    EXPECT_TRUE(received->attributes.empty());
    EXPECT_EQ(received->md5OfMessageAttributes(), "");
}

TEST_F(SendTest, traceHeaderIsReturnedWhenAskedByNameOnly)
{
    SendMessageRequest r = message(kStandard, "traced");
    r.systemAttributes["AWSTraceHeader"] = stringAttribute("Root=1-abc");
    ASSERT_TRUE(succeeds(broker.sendMessage(r)));
    auto messages = receive(kStandard, {"AWSTraceHeader"}, {}, 1);
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_EQ(messages[0].systemAttributes, (StringMap{{"AWSTraceHeader", "Root=1-abc"}}));
}

TEST_F(SendTest, traceHeaderDoesNotChangeAttributeDigest)
{
    SendMessageRequest r = message(kStandard, "traced");
    r.attributes["Foo"] = stringAttribute("Bar");
    r.systemAttributes["AWSTraceHeader"] = stringAttribute("Root=1-abc");
    auto received = roundTrip(r);
    ASSERT_TRUE(received);
    EXPECT_EQ(received->md5OfMessageAttributes(), "ae7155c6026991b6d54b11589678bf9c");
}

TEST_F(SendTest, otherSystemAttributeNamesAreRejected)
{
    for (const char* name : {"SentTimestamp", "MessageGroupId", "Foo", "awstraceheader"}) {
        SendMessageRequest r = message(kStandard, "m");
        r.systemAttributes[name] = stringAttribute("1");
        EXPECT_TRUE(failsWith(broker.sendMessage(r), ErrorCode::InvalidParameterValue)) << name;
    }
    EXPECT_EQ(stored(kStandard), 0);
}

// ---- §1.2: identifiers, sequence numbers, timestamps (B.43) ----------------------------------------

TEST_F(SendTest, fifoSequenceNumbersStrictlyIncreaseAsIntegers)
{
    std::vector<std::string> sent;
    for (int i = 0; i < 3; ++i) {
        auto r = broker.sendMessage(
            fifoMessage("m" + std::to_string(i), "g", "d" + std::to_string(i)));
        ASSERT_TRUE(succeeds(r));
        ASSERT_TRUE(isDecimal(r->sequenceNumber)) << r->sequenceNumber;
        sent.push_back(r->sequenceNumber);
    }
    EXPECT_TRUE(decimalLess(sent[0], sent[1])) << sent[0] << " !< " << sent[1];
    EXPECT_TRUE(decimalLess(sent[1], sent[2])) << sent[1] << " !< " << sent[2];

    auto messages = receive(kFifo);
    ASSERT_EQ(messages.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_EQ(messages[i].systemAttributes["SequenceNumber"], sent[i]);
}

TEST_F(SendTest, fifoSequenceNumbersIncreaseAcrossGroups)
{
    auto a = broker.sendMessage(fifoMessage("a", "g1", "d1"));
    auto b = broker.sendMessage(fifoMessage("b", "g2", "d2"));
    ASSERT_TRUE(succeeds(a));
    ASSERT_TRUE(succeeds(b));
    EXPECT_TRUE(decimalLess(a->sequenceNumber, b->sequenceNumber));
}

TEST_F(SendTest, standardSendHasNoSequenceNumber)
{
    auto sent = broker.sendMessage(message(kStandard, "m"));
    ASSERT_TRUE(succeeds(sent));
    EXPECT_TRUE(sent->sequenceNumber.empty());
    auto messages = receive(kStandard);
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_EQ(messages[0].systemAttributes.count("SequenceNumber"), 0u);
}

TEST_F(SendTest, messageIdsAreDistinctUuids)
{
    std::set<std::string> ids;
    for (int i = 0; i < 50; ++i) {
        auto sent = broker.sendMessage(message(kStandard, "same body"));
        ASSERT_TRUE(succeeds(sent));
        EXPECT_TRUE(isLowerCaseUuid(sent->messageId)) << sent->messageId;
        EXPECT_LE(sent->messageId.size(), 100u);
        ids.insert(sent->messageId);
    }
    EXPECT_EQ(ids.size(), 50u);
}

TEST_F(SendTest, fifoMessageIdsAreDistinctUuids)
{
    auto a = broker.sendMessage(fifoMessage("m", "g", "d1"));
    auto b = broker.sendMessage(fifoMessage("m", "g", "d2"));
    ASSERT_TRUE(succeeds(a));
    ASSERT_TRUE(succeeds(b));
    EXPECT_TRUE(isLowerCaseUuid(a->messageId)) << a->messageId;
    EXPECT_NE(a->messageId, b->messageId);
}

TEST_F(SendTest, sentTimestampIsClockTimeOfTheSend)
{
    clock.advance(1'234);
    const Millis sentAt = clock.now();
    SendMessageRequest r = message(kStandard, "m");
    r.delaySeconds = 3;
    auto sent = broker.sendMessage(r);
    ASSERT_TRUE(succeeds(sent));
    EXPECT_EQ(sent->sentAt, sentAt);
    clock.advance(3'000);
    auto messages = receive(kStandard);
    ASSERT_EQ(messages.size(), 1u);
    // The send time, not the end of the delay nor the receive time.
    EXPECT_EQ(messages[0].systemAttributes["SentTimestamp"], std::to_string(sentAt));
    EXPECT_EQ(messages[0].sentAt, sentAt);
}

TEST_F(SendTest, retentionDeadlineCountsFromTheSend)
{
    clock.advance(500);
    auto sent = broker.sendMessage(message(kStandard, "m"));
    ASSERT_TRUE(succeeds(sent));
    EXPECT_EQ(sent->expiresAt, clock.now() + 345'600 * kSecond);
}

// ---- §2.6: digests end to end (B.25, B.27) -----------------------------------------------------------

TEST_F(SendTest, receivedMd5OfBodyMatchesAwsVector)
{
    for (const auto& [body, md5] : std::vector<std::pair<std::string, std::string>>{
             {"foobar", "3858f62230ac3c915f300c664312c63f"},
             {"msg", "6e2baaf3b97dbeef01c0043275f9a0e7"},
             {"test", "098f6bcd4621d373cade4e832627b4f6"}}) {
        auto received = roundTrip(message(kStandard, body));
        ASSERT_TRUE(received);
        EXPECT_EQ(received->md5OfBody(), md5) << body;
        ASSERT_TRUE(succeeds(broker.deleteMessage(kStandard, received->receiptHandle, "test")));
    }
}

TEST_F(SendTest, binaryAttributeRoundTripsAndMatchesAwsDigest)
{
    SendMessageRequest r = message(kStandard, "body");
    r.attributes["attr1"] = binaryAttribute(kTraceparentBytes);
    auto received = roundTrip(r);
    ASSERT_TRUE(received);
    ASSERT_EQ(received->attributes.count("attr1"), 1u);
    EXPECT_EQ(received->attributes.at("attr1").dataType, "Binary");
    EXPECT_EQ(received->attributes.at("attr1").binaryValue, kTraceparentBytes);
    EXPECT_EQ(received->md5OfMessageAttributes(), "8cbe4db156db8a94db8b801b7addb984");
}

TEST_F(SendTest, binaryAttributeWithArbitraryBytesRoundTripsExactly)
{
    const std::string bytes("\x00\x01\xff\xfe\x80\x00\x7f", 7);
    SendMessageRequest r = message(kStandard, "body");
    r.attributes["raw"] = binaryAttribute(bytes, "Binary.bin");
    auto received = roundTrip(r);
    ASSERT_TRUE(received);
    ASSERT_EQ(received->attributes.count("raw"), 1u);
    EXPECT_EQ(received->attributes.at("raw").binaryValue, bytes);
    EXPECT_EQ(received->attributes.at("raw").dataType, "Binary.bin");
    EXPECT_EQ(received->md5OfMessageAttributes(), md5OfMessageAttributes(r.attributes));
}

TEST_F(SendTest, receivedAttributeDigestMatchesAwsStringVectors)
{
    SendMessageRequest one = message(kStandard, "one");
    one.attributes["MyAttribute"] = stringAttribute("foobar");
    auto received = roundTrip(one);
    ASSERT_TRUE(received);
    EXPECT_EQ(received->md5OfMessageAttributes(), "adb59cd4678ea5a855436b949cd07ab6");
}

class SendDigestOfFilteredAttributes : public SendTest {
protected:
    void SetUp() override
    {
        SendTest::SetUp();
        SendMessageRequest r = message(kStandard, "star wars");
        r.attributes["Help.Me"] = stringAttribute("Me");
        r.attributes["Hello"] = stringAttribute("There");
        r.attributes["General"] = stringAttribute("Kenobi");
        ASSERT_TRUE(succeeds(broker.sendMessage(r)));
    }

    std::string digestReceivedWith(std::vector<std::string> names)
    {
        ReceiveRequest r;
        r.queue = std::string(kStandard);
        r.visibilityTimeout = 0;
        r.messageAttributeNames = std::move(names);
        auto result = broker.receiveMessage(r);
        EXPECT_TRUE(succeeds(result));
        if (!result || result->messages.size() != 1)
            return "<no message>";
        return result->messages[0].md5OfMessageAttributes();
    }
};

TEST_F(SendDigestOfFilteredAttributes, allAttributes)
{
    EXPECT_EQ(digestReceivedWith({"All"}), "4c360f3fdafd970e05fae2f149d997f5");
}

TEST_F(SendDigestOfFilteredAttributes, exactNamesHelloGeneral)
{
    EXPECT_EQ(digestReceivedWith({"Hello", "General"}), "fca026605781cb4126a1e9044df24232");
}

TEST_F(SendDigestOfFilteredAttributes, prefixPatternHel)
{
    // AWS-recorded: [Hel.*] returns Help.Me and Hello (the digest of exactly those two).
    EXPECT_EQ(digestReceivedWith({"Hel.*"}), "83fee93c1bcd8b9a5a923ffacdc636c7");
}

TEST_F(SendDigestOfFilteredAttributes, noneRequestedGivesNoDigest)
{
    EXPECT_EQ(digestReceivedWith({}), "");
}

// ---- §4.2: SendMessageBatch --------------------------------------------------------------------------

std::vector<BatchSendEntry> entries(int count)
{
    std::vector<BatchSendEntry> result;
    for (int i = 0; i < count; ++i)
        result.push_back(entry(std::to_string(i), "body" + std::to_string(i)));
    return result;
}

TEST_F(SendTest, batchToUnknownQueueFailsWithQueueDoesNotExist)
{
    EXPECT_TRUE(failsWith(broker.sendMessageBatch("nope", entries(1), "test"),
                          ErrorCode::QueueDoesNotExist));
}

TEST_F(SendTest, emptyBatchFailsWithEmptyBatchRequest)
{
    EXPECT_TRUE(
        failsWith(broker.sendMessageBatch(kStandard, {}, "test"), ErrorCode::EmptyBatchRequest));
}

TEST_F(SendTest, batchOfTenEntriesAllSucceed)
{
    auto result = broker.sendMessageBatch(kStandard, entries(10), "test");
    ASSERT_TRUE(succeeds(result));
    EXPECT_EQ(result->successful.size(), 10u);
    EXPECT_TRUE(result->failed.empty());
    EXPECT_EQ(result->succeededInOrder, std::vector<bool>(10, true));
    std::set<std::string> ids;
    for (std::size_t i = 0; i < result->successful.size(); ++i) {
        EXPECT_EQ(result->successful[i].id, std::to_string(i));
        EXPECT_TRUE(isLowerCaseUuid(result->successful[i].result.messageId));
        EXPECT_TRUE(result->successful[i].result.sequenceNumber.empty());
        ids.insert(result->successful[i].result.messageId);
    }
    EXPECT_EQ(ids.size(), 10u);
    EXPECT_EQ(stored(kStandard), 10);
}

class BatchTooManyEntries : public SendTest, public testing::WithParamInterface<int> {};

TEST_P(BatchTooManyEntries, failsWholeRequestWithAwsText)
{
    EXPECT_TRUE(failsWith(broker.sendMessageBatch(kStandard, entries(GetParam()), "test"),
                          ErrorCode::TooManyEntriesInBatchRequest,
                          "Maximum number of entries per request are 10. You have sent "
                              + std::to_string(GetParam()) + "."));
    EXPECT_EQ(stored(kStandard), 0);
}

INSTANTIATE_TEST_SUITE_P(B45, BatchTooManyEntries, testing::Values(11, 20));

TEST_F(SendTest, batchWithDuplicateIdsFailsWholeRequest)
{
    auto batch = entries(3);
    batch[2].id = "0";
    EXPECT_TRUE(failsWith(broker.sendMessageBatch(kStandard, batch, "test"),
                          ErrorCode::BatchEntryIdsNotDistinct));
    EXPECT_EQ(stored(kStandard), 0);
}

TEST_F(SendTest, batchIdsAreCaseSensitive)
{
    std::vector<BatchSendEntry> batch{entry("a", "x"), entry("A", "y")};
    auto result = broker.sendMessageBatch(kStandard, batch, "test");
    ASSERT_TRUE(succeeds(result));
    EXPECT_EQ(result->successful.size(), 2u);
}

class BatchRejectsEntryId : public SendTest, public testing::WithParamInterface<TokenIdCase> {};

TEST_P(BatchRejectsEntryId, withInvalidBatchEntryId)
{
    std::vector<BatchSendEntry> batch{entry("ok", "x"), entry(GetParam().value, "y")};
    EXPECT_TRUE(failsWith(broker.sendMessageBatch(kStandard, batch, "test"),
                          ErrorCode::InvalidBatchEntryId, kBadBatchIdText));
    EXPECT_EQ(stored(kStandard), 0);
}

INSTANTIATE_TEST_SUITE_P(B47, BatchRejectsEntryId,
                         testing::Values(TokenIdCase{"Empty", ""},
                                         TokenIdCase{"Chars81", std::string(81, 'a')},
                                         TokenIdCase{"Space", "a b"}, TokenIdCase{"Period", "a.b"},
                                         TokenIdCase{"NonAscii", "\xc3\xbc"}),
                         tokenLabel);

TEST_F(SendTest, batchEntryIdOf80AllowedCharactersIsAccepted)
{
    std::vector<BatchSendEntry> batch{entry(std::string(80, 'a'), "x"), entry("Az09-_", "y")};
    auto result = broker.sendMessageBatch(kStandard, batch, "test");
    ASSERT_TRUE(succeeds(result));
    EXPECT_EQ(result->successful.size(), 2u);
}

TEST_F(SendTest, batchTotalOverOneMebibyteFailsWithAwsText)
{
    // Case 51: 1 048 568 + k/String/x = 1 048 576, plus "a" = 1 048 577.
    std::vector<BatchSendEntry> batch{entry("1", std::string(kOneMiB - 8, 'a')), entry("2", "a")};
    batch[0].message.attributes["k"] = stringAttribute("x");
    EXPECT_TRUE(failsWith(broker.sendMessageBatch(kStandard, batch, "test"),
                          ErrorCode::BatchRequestTooLong,
                          "Batch requests cannot be longer than 1048576 bytes. You have sent "
                          "1048577 bytes."));
    EXPECT_EQ(stored(kStandard), 0);
}

TEST_F(SendTest, batchTotalOfExactlyOneMebibyteIsAccepted)
{
    std::vector<BatchSendEntry> batch{entry("1", std::string(kOneMiB - 9, 'a')), entry("2", "a")};
    batch[0].message.attributes["k"] = stringAttribute("x");
    auto result = broker.sendMessageBatch(kStandard, batch, "test");
    ASSERT_TRUE(succeeds(result));
    EXPECT_EQ(result->successful.size(), 2u);
}

TEST_F(SendTest, batchSingleEntryOverOneMebibyteIsTooLongAsAWholeRequest)
{
    std::vector<BatchSendEntry> batch{entry("1", std::string(kOneMiB + 1, 'a'))};
    EXPECT_TRUE(failsWith(broker.sendMessageBatch(kStandard, batch, "test"),
                          ErrorCode::BatchRequestTooLong,
                          "Batch requests cannot be longer than 1048576 bytes. You have sent "
                          "1048577 bytes."));
}

TEST_F(SendTest, batchPartialFailureReportsOnlyTheBadEntry)
{
    // Case 49: nine valid entries and Id=9 with body "\x01" → success with one Failed entry.
    auto batch = entries(9);
    batch.push_back(entry("9", "\x01"));
    auto result = broker.sendMessageBatch(kStandard, batch, "test");
    ASSERT_TRUE(succeeds(result));
    EXPECT_EQ(result->successful.size(), 9u);
    ASSERT_EQ(result->failed.size(), 1u);
    EXPECT_EQ(result->failed[0].id, "9");
    EXPECT_EQ(result->failed[0].error.code, ErrorCode::InvalidMessageContents);
    EXPECT_TRUE(result->failed[0].senderFault);
    std::vector<bool> expected(9, true);
    expected.push_back(false);
    EXPECT_EQ(result->succeededInOrder, expected);
    EXPECT_EQ(stored(kStandard), 9);
    EXPECT_EQ(receive(kStandard).size(), 9u);
}

TEST_F(SendTest, batchFailureInTheMiddleKeepsRequestOrderInSucceededInOrder)
{
    std::vector<BatchSendEntry> batch{entry("a", "fine"), entry("b", ""), entry("c", "fine too")};
    batch.push_back(entry("d", "ok"));
    batch[3].message.attributes["ErrorDetails"] = stringAttribute("");
    auto result = broker.sendMessageBatch(kStandard, batch, "test");
    ASSERT_TRUE(succeeds(result));
    EXPECT_EQ(result->succeededInOrder, (std::vector<bool>{true, false, true, false}));
    ASSERT_EQ(result->successful.size(), 2u);
    EXPECT_EQ(result->successful[0].id, "a");
    EXPECT_EQ(result->successful[1].id, "c");
    ASSERT_EQ(result->failed.size(), 2u);
    EXPECT_EQ(result->failed[0].id, "b");
    EXPECT_EQ(result->failed[0].error.code, ErrorCode::MissingParameter);
    EXPECT_EQ(result->failed[1].id, "d");
    EXPECT_EQ(result->failed[1].error.code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(result->failed[1].error.message, kEmptyErrorDetailsText);
}

TEST_F(SendTest, batchEntryOverQueueMaximumFailsOnlyThatEntryWithBatchText)
{
    create("small", {{"MaximumMessageSize", "1024"}});
    std::vector<BatchSendEntry> batch{entry("fits", std::string(1024, 'a')),
                                      entry("big", std::string(1025, 'a'))};
    auto result = broker.sendMessageBatch("small", batch, "test");
    ASSERT_TRUE(succeeds(result));
    ASSERT_EQ(result->successful.size(), 1u);
    EXPECT_EQ(result->successful[0].id, "fits");
    ASSERT_EQ(result->failed.size(), 1u);
    EXPECT_EQ(result->failed[0].id, "big");
    EXPECT_EQ(result->failed[0].error.code, ErrorCode::InvalidParameterValue);
    EXPECT_EQ(result->failed[0].error.message, tooLargeInBatchText(1024));
    EXPECT_TRUE(result->failed[0].senderFault);
    EXPECT_EQ(stored("small"), 1);
}

TEST_F(SendTest, batchSuccessIdsMatchReceivedMessageIds)
{
    auto result = broker.sendMessageBatch(kStandard, entries(3), "test");
    ASSERT_TRUE(succeeds(result));
    std::set<std::string> sent;
    for (const auto& s : result->successful)
        sent.insert(s.result.messageId);
    std::set<std::string> received;
    for (const ReceivedMessage& m : receive(kStandard))
        received.insert(m.messageId);
    EXPECT_EQ(received, sent);
}

TEST_F(SendTest, fifoBatchEntryWithoutGroupFailsWholeRequestWithInvalidParameterValue)
{
    std::vector<BatchSendEntry> batch{fifoEntry("1", "a", "g", "d1"),
                                      fifoEntry("2", "b", std::nullopt, "d2")};
    EXPECT_TRUE(failsWith(broker.sendMessageBatch(kFifo, batch, "test"),
                          ErrorCode::InvalidParameterValue, kMissingGroupText));
    EXPECT_EQ(stored(kFifo), 0);
}

TEST_F(SendTest, fifoBatchMissingGroupWinsOverAnotherEntrysBadBody)
{
    std::vector<BatchSendEntry> batch{fifoEntry("1", "\x01", "g", "d1"),
                                      fifoEntry("2", "b", std::nullopt, "d2")};
    EXPECT_TRUE(failsWith(broker.sendMessageBatch(kFifo, batch, "test"),
                          ErrorCode::InvalidParameterValue, kMissingGroupText));
    EXPECT_EQ(stored(kFifo), 0);
}

TEST_F(SendTest, fifoBatchEntryWithoutDeduplicationIdFailsWholeRequest)
{
    std::vector<BatchSendEntry> batch{fifoEntry("1", "a", "g", "d1"),
                                      fifoEntry("2", "b", "g", std::nullopt)};
    EXPECT_TRUE(failsWith(broker.sendMessageBatch(kFifo, batch, "test"),
                          ErrorCode::InvalidParameterValue, kMissingDedupText));
    EXPECT_EQ(stored(kFifo), 0);
}

TEST_F(SendTest, fifoBatchWithoutDeduplicationIdsIsAcceptedWithContentBasedDeduplication)
{
    create("cbd.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}});
    std::vector<BatchSendEntry> batch{fifoEntry("1", "a", "g", std::nullopt),
                                      fifoEntry("2", "b", "g", std::nullopt)};
    auto result = broker.sendMessageBatch("cbd.fifo", batch, "test");
    ASSERT_TRUE(succeeds(result));
    EXPECT_EQ(result->successful.size(), 2u);
    EXPECT_EQ(stored("cbd.fifo"), 2);
}

TEST_F(SendTest, fifoBatchEntriesAreEnqueuedInRequestOrder)
{
    std::vector<BatchSendEntry> batch{fifoEntry("c", "first", "g", "d1"),
                                      fifoEntry("a", "second", "g", "d2"),
                                      fifoEntry("b", "third", "g", "d3")};
    auto result = broker.sendMessageBatch(kFifo, batch, "test");
    ASSERT_TRUE(succeeds(result));
    ASSERT_EQ(result->successful.size(), 3u);
    EXPECT_EQ(result->successful[0].id, "c");
    EXPECT_EQ(result->successful[1].id, "a");
    EXPECT_EQ(result->successful[2].id, "b");
    EXPECT_TRUE(decimalLess(result->successful[0].result.sequenceNumber,
                            result->successful[1].result.sequenceNumber));
    EXPECT_TRUE(decimalLess(result->successful[1].result.sequenceNumber,
                            result->successful[2].result.sequenceNumber));
    auto messages = receive(kFifo);
    ASSERT_EQ(messages.size(), 3u);
    EXPECT_EQ(messages[0].body, "first");
    EXPECT_EQ(messages[1].body, "second");
    EXPECT_EQ(messages[2].body, "third");
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_EQ(messages[i].messageId, result->successful[i].result.messageId);
}

TEST_F(SendTest, fifoBatchFollowsEarlierSingleSendsInTheGroup)
{
    ASSERT_TRUE(succeeds(broker.sendMessage(fifoMessage("zero", "g", "d0"))));
    std::vector<BatchSendEntry> batch{fifoEntry("1", "one", "g", "d1"),
                                      fifoEntry("2", "two", "g", "d2")};
    ASSERT_TRUE(succeeds(broker.sendMessageBatch(kFifo, batch, "test")));
    auto messages = receive(kFifo);
    ASSERT_EQ(messages.size(), 3u);
    EXPECT_EQ(messages[0].body, "zero");
    EXPECT_EQ(messages[1].body, "one");
    EXPECT_EQ(messages[2].body, "two");
}

} // namespace
} // namespace inflight::engine
