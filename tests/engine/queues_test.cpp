// Queue-level operations through Broker, from the spec: §1.3 limits, §1.4 default attributes,
// §3.1–§3.10 (create, get URL, list, delete, attributes, purge, tags, dead-letter sources,
// permissions), the RedrivePolicy / RedriveAllowPolicy rules of §5.4 and cases A.1–A.23 of §8,
// with the neighbours of each boundary.
#include "engine/broker.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

using Json = nlohmann::json;

constexpr Millis kStart = 1'700'000'000'000;

const std::string kNoSuchQueue = "The specified queue does not exist.";
const std::string kDeletedRecently
    = "You must wait 60 seconds after deleting a queue before you can create another with the "
      "same name.";
const std::string kSseConflict
    = "You can use one type of server-side encryption (SSE) at one time. You can either enable "
      "KMS SSE or SQS SSE.";

std::string alreadyExists(const std::string& attribute)
{
    return "A queue already exists with the same name and a different value for attribute "
        + attribute;
}

std::string purgeInProgress(const std::string& queue)
{
    return "Only one PurgeQueue operation on " + queue + " is allowed every 60 seconds.";
}

std::string maxReceiveCountReason(const std::string& value)
{
    return "Reason: Invalid value for maxReceiveCount: " + value
        + ", valid values are from 1 to 1000 both inclusive.";
}

// ---- assertions --------------------------------------------------------------------------------

template <class T>
testing::AssertionResult succeeds(const Result<T>& result)
{
    if (result.ok())
        return testing::AssertionSuccess();
    return testing::AssertionFailure() << "failed with " << describe(result.error());
}

template <class T>
testing::AssertionResult failsWith(const Result<T>& result, ErrorCode code,
                                   const std::optional<std::string>& message = std::nullopt)
{
    if (result.ok())
        return testing::AssertionFailure() << "succeeded; expected " << errorCodeName(code);
    const Error& error = result.error();
    if (error.code != code)
        return testing::AssertionFailure()
            << "failed with " << describe(error) << "; expected " << errorCodeName(code);
    if (message && error.message != *message)
        return testing::AssertionFailure()
            << "message \"" << error.message << "\"; expected \"" << *message << "\"";
    return testing::AssertionSuccess();
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

std::string repeat(const std::string& piece, std::size_t times)
{
    std::string text;
    for (std::size_t i = 0; i < times; ++i)
        text += piece;
    return text;
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

// ---- fixture -----------------------------------------------------------------------------------

class QueuesTest : public testing::Test {
protected:
    ManualClock clock;
    Broker broker{clock};

    QueueRef create(Broker& b, const std::string& name, const StringMap& attributes = {},
                    const StringMap& tags = {})
    {
        CreateQueueRequest request;
        request.name = name;
        request.attributes = attributes;
        request.tags = tags;
        auto result = b.createQueue(request);
        if (!result.ok()) {
            ADD_FAILURE() << "setup: creating " << name << " failed: " << describe(result.error());
            return QueueRef{name, b.arnForName(name), QueueKind::Standard};
        }
        return result.value();
    }
    QueueRef create(const std::string& name, const StringMap& attributes = {},
                    const StringMap& tags = {})
    {
        return create(broker, name, attributes, tags);
    }
    QueueRef createFifo(const std::string& name, StringMap attributes = {})
    {
        attributes["FifoQueue"] = "true";
        return create(name, attributes);
    }

    Result<QueueRef> tryCreate(Broker& b, const std::string& name, const StringMap& attributes = {},
                               const StringMap& tags = {})
    {
        CreateQueueRequest request;
        request.name = name;
        request.attributes = attributes;
        request.tags = tags;
        return b.createQueue(request);
    }
    Result<QueueRef> tryCreate(const std::string& name, const StringMap& attributes = {},
                               const StringMap& tags = {})
    {
        return tryCreate(broker, name, attributes, tags);
    }

    std::string arn(const std::string& name) const { return broker.arnForName(name); }

    std::string send(Broker& b, const std::string& queue, const std::string& body,
                     std::optional<std::int64_t> delaySeconds = std::nullopt)
    {
        SendMessageRequest request;
        request.queue = queue;
        request.body = body;
        request.delaySeconds = delaySeconds;
        auto result = b.sendMessage(request);
        if (!result.ok()) {
            ADD_FAILURE() << "setup: send to " << queue << " failed: " << describe(result.error());
            return {};
        }
        return result->messageId;
    }
    std::string send(const std::string& queue, const std::string& body,
                     std::optional<std::int64_t> delaySeconds = std::nullopt)
    {
        return send(broker, queue, body, delaySeconds);
    }

    Result<SendResult> sendFifo(const std::string& queue, const std::string& body,
                                const std::string& group, const std::string& dedup)
    {
        SendMessageRequest request;
        request.queue = queue;
        request.body = body;
        request.groupId = group;
        request.deduplicationId = dedup;
        return broker.sendMessage(request);
    }

    std::vector<ReceivedMessage> receive(Broker& b, const std::string& queue, std::int64_t max = 10,
                                         std::optional<std::int64_t> visibility = std::nullopt)
    {
        ReceiveRequest request;
        request.queue = queue;
        request.maxMessages = max;
        request.visibilityTimeout = visibility;
        auto result = b.receiveMessage(request);
        if (!result.ok()) {
            ADD_FAILURE() << "receive from " << queue << " failed: " << describe(result.error());
            return {};
        }
        return result->messages;
    }
    std::vector<ReceivedMessage> receive(const std::string& queue, std::int64_t max = 10,
                                         std::optional<std::int64_t> visibility = std::nullopt)
    {
        return receive(broker, queue, max, visibility);
    }

    StringMap allAttributes(Broker& b, const std::string& queue)
    {
        auto result = b.getQueueAttributes(queue, {"All"});
        if (!result.ok()) {
            ADD_FAILURE() << "GetQueueAttributes(All) on " << queue
                          << " failed: " << describe(result.error());
            return {};
        }
        return result.value();
    }
    StringMap allAttributes(const std::string& queue) { return allAttributes(broker, queue); }

    // One attribute as GetQueueAttributes(All) shows it; "<absent>" when not shown.
    std::string attribute(const std::string& queue, const std::string& name)
    {
        const StringMap all = allAttributes(queue);
        const auto it = all.find(name);
        return it == all.end() ? "<absent>" : it->second;
    }

    // "available/notVisible/delayed" from the Approximate* attributes.
    std::string counters(Broker& b, const std::string& queue)
    {
        const StringMap all = allAttributes(b, queue);
        const auto get = [&](const std::string& key) {
            const auto it = all.find(key);
            return it == all.end() ? std::string("?") : it->second;
        };
        return get("ApproximateNumberOfMessages") + "/"
            + get("ApproximateNumberOfMessagesNotVisible") + "/"
            + get("ApproximateNumberOfMessagesDelayed");
    }
    std::string counters(const std::string& queue) { return counters(broker, queue); }

    Status set(const std::string& queue, const StringMap& attributes)
    {
        return broker.setQueueAttributes(queue, attributes);
    }

    std::vector<std::string> listAll(const std::string& prefix = {})
    {
        ListQueuesRequest request;
        request.prefix = prefix;
        auto result = broker.listQueues(request);
        if (!result.ok()) {
            ADD_FAILURE() << "ListQueues failed: " << describe(result.error());
            return {};
        }
        EXPECT_EQ(result->nextToken, "") << "no NextToken without MaxResults";
        return result->names;
    }

    Result<ListQueuesResult> listPage(std::optional<std::int64_t> maxResults,
                                      const std::string& nextToken = {},
                                      const std::string& prefix = {})
    {
        ListQueuesRequest request;
        request.prefix = prefix;
        request.maxResults = maxResults;
        request.nextToken = nextToken;
        return broker.listQueues(request);
    }

    std::vector<std::string> deadLetterSources(const std::string& dlq)
    {
        auto result = broker.listDeadLetterSourceQueues(dlq, ListQueuesRequest{});
        if (!result.ok()) {
            ADD_FAILURE() << "ListDeadLetterSourceQueues failed: " << describe(result.error());
            return {};
        }
        EXPECT_EQ(result->nextToken, "") << "no NextToken without MaxResults";
        return result->names;
    }
};

using Names = std::vector<std::string>;

// ================================================================================================
// CreateQueue: names (§1.3, §3.1, A.7, A.9, A.11)
// ================================================================================================

TEST_F(QueuesTest, createReturnsNameArnAndKind)
{
    auto created = tryCreate("orders");
    ASSERT_TRUE(succeeds(created));
    EXPECT_EQ(created->name, "orders");
    EXPECT_EQ(created->arn, "arn:aws:sqs:us-east-1:000000000000:orders");
    EXPECT_EQ(created->kind, QueueKind::Standard);

    auto found = broker.getQueue("orders");
    ASSERT_TRUE(succeeds(found));
    EXPECT_EQ(found->name, "orders");
    EXPECT_EQ(found->arn, created->arn);
}

TEST_F(QueuesTest, queueIsUsableImmediatelyAfterCreate)
{
    create("q");
    send("q", "hello");
    const auto got = receive("q");
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].body, "hello");
}

