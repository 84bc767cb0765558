// Queue configuration rules from queue-behaviour.md §1.3, §1.4, §3.1, §3.6, §5.4, §6.2, A.1–A.23.
#include "engine/queue_config.h"
#include "engine/support/engine_fixture.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

const std::string kDlqArn = "arn:aws:sqs:us-east-1:000000000000:dlq";
const std::string kSseConflict
    = "You can use one type of server-side encryption (SSE) at one time. You can "
      "either enable KMS SSE or SQS SSE.";
const std::string kStandardNameRule
    = "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length";
const std::string kFifoNameRule
    = "The name of a FIFO queue can only include alphanumeric characters, hyphens, "
      "or underscores, must end with .fifo suffix and be 1 to 80 in length";

// ---- helpers -----------------------------------------------------------------------------------

Result<QueueConfig> createStandard(const StringMap& attributes = {})
{
    return configForCreate(attributes, /*oci=*/false, BrokerOptions{});
}

Result<QueueConfig> createFifo(StringMap attributes = {})
{
    attributes["FifoQueue"] = "true";
    return configForCreate(attributes, /*oci=*/false, BrokerOptions{});
}

Result<QueueConfig> createOci(const StringMap& attributes = {}, const BrokerOptions& options = {})
{
    return configForCreate(attributes, /*oci=*/true, options);
}

// For setup steps: the configuration, or a default one after recording why it could not be made
// (a failed setup must not abort the whole run).
QueueConfig configOf(const Result<QueueConfig>& result)
{
    if (result.ok())
        return result.value();
    ADD_FAILURE() << "setup failed: " << describe(result.error());
    return QueueConfig{};
}

QueueConfig standardQueue(const StringMap& attributes = {})
{
    return configOf(createStandard(attributes));
}

QueueConfig fifoQueue(const StringMap& attributes = {})
{
    return configOf(createFifo(attributes));
}

QueueConfig ociQueue(const StringMap& attributes = {})
{
    return configOf(createOci(attributes));
}

std::string redrivePolicy(const std::string& maxReceiveCount, const std::string& arn = kDlqArn)
{
    return R"({"deadLetterTargetArn":")" + arn + R"(","maxReceiveCount":)" + maxReceiveCount + "}";
}

std::string sqsArn(int index)
{
    return "arn:aws:sqs:us-east-1:000000000000:source-" + std::to_string(index);
}

std::string byQueuePolicy(int arnCount)
{
    std::string arns;
    for (int i = 0; i < arnCount; ++i)
        arns += (i == 0 ? "\"" : ",\"") + sqsArn(i) + "\"";
    return R"({"redrivePermission":"byQueue","sourceQueueArns":[)" + arns + "]}";
}

std::string redriveError(const std::string& parameter, const std::string& value,
                         const std::string& reason)
{
    return "Value " + value + " for parameter " + parameter + " is invalid. Reason: " + reason;
}

// ---- numeric ranges (§1.3, A.15) ---------------------------------------------------------------

struct RangeCase {
    std::string attribute;
    std::string value;
    bool accepted;
};

void PrintTo(const RangeCase& c, std::ostream* os)
{
    *os << c.attribute << '=' << c.value;
}

std::string rangeCaseName(const testing::TestParamInfo<RangeCase>& info)
{
    const std::string value = info.param.value.starts_with('-')
        ? "minus" + info.param.value.substr(1)
        : info.param.value;
    return info.param.attribute + "_" + value + (info.param.accepted ? "_accepted" : "_rejected");
}

class SqsAttributeRange : public testing::TestWithParam<RangeCase> {};

TEST_P(SqsAttributeRange, createQueueAcceptsOnlyValuesInRange)
{
    const RangeCase& c = GetParam();
    const auto config = createStandard({{c.attribute, c.value}});
    if (c.accepted) {
        ASSERT_TRUE(succeeds(config));
        EXPECT_EQ(formatAttributes(*config).at(c.attribute), c.value);
    } else {
        ASSERT_TRUE(failsWith(config, ErrorCode::InvalidAttributeValue,
                              "Invalid value for the parameter " + c.attribute + "."));
        EXPECT_EQ(config.error().parameter, c.attribute);
    }
}

TEST_P(SqsAttributeRange, setQueueAttributesAcceptsOnlyValuesInRange)
{
    const RangeCase& c = GetParam();
    const auto config = applyAttributes(fifoQueue(), {{c.attribute, c.value}});
    if (c.accepted) {
        ASSERT_TRUE(succeeds(config));
        EXPECT_EQ(formatAttributes(*config).at(c.attribute), c.value);
    } else {
        EXPECT_TRUE(failsWith(config, ErrorCode::InvalidAttributeValue,
                              "Invalid value for the parameter " + c.attribute + "."));
    }
}

INSTANTIATE_TEST_SUITE_P(Boundaries, SqsAttributeRange,
                         testing::Values(RangeCase{"VisibilityTimeout", "-1", false},
                                         RangeCase{"VisibilityTimeout", "0", true},
                                         RangeCase{"VisibilityTimeout", "43200", true},
                                         RangeCase{"VisibilityTimeout", "43201", false},
                                         RangeCase{"MessageRetentionPeriod", "59", false},
                                         RangeCase{"MessageRetentionPeriod", "60", true},
                                         RangeCase{"MessageRetentionPeriod", "1209600", true},
                                         RangeCase{"MessageRetentionPeriod", "1209601", false},
                                         RangeCase{"MaximumMessageSize", "1023", false},
                                         RangeCase{"MaximumMessageSize", "1024", true},
                                         RangeCase{"MaximumMessageSize", "1048576", true},
                                         RangeCase{"MaximumMessageSize", "1048577", false},
                                         RangeCase{"DelaySeconds", "-1", false},
                                         RangeCase{"DelaySeconds", "0", true},
                                         RangeCase{"DelaySeconds", "900", true},
                                         RangeCase{"DelaySeconds", "901", false},
                                         RangeCase{"ReceiveMessageWaitTimeSeconds", "-1", false},
                                         RangeCase{"ReceiveMessageWaitTimeSeconds", "0", true},
                                         RangeCase{"ReceiveMessageWaitTimeSeconds", "20", true},
                                         RangeCase{"ReceiveMessageWaitTimeSeconds", "21", false},
                                         RangeCase{"KmsDataKeyReusePeriodSeconds", "59", false},
                                         RangeCase{"KmsDataKeyReusePeriodSeconds", "60", true},
                                         RangeCase{"KmsDataKeyReusePeriodSeconds", "86400", true},
                                         RangeCase{"KmsDataKeyReusePeriodSeconds", "86401", false}),
                         rangeCaseName);

