// Queue attributes through Broker, from the spec: §1.4 default attributes, GetQueueAttributes
// (§3.5), SetQueueAttributes (§3.6), the RedrivePolicy / RedriveAllowPolicy rules of §5.4,
// ListDeadLetterSourceQueues (§3.9) and AddPermission / RemovePermission on the Policy (§3.10),
// cases A.1, A.3, A.15, A.21, A.23, B.39, C.83 and E.107 of §8, with the neighbours of each
// boundary.
#include "engine/support/queues_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

using Json = nlohmann::json;

constexpr Millis kStart = 1'700'000'000'000;

std::string maxReceiveCountReason(const std::string& value)
{
    return "Reason: Invalid value for maxReceiveCount: " + value
        + ", valid values are from 1 to 1000 both inclusive.";
}

bool endsWith(const std::string& text, const std::string& suffix)
{
    return text.size() >= suffix.size()
        && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::set<std::string> keysOf(const StringMap& map)
{
    std::set<std::string> keys;
    for (const auto& [key, value] : map)
        keys.insert(key);
    return keys;
}

std::string redrivePolicy(const std::string& targetArn, const std::string& countJson)
{
    return R"({"deadLetterTargetArn":")" + targetArn + R"(","maxReceiveCount":)" + countJson + "}";
}

// The statements of a Policy attribute whose Sid is `sid`.
int statementsWithSid(const std::string& policy, const std::string& sid)
{
    const Json json = Json::parse(policy, nullptr, false);
    if (!json.is_object() || !json.contains("Statement") || !json["Statement"].is_array())
        return 0;
    int count = 0;
    for (const Json& statement : json["Statement"])
        if (statement.is_object() && statement.value("Sid", "") == sid)
            ++count;
    return count;
}

// ================================================================================================
// GetQueueAttributes (§1.4, §3.5, A.1, A.3, C.83)
// ================================================================================================

TEST_F(QueuesTest, getQueueAttributesWithNoNamesIsEmpty)
{
    create("q");
    auto result = broker.getQueueAttributes("q", {});
    ASSERT_TRUE(succeeds(result));
    EXPECT_TRUE(result->empty());
}

TEST_F(QueuesTest, allOnNewStandardQueueHasExactlyTheTwelveDefaultAttributes)
{
    create("q");
    const StringMap all = allAttributes("q");
    const std::set<std::string> expectedKeys = {"ApproximateNumberOfMessages",
                                                "ApproximateNumberOfMessagesDelayed",
                                                "ApproximateNumberOfMessagesNotVisible",
                                                "CreatedTimestamp",
                                                "DelaySeconds",
                                                "LastModifiedTimestamp",
                                                "MaximumMessageSize",
                                                "MessageRetentionPeriod",
                                                "QueueArn",
                                                "ReceiveMessageWaitTimeSeconds",
                                                "SqsManagedSseEnabled",
                                                "VisibilityTimeout"};
    EXPECT_EQ(keysOf(all), expectedKeys);
    const std::string createdSeconds = std::to_string(kStart / 1000);
    const StringMap expected = {
        {"ApproximateNumberOfMessages", "0"},
        {"ApproximateNumberOfMessagesDelayed", "0"},
        {"ApproximateNumberOfMessagesNotVisible", "0"},
        {"CreatedTimestamp", createdSeconds},
        {"DelaySeconds", "0"},
        {"LastModifiedTimestamp", createdSeconds},
        {"MaximumMessageSize", "1048576"},
        {"MessageRetentionPeriod", "345600"},
        {"QueueArn", "arn:aws:sqs:us-east-1:000000000000:q"},
        {"ReceiveMessageWaitTimeSeconds", "0"},
        {"SqsManagedSseEnabled", "true"},
        {"VisibilityTimeout", "30"},
    };
    EXPECT_EQ(all, expected);
}

TEST_F(QueuesTest, allOnNewFifoQueueAddsTheFourFifoAttributes)
{
    createFifo("q.fifo");
    const StringMap all = allAttributes("q.fifo");
    EXPECT_EQ(all.size(), 16u);
    const std::string createdSeconds = std::to_string(kStart / 1000);
    const StringMap expected = {
        {"ApproximateNumberOfMessages", "0"},
        {"ApproximateNumberOfMessagesDelayed", "0"},
        {"ApproximateNumberOfMessagesNotVisible", "0"},
        {"ContentBasedDeduplication", "false"},
        {"CreatedTimestamp", createdSeconds},
        {"DeduplicationScope", "queue"},
        {"DelaySeconds", "0"},
        {"FifoQueue", "true"},
        {"FifoThroughputLimit", "perQueue"},
        {"LastModifiedTimestamp", createdSeconds},
        {"MaximumMessageSize", "1048576"},
        {"MessageRetentionPeriod", "345600"},
        {"QueueArn", "arn:aws:sqs:us-east-1:000000000000:q.fifo"},
        {"ReceiveMessageWaitTimeSeconds", "0"},
        {"SqsManagedSseEnabled", "true"},
        {"VisibilityTimeout", "30"},
    };
    EXPECT_EQ(all, expected);
}

TEST_F(QueuesTest, unknownAttributeNameIsInvalidAttributeName)
{
    create("q");
    EXPECT_TRUE(failsWith(broker.getQueueAttributes("q", {"Foobar"}),
                          ErrorCode::InvalidAttributeName, "Unknown Attribute Foobar."));
    EXPECT_TRUE(failsWith(broker.getQueueAttributes("q", {"VisibilityTimeout", "Foobar"}),
                          ErrorCode::InvalidAttributeName, "Unknown Attribute Foobar."));
    EXPECT_TRUE(failsWith(broker.getQueueAttributes("q", {"All", "Foobar"}),
                          ErrorCode::InvalidAttributeName, "Unknown Attribute Foobar."));
    EXPECT_TRUE(failsWith(broker.getQueueAttributes("q", {"visibilitytimeout"}),
                          ErrorCode::InvalidAttributeName, "Unknown Attribute visibilitytimeout."));
}

TEST_F(QueuesTest, singleAttributeNamesReturnOnlyThoseAttributes)
{
    create("q", {{"VisibilityTimeout", "45"}});
    auto one = broker.getQueueAttributes("q", {"VisibilityTimeout"});
    ASSERT_TRUE(succeeds(one));
    EXPECT_EQ(one.value(), (StringMap{{"VisibilityTimeout", "45"}}));

    auto two = broker.getQueueAttributes("q", {"QueueArn", "ApproximateNumberOfMessages"});
    ASSERT_TRUE(succeeds(two));
    EXPECT_EQ(two.value(),
              (StringMap{{"ApproximateNumberOfMessages", "0"},
                         {"QueueArn", "arn:aws:sqs:us-east-1:000000000000:q"}}));

    auto withAll = broker.getQueueAttributes("q", {"VisibilityTimeout", "All"});
    ASSERT_TRUE(succeeds(withAll));
    EXPECT_EQ(withAll->size(), 12u);
}

TEST_F(QueuesTest, optionalAttributesAreAbsentUntilSet)
{
    create("q");
    auto unset = broker.getQueueAttributes("q", {"Policy", "RedrivePolicy", "RedriveAllowPolicy"});
    ASSERT_TRUE(succeeds(unset));
    EXPECT_TRUE(unset->empty());
}

TEST_F(QueuesTest, timestampsAreWholeEpochSeconds)
{
    clock.advance(1'999);
    create("q");
    EXPECT_EQ(attribute("q", "CreatedTimestamp"), "1700000001");
    EXPECT_EQ(attribute("q", "LastModifiedTimestamp"), "1700000001");
}

TEST_F(QueuesTest, countersFollowSendsReceivesAndVisibilityExpiry)
{
    create("q");
    for (int i = 0; i < 6; ++i)
        send("q", "m" + std::to_string(i));
    EXPECT_EQ(counters("q"), "6/0/0");
    ASSERT_EQ(receive("q", 1).size(), 1u);
    EXPECT_EQ(counters("q"), "5/1/0");
    clock.advance(29'999);
    EXPECT_EQ(counters("q"), "5/1/0");
    clock.advance(1);
    EXPECT_EQ(counters("q"), "6/0/0");
}

TEST_F(QueuesTest, countersFollowDelays)
{
    create("q");
    send("q", "now");
    send("q", "later", 10);
    EXPECT_EQ(counters("q"), "1/0/1");
    clock.advance(9'999);
    EXPECT_EQ(counters("q"), "1/0/1");
    clock.advance(1);
    EXPECT_EQ(counters("q"), "2/0/0");
}

TEST_F(QueuesTest, countersFollowDeletes)
{
    create("q");
    send("q", "a");
    send("q", "b");
    const auto got = receive("q", 10);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(counters("q"), "0/2/0");
    ASSERT_TRUE(succeeds(broker.deleteMessage("q", got[0].receiptHandle, "test")));
    EXPECT_EQ(counters("q"), "0/1/0");
}

TEST_F(QueuesTest, fifoCountersCountMessagesBehindAnInFlightHeadAsAvailable)
{
    createFifo("q.fifo");
    int n = 0;
    for (const std::string group : {"g1", "g2", "g3"})
        for (int i = 0; i < 2; ++i)
            ASSERT_TRUE(succeeds(trySendFifo("q.fifo", "m", group, "d" + std::to_string(n++))));
    ASSERT_EQ(receive("q.fifo", 1).size(), 1u);
    ASSERT_EQ(receive("q.fifo", 1).size(), 1u);
    EXPECT_EQ(counters("q.fifo"), "4/2/0");
}

// ================================================================================================
// SetQueueAttributes (§3.6, A.15, A.21, B.39)
// ================================================================================================

TEST_F(QueuesTest, setAcceptsRangesJustInsideAndRejectsJustOutside)
{
    create("q");
    for (const RangeCase& c : rangeCases()) {
        SCOPED_TRACE(c.attribute + "=" + c.value);
        const std::string before = attribute("q", c.attribute);
        const Status status = set("q", {{c.attribute, c.value}});
        if (c.accepted) {
            EXPECT_TRUE(succeeds(status));
            EXPECT_EQ(attribute("q", c.attribute), c.value);
        } else {
            EXPECT_TRUE(failsWith(status, ErrorCode::InvalidAttributeValue));
            EXPECT_EQ(attribute("q", c.attribute), before) << "a rejected value changes nothing";
        }
    }
}

TEST_F(QueuesTest, setRejectsReadOnlyAttributeNames)
{
    create("q");
    for (const std::string name :
         {"QueueArn", "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible",
          "ApproximateNumberOfMessagesDelayed", "CreatedTimestamp", "LastModifiedTimestamp"}) {
        SCOPED_TRACE(name);
        EXPECT_TRUE(failsWith(set("q", {{name, "1"}}), ErrorCode::InvalidAttributeName));
    }
    EXPECT_EQ(attribute("q", "QueueArn"), "arn:aws:sqs:us-east-1:000000000000:q");
}

TEST_F(QueuesTest, setRejectsUnknownAttributeName)
{
    create("q");
    EXPECT_TRUE(failsWith(set("q", {{"Foobar", "1"}}), ErrorCode::InvalidAttributeName,
                          "Unknown Attribute Foobar."));
}

TEST_F(QueuesTest, setFifoQueueOnStandardIsUnknownAttribute)
{
    create("q");
    for (const std::string value : {"true", "false"}) {
        SCOPED_TRACE(value);
        EXPECT_TRUE(failsWith(set("q", {{"FifoQueue", value}}), ErrorCode::InvalidAttributeName,
                              "Unknown Attribute FifoQueue."));
    }
}

TEST_F(QueuesTest, setFifoQueueTrueOnFifoIsNoOpAndFalseIsRejected)
{
    createFifo("q.fifo");
    EXPECT_TRUE(succeeds(set("q.fifo", {{"FifoQueue", "true"}})));
    EXPECT_EQ(attribute("q.fifo", "FifoQueue"), "true");
    EXPECT_TRUE(
        failsWith(set("q.fifo", {{"FifoQueue", "false"}}), ErrorCode::InvalidAttributeValue,
                  "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not "
                  "supported."));
    auto found = broker.getQueue("q.fifo");
    ASSERT_TRUE(succeeds(found));
    EXPECT_EQ(found->kind, QueueKind::Fifo);
    EXPECT_EQ(broker.queueKind("q.fifo").value(), QueueKind::Fifo);
}

TEST_F(QueuesTest, setFifoOnlyAttributesOnStandardIsRejected)
{
    create("q");
    EXPECT_TRUE(failsWith(set("q", {{"ContentBasedDeduplication", "true"}}),
                          ErrorCode::InvalidAttributeName));
    EXPECT_TRUE(failsWith(set("q", {{"DeduplicationScope", "messageGroup"}}),
                          ErrorCode::InvalidAttributeName));
    EXPECT_TRUE(failsWith(set("q", {{"FifoThroughputLimit", "perMessageGroupId"}}),
                          ErrorCode::InvalidAttributeName));
    EXPECT_EQ(allAttributes("q").size(), 12u);
}

TEST_F(QueuesTest, setFifoAttributesOnFifoQueue)
{
    createFifo("q.fifo");
    EXPECT_TRUE(succeeds(set("q.fifo", {{"ContentBasedDeduplication", "true"}})));
    EXPECT_TRUE(succeeds(set(
        "q.fifo",
        {{"DeduplicationScope", "messageGroup"}, {"FifoThroughputLimit", "perMessageGroupId"}})));
    const StringMap all = allAttributes("q.fifo");
    EXPECT_EQ(all.at("ContentBasedDeduplication"), "true");
    EXPECT_EQ(all.at("DeduplicationScope"), "messageGroup");
    EXPECT_EQ(all.at("FifoThroughputLimit"), "perMessageGroupId");
}

TEST_F(QueuesTest, setPerMessageGroupThroughputRequiresMessageGroupScope)
{
    createFifo("q.fifo");
    EXPECT_TRUE(failsWith(set("q.fifo", {{"FifoThroughputLimit", "perMessageGroupId"}}),
                          ErrorCode::InvalidAttributeValue));
    EXPECT_EQ(attribute("q.fifo", "FifoThroughputLimit"), "perQueue");
}

TEST_F(QueuesTest, setRejectsKmsKeyTogetherWithSqsManagedSse)
{
    create("q");
    EXPECT_TRUE(
        failsWith(set("q", {{"KmsMasterKeyId", "alias/aws/sqs"}, {"SqsManagedSseEnabled", "true"}}),
                  ErrorCode::InvalidAttributeName, kSseConflict));
    EXPECT_EQ(attribute("q", "KmsMasterKeyId"), "<absent>");
}

TEST_F(QueuesTest, kmsKeyAndSqsManagedSseAreNeverBothActive)
{
    // §3.1: the two kinds of SSE are mutually exclusive. Engine choice (queue_config.h): a key
    // given alone turns SqsManagedSseEnabled off; SqsManagedSseEnabled=true drops the key.
    create("q");
    ASSERT_TRUE(succeeds(set("q", {{"KmsMasterKeyId", "alias/aws/sqs"}})));
    EXPECT_EQ(attribute("q", "KmsMasterKeyId"), "alias/aws/sqs");
    EXPECT_EQ(attribute("q", "SqsManagedSseEnabled"), "false");
    ASSERT_TRUE(succeeds(set("q", {{"SqsManagedSseEnabled", "true"}})));
    EXPECT_EQ(attribute("q", "SqsManagedSseEnabled"), "true");
    EXPECT_EQ(attribute("q", "KmsMasterKeyId"), "<absent>");
}

TEST_F(QueuesTest, setUpdatesLastModifiedTimestampOnly)
{
    create("q");
    clock.advance(5'000);
    ASSERT_TRUE(succeeds(set("q", {{"VisibilityTimeout", "60"}})));
    EXPECT_EQ(attribute("q", "LastModifiedTimestamp"), std::to_string((kStart + 5'000) / 1000));
    EXPECT_EQ(attribute("q", "CreatedTimestamp"), std::to_string(kStart / 1000));
}

TEST_F(QueuesTest, rejectedSetLeavesLastModifiedTimestamp)
{
    create("q");
    clock.advance(5'000);
    EXPECT_FALSE(set("q", {{"VisibilityTimeout", "43201"}}).ok());
    EXPECT_EQ(attribute("q", "LastModifiedTimestamp"), std::to_string(kStart / 1000));
}

TEST_F(QueuesTest, setEmptyPolicyRemovesIt)
{
    create("q");
    ASSERT_TRUE(succeeds(set("q", {{"Policy", R"({"Version":"2012-10-17","Statement":[]})"}})));
    EXPECT_NE(attribute("q", "Policy"), "<absent>");
    ASSERT_TRUE(succeeds(set("q", {{"Policy", ""}})));
    EXPECT_EQ(attribute("q", "Policy"), "<absent>");
}

TEST_F(QueuesTest, loweringRetentionExpiresMessagesAlreadyOlder)
{
    create("q");
    send("q", "oldest"); // age 60 000 ms at the change
    clock.advance(1);
    send("q", "younger");                       // age 59 999 ms at the change
    ASSERT_EQ(receive("q", 1, 600).size(), 1u); // "oldest" in flight: retention applies anyway
    clock.advance(59'999);
    ASSERT_TRUE(succeeds(set("q", {{"MessageRetentionPeriod", "60"}})));
    EXPECT_EQ(counters("q"), "1/0/0");
    const auto left = receive("q", 10, 0);
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0].body, "younger");
    clock.advance(1);
    EXPECT_EQ(counters("q"), "0/0/0");
}

TEST_F(QueuesTest, raisingRetentionKeepsMessagesLonger)
{
    create("q", {{"MessageRetentionPeriod", "60"}});
    send("q", "m");
    clock.advance(30'000);
    ASSERT_TRUE(succeeds(set("q", {{"MessageRetentionPeriod", "120"}})));
    clock.advance(89'999);
    EXPECT_EQ(counters("q"), "1/0/0");
    clock.advance(1);
    EXPECT_EQ(counters("q"), "0/0/0");
}

TEST_F(QueuesTest, fifoDelayChangeIsRetroactive)
{
    createFifo("q.fifo", {{"DelaySeconds", "60"}});
    ASSERT_TRUE(succeeds(trySendFifo("q.fifo", "m", "g", "d")));
    clock.advance(10'000);
    EXPECT_TRUE(receive("q.fifo", 10).empty());
    ASSERT_TRUE(succeeds(set("q.fifo", {{"DelaySeconds", "0"}})));
    EXPECT_EQ(counters("q.fifo"), "1/0/0");
    const auto got = receive("q.fifo", 10);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].body, "m");
}

TEST_F(QueuesTest, fifoLoweredDelayCountsFromTheSend)
{
    createFifo("q.fifo", {{"DelaySeconds", "60"}});
    ASSERT_TRUE(succeeds(trySendFifo("q.fifo", "m", "g", "d")));
    clock.advance(10'000);
    ASSERT_TRUE(succeeds(set("q.fifo", {{"DelaySeconds", "30"}})));
    clock.advance(19'999);
    EXPECT_TRUE(receive("q.fifo", 10).empty());
    EXPECT_EQ(counters("q.fifo"), "0/0/1");
    clock.advance(1);
    EXPECT_EQ(receive("q.fifo", 10).size(), 1u);
}

TEST_F(QueuesTest, standardDelayChangeIsNotRetroactive)
{
    create("q", {{"DelaySeconds", "60"}});
    send("q", "m");
    clock.advance(10'000);
    ASSERT_TRUE(succeeds(set("q", {{"DelaySeconds", "0"}})));
    EXPECT_TRUE(receive("q", 10).empty());
    EXPECT_EQ(counters("q"), "0/0/1");
    send("q", "fresh");
    const auto fresh = receive("q", 10);
    ASSERT_EQ(fresh.size(), 1u) << "new messages get the new delay";
    EXPECT_EQ(fresh[0].body, "fresh");
    ASSERT_TRUE(succeeds(broker.deleteMessage("q", fresh[0].receiptHandle, "test")));
    clock.advance(49'999);
    EXPECT_TRUE(receive("q", 10).empty());
    clock.advance(1);
    const auto got = receive("q", 10);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].body, "m");
}

TEST_F(QueuesTest, raisedStandardDelayAppliesToNewMessagesOnly)
{
    create("q");
    send("q", "before");
    ASSERT_TRUE(succeeds(set("q", {{"DelaySeconds", "30"}})));
    send("q", "after");
    EXPECT_EQ(counters("q"), "1/0/1");
    clock.advance(30'000);
    EXPECT_EQ(counters("q"), "2/0/0");
}

TEST_F(QueuesTest, setVisibilityTimeoutAppliesToLaterReceives)
{
    create("q");
    send("q", "m");
    ASSERT_TRUE(succeeds(set("q", {{"VisibilityTimeout", "5"}})));
    ASSERT_EQ(receive("q", 10).size(), 1u);
    clock.advance(4'999);
    EXPECT_TRUE(receive("q", 10).empty());
    clock.advance(1);
    EXPECT_EQ(receive("q", 10).size(), 1u);
}

// ================================================================================================
// RedrivePolicy and RedriveAllowPolicy (§5.4, A.21, A.23)
// ================================================================================================

TEST_F(QueuesTest, redrivePolicyIsStoredWithMaxReceiveCountAsNumber)
{
    create("dlq");
    create("src");
    for (const std::string count : {"5", "\"5\""}) {
        SCOPED_TRACE(count);
        ASSERT_TRUE(succeeds(set("src", {{"RedrivePolicy", redrivePolicy(arn("dlq"), count)}})));
        const Json policy = Json::parse(attribute("src", "RedrivePolicy"), nullptr, false);
        ASSERT_TRUE(policy.is_object()) << attribute("src", "RedrivePolicy");
        EXPECT_EQ(policy.value("deadLetterTargetArn", ""), arn("dlq"));
        ASSERT_TRUE(policy.contains("maxReceiveCount"));
        EXPECT_TRUE(policy["maxReceiveCount"].is_number_integer());
        EXPECT_EQ(policy["maxReceiveCount"], 5);
    }
}

TEST_F(QueuesTest, redrivePolicyMaxReceiveCountIsBetween1And1000)
{
    create("dlq");
    create("src");
    struct Case {
        std::string count;  // as it appears in the JSON
        std::string quoted; // as the error message quotes it
        bool accepted;
    };
    const std::vector<Case> cases = {
        {"0", "0", false},          {"1", "1", true},
        {"1000", "1000", true},     {"1001", "1001", false},
        {"\"0\"", "0", false},      {"\"1\"", "1", true},
        {"\"1000\"", "1000", true}, {"\"1001\"", "1001", false},
        {"-1", "-1", false},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.count);
        const Status status = set("src", {{"RedrivePolicy", redrivePolicy(arn("dlq"), c.count)}});
        if (c.accepted) {
            EXPECT_TRUE(succeeds(status));
            continue;
        }
        ASSERT_TRUE(failsWith(status, ErrorCode::InvalidParameterValue));
        EXPECT_TRUE(endsWith(status.error().message, maxReceiveCountReason(c.quoted)))
            << status.error().message;
    }
}

TEST_F(QueuesTest, redrivePolicyMaxReceiveCountMustBeAnInteger)
{
    create("dlq");
    create("src");
    for (const std::string count : {"1.5", "\"1.5\"", "\"abc\"", "true", "null"}) {
        SCOPED_TRACE(count);
        EXPECT_TRUE(failsWith(set("src", {{"RedrivePolicy", redrivePolicy(arn("dlq"), count)}}),
                              ErrorCode::InvalidParameterValue));
    }
    EXPECT_EQ(attribute("src", "RedrivePolicy"), "<absent>");
}

TEST_F(QueuesTest, redrivePolicyNeedsBothKeys)
{
    // The spec recommends both keys required (§5.4, UNCONFIRMED); the engine follows it.
    create("dlq");
    create("src");
    EXPECT_TRUE(failsWith(
        set("src", {{"RedrivePolicy", R"({"deadLetterTargetArn":")" + arn("dlq") + R"("})"}}),
        ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(failsWith(set("src", {{"RedrivePolicy", R"({"maxReceiveCount":3})"}}),
                          ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(
        failsWith(set("src", {{"RedrivePolicy", "not json"}}), ErrorCode::InvalidParameterValue));
    EXPECT_EQ(attribute("src", "RedrivePolicy"), "<absent>");
}

TEST_F(QueuesTest, redrivePolicyTargetMustExist)
{
    create("src");
    EXPECT_TRUE(failsWith(set("src", {{"RedrivePolicy", redrivePolicy(arn("missing"), "3")}}),
                          ErrorCode::InvalidParameterValue));
    EXPECT_EQ(attribute("src", "RedrivePolicy"), "<absent>");
}

TEST_F(QueuesTest, redrivePolicyTargetOfDeletedQueueIsRejected)
{
    create("dlq");
    create("src");
    ASSERT_TRUE(succeeds(broker.deleteQueue("dlq", "test")));
    EXPECT_TRUE(failsWith(set("src", {{"RedrivePolicy", redrivePolicy(arn("dlq"), "3")}}),
                          ErrorCode::InvalidParameterValue));
}

TEST_F(QueuesTest, redrivePolicyTargetMustBeInTheSameAccountAndRegion)
{
    create("dlq");
    create("src");
    EXPECT_TRUE(failsWith(
        set("src",
            {{"RedrivePolicy", redrivePolicy("arn:aws:sqs:eu-west-1:000000000000:dlq", "3")}}),
        ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(failsWith(
        set("src",
            {{"RedrivePolicy", redrivePolicy("arn:aws:sqs:us-east-1:111122223333:dlq", "3")}}),
        ErrorCode::InvalidParameterValue));
}

TEST_F(QueuesTest, redrivePolicyTargetMustBeOfTheSameType)
{
    create("std-dlq");
    create("std-src");
    createFifo("fifo-dlq.fifo");
    createFifo("fifo-src.fifo");
    EXPECT_TRUE(
        failsWith(set("std-src", {{"RedrivePolicy", redrivePolicy(arn("fifo-dlq.fifo"), "3")}}),
                  ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(
        failsWith(set("fifo-src.fifo", {{"RedrivePolicy", redrivePolicy(arn("std-dlq"), "3")}}),
                  ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(succeeds(set("std-src", {{"RedrivePolicy", redrivePolicy(arn("std-dlq"), "3")}})));
    EXPECT_TRUE(succeeds(
        set("fifo-src.fifo", {{"RedrivePolicy", redrivePolicy(arn("fifo-dlq.fifo"), "3")}})));
}

TEST_F(QueuesTest, redrivePolicyOnCreateIsValidatedToo)
{
    createFifo("fifo-dlq.fifo");
    create("dlq");
    EXPECT_TRUE(failsWith(tryCreate("a", {{"RedrivePolicy", redrivePolicy(arn("missing"), "3")}}),
                          ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(
        failsWith(tryCreate("b", {{"RedrivePolicy", redrivePolicy(arn("fifo-dlq.fifo"), "3")}}),
                  ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(failsWith(tryCreate("c", {{"RedrivePolicy", redrivePolicy(arn("dlq"), "1001")}}),
                          ErrorCode::InvalidParameterValue));
    EXPECT_EQ(listAll(), (Names{"dlq", "fifo-dlq.fifo"}));
    EXPECT_TRUE(succeeds(tryCreate("d", {{"RedrivePolicy", redrivePolicy(arn("dlq"), "3")}})));
}

TEST_F(QueuesTest, emptyRedrivePolicyRemovesIt)
{
    create("dlq");
    create("src", {{"RedrivePolicy", redrivePolicy(arn("dlq"), "3")}});
    ASSERT_NE(attribute("src", "RedrivePolicy"), "<absent>");
    ASSERT_TRUE(succeeds(set("src", {{"RedrivePolicy", ""}})));
    const StringMap all = allAttributes("src");
    EXPECT_EQ(all.count("RedrivePolicy"), 0u);
    EXPECT_EQ(all.size(), 12u);
}

TEST_F(QueuesTest, redriveAllowPolicyDenyAllRejectsEverySource)
{
    create("dlq", {{"RedriveAllowPolicy", R"({"redrivePermission":"denyAll"})"}});
    create("src");
    EXPECT_TRUE(failsWith(set("src", {{"RedrivePolicy", redrivePolicy(arn("dlq"), "3")}}),
                          ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(failsWith(tryCreate("src2", {{"RedrivePolicy", redrivePolicy(arn("dlq"), "3")}}),
                          ErrorCode::InvalidParameterValue));
    EXPECT_EQ(attribute("src", "RedrivePolicy"), "<absent>");
}

TEST_F(QueuesTest, redriveAllowPolicyByQueueAdmitsOnlyListedSources)
{
    create("dlq");
    create("allowed");
    create("other");
    const std::string allow
        = R"({"redrivePermission":"byQueue","sourceQueueArns":[")" + arn("allowed") + R"("]})";
    ASSERT_TRUE(succeeds(set("dlq", {{"RedriveAllowPolicy", allow}})));
    EXPECT_TRUE(succeeds(set("allowed", {{"RedrivePolicy", redrivePolicy(arn("dlq"), "3")}})));
    EXPECT_TRUE(failsWith(set("other", {{"RedrivePolicy", redrivePolicy(arn("dlq"), "3")}}),
                          ErrorCode::InvalidParameterValue));
    // A queue that is not listed cannot name it at create time either.
    EXPECT_TRUE(failsWith(tryCreate("late", {{"RedrivePolicy", redrivePolicy(arn("dlq"), "3")}}),
                          ErrorCode::InvalidParameterValue));
    // A listed source may be created after the policy was set.
    const std::string allowFuture
        = R"({"redrivePermission":"byQueue","sourceQueueArns":[")" + arn("future") + R"("]})";
    ASSERT_TRUE(succeeds(set("dlq", {{"RedriveAllowPolicy", allowFuture}})));
    EXPECT_TRUE(succeeds(tryCreate("future", {{"RedrivePolicy", redrivePolicy(arn("dlq"), "3")}})));
}

TEST_F(QueuesTest, redriveAllowPolicyAllowAllAdmitsAnySource)
{
    create("dlq", {{"RedriveAllowPolicy", R"({"redrivePermission":"allowAll"})"}});
    create("src");
    EXPECT_TRUE(succeeds(set("src", {{"RedrivePolicy", redrivePolicy(arn("dlq"), "3")}})));
    const Json allow = Json::parse(attribute("dlq", "RedriveAllowPolicy"), nullptr, false);
    ASSERT_TRUE(allow.is_object());
    EXPECT_EQ(allow.value("redrivePermission", ""), "allowAll");
}

TEST_F(QueuesTest, redriveAllowPolicySourceArnsOnlyWithByQueueAndAtMostTen)
{
    create("dlq");
    const auto arns = [&](int n) {
        Json list = Json::array();
        for (int i = 0; i < n; ++i)
            list.push_back(arn("s" + std::to_string(i)));
        return list.dump();
    };
    const auto byQueue = [&](int n) {
        return R"({"redrivePermission":"byQueue","sourceQueueArns":)" + arns(n) + "}";
    };
    EXPECT_TRUE(succeeds(set("dlq", {{"RedriveAllowPolicy", byQueue(10)}})));
    EXPECT_TRUE(failsWith(set("dlq", {{"RedriveAllowPolicy", byQueue(11)}}),
                          ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(
        failsWith(set("dlq", {{"RedriveAllowPolicy", R"({"redrivePermission":"byQueue"})"}}),
                  ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(
        failsWith(set("dlq",
                      {{"RedriveAllowPolicy",
                        R"({"redrivePermission":"allowAll","sourceQueueArns":)" + arns(1) + "}"}}),
                  ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(
        failsWith(set("dlq",
                      {{"RedriveAllowPolicy",
                        R"({"redrivePermission":"denyAll","sourceQueueArns":)" + arns(1) + "}"}}),
                  ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(
        failsWith(set("dlq", {{"RedriveAllowPolicy", R"({"redrivePermission":"someQueues"})"}}),
                  ErrorCode::InvalidParameterValue));
    const Json stored = Json::parse(attribute("dlq", "RedriveAllowPolicy"), nullptr, false);
    ASSERT_TRUE(stored.is_object());
    EXPECT_EQ(stored.value("redrivePermission", ""), "byQueue");
    EXPECT_EQ(stored["sourceQueueArns"].size(), 10u) << "rejected policies change nothing";
}

TEST_F(QueuesTest, emptyRedriveAllowPolicyRemovesItAndAllowsAllAgain)
{
    create("dlq", {{"RedriveAllowPolicy", R"({"redrivePermission":"denyAll"})"}});
    create("src");
    ASSERT_TRUE(succeeds(set("dlq", {{"RedriveAllowPolicy", ""}})));
    EXPECT_EQ(attribute("dlq", "RedriveAllowPolicy"), "<absent>");
    EXPECT_TRUE(succeeds(set("src", {{"RedrivePolicy", redrivePolicy(arn("dlq"), "3")}})));
}

// ================================================================================================
// ListDeadLetterSourceQueues (§3.9, E.107)
// ================================================================================================

TEST_F(QueuesTest, listDeadLetterSourceQueuesNamesEveryQueueTargetingIt)
{
    create("d");
    create("other-dlq");
    create("s1", {{"RedrivePolicy", redrivePolicy(arn("d"), "3")}});
    create("s2", {{"RedrivePolicy", redrivePolicy(arn("d"), "5")}});
    create("s3", {{"RedrivePolicy", redrivePolicy(arn("other-dlq"), "3")}});
    create("plain");
    EXPECT_EQ(deadLetterSources("d"), (Names{"s1", "s2"}));
    EXPECT_EQ(deadLetterSources("other-dlq"), Names{"s3"});
    EXPECT_EQ(deadLetterSources("plain"), Names{});
}

TEST_F(QueuesTest, listDeadLetterSourceQueuesFollowsSetAndRemoval)
{
    create("d");
    create("s");
    EXPECT_EQ(deadLetterSources("d"), Names{});
    ASSERT_TRUE(succeeds(set("s", {{"RedrivePolicy", redrivePolicy(arn("d"), "3")}})));
    EXPECT_EQ(deadLetterSources("d"), Names{"s"});
    ASSERT_TRUE(succeeds(set("s", {{"RedrivePolicy", ""}})));
    EXPECT_EQ(deadLetterSources("d"), Names{});
    ASSERT_TRUE(succeeds(set("s", {{"RedrivePolicy", redrivePolicy(arn("d"), "3")}})));
    ASSERT_TRUE(succeeds(broker.deleteQueue("s", "test")));
    EXPECT_EQ(deadLetterSources("d"), Names{}) << "a deleted source is not listed";
}

TEST_F(QueuesTest, listDeadLetterSourceQueuesPaginatesLikeListQueues)
{
    create("d");
    for (const std::string name : {"s3", "s1", "s2"})
        create(name, {{"RedrivePolicy", redrivePolicy(arn("d"), "3")}});
    ListQueuesRequest page;
    page.maxResults = 2;
    auto first = broker.listDeadLetterSourceQueues("d", page);
    ASSERT_TRUE(succeeds(first));
    EXPECT_EQ(first->names, (Names{"s1", "s2"}));
    ASSERT_NE(first->nextToken, "");
    page.nextToken = first->nextToken;
    auto second = broker.listDeadLetterSourceQueues("d", page);
    ASSERT_TRUE(succeeds(second));
    EXPECT_EQ(second->names, Names{"s3"});
    EXPECT_EQ(second->nextToken, "");

    ListQueuesRequest exact;
    exact.maxResults = 3;
    auto all = broker.listDeadLetterSourceQueues("d", exact);
    ASSERT_TRUE(succeeds(all));
    EXPECT_EQ(all->names.size(), 3u);
    EXPECT_EQ(all->nextToken, "");

    ListQueuesRequest bad;
    bad.maxResults = 0;
    EXPECT_TRUE(
        failsWith(broker.listDeadLetterSourceQueues("d", bad), ErrorCode::InvalidParameterValue));
    bad.maxResults = 1001;
    EXPECT_TRUE(
        failsWith(broker.listDeadLetterSourceQueues("d", bad), ErrorCode::InvalidParameterValue));
}

TEST_F(QueuesTest, listDeadLetterSourceQueuesOfUnknownQueueIsQueueDoesNotExist)
{
    EXPECT_TRUE(failsWith(broker.listDeadLetterSourceQueues("missing", {}),
                          ErrorCode::QueueDoesNotExist, kNoSuchQueue));
}

TEST_F(QueuesTest, recreatedDeadLetterQueueListsTheSourcesPointingAtItsArn)
{
    create("d");
    create("s", {{"RedrivePolicy", redrivePolicy(arn("d"), "3")}});
    ASSERT_TRUE(succeeds(broker.deleteQueue("d", "test")));
    clock.advance(60'000);
    create("d");
    EXPECT_EQ(deadLetterSources("d"), Names{"s"});
}

TEST_F(QueuesTest, listDeadLetterSourceQueuesOfFifoDeadLetterQueue)
{
    createFifo("d.fifo");
    createFifo("s.fifo", {{"RedrivePolicy", redrivePolicy(arn("d.fifo"), "2")}});
    EXPECT_EQ(deadLetterSources("d.fifo"), Names{"s.fifo"});
}

// ================================================================================================
// AddPermission / RemovePermission (§3.10)
// ================================================================================================

TEST_F(QueuesTest, addPermissionAppendsStatementWithTheLabelAsSid)
{
    create("q");
    ASSERT_TRUE(succeeds(
        broker.addPermission("q", "AllowSend", {"111122223333"}, {"SendMessage"}, "test")));
    const std::string policy = attribute("q", "Policy");
    ASSERT_NE(policy, "<absent>");
    EXPECT_EQ(statementsWithSid(policy, "AllowSend"), 1);

    ASSERT_TRUE(succeeds(
        broker.addPermission("q", "AllowReceive", {"111122223333"}, {"ReceiveMessage"}, "test")));
    const std::string both = attribute("q", "Policy");
    EXPECT_EQ(statementsWithSid(both, "AllowSend"), 1);
    EXPECT_EQ(statementsWithSid(both, "AllowReceive"), 1);
}

TEST_F(QueuesTest, addPermissionWithExistingLabelIsRejected)
{
    create("q");
    ASSERT_TRUE(
        succeeds(broker.addPermission("q", "L1", {"111122223333"}, {"SendMessage"}, "test")));
    EXPECT_TRUE(
        failsWith(broker.addPermission("q", "L1", {"444455556666"}, {"ReceiveMessage"}, "test"),
                  ErrorCode::InvalidParameterValue,
                  "Value L1 for parameter Label is invalid. Reason: Already exists."));
    EXPECT_EQ(statementsWithSid(attribute("q", "Policy"), "L1"), 1);
}

TEST_F(QueuesTest, removePermissionOfUnknownLabelIsRejected)
{
    create("q");
    EXPECT_TRUE(failsWith(broker.removePermission("q", "nope", "test"),
                          ErrorCode::InvalidParameterValue,
                          "Value nope for parameter Label is invalid. Reason: can't find label."));
    ASSERT_TRUE(
        succeeds(broker.addPermission("q", "L1", {"111122223333"}, {"SendMessage"}, "test")));
    EXPECT_TRUE(failsWith(broker.removePermission("q", "l1", "test"),
                          ErrorCode::InvalidParameterValue,
                          "Value l1 for parameter Label is invalid. Reason: can't find label."));
}

TEST_F(QueuesTest, removePermissionRemovesOnlyThatStatement)
{
    create("q");
    ASSERT_TRUE(
        succeeds(broker.addPermission("q", "L1", {"111122223333"}, {"SendMessage"}, "test")));
    ASSERT_TRUE(
        succeeds(broker.addPermission("q", "L2", {"111122223333"}, {"DeleteMessage"}, "test")));
    ASSERT_TRUE(succeeds(broker.removePermission("q", "L1", "test")));
    const std::string policy = attribute("q", "Policy");
    EXPECT_EQ(statementsWithSid(policy, "L1"), 0);
    EXPECT_EQ(statementsWithSid(policy, "L2"), 1);
    ASSERT_TRUE(succeeds(broker.removePermission("q", "L2", "test")));
    EXPECT_EQ(statementsWithSid(attribute("q", "Policy"), "L2"), 0);
    EXPECT_TRUE(
        failsWith(broker.removePermission("q", "L2", "test"), ErrorCode::InvalidParameterValue));
    // The label is free again.
    EXPECT_TRUE(
        succeeds(broker.addPermission("q", "L1", {"111122223333"}, {"SendMessage"}, "test")));
}

TEST_F(QueuesTest, addPermissionKeepsStatementsOfAPolicySetBefore)
{
    create("q");
    ASSERT_TRUE(succeeds(set(
        "q",
        {{"Policy",
          R"({"Version":"2012-10-17","Statement":[{"Sid":"Existing","Effect":"Allow","Principal":"*","Action":"SQS:SendMessage","Resource":"*"}]})"}})));
    ASSERT_TRUE(
        succeeds(broker.addPermission("q", "Added", {"111122223333"}, {"SendMessage"}, "test")));
    const std::string policy = attribute("q", "Policy");
    EXPECT_EQ(statementsWithSid(policy, "Existing"), 1);
    EXPECT_EQ(statementsWithSid(policy, "Added"), 1);
    EXPECT_TRUE(
        failsWith(broker.addPermission("q", "Existing", {"111122223333"}, {"SendMessage"}, "test"),
                  ErrorCode::InvalidParameterValue,
                  "Value Existing for parameter Label is invalid. Reason: Already exists."));
}

} // namespace
} // namespace inflight::engine
