// The JSON documents a queue attribute holds (RedrivePolicy, RedriveAllowPolicy, Policy): at most
// 8,192 bytes each (§1.3 gives that limit for Policy; the other two take the same) and nested at
// most 32 levels deep, on CreateQueue and SetQueueAttributes alike. A document over either limit
// is InvalidAttributeValue; an error that quotes the client's value quotes at most its first
// 1,024 bytes. The rules of each document are in queue_config_test.cpp.
#include "engine/queue_config.h"

#include <gtest/gtest.h>

#include <string>

namespace inflight::engine {
namespace {

const std::string kDlqArn = "arn:aws:sqs:us-east-1:000000000000:dlq";
constexpr std::size_t kMaxDocumentBytes = 8'192;
constexpr std::size_t kMaxDocumentDepth = 32;
constexpr std::size_t kMaxEchoedBytes = 1'024;

const char* const kDocumentAttributes[] = {"RedrivePolicy", "RedriveAllowPolicy", "Policy"};

// `depth` arrays nested in each other: depth 1 is "[]".
std::string nestedArrays(std::size_t depth)
{
    return std::string(depth, '[') + std::string(depth, ']');
}

// A RedrivePolicy whose maxReceiveCount is `count` (JSON text).
std::string redrivePolicy(const std::string& count)
{
    return R"({"deadLetterTargetArn":")" + kDlqArn + R"(","maxReceiveCount":)" + count + "}";
}

// A valid document of the attribute's kind.
std::string validDocument(const std::string& attribute)
{
    if (attribute == "RedrivePolicy")
        return redrivePolicy("5");
    if (attribute == "RedriveAllowPolicy")
        return R"({"redrivePermission":"allowAll"})";
    return R"({"Version":"2012-10-17","Statement":[]})";
}

// A document of the attribute's kind (an object, as each must be) nesting `depth` ≥ 2 levels in
// all. Only a Policy may hold members of its own choosing, so only the Policy is valid.
std::string documentOfDepth(const std::string& attribute, std::size_t depth)
{
    if (attribute == "RedrivePolicy")
        return redrivePolicy(nestedArrays(depth - 1));
    if (attribute == "RedriveAllowPolicy")
        return R"({"redrivePermission":"allowAll","x":)" + nestedArrays(depth - 1) + "}";
    return R"({"Version":"2012-10-17","Statement":[],"x":)" + nestedArrays(depth - 1) + "}";
}

Result<QueueConfig> create(const StringMap& attributes)
{
    return configForCreate(attributes, /*oci=*/false, BrokerOptions{});
}

Result<QueueConfig> set(const StringMap& attributes)
{
    const auto queue = create({});
    EXPECT_TRUE(queue.ok());
    return applyAttributes(queue.ok() ? *queue : QueueConfig{}, attributes);
}

void expectInvalidAttributeValue(const Result<QueueConfig>& result, const std::string& attribute,
                                 const std::string& reason)
{
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::InvalidAttributeValue);
    EXPECT_EQ(result.error().message,
              "Invalid value for the parameter " + attribute + ". Reason: " + reason);
    EXPECT_EQ(result.error().parameter, attribute);
}

TEST(AttributeDocuments, aRedrivePolicySeventyThousandLevelsDeepIsRefusedWithoutCrashing)
{
    // The reported crash: 140 KB of nesting, echoed back through a recursive JSON printer.
    const std::string policy = redrivePolicy(nestedArrays(70'000));
    for (const auto& result :
         {create({{"RedrivePolicy", policy}}), set({{"RedrivePolicy", policy}})}) {
        ASSERT_FALSE(result.ok());
        EXPECT_EQ(result.error().code, ErrorCode::InvalidAttributeValue);
        EXPECT_LE(result.error().message.size(), 200u) << result.error().message;
    }
}

TEST(AttributeDocuments, everyDocumentIsAtMost8192Bytes)
{
    for (const std::string attribute : kDocumentAttributes) {
        SCOPED_TRACE(attribute);
        std::string atLimit = validDocument(attribute);
        atLimit.insert(1, kMaxDocumentBytes - atLimit.size(), ' '); // white space counts
        ASSERT_EQ(atLimit.size(), kMaxDocumentBytes);
        EXPECT_TRUE(create({{attribute, atLimit}}).ok());
        EXPECT_TRUE(set({{attribute, atLimit}}).ok());

        const std::string overLimit = " " + atLimit;
        const std::string reason = "The document is longer than 8192 bytes.";
        expectInvalidAttributeValue(create({{attribute, overLimit}}), attribute, reason);
        expectInvalidAttributeValue(set({{attribute, overLimit}}), attribute, reason);
    }
}

TEST(AttributeDocuments, everyDocumentNestsAtMost32Levels)
{
    for (const std::string attribute : kDocumentAttributes) {
        SCOPED_TRACE(attribute);
        const std::string atLimit = documentOfDepth(attribute, kMaxDocumentDepth);
        const std::string tooDeep = documentOfDepth(attribute, kMaxDocumentDepth + 1);
        const std::string reason = "The document nests more than 32 levels deep.";
        expectInvalidAttributeValue(create({{attribute, tooDeep}}), attribute, reason);
        expectInvalidAttributeValue(set({{attribute, tooDeep}}), attribute, reason);
        // At the limit the document's own rules decide: a RedrivePolicy whose maxReceiveCount is
        // an array is still wrong, but for what it says, not for its depth.
        const auto result = create({{attribute, atLimit}});
        if (attribute != "Policy") {
            ASSERT_FALSE(result.ok());
            EXPECT_EQ(result.error().code, ErrorCode::InvalidParameterValue);
        } else {
            EXPECT_TRUE(result.ok()) << describe(result.error());
        }
    }
}

TEST(AttributeDocuments, aDeepDocumentInsideAStringIsNotNesting)
{
    // Brackets inside a JSON string are text, whatever their number.
    const std::string policy
        = R"({"Version":"2012-10-17","Statement":[],"Id":")" + nestedArrays(1'000) + R"("})";
    EXPECT_TRUE(create({{"Policy", policy}}).ok());
}

TEST(AttributeDocuments, anErrorQuotesAtMostTheFirst1024BytesOfTheValue)
{
    // A RedrivePolicy refused for what it says is quoted back (as AWS does), but only so much of
    // it: the reason still follows.
    const std::string longArn = "arn:aws:sqs:us-east-1:000000000000:" + std::string(7'000, 'q');
    const std::string policy = redrivePolicy("0");
    const std::string longPolicy
        = R"({"deadLetterTargetArn":")" + longArn + R"(","maxReceiveCount":0})";
    const auto result = create({{"RedrivePolicy", longPolicy}});
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::InvalidParameterValue);
    const std::string& message = result.error().message;
    EXPECT_EQ(message,
              "Value " + longPolicy.substr(0, kMaxEchoedBytes)
                  + "... for parameter RedrivePolicy is invalid. Reason: Invalid value for "
                    "maxReceiveCount: 0, valid values are from 1 to 1000 both inclusive.");

    // A value that fits is quoted whole.
    const auto shortResult = create({{"RedrivePolicy", policy}});
    ASSERT_FALSE(shortResult.ok());
    EXPECT_NE(shortResult.error().message.find("Value " + policy + " for parameter"),
              std::string::npos);
}

TEST(AttributeDocuments, aQuotedValueIsCutBetweenCharacters)
{
    // 1,023 ASCII bytes, then a two-byte character across the cut: it is left out whole.
    const std::string arn = "arn:aws:sqs:us-east-1:000000000000:"
        + std::string(kMaxEchoedBytes - 1 - 24 - 35, 'q') + "\xC3\xA9" + std::string(100, 'q');
    const std::string policy = R"({"deadLetterTargetArn":")" + arn + R"(","maxReceiveCount":0})";
    ASSERT_EQ(policy.substr(kMaxEchoedBytes - 1, 2), "\xC3\xA9");
    const auto result = create({{"RedrivePolicy", policy}});
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message.substr(0, 6 + kMaxEchoedBytes + 3),
              "Value " + policy.substr(0, kMaxEchoedBytes - 1) + "... ");
}

TEST(AttributeDocuments, aNestedMaxReceiveCountIsQuotedWithinBounds)
{
    // The value inside the policy that is wrong is printed back as JSON: deep, but within the
    // depth limit, it prints without recursing far, and the message stays bounded.
    const std::string policy = redrivePolicy(nestedArrays(kMaxDocumentDepth - 1));
    const auto result = create({{"RedrivePolicy", policy}});
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::InvalidParameterValue);
    EXPECT_NE(result.error().message.find("Invalid value for maxReceiveCount: "
                                          + nestedArrays(kMaxDocumentDepth - 1) + ","),
              std::string::npos)
        << result.error().message;
}

} // namespace
} // namespace inflight::engine