TEST(QueueConfigRanges, acceptsVisibilityTimeoutOfExactlyTwelveHours)
{
    const auto config = createStandard({{"VisibilityTimeout", "43200"}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(config->visibilityTimeout, 43'200);
}

TEST(QueueConfigRanges, rejectsVisibilityTimeoutAboveTwelveHours)
{
    EXPECT_TRUE(failsWith(createStandard({{"VisibilityTimeout", "43201"}}),
                          ErrorCode::InvalidAttributeValue,
                          "Invalid value for the parameter VisibilityTimeout."));
}

TEST(QueueConfigRanges, rejectsMalformedNumbersAsInvalidAttributeValue)
{
    const std::vector<std::string> numeric = {"VisibilityTimeout",
                                              "DelaySeconds",
                                              "MessageRetentionPeriod",
                                              "MaximumMessageSize",
                                              "ReceiveMessageWaitTimeSeconds",
                                              "KmsDataKeyReusePeriodSeconds"};
    const std::vector<std::string> malformed
        = {"abc", "1.5", "", " 5", "5 ", "0x10", "99999999999999999999"};
    for (const auto& attribute : numeric) {
        for (const auto& value : malformed) {
            SCOPED_TRACE(attribute + "=\"" + value + "\"");
            EXPECT_TRUE(failsWith(createStandard({{attribute, value}}),
                                  ErrorCode::InvalidAttributeValue,
                                  "Invalid value for the parameter " + attribute + "."));
            EXPECT_TRUE(failsWith(applyAttributes(standardQueue(), {{attribute, value}}),
                                  ErrorCode::InvalidAttributeValue));
        }
    }
}

TEST(QueueConfigRanges, readsLeadingZerosAsTheSameNumber)
{
    const auto config = createStandard({{"VisibilityTimeout", "030"}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(config->visibilityTimeout, 30);
    EXPECT_EQ(formatAttributes(*config).at("VisibilityTimeout"), "30");
}

TEST(QueueConfigRanges, storesEachNumericAttributeInItsField)
{
    const auto config = createStandard({{"VisibilityTimeout", "45"},
                                        {"DelaySeconds", "5"},
                                        {"MessageRetentionPeriod", "600"},
                                        {"MaximumMessageSize", "2048"},
                                        {"ReceiveMessageWaitTimeSeconds", "7"},
                                        {"KmsDataKeyReusePeriodSeconds", "120"}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(config->visibilityTimeout, 45);
    EXPECT_EQ(config->delaySeconds, 5);
    EXPECT_EQ(config->messageRetentionPeriod, 600);
    EXPECT_EQ(config->maximumMessageSize, 2048);
    EXPECT_EQ(config->receiveMessageWaitTimeSeconds, 7);
    EXPECT_EQ(config->kmsDataKeyReusePeriodSeconds, 120);
}

// ---- names (§3.1, §3.6, A.3, A.13) -------------------------------------------------------------

TEST(QueueConfigNames, rejectsUnknownAttributeName)
{
    const auto config = createStandard({{"Foobar", "1"}});
    ASSERT_TRUE(failsWith(config, ErrorCode::InvalidAttributeName, "Unknown Attribute Foobar."));
    EXPECT_EQ(config.error().parameter, "Foobar");
    EXPECT_TRUE(failsWith(applyAttributes(standardQueue(), {{"Foobar", "1"}}),
                          ErrorCode::InvalidAttributeName, "Unknown Attribute Foobar."));
}

TEST(QueueConfigNames, attributeNamesAreCaseSensitive)
{
    EXPECT_TRUE(failsWith(createStandard({{"visibilityTimeout", "30"}}),
                          ErrorCode::InvalidAttributeName, "Unknown Attribute visibilityTimeout."));
}

TEST(QueueConfigNames, rejectsOciNamesOnSqsQueues)
{
    EXPECT_TRUE(failsWith(createStandard({{"visibilityInSeconds", "30"}}),
                          ErrorCode::InvalidAttributeName,
                          "Unknown Attribute visibilityInSeconds."));
}

TEST(QueueConfigNames, rejectsReadOnlyNamesOnSetAndCreate)
{
    for (const std::string name :
         {"QueueArn", "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible",
          "ApproximateNumberOfMessagesDelayed", "CreatedTimestamp", "LastModifiedTimestamp"}) {
        SCOPED_TRACE(name);
        EXPECT_TRUE(failsWith(applyAttributes(standardQueue(), {{name, "0"}}),
                              ErrorCode::InvalidAttributeName, "Unknown Attribute " + name + "."));
        EXPECT_TRUE(failsWith(applyAttributes(fifoQueue(), {{name, "0"}}),
                              ErrorCode::InvalidAttributeName));
        EXPECT_TRUE(failsWith(createStandard({{name, "0"}}), ErrorCode::InvalidAttributeName));
    }
}

TEST(QueueConfigNames, rejectsContentBasedDeduplicationOnStandardQueue)
{
    const std::string text = "Unknown Attribute ContentBasedDeduplication.";
    EXPECT_TRUE(failsWith(createStandard({{"ContentBasedDeduplication", "false"}}),
                          ErrorCode::InvalidAttributeName, text));
    EXPECT_TRUE(failsWith(applyAttributes(standardQueue(), {{"ContentBasedDeduplication", "true"}}),
                          ErrorCode::InvalidAttributeName, text));
}

TEST(QueueConfigNames, rejectsHighThroughputSettingsOnStandardQueue)
{
    EXPECT_TRUE(failsWith(
        createStandard({{"DeduplicationScope", "queue"}}), ErrorCode::InvalidAttributeName,
        "You can specify the DeduplicationScope only when FifoQueue is set to true."));
    EXPECT_TRUE(failsWith(
        createStandard({{"FifoThroughputLimit", "perQueue"}}), ErrorCode::InvalidAttributeName,
        "You can specify the FifoThroughputLimit only when FifoQueue is set to true."));
    EXPECT_TRUE(
        failsWith(applyAttributes(standardQueue(), {{"DeduplicationScope", "messageGroup"}}),
                  ErrorCode::InvalidAttributeName,
                  "You can specify the DeduplicationScope only when FifoQueue is set to true."));
}

// ---- queue type (§3.1, §3.6) -------------------------------------------------------------------

TEST(QueueConfigType, createsStandardQueueWithoutFifoQueue)
{
    const auto config = createStandard();
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(config->kind, QueueKind::Standard);
}

TEST(QueueConfigType, fifoQueueTrueCreatesFifoQueue)
{
    const auto config = createStandard({{"FifoQueue", "true"}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(config->kind, QueueKind::Fifo);
}

TEST(QueueConfigType, rejectsFifoQueueFalseOnCreate)
{
    for (const std::string value : {"false", "False", "", "yes"}) {
        SCOPED_TRACE(value);
        EXPECT_TRUE(failsWith(createStandard({{"FifoQueue", value}}),
                              ErrorCode::InvalidAttributeName, "Unknown Attribute FifoQueue."));
    }
}

TEST(QueueConfigType, rejectsFifoQueueOnStandardQueueSet)
{
    EXPECT_TRUE(failsWith(applyAttributes(standardQueue(), {{"FifoQueue", "true"}}),
                          ErrorCode::InvalidAttributeName, "Unknown Attribute FifoQueue."));
}

TEST(QueueConfigType, fifoQueueTrueIsNoOpOnFifoQueue)
{
    const QueueConfig fifo = fifoQueue();
    const auto config = applyAttributes(fifo, {{"FifoQueue", "true"}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(config->kind, QueueKind::Fifo);
    EXPECT_EQ(formatAttributes(*config), formatAttributes(fifo));
}

TEST(QueueConfigType, rejectsChangingFifoQueueToStandard)
{
    EXPECT_TRUE(failsWith(applyAttributes(fifoQueue(), {{"FifoQueue", "false"}}),
                          ErrorCode::InvalidAttributeValue,
                          "Invalid value for the parameter FifoQueue. Reason: Modifying queue "
                          "type is not supported."));
}

// ---- FIFO settings (§3.1) ----------------------------------------------------------------------

TEST(QueueConfigFifo, acceptsDeduplicationScopeValues)
{
    const auto queue = createFifo({{"DeduplicationScope", "queue"}});
    ASSERT_TRUE(succeeds(queue));
    EXPECT_EQ(queue->deduplicationScope, DeduplicationScope::Queue);
    const auto group = createFifo({{"DeduplicationScope", "messageGroup"}});
    ASSERT_TRUE(succeeds(group));
    EXPECT_EQ(group->deduplicationScope, DeduplicationScope::MessageGroup);
}

TEST(QueueConfigFifo, rejectsOtherDeduplicationScopeValues)
{
    for (const std::string value : {"MessageGroup", "group", "perQueue", ""}) {
        SCOPED_TRACE(value);
        EXPECT_TRUE(failsWith(createFifo({{"DeduplicationScope", value}}),
                              ErrorCode::InvalidAttributeValue,
                              "Invalid value for the parameter DeduplicationScope."));
    }
}

TEST(QueueConfigFifo, acceptsFifoThroughputLimitValues)
{
    const auto perQueue = createFifo({{"FifoThroughputLimit", "perQueue"}});
    ASSERT_TRUE(succeeds(perQueue));
    EXPECT_EQ(perQueue->fifoThroughputLimit, FifoThroughputLimit::PerQueue);
    const auto perGroup = createFifo(
        {{"FifoThroughputLimit", "perMessageGroupId"}, {"DeduplicationScope", "messageGroup"}});
    ASSERT_TRUE(succeeds(perGroup));
    EXPECT_EQ(perGroup->fifoThroughputLimit, FifoThroughputLimit::PerMessageGroupId);
    EXPECT_EQ(perGroup->deduplicationScope, DeduplicationScope::MessageGroup);
}

TEST(QueueConfigFifo, rejectsOtherFifoThroughputLimitValues)
{
    for (const std::string value : {"PerQueue", "perMessageGroup", "queue", ""}) {
        SCOPED_TRACE(value);
        EXPECT_TRUE(failsWith(createFifo({{"FifoThroughputLimit", value}}),
                              ErrorCode::InvalidAttributeValue,
                              "Invalid value for the parameter FifoThroughputLimit."));
    }
}

TEST(QueueConfigFifo, perMessageGroupIdThroughputNeedsMessageGroupScope)
{
    EXPECT_TRUE(failsWith(createFifo({{"FifoThroughputLimit", "perMessageGroupId"}}),
                          ErrorCode::InvalidAttributeValue));
    EXPECT_TRUE(failsWith(
        createFifo({{"FifoThroughputLimit", "perMessageGroupId"}, {"DeduplicationScope", "queue"}}),
        ErrorCode::InvalidAttributeValue));
}

TEST(QueueConfigFifo, setQueueAttributesKeepsThroughputAndScopeConsistent)
{
    const QueueConfig highThroughput = fifoQueue(
        {{"FifoThroughputLimit", "perMessageGroupId"}, {"DeduplicationScope", "messageGroup"}});
    EXPECT_TRUE(failsWith(applyAttributes(highThroughput, {{"DeduplicationScope", "queue"}}),
                          ErrorCode::InvalidAttributeValue));
    EXPECT_TRUE(succeeds(applyAttributes(
        highThroughput, {{"DeduplicationScope", "queue"}, {"FifoThroughputLimit", "perQueue"}})));

    const QueueConfig groupScoped = fifoQueue({{"DeduplicationScope", "messageGroup"}});
    const auto raised
        = applyAttributes(groupScoped, {{"FifoThroughputLimit", "perMessageGroupId"}});
    ASSERT_TRUE(succeeds(raised));
    EXPECT_EQ(raised->fifoThroughputLimit, FifoThroughputLimit::PerMessageGroupId);
}

TEST(QueueConfigFifo, contentBasedDeduplicationTakesBooleansOnly)
{
    const auto on = createFifo({{"ContentBasedDeduplication", "true"}});
    ASSERT_TRUE(succeeds(on));
    EXPECT_TRUE(on->contentBasedDeduplication);
    const auto off = applyAttributes(*on, {{"ContentBasedDeduplication", "false"}});
    ASSERT_TRUE(succeeds(off));
    EXPECT_FALSE(off->contentBasedDeduplication);
    for (const std::string value : {"yes", "1", ""}) {
        SCOPED_TRACE(value);
        EXPECT_TRUE(failsWith(createFifo({{"ContentBasedDeduplication", value}}),
                              ErrorCode::InvalidAttributeValue,
                              "Invalid value for the parameter ContentBasedDeduplication."));
    }
}

// ---- server-side encryption (§3.1) -------------------------------------------------------------

TEST(QueueConfigEncryption, rejectsKmsKeyTogetherWithSqsManagedSse)
{
    const StringMap both = {{"KmsMasterKeyId", "alias/aws/sqs"}, {"SqsManagedSseEnabled", "true"}};
    EXPECT_TRUE(failsWith(createStandard(both), ErrorCode::InvalidAttributeName, kSseConflict));
    EXPECT_TRUE(failsWith(applyAttributes(standardQueue(), both), ErrorCode::InvalidAttributeName,
                          kSseConflict));
}

TEST(QueueConfigEncryption, kmsKeySwitchesSqsManagedSseOff)
{
    const auto config = createStandard({{"KmsMasterKeyId", "alias/aws/sqs"}});
    ASSERT_TRUE(succeeds(config));
    const StringMap attributes = formatAttributes(*config);
    EXPECT_EQ(attributes.at("KmsMasterKeyId"), "alias/aws/sqs");
    EXPECT_EQ(attributes.at("SqsManagedSseEnabled"), "false");
}

TEST(QueueConfigEncryption, sqsManagedSseDropsKmsKey)
{
    const QueueConfig kms = standardQueue({{"KmsMasterKeyId", "alias/aws/sqs"}});
    const auto config = applyAttributes(kms, {{"SqsManagedSseEnabled", "true"}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_TRUE(config->sqsManagedSseEnabled);
    EXPECT_EQ(formatAttributes(*config).count("KmsMasterKeyId"), 0u);
}

TEST(QueueConfigEncryption, acceptsKmsKeyWithSqsManagedSseDisabled)
{
    const auto config
        = createStandard({{"KmsMasterKeyId", "alias/aws/sqs"}, {"SqsManagedSseEnabled", "false"}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_FALSE(config->sqsManagedSseEnabled);
    EXPECT_EQ(config->kmsMasterKeyId, "alias/aws/sqs");
}

TEST(QueueConfigEncryption, emptyKmsKeyRemovesIt)
{
    const QueueConfig kms = standardQueue({{"KmsMasterKeyId", "alias/aws/sqs"}});
    const auto config = applyAttributes(kms, {{"KmsMasterKeyId", ""}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(formatAttributes(*config).count("KmsMasterKeyId"), 0u);
}

TEST(QueueConfigEncryption, rejectsNonBooleanSqsManagedSseEnabled)
{
    EXPECT_TRUE(failsWith(createStandard({{"SqsManagedSseEnabled", "maybe"}}),
                          ErrorCode::InvalidAttributeValue,
                          "Invalid value for the parameter SqsManagedSseEnabled."));
}

// ---- Policy ------------------------------------------------------------------------------------

TEST(QueueConfigPolicy, keepsPolicyTextAndRemovesItWithEmptyString)
{
    const std::string policy = R"({"Version":"2012-10-17","Statement":[]})";
    const auto config = createStandard({{"Policy", policy}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(formatAttributes(*config).at("Policy"), policy);

    const auto removed = applyAttributes(*config, {{"Policy", ""}});
    ASSERT_TRUE(succeeds(removed));
    EXPECT_EQ(formatAttributes(*removed).count("Policy"), 0u);
}

TEST(QueueConfigPolicy, rejectsPolicyThatIsNotAJsonObject)
{
    for (const std::string value : {"not json", "[1]", "\"text\"", "{\"Version\":"}) {
        SCOPED_TRACE(value);
        EXPECT_TRUE(failsWith(createStandard({{"Policy", value}}), ErrorCode::InvalidAttributeValue,
                              "Invalid value for the parameter Policy."));
    }
}

TEST(QueueConfigPolicy, rejectsPolicyLongerThan8192Bytes)
{
    const std::string atLimit = R"({"Sid":")" + std::string(8192 - 10, 'x') + R"("})";
    ASSERT_EQ(atLimit.size(), 8192u);
    EXPECT_TRUE(succeeds(createStandard({{"Policy", atLimit}})));
    const std::string overLimit = R"({"Sid":")" + std::string(8192 - 9, 'x') + R"("})";
    EXPECT_TRUE(
        failsWith(createStandard({{"Policy", overLimit}}), ErrorCode::InvalidAttributeValue));
}

// ---- RedrivePolicy (§5.4, A.21) ----------------------------------------------------------------

TEST(QueueConfigRedrivePolicy, acceptsMaxReceiveCountAsNumber)
{
    const auto config = createStandard({{"RedrivePolicy", redrivePolicy("5")}});
    ASSERT_TRUE(succeeds(config));
    ASSERT_TRUE(config->redrivePolicy.has_value());
    EXPECT_EQ(config->redrivePolicy->deadLetterTargetArn, kDlqArn);
    EXPECT_EQ(config->redrivePolicy->maxReceiveCount, 5);
}

TEST(QueueConfigRedrivePolicy, acceptsMaxReceiveCountAsStringAndShowsItAsNumber)
{
    const auto config = createStandard({{"RedrivePolicy", redrivePolicy("\"5\"")}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(config->redrivePolicy->maxReceiveCount, 5);
    EXPECT_EQ(formatAttributes(*config).at("RedrivePolicy"), redrivePolicy("5"));
    EXPECT_EQ(config->redrivePolicyJson, redrivePolicy("5"));
}

TEST(QueueConfigRedrivePolicy, showsPolicyInCompactForm)
{
    const std::string spaced
        = "{ \"maxReceiveCount\" : 3 ,\n \"deadLetterTargetArn\" : \"" + kDlqArn + "\" }";
    const auto config = createStandard({{"RedrivePolicy", spaced}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(formatAttributes(*config).at("RedrivePolicy"), redrivePolicy("3"));
}

TEST(QueueConfigRedrivePolicy, acceptsFifoQueueRedrivePolicy)
{
    const std::string arn = "arn:aws:sqs:us-east-1:000000000000:dlq.fifo";
    const auto config = createFifo({{"RedrivePolicy", redrivePolicy("2", arn)}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(config->redrivePolicy->deadLetterTargetArn, arn);
}

TEST(QueueConfigRedrivePolicy, maxReceiveCountBoundaries)
{
    struct Case {
        std::string count; // as written inside the JSON
        std::string shown; // as quoted in the error
        bool accepted;
    };
    const std::vector<Case> cases = {
        {"0", "0", false},
        {"1", "1", true},
        {"1000", "1000", true},
        {"1001", "1001", false},
        {"-1", "-1", false},
        {"\"0\"", "0", false},
        {"\"1000\"", "1000", true},
        {"\"1001\"", "1001", false},
        {"1.5", "1.5", false},
        {"\"abc\"", "abc", false},
        {"\"\"", "", false},
        {"null", "null", false},
        {"18446744073709551615", "18446744073709551615", false},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE("maxReceiveCount " + c.count);
        const std::string policy = redrivePolicy(c.count);
        const auto config = createStandard({{"RedrivePolicy", policy}});
        if (c.accepted) {
            EXPECT_TRUE(succeeds(config));
        } else {
            EXPECT_TRUE(
                failsWith(config, ErrorCode::InvalidParameterValue,
                          redriveError("RedrivePolicy", policy,
                                       "Invalid value for maxReceiveCount: " + c.shown
                                           + ", valid values are from 1 to 1000 both inclusive.")));
            if (!config.ok()) {
                EXPECT_EQ(config.error().parameter, "RedrivePolicy");
            }
        }
    }
}

TEST(QueueConfigRedrivePolicy, requiresBothKeys)
{
    const std::string noCount = R"({"deadLetterTargetArn":")" + kDlqArn + R"("})";
    EXPECT_TRUE(failsWith(
        createStandard({{"RedrivePolicy", noCount}}), ErrorCode::InvalidParameterValue,
        redriveError("RedrivePolicy", noCount,
                     "Redrive policy does not contain mandatory attribute: maxReceiveCount.")));
    const std::string noTarget = R"({"maxReceiveCount":5})";
    EXPECT_TRUE(failsWith(
        createStandard({{"RedrivePolicy", noTarget}}), ErrorCode::InvalidParameterValue,
        redriveError("RedrivePolicy", noTarget,
                     "Redrive policy does not contain mandatory attribute: deadLetterTargetArn.")));
    EXPECT_TRUE(failsWith(
        createStandard({{"RedrivePolicy", "{}"}}), ErrorCode::InvalidParameterValue,
        redriveError("RedrivePolicy", "{}",
                     "Redrive policy does not contain mandatory attribute: maxReceiveCount.")));
}

TEST(QueueConfigRedrivePolicy, rejectsUnparsableJson)
{
    for (const std::string value :
         {"{not json", "[1,2]", "5", "\"text\"", "{\"maxReceiveCount\":"}) {
        SCOPED_TRACE(value);
        EXPECT_TRUE(failsWith(
            createStandard({{"RedrivePolicy", value}}), ErrorCode::InvalidParameterValue,
            redriveError("RedrivePolicy", value, "Redrive policy is not a valid JSON map.")));
    }
}

TEST(QueueConfigRedrivePolicy, rejectsExtraKeys)
{
    const std::string policy = R"({"deadLetterTargetArn":")" + kDlqArn
        + R"(","maxReceiveCount":5,"redrivePermission":"allowAll"})";
    EXPECT_TRUE(
        failsWith(createStandard({{"RedrivePolicy", policy}}), ErrorCode::InvalidParameterValue,
                  redriveError("RedrivePolicy", policy,
                               "Only following attributes are supported: [deadLetterTargetArn, "
                               "maxReceiveCount].")));
}

TEST(QueueConfigRedrivePolicy, rejectsTargetThatIsNotAnSqsArn)
{
    for (const std::string arn :
         {"dlq", "arn:aws:sns:us-east-1:000000000000:topic", "arn:aws:sqs:us-east-1::dlq"}) {
        SCOPED_TRACE(arn);
        const std::string policy = redrivePolicy("5", arn);
        const auto config = createStandard({{"RedrivePolicy", policy}});
        ASSERT_TRUE(failsWith(config, ErrorCode::InvalidParameterValue));
        EXPECT_TRUE(config.error().message.starts_with("Value " + policy
                                                       + " for parameter RedrivePolicy is invalid. "
                                                         "Reason: "));
    }
}

TEST(QueueConfigRedrivePolicy, emptyStringRemovesRedrivePolicy)
{
    const QueueConfig withPolicy = standardQueue({{"RedrivePolicy", redrivePolicy("5")}});
    ASSERT_EQ(formatAttributes(withPolicy).count("RedrivePolicy"), 1u);
    const auto config = applyAttributes(withPolicy, {{"RedrivePolicy", ""}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_FALSE(config->redrivePolicy.has_value());
    EXPECT_EQ(formatAttributes(*config).count("RedrivePolicy"), 0u);
}

TEST(QueueConfigRedrivePolicy, setReplacesRedrivePolicy)
{
    const QueueConfig withPolicy = standardQueue({{"RedrivePolicy", redrivePolicy("5")}});
    const auto config = applyAttributes(withPolicy, {{"RedrivePolicy", redrivePolicy("7")}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(config->redrivePolicy->maxReceiveCount, 7);
    EXPECT_EQ(formatAttributes(*config).at("RedrivePolicy"), redrivePolicy("7"));
}

// ---- RedriveAllowPolicy (§5.4) -----------------------------------------------------------------

TEST(QueueConfigRedriveAllowPolicy, acceptsAllowAllAndDenyAll)
{
    const auto allow
        = createStandard({{"RedriveAllowPolicy", R"({"redrivePermission":"allowAll"})"}});
    ASSERT_TRUE(succeeds(allow));
    EXPECT_EQ(allow->redriveAllowPolicy->permission, RedriveAllowPolicy::Permission::AllowAll);
    EXPECT_EQ(formatAttributes(*allow).at("RedriveAllowPolicy"),
              R"({"redrivePermission":"allowAll"})");

    const auto deny
        = createStandard({{"RedriveAllowPolicy", R"({ "redrivePermission" : "denyAll" })"}});
    ASSERT_TRUE(succeeds(deny));
    EXPECT_EQ(deny->redriveAllowPolicy->permission, RedriveAllowPolicy::Permission::DenyAll);
    EXPECT_EQ(formatAttributes(*deny).at("RedriveAllowPolicy"),
              R"({"redrivePermission":"denyAll"})");
}

TEST(QueueConfigRedriveAllowPolicy, acceptsByQueueWithOneToTenSources)
{
    for (int count : {1, 10}) {
        SCOPED_TRACE(count);
        const auto config = createStandard({{"RedriveAllowPolicy", byQueuePolicy(count)}});
        ASSERT_TRUE(succeeds(config));
        EXPECT_EQ(config->redriveAllowPolicy->permission, RedriveAllowPolicy::Permission::ByQueue);
        ASSERT_EQ(config->redriveAllowPolicy->sourceQueueArns.size(),
                  static_cast<std::size_t>(count));
        EXPECT_EQ(config->redriveAllowPolicy->sourceQueueArns.front(), sqsArn(0));
        EXPECT_EQ(formatAttributes(*config).at("RedriveAllowPolicy"), byQueuePolicy(count));
    }
}

TEST(QueueConfigRedriveAllowPolicy, rejectsMoreThanTenSources)
{
    const std::string policy = byQueuePolicy(11);
    EXPECT_TRUE(failsWith(
        createStandard({{"RedriveAllowPolicy", policy}}), ErrorCode::InvalidParameterValue,
        redriveError("RedriveAllowPolicy", policy,
                     "Amazon SQS can't create the redrive allow policy. The maximum number of "
                     "source queue ARNs you can specify is 10.")));
}

TEST(QueueConfigRedriveAllowPolicy, sourcesOnlyWithByQueue)
{
    const std::string policy
        = R"({"redrivePermission":"allowAll","sourceQueueArns":[")" + sqsArn(0) + R"("]})";
    EXPECT_TRUE(failsWith(
        createStandard({{"RedriveAllowPolicy", policy}}), ErrorCode::InvalidParameterValue,
        redriveError("RedriveAllowPolicy", policy,
                     "Amazon SQS can't create the redrive allow policy. To specify one or more "
                     "source queue ARNs, you must set redrivePermission to byQueue.")));
}

TEST(QueueConfigRedriveAllowPolicy, byQueueNeedsSources)
{
    const std::string reason
        = "Amazon SQS can't create the redrive allow policy. When you specify the byQueue "
          "permission type, you must also specify one or more sourceQueueArns values.";
    for (const std::string policy : {R"({"redrivePermission":"byQueue"})",
                                     R"({"redrivePermission":"byQueue","sourceQueueArns":[]})"}) {
        SCOPED_TRACE(policy);
        EXPECT_TRUE(failsWith(createStandard({{"RedriveAllowPolicy", policy}}),
                              ErrorCode::InvalidParameterValue,
                              redriveError("RedriveAllowPolicy", policy, reason)));
    }
}

TEST(QueueConfigRedriveAllowPolicy, rejectsUnsupportedFormats)
{
    const std::string reason
        = "Amazon SQS can't create the redrive allow policy, as it’s in an unsupported format.";
    for (const std::string policy :
         {R"(not json)", R"([])", R"({})", R"({"redrivePermission":"everyone"})",
          R"({"redrivePermission":"AllowAll"})", R"({"redrivePermission":true})",
          R"({"redrivePermission":"allowAll","extra":1})",
          R"({"redrivePermission":"byQueue","sourceQueueArns":"arn:aws:sqs"})",
          R"({"redrivePermission":"byQueue","sourceQueueArns":[1]})"}) {
        SCOPED_TRACE(policy);
        EXPECT_TRUE(failsWith(createStandard({{"RedriveAllowPolicy", policy}}),
                              ErrorCode::InvalidParameterValue,
                              redriveError("RedriveAllowPolicy", policy, reason)));
    }
}

TEST(QueueConfigRedriveAllowPolicy, emptyStringRemovesIt)
{
    const QueueConfig withPolicy
        = standardQueue({{"RedriveAllowPolicy", R"({"redrivePermission":"denyAll"})"}});
    const auto config = applyAttributes(withPolicy, {{"RedriveAllowPolicy", ""}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_FALSE(config->redriveAllowPolicy.has_value());
    EXPECT_EQ(formatAttributes(*config).count("RedriveAllowPolicy"), 0u);
}

// ---- SetQueueAttributes as a whole (§3.6) ------------------------------------------------------

TEST(QueueConfigSet, changesOnlyTheGivenAttributes)
{
    const QueueConfig current = standardQueue({{"DelaySeconds", "5"}});
    const auto config = applyAttributes(current, {{"VisibilityTimeout", "60"}});
    ASSERT_TRUE(succeeds(config));
    StringMap expected = formatAttributes(current);
    expected["VisibilityTimeout"] = "60";
    EXPECT_EQ(formatAttributes(*config), expected);
}

TEST(QueueConfigSet, oneBadAttributeFailsTheWholeRequest)
{
    const auto config
        = applyAttributes(standardQueue(), {{"VisibilityTimeout", "60"}, {"DelaySeconds", "901"}});
    EXPECT_TRUE(failsWith(config, ErrorCode::InvalidAttributeValue,
                          "Invalid value for the parameter DelaySeconds."));
}

TEST(QueueConfigSet, acceptsEveryWritableAttributeOnFifoQueue)
{
    const auto config
        = applyAttributes(fifoQueue(),
                          {{"DelaySeconds", "1"},
                           {"MaximumMessageSize", "2048"},
                           {"MessageRetentionPeriod", "120"},
                           {"Policy", "{}"},
                           {"ReceiveMessageWaitTimeSeconds", "2"},
                           {"VisibilityTimeout", "3"},
                           {"RedrivePolicy", redrivePolicy("4")},
                           {"RedriveAllowPolicy", R"({"redrivePermission":"denyAll"})"},
                           {"KmsMasterKeyId", "alias/k"},
                           {"KmsDataKeyReusePeriodSeconds", "600"},
                           {"SqsManagedSseEnabled", "false"},
                           {"ContentBasedDeduplication", "true"},
                           {"DeduplicationScope", "messageGroup"},
                           {"FifoThroughputLimit", "perMessageGroupId"}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(formatAttributes(*config),
              (StringMap{{"DelaySeconds", "1"},
                         {"MaximumMessageSize", "2048"},
                         {"MessageRetentionPeriod", "120"},
                         {"Policy", "{}"},
                         {"ReceiveMessageWaitTimeSeconds", "2"},
                         {"VisibilityTimeout", "3"},
                         {"RedrivePolicy", redrivePolicy("4")},
                         {"RedriveAllowPolicy", R"({"redrivePermission":"denyAll"})"},
                         {"KmsMasterKeyId", "alias/k"},
                         {"KmsDataKeyReusePeriodSeconds", "600"},
                         {"SqsManagedSseEnabled", "false"},
                         {"FifoQueue", "true"},
                         {"ContentBasedDeduplication", "true"},
                         {"DeduplicationScope", "messageGroup"},
                         {"FifoThroughputLimit", "perMessageGroupId"}}));
}

// ---- GetQueueAttributes view (§1.4, A.1) -------------------------------------------------------

TEST(QueueConfigFormat, newStandardQueueShowsTheStaticDefaults)
{
    EXPECT_EQ(formatAttributes(standardQueue()),
              (StringMap{{"DelaySeconds", "0"},
                         {"MaximumMessageSize", "1048576"},
                         {"MessageRetentionPeriod", "345600"},
                         {"ReceiveMessageWaitTimeSeconds", "0"},
                         {"SqsManagedSseEnabled", "true"},
                         {"VisibilityTimeout", "30"}}));
}

TEST(QueueConfigFormat, newFifoQueueAddsFifoDefaults)
{
    EXPECT_EQ(formatAttributes(fifoQueue()),
              (StringMap{{"DelaySeconds", "0"},
                         {"MaximumMessageSize", "1048576"},
                         {"MessageRetentionPeriod", "345600"},
                         {"ReceiveMessageWaitTimeSeconds", "0"},
                         {"SqsManagedSseEnabled", "true"},
                         {"VisibilityTimeout", "30"},
                         {"FifoQueue", "true"},
                         {"ContentBasedDeduplication", "false"},
                         {"DeduplicationScope", "queue"},
                         {"FifoThroughputLimit", "perQueue"}}));
}

TEST(QueueConfigFormat, optionalAttributesAppearOnlyWhenSet)
{
    const QueueConfig plain = standardQueue();
    const StringMap before = formatAttributes(plain);
    for (const std::string name : {"Policy", "RedrivePolicy", "RedriveAllowPolicy",
                                   "KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds"}) {
        EXPECT_EQ(before.count(name), 0u) << name;
    }

    const auto config
        = applyAttributes(plain,
                          {{"Policy", R"({"Version":"2012-10-17"})"},
                           {"RedrivePolicy", redrivePolicy("\"3\"")},
                           {"RedriveAllowPolicy", R"({"redrivePermission":"allowAll"})"},
                           {"KmsMasterKeyId", "alias/aws/sqs"},
                           {"KmsDataKeyReusePeriodSeconds", "300"}});
    ASSERT_TRUE(succeeds(config));
    const StringMap after = formatAttributes(*config);
    EXPECT_EQ(after.at("Policy"), R"({"Version":"2012-10-17"})");
    EXPECT_EQ(after.at("RedrivePolicy"), redrivePolicy("3"));
    EXPECT_EQ(after.at("RedriveAllowPolicy"), R"({"redrivePermission":"allowAll"})");
    EXPECT_EQ(after.at("KmsMasterKeyId"), "alias/aws/sqs");
    EXPECT_EQ(after.at("KmsDataKeyReusePeriodSeconds"), "300");
}

TEST(QueueConfigFormat, booleansAreLowerCase)
{
    const auto config
        = createFifo({{"ContentBasedDeduplication", "TRUE"}, {"SqsManagedSseEnabled", "False"}});
    ASSERT_TRUE(succeeds(config));
    const StringMap attributes = formatAttributes(*config);
    EXPECT_EQ(attributes.at("ContentBasedDeduplication"), "true");
    EXPECT_EQ(attributes.at("SqsManagedSseEnabled"), "false");
    EXPECT_EQ(attributes.at("FifoQueue"), "true");
}

// ---- idempotent CreateQueue (§3.1, A.5) --------------------------------------------------------

TEST(QueueConfigCompare, noAttributesMatchAnyQueue)
{
    EXPECT_EQ(firstDifferingAttribute(standardQueue({{"DelaySeconds", "1"}}), {}), std::nullopt);
}

TEST(QueueConfigCompare, equalValuesMatch)
{
    const QueueConfig current = standardQueue({{"DelaySeconds", "1"}, {"VisibilityTimeout", "30"}});
    EXPECT_EQ(firstDifferingAttribute(current, {{"DelaySeconds", "1"}}), std::nullopt);
    EXPECT_EQ(firstDifferingAttribute(current, {{"VisibilityTimeout", "030"}}), std::nullopt);
    EXPECT_EQ(firstDifferingAttribute(current, {{"MaximumMessageSize", "1048576"}, {"Policy", ""}}),
              std::nullopt);
}

TEST(QueueConfigCompare, differingValueNamesTheAttribute)
{
    const QueueConfig current = standardQueue({{"DelaySeconds", "1"}});
    EXPECT_EQ(firstDifferingAttribute(current, {{"DelaySeconds", "2"}}), "DelaySeconds");
    EXPECT_EQ(
        firstDifferingAttribute(current, {{"DelaySeconds", "1"}, {"VisibilityTimeout", "31"}}),
        "VisibilityTimeout");
    EXPECT_EQ(firstDifferingAttribute(
                  current, {{"MaximumMessageSize", "2048"}, {"VisibilityTimeout", "31"}}),
              "MaximumMessageSize");
}

TEST(QueueConfigCompare, comparesAgainstCurrentValuesAfterSet)
{
    const QueueConfig changed = configOf(
        applyAttributes(standardQueue({{"DelaySeconds", "1"}}), {{"DelaySeconds", "5"}}));
    EXPECT_EQ(firstDifferingAttribute(changed, {{"DelaySeconds", "5"}}), std::nullopt);
    EXPECT_EQ(firstDifferingAttribute(changed, {{"DelaySeconds", "1"}}), "DelaySeconds");
}

TEST(QueueConfigCompare, policyWithOtherSpacingMatches)
{
    const QueueConfig current
        = standardQueue({{"Policy", R"({"Version":"2012-10-17","Statement":[]})"}});
    EXPECT_EQ(
        firstDifferingAttribute(
            current, {{"Policy", "{ \"Statement\" : [ ],\n  \"Version\" : \"2012-10-17\" }"}}),
        std::nullopt);
    EXPECT_EQ(firstDifferingAttribute(current,
                                      {{"Policy", R"({"Version":"2008-10-17","Statement":[]})"}}),
              "Policy");
    EXPECT_EQ(firstDifferingAttribute(current, {{"Policy", ""}}), "Policy");
}

TEST(QueueConfigCompare, redrivePolicyComparesByContent)
{
    const QueueConfig current = standardQueue({{"RedrivePolicy", redrivePolicy("5")}});
    EXPECT_EQ(firstDifferingAttribute(current, {{"RedrivePolicy", redrivePolicy("\"5\"")}}),
              std::nullopt);
    EXPECT_EQ(firstDifferingAttribute(current, {{"RedrivePolicy", redrivePolicy("6")}}),
              "RedrivePolicy");
    EXPECT_EQ(firstDifferingAttribute(standardQueue(), {{"RedrivePolicy", redrivePolicy("5")}}),
              "RedrivePolicy");
}

TEST(QueueConfigCompare, fifoAttributesCompareToo)
{
    const QueueConfig fifo = fifoQueue({{"ContentBasedDeduplication", "true"}});
    EXPECT_EQ(firstDifferingAttribute(
                  fifo, {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}}),
              std::nullopt);
    EXPECT_EQ(firstDifferingAttribute(fifo, {{"ContentBasedDeduplication", "false"}}),
              "ContentBasedDeduplication");
    EXPECT_EQ(firstDifferingAttribute(fifo, {{"DeduplicationScope", "messageGroup"}}),
              "DeduplicationScope");
}

TEST(QueueConfigCompare, unusableAttributeDiffers)
{
    EXPECT_EQ(firstDifferingAttribute(standardQueue(), {{"Foobar", "1"}}), "Foobar");
    EXPECT_EQ(firstDifferingAttribute(standardQueue(), {{"VisibilityTimeout", "abc"}}),
              "VisibilityTimeout");
}

TEST(QueueConfigCompare, explicitDefaultReusePeriodMatchesUnsetOne)
{
    EXPECT_EQ(firstDifferingAttribute(standardQueue(), {{"KmsDataKeyReusePeriodSeconds", "300"}}),
              std::nullopt);
    EXPECT_EQ(firstDifferingAttribute(standardQueue(), {{"KmsDataKeyReusePeriodSeconds", "600"}}),
              "KmsDataKeyReusePeriodSeconds");
}

// ---- queue names (§1.3, §3.1, A.7, A.9, A.11) --------------------------------------------------

TEST(QueueName, acceptsEightyCharacters)
{
    EXPECT_TRUE(succeeds(validateQueueName(std::string(80, 'q'), QueueKind::Standard)));
    EXPECT_TRUE(succeeds(validateQueueName("My_Queue-1", QueueKind::Standard)));
}

TEST(QueueName, rejectsBadStandardNames)
{
    for (const std::string& name :
         {std::string(81, 'q'), std::string("a.b"), std::string("a b"), std::string(""),
          std::string("q.fifo"), std::string("q/1"), std::string("naïve")}) {
        SCOPED_TRACE(name);
        const Status status = validateQueueName(name, QueueKind::Standard);
        EXPECT_TRUE(failsWith(status, ErrorCode::InvalidParameterValue, kStandardNameRule));
        if (!status.ok()) {
            EXPECT_EQ(status.error().parameter, "QueueName");
        }
    }
}

TEST(QueueName, fifoSuffixCountsTowardEighty)
{
    EXPECT_TRUE(succeeds(validateQueueName(std::string(75, 'q') + ".fifo", QueueKind::Fifo)));
    EXPECT_TRUE(failsWith(validateQueueName(std::string(76, 'q') + ".fifo", QueueKind::Fifo),
                          ErrorCode::InvalidParameterValue, kFifoNameRule));
}

TEST(QueueName, rejectsBadFifoNames)
{
    for (const std::string name :
         {"x", ".fifo", "a.b.fifo", "a b.fifo", "q.FIFO", "q.fifo.fifo2"}) {
        SCOPED_TRACE(name);
        EXPECT_TRUE(failsWith(validateQueueName(name, QueueKind::Fifo),
                              ErrorCode::InvalidParameterValue, kFifoNameRule));
    }
}

TEST(QueueName, ociNamesFollowStandardRules)
{
    EXPECT_TRUE(succeeds(validateQueueName("orders", QueueKind::Oci)));
    EXPECT_TRUE(
        failsWith(validateQueueName("a.b", QueueKind::Oci), ErrorCode::InvalidParameterValue));
}

// ---- ARNs --------------------------------------------------------------------------------------

TEST(QueueArn, extractsQueueName)
{
    EXPECT_EQ(queueNameFromArn(kDlqArn), "dlq");
    EXPECT_EQ(queueNameFromArn("arn:aws:sqs:eu-west-1:123456789012:orders.fifo"), "orders.fifo");
}

TEST(QueueArn, rejectsTextThatIsNotAnSqsQueueArn)
{
    for (const std::string arn :
         {"", "dlq", "arn:aws:sns:us-east-1:000000000000:topic",
          "arn:aws:sqs:us-east-1:000000000000", "arn:aws:sqs:us-east-1:000000000000:",
          "arn:aws:sqs::000000000000:dlq", "arn:aws:sqs:us-east-1::dlq",
          "arn:aws:sqs:us-east-1:000000000000:dlq:extra", "urn:aws:sqs:us-east-1:0:dlq"}) {
        SCOPED_TRACE(arn);
        EXPECT_EQ(queueNameFromArn(arn), std::nullopt);
    }
}

// ---- OCI profile (§6.2) ------------------------------------------------------------------------

TEST(OciQueueConfig, newQueueShowsOciDefaults)
{
    BrokerOptions options;
    options.ociDefaultRetentionSeconds = 3'600;
    options.ociMaxMessageSize = 65'536;
    const auto config = createOci({}, options);
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(config->kind, QueueKind::Oci);
    EXPECT_EQ(formatAttributes(*config),
              (StringMap{{"retentionInSeconds", "3600"},
                         {"visibilityInSeconds", "30"},
                         {"timeoutInSeconds", "30"},
                         {"deadLetterQueueDeliveryCount", "0"},
                         {"channelConsumptionLimit", "100"},
                         {"maxMessageSizeInBytes", "65536"}}));
}

TEST(OciQueueConfig, defaultsComeFromBrokerOptions)
{
    const BrokerOptions options;
    const auto config = createOci();
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(config->messageRetentionPeriod, options.ociDefaultRetentionSeconds);
    EXPECT_EQ(config->maximumMessageSize, options.ociMaxMessageSize);
    EXPECT_EQ(config->receiveMessageWaitTimeSeconds, 30);
}

TEST(OciQueueConfig, mapsOciNamesOntoTheCoreFields)
{
    const auto config = createOci({{"retentionInSeconds", "600"},
                                   {"visibilityInSeconds", "45"},
                                   {"timeoutInSeconds", "10"},
                                   {"deadLetterQueueDeliveryCount", "3"},
                                   {"channelConsumptionLimit", "50"},
                                   {"maxMessageSizeInBytes", "4096"}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(config->messageRetentionPeriod, 600);
    EXPECT_EQ(config->visibilityTimeout, 45);
    EXPECT_EQ(config->receiveMessageWaitTimeSeconds, 10);
    EXPECT_EQ(config->deadLetterQueueDeliveryCount, 3);
    EXPECT_EQ(config->channelConsumptionLimit, 50);
    EXPECT_EQ(config->maximumMessageSize, 4096);
}

class OciAttributeRange : public testing::TestWithParam<RangeCase> {};

TEST_P(OciAttributeRange, createQueueAcceptsOnlyValuesInRange)
{
    const RangeCase& c = GetParam();
    const auto config = createOci({{c.attribute, c.value}});
    if (c.accepted) {
        ASSERT_TRUE(succeeds(config));
        EXPECT_EQ(formatAttributes(*config).at(c.attribute), c.value);
    } else {
        EXPECT_TRUE(failsWith(config, ErrorCode::InvalidAttributeValue,
                              "Invalid value for the parameter " + c.attribute + "."));
    }
}

INSTANTIATE_TEST_SUITE_P(Boundaries, OciAttributeRange,
                         testing::Values(RangeCase{"retentionInSeconds", "9", false},
                                         RangeCase{"retentionInSeconds", "10", true},
                                         RangeCase{"retentionInSeconds", "604800", true},
                                         RangeCase{"retentionInSeconds", "604801", false},
                                         RangeCase{"visibilityInSeconds", "0", false},
                                         RangeCase{"visibilityInSeconds", "1", true},
                                         RangeCase{"visibilityInSeconds", "43200", true},
                                         RangeCase{"visibilityInSeconds", "43201", false},
                                         RangeCase{"timeoutInSeconds", "-1", false},
                                         RangeCase{"timeoutInSeconds", "0", true},
                                         RangeCase{"timeoutInSeconds", "30", true},
                                         RangeCase{"timeoutInSeconds", "31", false},
                                         RangeCase{"deadLetterQueueDeliveryCount", "-1", false},
                                         RangeCase{"deadLetterQueueDeliveryCount", "0", true},
                                         RangeCase{"deadLetterQueueDeliveryCount", "20", true},
                                         RangeCase{"deadLetterQueueDeliveryCount", "21", false},
                                         RangeCase{"channelConsumptionLimit", "0", false},
                                         RangeCase{"channelConsumptionLimit", "1", true},
                                         RangeCase{"channelConsumptionLimit", "100", true},
                                         RangeCase{"channelConsumptionLimit", "101", false},
                                         RangeCase{"maxMessageSizeInBytes", "1023", false},
                                         RangeCase{"maxMessageSizeInBytes", "1024", true},
                                         RangeCase{"maxMessageSizeInBytes", "1048576", true},
                                         RangeCase{"maxMessageSizeInBytes", "1048577", false}),
                         rangeCaseName);

TEST(OciQueueConfig, rejectsMalformedNumbers)
{
    for (const std::string value : {"abc", "1.5", "", " 5"}) {
        SCOPED_TRACE(value);
        EXPECT_TRUE(failsWith(createOci({{"visibilityInSeconds", value}}),
                              ErrorCode::InvalidAttributeValue,
                              "Invalid value for the parameter visibilityInSeconds."));
    }
}

TEST(OciQueueConfig, rejectsUnknownAndSqsNames)
{
    for (const std::string name :
         {"VisibilityTimeout", "FifoQueue", "RedrivePolicy", "maxDeliveryAttempts"}) {
        SCOPED_TRACE(name);
        EXPECT_TRUE(failsWith(createOci({{name, "1"}}), ErrorCode::InvalidAttributeName,
                              "Unknown Attribute " + name + "."));
        EXPECT_TRUE(
            failsWith(applyAttributes(ociQueue(), {{name, "1"}}), ErrorCode::InvalidAttributeName));
    }
}

TEST(OciQueueConfig, updateAcceptsEverythingButRetention)
{
    const auto config = applyAttributes(ociQueue(),
                                        {{"visibilityInSeconds", "60"},
                                         {"timeoutInSeconds", "0"},
                                         {"deadLetterQueueDeliveryCount", "5"},
                                         {"channelConsumptionLimit", "10"},
                                         {"maxMessageSizeInBytes", "2048"}});
    ASSERT_TRUE(succeeds(config));
    EXPECT_EQ(config->visibilityTimeout, 60);
    EXPECT_EQ(config->receiveMessageWaitTimeSeconds, 0);
    EXPECT_EQ(config->deadLetterQueueDeliveryCount, 5);
    EXPECT_EQ(config->channelConsumptionLimit, 10);
    EXPECT_EQ(config->maximumMessageSize, 2048);
}

TEST(OciQueueConfig, retentionIsFixedAtCreation)
{
    const auto config = applyAttributes(ociQueue(), {{"retentionInSeconds", "600"}});
    ASSERT_TRUE(failsWith(config, ErrorCode::InvalidAttributeName));
    EXPECT_EQ(config.error().parameter, "retentionInSeconds");
}

TEST(OciQueueConfig, compareUsesOciNames)
{
    const QueueConfig current
        = ociQueue({{"retentionInSeconds", "600"}, {"visibilityInSeconds", "45"}});
    EXPECT_EQ(firstDifferingAttribute(
                  current, {{"retentionInSeconds", "0600"}, {"visibilityInSeconds", "45"}}),
              std::nullopt);
    EXPECT_EQ(firstDifferingAttribute(current, {{"retentionInSeconds", "700"}}),
              "retentionInSeconds");
}

} // namespace
} // namespace inflight::engine