TEST_F(QueuesTest, createAcceptsEightyCharacterNameAndRejectsEightyOne)
{
    const std::string name80 = repeat("a", 78) + "_-";
    ASSERT_EQ(name80.size(), 80u);
    EXPECT_TRUE(succeeds(tryCreate(name80)));
    EXPECT_TRUE(failsWith(tryCreate(repeat("b", 81)), ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(failsWith(broker.getQueue(repeat("b", 81)), ErrorCode::QueueDoesNotExist));
}

TEST_F(QueuesTest, createAcceptsEveryAllowedNameCharacter)
{
    EXPECT_TRUE(succeeds(tryCreate("ABCXYZabcxyz0189-_")));
    EXPECT_TRUE(succeeds(tryCreate("a")));
}

TEST_F(QueuesTest, createRejectsEmptyName)
{
    EXPECT_TRUE(failsWith(tryCreate(""), ErrorCode::InvalidParameterValue));
}

TEST_F(QueuesTest, createRejectsIllegalNameCharacters)
{
    for (const std::string name : {"a.b", "a b", "a/b", "a:b", "a*b", "caf\xC3\xA9", "a\tb"}) {
        SCOPED_TRACE(name);
        EXPECT_TRUE(failsWith(tryCreate(name), ErrorCode::InvalidParameterValue));
    }
    EXPECT_TRUE(succeeds(broker.listQueues({})));
    EXPECT_EQ(listAll(), Names{});
}

TEST_F(QueuesTest, fifoNameSuffixCountsTowardEightyCharacters)
{
    const std::string name80 = repeat("f", 75) + ".fifo";
    ASSERT_EQ(name80.size(), 80u);
    EXPECT_TRUE(succeeds(tryCreate(name80, {{"FifoQueue", "true"}})));
    const std::string name81 = repeat("g", 76) + ".fifo";
    EXPECT_TRUE(
        failsWith(tryCreate(name81, {{"FifoQueue", "true"}}), ErrorCode::InvalidParameterValue));
}

TEST_F(QueuesTest, fifoQueueWithoutSuffixIsRejected)
{
    EXPECT_TRUE(
        failsWith(tryCreate("x", {{"FifoQueue", "true"}}), ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(failsWith(broker.getQueue("x"), ErrorCode::QueueDoesNotExist));
}

TEST_F(QueuesTest, standardQueueNamedDotFifoIsRejected)
{
    EXPECT_TRUE(failsWith(tryCreate("x.fifo"), ErrorCode::InvalidParameterValue));
}

TEST_F(QueuesTest, fifoQueueNameAllowsOnlyNameCharactersBeforeSuffix)
{
    EXPECT_TRUE(failsWith(tryCreate("a.b.fifo", {{"FifoQueue", "true"}}),
                          ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(failsWith(tryCreate("a b.fifo", {{"FifoQueue", "true"}}),
                          ErrorCode::InvalidParameterValue));
}

TEST_F(QueuesTest, queueNamesAreCaseSensitive)
{
    create("Abc");
    create("abc", {{"DelaySeconds", "5"}});
    EXPECT_EQ(attribute("Abc", "DelaySeconds"), "0");
    EXPECT_EQ(attribute("abc", "DelaySeconds"), "5");
    EXPECT_TRUE(failsWith(broker.getQueue("ABC"), ErrorCode::QueueDoesNotExist, kNoSuchQueue));
}

// ================================================================================================
// CreateQueue: attributes (§1.3, §3.1, A.13)
// ================================================================================================

TEST_F(QueuesTest, fifoQueueTrueCreatesFifoQueue)
{
    auto created = tryCreate("jobs.fifo", {{"FifoQueue", "true"}});
    ASSERT_TRUE(succeeds(created));
    EXPECT_EQ(created->kind, QueueKind::Fifo);
    EXPECT_EQ(attribute("jobs.fifo", "FifoQueue"), "true");
}

TEST_F(QueuesTest, createStandardWithFifoQueueFalseIsUnknownAttribute)
{
    EXPECT_TRUE(failsWith(tryCreate("q", {{"FifoQueue", "false"}}), ErrorCode::InvalidAttributeName,
                          "Unknown Attribute FifoQueue."));
    EXPECT_TRUE(failsWith(broker.getQueue("q"), ErrorCode::QueueDoesNotExist));
}

TEST_F(QueuesTest, createStandardWithContentBasedDeduplicationIsUnknownAttribute)
{
    for (const std::string value : {"false", "true"}) {
        SCOPED_TRACE(value);
        EXPECT_TRUE(failsWith(tryCreate("q", {{"ContentBasedDeduplication", value}}),
                              ErrorCode::InvalidAttributeName,
                              "Unknown Attribute ContentBasedDeduplication."));
    }
}

TEST_F(QueuesTest, createStandardWithHighThroughputAttributesNeedsFifoQueue)
{
    EXPECT_TRUE(failsWith(
        tryCreate("q", {{"DeduplicationScope", "queue"}}), ErrorCode::InvalidAttributeName,
        "You can specify the DeduplicationScope only when FifoQueue is set to true."));
    EXPECT_TRUE(failsWith(
        tryCreate("q", {{"FifoThroughputLimit", "perQueue"}}), ErrorCode::InvalidAttributeName,
        "You can specify the FifoThroughputLimit only when FifoQueue is set to true."));
}

TEST_F(QueuesTest, createRejectsUnknownAttributeName)
{
    EXPECT_TRUE(failsWith(tryCreate("q", {{"Foobar", "1"}}), ErrorCode::InvalidAttributeName,
                          "Unknown Attribute Foobar."));
    // Names are case-sensitive.
    EXPECT_TRUE(
        failsWith(tryCreate("q", {{"visibilitytimeout", "30"}}), ErrorCode::InvalidAttributeName));
    EXPECT_TRUE(failsWith(broker.getQueue("q"), ErrorCode::QueueDoesNotExist));
}

TEST_F(QueuesTest, createRejectsReadOnlyAttributeNames)
{
    for (const std::string name :
         {"QueueArn", "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible",
          "ApproximateNumberOfMessagesDelayed", "CreatedTimestamp", "LastModifiedTimestamp"}) {
        SCOPED_TRACE(name);
        EXPECT_TRUE(failsWith(tryCreate("q", {{name, "0"}}), ErrorCode::InvalidAttributeName));
    }
}

struct RangeCase {
    std::string attribute;
    std::string value;
    bool accepted;
};

// §1.3 ranges, each end just inside and just outside (A.15).
const std::vector<RangeCase>& rangeCases()
{
    static const std::vector<RangeCase> cases = {
        {"VisibilityTimeout", "-1", false},
        {"VisibilityTimeout", "0", true},
        {"VisibilityTimeout", "43200", true},
        {"VisibilityTimeout", "43201", false},
        {"DelaySeconds", "-1", false},
        {"DelaySeconds", "0", true},
        {"DelaySeconds", "900", true},
        {"DelaySeconds", "901", false},
        {"MessageRetentionPeriod", "59", false},
        {"MessageRetentionPeriod", "60", true},
        {"MessageRetentionPeriod", "1209600", true},
        {"MessageRetentionPeriod", "1209601", false},
        {"MaximumMessageSize", "1023", false},
        {"MaximumMessageSize", "1024", true},
        {"MaximumMessageSize", "1048576", true},
        {"MaximumMessageSize", "1048577", false},
        {"ReceiveMessageWaitTimeSeconds", "-1", false},
        {"ReceiveMessageWaitTimeSeconds", "0", true},
        {"ReceiveMessageWaitTimeSeconds", "20", true},
        {"ReceiveMessageWaitTimeSeconds", "21", false},
        {"KmsDataKeyReusePeriodSeconds", "59", false},
        {"KmsDataKeyReusePeriodSeconds", "60", true},
        {"KmsDataKeyReusePeriodSeconds", "86400", true},
        {"KmsDataKeyReusePeriodSeconds", "86401", false},
        {"VisibilityTimeout", "abc", false},
        {"DelaySeconds", "1.5", false},
        {"MessageRetentionPeriod", "", false},
    };
    return cases;
}

TEST_F(QueuesTest, createValidatesEveryNumericAttributeRange)
{
    int n = 0;
    for (const RangeCase& c : rangeCases()) {
        SCOPED_TRACE(c.attribute + "=" + c.value);
        const std::string name = "q" + std::to_string(n++);
        auto created = tryCreate(name, {{c.attribute, c.value}});
        if (c.accepted) {
            ASSERT_TRUE(succeeds(created));
            EXPECT_EQ(attribute(name, c.attribute), c.value);
        } else {
            EXPECT_TRUE(failsWith(created, ErrorCode::InvalidAttributeValue));
            EXPECT_TRUE(failsWith(broker.getQueue(name), ErrorCode::QueueDoesNotExist));
        }
    }
}

TEST_F(QueuesTest, createValidatesFifoAttributeValues)
{
    EXPECT_TRUE(
        failsWith(tryCreate("a.fifo", {{"FifoQueue", "true"}, {"DeduplicationScope", "group"}}),
                  ErrorCode::InvalidAttributeValue));
    EXPECT_TRUE(
        failsWith(tryCreate("b.fifo", {{"FifoQueue", "true"}, {"FifoThroughputLimit", "perGroup"}}),
                  ErrorCode::InvalidAttributeValue));
    EXPECT_TRUE(failsWith(
        tryCreate("c.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "yes"}}),
        ErrorCode::InvalidAttributeValue));

    create("d.fifo",
           {{"FifoQueue", "true"},
            {"ContentBasedDeduplication", "true"},
            {"DeduplicationScope", "messageGroup"},
            {"FifoThroughputLimit", "perMessageGroupId"}});
    const StringMap all = allAttributes("d.fifo");
    EXPECT_EQ(all.at("ContentBasedDeduplication"), "true");
    EXPECT_EQ(all.at("DeduplicationScope"), "messageGroup");
    EXPECT_EQ(all.at("FifoThroughputLimit"), "perMessageGroupId");
}

TEST_F(QueuesTest, perMessageGroupThroughputRequiresMessageGroupScope)
{
    // Code UNCONFIRMED in the spec (§3.1): InvalidAttributeValue.
    EXPECT_TRUE(failsWith(
        tryCreate("a.fifo", {{"FifoQueue", "true"}, {"FifoThroughputLimit", "perMessageGroupId"}}),
        ErrorCode::InvalidAttributeValue));
    EXPECT_TRUE(failsWith(tryCreate("a.fifo",
                                    {{"FifoQueue", "true"},
                                     {"DeduplicationScope", "queue"},
                                     {"FifoThroughputLimit", "perMessageGroupId"}}),
                          ErrorCode::InvalidAttributeValue));
    EXPECT_TRUE(succeeds(tryCreate("a.fifo",
                                   {{"FifoQueue", "true"},
                                    {"DeduplicationScope", "messageGroup"},
                                    {"FifoThroughputLimit", "perMessageGroupId"}})));
}

TEST_F(QueuesTest, createRejectsKmsKeyTogetherWithSqsManagedSse)
{
    EXPECT_TRUE(failsWith(
        tryCreate("q", {{"KmsMasterKeyId", "alias/aws/sqs"}, {"SqsManagedSseEnabled", "true"}}),
        ErrorCode::InvalidAttributeName, kSseConflict));
}

TEST_F(QueuesTest, kmsAttributesAppearOnlyWhenSet)
{
    create("plain");
    create("kms", {{"KmsMasterKeyId", "alias/aws/sqs"}, {"KmsDataKeyReusePeriodSeconds", "600"}});
    const StringMap plain = allAttributes("plain");
    EXPECT_EQ(plain.count("KmsMasterKeyId"), 0u);
    EXPECT_EQ(plain.count("KmsDataKeyReusePeriodSeconds"), 0u);
    const StringMap kms = allAttributes("kms");
    EXPECT_EQ(kms.at("KmsMasterKeyId"), "alias/aws/sqs");
    EXPECT_EQ(kms.at("KmsDataKeyReusePeriodSeconds"), "600");
}

TEST_F(QueuesTest, policyIsLimitedTo8192Bytes)
{
    const std::string head = R"({"Version":"2012-10-17","Pad":")";
    const std::string tail = R"("})";
    const std::string policy8192 = head + repeat("x", 8192 - head.size() - tail.size()) + tail;
    ASSERT_EQ(policy8192.size(), 8192u);
    const std::string policy8193 = head + repeat("x", 8193 - head.size() - tail.size()) + tail;
    EXPECT_TRUE(succeeds(tryCreate("a", {{"Policy", policy8192}})));
    EXPECT_TRUE(
        failsWith(tryCreate("b", {{"Policy", policy8193}}), ErrorCode::InvalidAttributeValue));
    EXPECT_TRUE(
        failsWith(tryCreate("c", {{"Policy", "not json"}}), ErrorCode::InvalidAttributeValue));
}

// ================================================================================================
// CreateQueue: idempotency (§3.1, A.5)
// ================================================================================================

TEST_F(QueuesTest, createAgainWithSameAttributesReturnsExistingQueue)
{
    const StringMap attributes{{"DelaySeconds", "1"}, {"VisibilityTimeout", "45"}};
    const QueueRef first = create("q", attributes);
    int createdEvents = 0;
    broker.setEventSink([&](std::span<const Event> events) {
        for (const Event& e : events)
            if (e.kind == EventKind::QueueCreated)
                ++createdEvents;
    });
    auto again = tryCreate("q", attributes);
    ASSERT_TRUE(succeeds(again));
    EXPECT_EQ(again->name, first.name);
    EXPECT_EQ(again->arn, first.arn);
    EXPECT_EQ(createdEvents, 0) << "an idempotent repeat emits no QueueCreated";
    EXPECT_EQ(listAll(), Names{"q"});
}

TEST_F(QueuesTest, createAgainWithSubsetOrNoAttributesReturnsExistingQueue)
{
    create("q", {{"DelaySeconds", "1"}, {"VisibilityTimeout", "45"}});
    EXPECT_TRUE(succeeds(tryCreate("q", {{"DelaySeconds", "1"}})));
    EXPECT_TRUE(succeeds(tryCreate("q", {{"VisibilityTimeout", "45"}})));
    EXPECT_TRUE(succeeds(tryCreate("q")));
    EXPECT_EQ(attribute("q", "DelaySeconds"), "1");
    EXPECT_EQ(attribute("q", "VisibilityTimeout"), "45");
}

TEST_F(QueuesTest, createAgainWithDifferentValueNamesTheAttribute)
{
    create("q", {{"DelaySeconds", "1"}});
    EXPECT_TRUE(failsWith(tryCreate("q", {{"DelaySeconds", "2"}}), ErrorCode::QueueNameExists,
                          alreadyExists("DelaySeconds")));
    EXPECT_EQ(attribute("q", "DelaySeconds"), "1") << "the failed create changes nothing";
}

TEST_F(QueuesTest, createAgainNamesTheDifferingAttributeAmongEqualOnes)
{
    create("q", {{"DelaySeconds", "1"}, {"VisibilityTimeout", "45"}});
    EXPECT_TRUE(failsWith(tryCreate("q", {{"DelaySeconds", "1"}, {"VisibilityTimeout", "46"}}),
                          ErrorCode::QueueNameExists, alreadyExists("VisibilityTimeout")));
}

TEST_F(QueuesTest, createAgainComparesAgainstDefaultsOfAttributesNeverGiven)
{
    create("q");
    EXPECT_TRUE(succeeds(
        tryCreate("q", {{"VisibilityTimeout", "30"}, {"MessageRetentionPeriod", "345600"}})));
    EXPECT_TRUE(failsWith(tryCreate("q", {{"VisibilityTimeout", "31"}}), ErrorCode::QueueNameExists,
                          alreadyExists("VisibilityTimeout")));
    EXPECT_TRUE(failsWith(tryCreate("q", {{"MaximumMessageSize", "262144"}}),
                          ErrorCode::QueueNameExists, alreadyExists("MaximumMessageSize")));
}

TEST_F(QueuesTest, createAgainComparesAgainstCurrentAttributesAfterSet)
{
    create("q", {{"DelaySeconds", "1"}});
    ASSERT_TRUE(succeeds(set("q", {{"DelaySeconds", "2"}})));
    EXPECT_TRUE(succeeds(tryCreate("q", {{"DelaySeconds", "2"}})));
    EXPECT_TRUE(failsWith(tryCreate("q", {{"DelaySeconds", "1"}}), ErrorCode::QueueNameExists,
                          alreadyExists("DelaySeconds")));
}

TEST_F(QueuesTest, createAgainKeepsMessagesAndAttributes)
{
    create("q", {{"VisibilityTimeout", "45"}});
    send("q", "kept");
    ASSERT_TRUE(succeeds(tryCreate("q")));
    EXPECT_EQ(counters("q"), "1/0/0");
    EXPECT_EQ(attribute("q", "VisibilityTimeout"), "45");
}

TEST_F(QueuesTest, createFifoAgainIsIdempotent)
{
    createFifo("q.fifo", {{"ContentBasedDeduplication", "true"}});
    auto again
        = tryCreate("q.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}});
    ASSERT_TRUE(succeeds(again));
    EXPECT_EQ(again->kind, QueueKind::Fifo);
    EXPECT_TRUE(failsWith(
        tryCreate("q.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "false"}}),
        ErrorCode::QueueNameExists, alreadyExists("ContentBasedDeduplication")));
}

// ================================================================================================
// DeleteQueue and re-creation (§3.1, §3.4, A.17)
// ================================================================================================

TEST_F(QueuesTest, createWithin60SecondsOfDeleteIsQueueDeletedRecently)
{
    create("q");
    ASSERT_TRUE(succeeds(broker.deleteQueue("q")));
    EXPECT_TRUE(failsWith(tryCreate("q"), ErrorCode::QueueDeletedRecently, kDeletedRecently));
    clock.advance(59'999);
    EXPECT_TRUE(failsWith(tryCreate("q"), ErrorCode::QueueDeletedRecently, kDeletedRecently));
    clock.advance(1);
    EXPECT_TRUE(succeeds(tryCreate("q")));
}

TEST_F(QueuesTest, createAfterTheRecreateWindowSucceeds)
{
    create("q");
    ASSERT_TRUE(succeeds(broker.deleteQueue("q")));
    clock.advance(60'001);
    EXPECT_TRUE(succeeds(tryCreate("q")));
}

TEST_F(QueuesTest, recreateDelayIsConfigurable)
{
    BrokerOptions options;
    options.recreateDelay = 5 * kSecond;
    Broker b(clock, options);
    create(b, "q");
    ASSERT_TRUE(succeeds(b.deleteQueue("q")));
    clock.advance(4'999);
    EXPECT_TRUE(failsWith(tryCreate(b, "q"), ErrorCode::QueueDeletedRecently));
    clock.advance(1);
    EXPECT_TRUE(succeeds(tryCreate(b, "q")));
}

TEST_F(QueuesTest, deleteRecentlyBlocksOnlyThatName)
{
    create("q");
    ASSERT_TRUE(succeeds(broker.deleteQueue("q")));
    EXPECT_TRUE(succeeds(tryCreate("Q")));
    EXPECT_TRUE(succeeds(tryCreate("q2")));
}

TEST_F(QueuesTest, recreatedQueueStartsEmptyWithDefaults)
{
    create("q", {{"VisibilityTimeout", "45"}}, {{"team", "a"}});
    send("q", "old");
    send("q", "delayed", 900);
    receive("q", 1);
    ASSERT_TRUE(succeeds(broker.deleteQueue("q")));
    clock.advance(60'000);
    create("q");
    EXPECT_EQ(counters("q"), "0/0/0");
    EXPECT_EQ(attribute("q", "VisibilityTimeout"), "30");
    EXPECT_EQ(attribute("q", "CreatedTimestamp"), std::to_string((kStart + 60'000) / 1000));
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_TRUE(tags->empty());
    EXPECT_TRUE(receive("q").empty());
}

TEST_F(QueuesTest, deleteQueueDeletesRegardlessOfContent)
{
    create("q");
    for (int i = 0; i < 3; ++i)
        send("q", "m" + std::to_string(i));
    send("q", "later", 60);
    receive("q", 1);
    EXPECT_TRUE(succeeds(broker.deleteQueue("q")));
    EXPECT_TRUE(failsWith(broker.getQueue("q"), ErrorCode::QueueDoesNotExist, kNoSuchQueue));
    EXPECT_EQ(listAll(), Names{});
}

TEST_F(QueuesTest, everyCallOnADeletedQueueIsQueueDoesNotExist)
{
    create("q");
    send("q", "m");
    const auto got = receive("q");
    ASSERT_EQ(got.size(), 1u);
    const std::string receipt = got[0].receiptHandle;
    ASSERT_TRUE(succeeds(broker.deleteQueue("q")));

    const auto gone = [](const auto& result) {
        return failsWith(result, ErrorCode::QueueDoesNotExist, kNoSuchQueue);
    };
    EXPECT_TRUE(gone(broker.getQueue("q")));
    SendMessageRequest sendRequest;
    sendRequest.queue = "q";
    sendRequest.body = "x";
    EXPECT_TRUE(gone(broker.sendMessage(sendRequest)));
    ReceiveRequest receiveRequest;
    receiveRequest.queue = "q";
    EXPECT_TRUE(gone(broker.receiveMessage(receiveRequest)));
    EXPECT_TRUE(gone(broker.deleteMessage("q", receipt)));
    EXPECT_TRUE(gone(broker.changeMessageVisibility("q", receipt, 10)));
    EXPECT_TRUE(gone(broker.getQueueAttributes("q", {"All"})));
    EXPECT_TRUE(gone(broker.setQueueAttributes("q", {{"DelaySeconds", "1"}})));
    EXPECT_TRUE(gone(broker.purgeQueue("q")));
    EXPECT_TRUE(gone(broker.tagQueue("q", {{"k", "v"}})));
    EXPECT_TRUE(gone(broker.untagQueue("q", {"k"})));
    EXPECT_TRUE(gone(broker.listQueueTags("q")));
    EXPECT_TRUE(gone(broker.listDeadLetterSourceQueues("q", {})));
    EXPECT_TRUE(gone(broker.addPermission("q", "L", {"111122223333"}, {"SendMessage"})));
    EXPECT_TRUE(gone(broker.removePermission("q", "L")));
    EXPECT_TRUE(gone(broker.deleteQueue("q")));
}

TEST_F(QueuesTest, receiptOfDeletedQueueIsInvalidOnItsSuccessor)
{
    // The re-created queue is another queue: §7A (b) "other queue ⇒ ReceiptHandleIsInvalid".
    create("q");
    send("q", "m");
    const auto got = receive("q");
    ASSERT_EQ(got.size(), 1u);
    ASSERT_TRUE(succeeds(broker.deleteQueue("q")));
    clock.advance(60'000);
    create("q");
    send("q", "new");
    EXPECT_TRUE(failsWith(broker.deleteMessage("q", got[0].receiptHandle),
                          ErrorCode::ReceiptHandleIsInvalid));
    EXPECT_EQ(counters("q"), "1/0/0");
}

TEST_F(QueuesTest, deleteOfUnknownQueueIsQueueDoesNotExist)
{
    EXPECT_TRUE(failsWith(broker.deleteQueue("never"), ErrorCode::QueueDoesNotExist, kNoSuchQueue));
}

// ================================================================================================
// GetQueueUrl (§3.2)
// ================================================================================================

TEST_F(QueuesTest, getQueueOfUnknownNameIsQueueDoesNotExist)
{
    EXPECT_TRUE(failsWith(broker.getQueue("missing"), ErrorCode::QueueDoesNotExist, kNoSuchQueue));
    create("present");
    EXPECT_TRUE(failsWith(broker.getQueue("presen"), ErrorCode::QueueDoesNotExist, kNoSuchQueue));
    EXPECT_TRUE(failsWith(broker.getQueue("present1"), ErrorCode::QueueDoesNotExist, kNoSuchQueue));
}

TEST_F(QueuesTest, getQueueReturnsFifoKind)
{
    createFifo("f.fifo");
    auto found = broker.getQueue("f.fifo");
    ASSERT_TRUE(succeeds(found));
    EXPECT_EQ(found->kind, QueueKind::Fifo);
    EXPECT_EQ(found->arn, "arn:aws:sqs:us-east-1:000000000000:f.fifo");
}

// ================================================================================================
// ListQueues (§3.3, A.19)
// ================================================================================================

TEST_F(QueuesTest, listQueuesIsLexicographicByName)
{
    for (const std::string name : {"c", "a", "B", "b", "a-1", "a_1", "A"})
        create(name);
    EXPECT_EQ(listAll(), (Names{"A", "B", "a", "a-1", "a_1", "b", "c"}));
}

TEST_F(QueuesTest, listQueuesPrefixIsCaseSensitive)
{
    create("Abc");
    create("abc");
    EXPECT_EQ(listAll("a"), Names{"abc"});
    EXPECT_EQ(listAll("A"), Names{"Abc"});
    EXPECT_EQ(listAll("abc"), Names{"abc"});
    EXPECT_EQ(listAll("abcd"), Names{});
    EXPECT_EQ(listAll(""), (Names{"Abc", "abc"}));
}

TEST_F(QueuesTest, listQueuesOnNoQueuesIsEmpty)
{
    auto page = listPage(10);
    ASSERT_TRUE(succeeds(page));
    EXPECT_TRUE(page->names.empty());
    EXPECT_EQ(page->nextToken, "");
}

TEST_F(QueuesTest, listQueuesPaginatesTenQueuesTwoThenEight)
{
    for (int i = 0; i < 10; ++i)
        create("q" + std::to_string(i));
    auto first = listPage(2);
    ASSERT_TRUE(succeeds(first));
    EXPECT_EQ(first->names, (Names{"q0", "q1"}));
    EXPECT_NE(first->nextToken, "");

    auto second = listPage(10, first->nextToken);
    ASSERT_TRUE(succeeds(second));
    EXPECT_EQ(second->names, (Names{"q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9"}));
    EXPECT_EQ(second->nextToken, "");
}

TEST_F(QueuesTest, listQueuesNextTokenOnlyWhileMoreRemain)
{
    for (const std::string name : {"a", "b", "c", "d"})
        create(name);
    auto exact = listPage(4);
    ASSERT_TRUE(succeeds(exact));
    EXPECT_EQ(exact->names.size(), 4u);
    EXPECT_EQ(exact->nextToken, "") << "no token when exactly MaxResults remain";

    auto oneShort = listPage(3);
    ASSERT_TRUE(succeeds(oneShort));
    EXPECT_EQ(oneShort->names, (Names{"a", "b", "c"}));
    ASSERT_NE(oneShort->nextToken, "");
    auto last = listPage(3, oneShort->nextToken);
    ASSERT_TRUE(succeeds(last));
    EXPECT_EQ(last->names, Names{"d"});
    EXPECT_EQ(last->nextToken, "");

    auto ones = listPage(1);
    Names seen;
    int pages = 0;
    while (ones.ok() && pages < 10) {
        ++pages;
        seen.insert(seen.end(), ones->names.begin(), ones->names.end());
        if (ones->nextToken.empty())
            break;
        ones = listPage(1, ones->nextToken);
    }
    ASSERT_TRUE(succeeds(ones));
    EXPECT_EQ(pages, 4);
    EXPECT_EQ(seen, (Names{"a", "b", "c", "d"}));
}

TEST_F(QueuesTest, listQueuesPagesKeepThePrefix)
{
    for (const std::string name : {"p1", "p2", "p3", "p4", "p5", "x1", "P6"})
        create(name);
    auto first = listPage(2, {}, "p");
    ASSERT_TRUE(succeeds(first));
    EXPECT_EQ(first->names, (Names{"p1", "p2"}));
    auto second = listPage(2, first->nextToken, "p");
    ASSERT_TRUE(succeeds(second));
    EXPECT_EQ(second->names, (Names{"p3", "p4"}));
    auto third = listPage(2, second->nextToken, "p");
    ASSERT_TRUE(succeeds(third));
    EXPECT_EQ(third->names, Names{"p5"});
    EXPECT_EQ(third->nextToken, "");
}

TEST_F(QueuesTest, listQueuesMaxResultsMustBeBetween1And1000)
{
    create("a");
    create("b");
    for (const std::int64_t bad : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{1001}}) {
        SCOPED_TRACE(bad);
        EXPECT_TRUE(failsWith(listPage(bad), ErrorCode::InvalidParameterValue));
    }
    auto one = listPage(1);
    ASSERT_TRUE(succeeds(one));
    EXPECT_EQ(one->names, Names{"a"});
    auto thousand = listPage(1000);
    ASSERT_TRUE(succeeds(thousand));
    EXPECT_EQ(thousand->names, (Names{"a", "b"}));
    EXPECT_EQ(thousand->nextToken, "");
}

TEST_F(QueuesTest, listQueuesReturnsAtMost1000AndTokenOnlyWithMaxResults)
{
    char name[8];
    for (int i = 0; i < 1001; ++i) {
        std::snprintf(name, sizeof name, "q%04d", i);
        create(name);
    }
    ListQueuesRequest request;
    auto unbounded = broker.listQueues(request);
    ASSERT_TRUE(succeeds(unbounded));
    EXPECT_EQ(unbounded->names.size(), 1000u);
    EXPECT_EQ(unbounded->nextToken, "") << "no NextToken without MaxResults";

    auto first = listPage(1000);
    ASSERT_TRUE(succeeds(first));
    EXPECT_EQ(first->names.size(), 1000u);
    ASSERT_NE(first->nextToken, "");
    auto rest = listPage(1000, first->nextToken);
    ASSERT_TRUE(succeeds(rest));
    EXPECT_EQ(rest->names, Names{"q1000"});
    EXPECT_EQ(rest->nextToken, "");
}

TEST_F(QueuesTest, deletedQueueIsNotListed)
{
    create("a");
    create("b");
    ASSERT_TRUE(succeeds(broker.deleteQueue("a")));
    EXPECT_EQ(listAll(), Names{"b"});
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
    ASSERT_TRUE(succeeds(broker.deleteMessage("q", got[0].receiptHandle)));
    EXPECT_EQ(counters("q"), "0/1/0");
}

TEST_F(QueuesTest, fifoCountersCountMessagesBehindAnInFlightHeadAsAvailable)
{
    createFifo("q.fifo");
    int n = 0;
    for (const std::string group : {"g1", "g2", "g3"})
        for (int i = 0; i < 2; ++i)
            ASSERT_TRUE(succeeds(sendFifo("q.fifo", "m", group, "d" + std::to_string(n++))));
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
    ASSERT_TRUE(succeeds(sendFifo("q.fifo", "m", "g", "d")));
    clock.advance(10'000);
    EXPECT_TRUE(receive("q.fifo").empty());
    ASSERT_TRUE(succeeds(set("q.fifo", {{"DelaySeconds", "0"}})));
    EXPECT_EQ(counters("q.fifo"), "1/0/0");
    const auto got = receive("q.fifo");
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].body, "m");
}

TEST_F(QueuesTest, fifoLoweredDelayCountsFromTheSend)
{
    createFifo("q.fifo", {{"DelaySeconds", "60"}});
    ASSERT_TRUE(succeeds(sendFifo("q.fifo", "m", "g", "d")));
    clock.advance(10'000);
    ASSERT_TRUE(succeeds(set("q.fifo", {{"DelaySeconds", "30"}})));
    clock.advance(19'999);
    EXPECT_TRUE(receive("q.fifo").empty());
    EXPECT_EQ(counters("q.fifo"), "0/0/1");
    clock.advance(1);
    EXPECT_EQ(receive("q.fifo").size(), 1u);
}

TEST_F(QueuesTest, standardDelayChangeIsNotRetroactive)
{
    create("q", {{"DelaySeconds", "60"}});
    send("q", "m");
    clock.advance(10'000);
    ASSERT_TRUE(succeeds(set("q", {{"DelaySeconds", "0"}})));
    EXPECT_TRUE(receive("q").empty());
    EXPECT_EQ(counters("q"), "0/0/1");
    send("q", "fresh");
    const auto fresh = receive("q");
    ASSERT_EQ(fresh.size(), 1u) << "new messages get the new delay";
    EXPECT_EQ(fresh[0].body, "fresh");
    ASSERT_TRUE(succeeds(broker.deleteMessage("q", fresh[0].receiptHandle)));
    clock.advance(49'999);
    EXPECT_TRUE(receive("q").empty());
    clock.advance(1);
    const auto got = receive("q");
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
    ASSERT_EQ(receive("q").size(), 1u);
    clock.advance(4'999);
    EXPECT_TRUE(receive("q").empty());
    clock.advance(1);
    EXPECT_EQ(receive("q").size(), 1u);
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
    ASSERT_TRUE(succeeds(broker.deleteQueue("dlq")));
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
// Tags (§1.3, §3.8)
// ================================================================================================

TEST_F(QueuesTest, newQueueHasNoTags)
{
    create("q");
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_TRUE(tags->empty());
}

TEST_F(QueuesTest, tagsGivenAtCreateAreListed)
{
    create("q", {}, {{"team", "payments"}, {"env", "prod"}});
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_EQ(tags.value(), (StringMap{{"env", "prod"}, {"team", "payments"}}));
}

TEST_F(QueuesTest, tagOverwritesTheSameKey)
{
    create("q", {}, {{"env", "dev"}});
    ASSERT_TRUE(succeeds(broker.tagQueue("q", {{"env", "prod"}, {"team", "a"}})));
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_EQ(tags.value(), (StringMap{{"env", "prod"}, {"team", "a"}}));
}

TEST_F(QueuesTest, untagOfUnknownKeyIsIgnored)
{
    create("q", {}, {{"env", "dev"}, {"team", "a"}});
    ASSERT_TRUE(succeeds(broker.untagQueue("q", {"nope", "team"})));
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_EQ(tags.value(), (StringMap{{"env", "dev"}}));
    EXPECT_TRUE(succeeds(broker.untagQueue("q", {"nope"})));
}

TEST_F(QueuesTest, tagKeysAreCaseSensitive)
{
    create("q");
    ASSERT_TRUE(succeeds(broker.tagQueue("q", {{"Env", "A"}, {"env", "a"}})));
    ASSERT_TRUE(succeeds(broker.untagQueue("q", {"ENV"})));
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_EQ(tags.value(), (StringMap{{"Env", "A"}, {"env", "a"}}));
    ASSERT_TRUE(succeeds(broker.untagQueue("q", {"Env"})));
    tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_EQ(tags.value(), (StringMap{{"env", "a"}}));
}

TEST_F(QueuesTest, awsPrefixedTagKeysAreRejected)
{
    create("q");
    EXPECT_TRUE(
        failsWith(broker.tagQueue("q", {{"aws:owner", "me"}}), ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(
        failsWith(tryCreate("r", {}, {{"aws:owner", "me"}}), ErrorCode::InvalidParameterValue));
    EXPECT_TRUE(failsWith(broker.getQueue("r"), ErrorCode::QueueDoesNotExist));
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_TRUE(tags->empty());
    // Only the prefix is reserved.
    EXPECT_TRUE(succeeds(broker.tagQueue("q", {{"my-aws:tag", "x"}, {"aws", "x"}})));
}

TEST_F(QueuesTest, tagKeyUpTo128AndValueUpTo256Characters)
{
    create("q");
    EXPECT_TRUE(succeeds(broker.tagQueue("q", {{repeat("k", 128), repeat("v", 256)}})));
    EXPECT_FALSE(broker.tagQueue("q", {{repeat("k", 129), "v"}}).ok());
    EXPECT_FALSE(broker.tagQueue("q", {{"k", repeat("v", 257)}}).ok());
}

TEST_F(QueuesTest, tagLengthsCountUnicodeCharactersNotBytes)
{
    // §1.3: "key ≤128, value ≤256 Unicode chars". U+00E9 is two UTF-8 bytes.
    create("q");
    const std::string e = "\xC3\xA9";
    EXPECT_TRUE(succeeds(broker.tagQueue("q", {{repeat(e, 128), "v"}})));
    EXPECT_TRUE(succeeds(broker.tagQueue("q", {{"k", repeat(e, 256)}})));
    EXPECT_FALSE(broker.tagQueue("q", {{repeat(e, 129), "v"}}).ok());
    EXPECT_FALSE(broker.tagQueue("q", {{"k", repeat(e, 257)}}).ok());
}

// ================================================================================================
// PurgeQueue (§3.7, C.79)
// ================================================================================================

TEST_F(QueuesTest, purgeRemovesAvailableInFlightAndDelayedMessages)
{
    create("q");
    for (int i = 0; i < 10; ++i)
        send("q", "m" + std::to_string(i));
    send("q", "delayed", 5);
    ASSERT_EQ(receive("q", 5, 3).size(), 5u);
    EXPECT_EQ(counters("q"), "5/5/1");
    ASSERT_TRUE(succeeds(broker.purgeQueue("q")));
    EXPECT_EQ(counters("q"), "0/0/0");
    EXPECT_TRUE(receive("q").empty());
    clock.advance(3'000);
    EXPECT_TRUE(receive("q").empty()) << "in-flight messages do not come back";
    clock.advance(2'000);
    EXPECT_TRUE(receive("q").empty()) << "delayed messages do not arrive";
    EXPECT_EQ(counters("q"), "0/0/0");
}

TEST_F(QueuesTest, purgeRemovesFifoMessagesInEveryState)
{
    createFifo("q.fifo", {{"DelaySeconds", "5"}});
    ASSERT_TRUE(succeeds(sendFifo("q.fifo", "a", "g1", "d1")));
    ASSERT_TRUE(succeeds(sendFifo("q.fifo", "c", "g1", "d2")));
    ASSERT_TRUE(succeeds(sendFifo("q.fifo", "e", "g2", "d3")));
    clock.advance(3'000);
    ASSERT_TRUE(succeeds(sendFifo("q.fifo", "b", "g3", "d4")));
    clock.advance(2'000);
    ASSERT_EQ(receive("q.fifo", 1, 30).size(), 1u);
    EXPECT_EQ(counters("q.fifo"), "2/1/1");
    ASSERT_TRUE(succeeds(broker.purgeQueue("q.fifo")));
    EXPECT_EQ(counters("q.fifo"), "0/0/0");
    clock.advance(30'000);
    EXPECT_TRUE(receive("q.fifo").empty());
    EXPECT_EQ(counters("q.fifo"), "0/0/0");
}

TEST_F(QueuesTest, receiptsOfPurgedMessagesStillDeleteOnStandard)
{
    // §3.7 UNCONFIRMED; the engine treats them as stale handles: delete succeeds as a no-op.
    create("q");
    send("q", "a");
    send("q", "b");
    const auto got = receive("q", 10);
    ASSERT_EQ(got.size(), 2u);
    ASSERT_TRUE(succeeds(broker.purgeQueue("q")));
    send("q", "after");
    EXPECT_TRUE(succeeds(broker.deleteMessage("q", got[0].receiptHandle)));
    EXPECT_TRUE(succeeds(broker.deleteMessage("q", got[1].receiptHandle)));
    EXPECT_EQ(counters("q"), "1/0/0") << "a message sent after the purge is untouched";
}

TEST_F(QueuesTest, purgeClearsFifoDeduplicationHistory)
{
    createFifo("q.fifo");
    auto first = sendFifo("q.fifo", "one", "g", "same");
    ASSERT_TRUE(succeeds(first));
    auto duplicate = sendFifo("q.fifo", "one", "g", "same");
    ASSERT_TRUE(succeeds(duplicate));
    EXPECT_TRUE(duplicate->deduplicated);
    ASSERT_TRUE(succeeds(broker.purgeQueue("q.fifo")));
    auto again = sendFifo("q.fifo", "two", "g", "same");
    ASSERT_TRUE(succeeds(again));
    EXPECT_FALSE(again->deduplicated);
    EXPECT_NE(again->messageId, first->messageId);
    const auto got = receive("q.fifo");
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].body, "two");
}

TEST_F(QueuesTest, secondPurgeWithin60SecondsIsPurgeQueueInProgress)
{
    create("q");
    ASSERT_TRUE(succeeds(broker.purgeQueue("q")));
    EXPECT_TRUE(
        failsWith(broker.purgeQueue("q"), ErrorCode::PurgeQueueInProgress, purgeInProgress("q")));
    clock.advance(59'999);
    EXPECT_TRUE(
        failsWith(broker.purgeQueue("q"), ErrorCode::PurgeQueueInProgress, purgeInProgress("q")));
    clock.advance(1);
    EXPECT_TRUE(succeeds(broker.purgeQueue("q")));
    EXPECT_TRUE(
        failsWith(broker.purgeQueue("q"), ErrorCode::PurgeQueueInProgress, purgeInProgress("q")));
}

TEST_F(QueuesTest, rejectedPurgeRemovesNothing)
{
    create("q");
    ASSERT_TRUE(succeeds(broker.purgeQueue("q")));
    send("q", "m");
    EXPECT_FALSE(broker.purgeQueue("q").ok());
    EXPECT_EQ(counters("q"), "1/0/0");
}

TEST_F(QueuesTest, purgeWindowIsPerQueue)
{
    create("a");
    createFifo("b.fifo");
    ASSERT_TRUE(succeeds(broker.purgeQueue("a")));
    EXPECT_TRUE(succeeds(broker.purgeQueue("b.fifo")));
    EXPECT_TRUE(failsWith(broker.purgeQueue("b.fifo"), ErrorCode::PurgeQueueInProgress,
                          purgeInProgress("b.fifo")));
}

TEST_F(QueuesTest, purgeIntervalIsConfigurable)
{
    BrokerOptions options;
    options.purgeInterval = 10 * kSecond;
    Broker b(clock, options);
    create(b, "q");
    ASSERT_TRUE(succeeds(b.purgeQueue("q")));
    clock.advance(9'999);
    EXPECT_TRUE(failsWith(b.purgeQueue("q"), ErrorCode::PurgeQueueInProgress));
    clock.advance(1);
    EXPECT_TRUE(succeeds(b.purgeQueue("q")));
}

TEST_F(QueuesTest, messagesSentAfterPurgeAreDelivered)
{
    create("q");
    send("q", "before");
    ASSERT_TRUE(succeeds(broker.purgeQueue("q")));
    send("q", "after");
    const auto got = receive("q");
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].body, "after");
}

TEST_F(QueuesTest, purgeOfUnknownQueueIsQueueDoesNotExist)
{
    EXPECT_TRUE(
        failsWith(broker.purgeQueue("missing"), ErrorCode::QueueDoesNotExist, kNoSuchQueue));
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
    ASSERT_TRUE(succeeds(broker.deleteQueue("s")));
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
    ASSERT_TRUE(succeeds(broker.deleteQueue("d")));
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
    ASSERT_TRUE(
        succeeds(broker.addPermission("q", "AllowSend", {"111122223333"}, {"SendMessage"})));
    const std::string policy = attribute("q", "Policy");
    ASSERT_NE(policy, "<absent>");
    EXPECT_EQ(statementsWithSid(policy, "AllowSend"), 1);

    ASSERT_TRUE(
        succeeds(broker.addPermission("q", "AllowReceive", {"111122223333"}, {"ReceiveMessage"})));
    const std::string both = attribute("q", "Policy");
    EXPECT_EQ(statementsWithSid(both, "AllowSend"), 1);
    EXPECT_EQ(statementsWithSid(both, "AllowReceive"), 1);
}

TEST_F(QueuesTest, addPermissionWithExistingLabelIsRejected)
{
    create("q");
    ASSERT_TRUE(succeeds(broker.addPermission("q", "L1", {"111122223333"}, {"SendMessage"})));
    EXPECT_TRUE(failsWith(broker.addPermission("q", "L1", {"444455556666"}, {"ReceiveMessage"}),
                          ErrorCode::InvalidParameterValue,
                          "Value L1 for parameter Label is invalid. Reason: Already exists."));
    EXPECT_EQ(statementsWithSid(attribute("q", "Policy"), "L1"), 1);
}

TEST_F(QueuesTest, removePermissionOfUnknownLabelIsRejected)
{
    create("q");
    EXPECT_TRUE(failsWith(broker.removePermission("q", "nope"), ErrorCode::InvalidParameterValue,
                          "Value nope for parameter Label is invalid. Reason: can't find label."));
    ASSERT_TRUE(succeeds(broker.addPermission("q", "L1", {"111122223333"}, {"SendMessage"})));
    EXPECT_TRUE(failsWith(broker.removePermission("q", "l1"), ErrorCode::InvalidParameterValue,
                          "Value l1 for parameter Label is invalid. Reason: can't find label."));
}

TEST_F(QueuesTest, removePermissionRemovesOnlyThatStatement)
{
    create("q");
    ASSERT_TRUE(succeeds(broker.addPermission("q", "L1", {"111122223333"}, {"SendMessage"})));
    ASSERT_TRUE(succeeds(broker.addPermission("q", "L2", {"111122223333"}, {"DeleteMessage"})));
    ASSERT_TRUE(succeeds(broker.removePermission("q", "L1")));
    const std::string policy = attribute("q", "Policy");
    EXPECT_EQ(statementsWithSid(policy, "L1"), 0);
    EXPECT_EQ(statementsWithSid(policy, "L2"), 1);
    ASSERT_TRUE(succeeds(broker.removePermission("q", "L2")));
    EXPECT_EQ(statementsWithSid(attribute("q", "Policy"), "L2"), 0);
    EXPECT_TRUE(failsWith(broker.removePermission("q", "L2"), ErrorCode::InvalidParameterValue));
    // The label is free again.
    EXPECT_TRUE(succeeds(broker.addPermission("q", "L1", {"111122223333"}, {"SendMessage"})));
}

TEST_F(QueuesTest, addPermissionKeepsStatementsOfAPolicySetBefore)
{
    create("q");
    ASSERT_TRUE(succeeds(set(
        "q",
        {{"Policy",
          R"({"Version":"2012-10-17","Statement":[{"Sid":"Existing","Effect":"Allow","Principal":"*","Action":"SQS:SendMessage","Resource":"*"}]})"}})));
    ASSERT_TRUE(succeeds(broker.addPermission("q", "Added", {"111122223333"}, {"SendMessage"})));
    const std::string policy = attribute("q", "Policy");
    EXPECT_EQ(statementsWithSid(policy, "Existing"), 1);
    EXPECT_EQ(statementsWithSid(policy, "Added"), 1);
    EXPECT_TRUE(
        failsWith(broker.addPermission("q", "Existing", {"111122223333"}, {"SendMessage"}),
                  ErrorCode::InvalidParameterValue,
                  "Value Existing for parameter Label is invalid. Reason: Already exists."));
}

} // namespace
} // namespace inflight::engine
