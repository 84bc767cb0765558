// Queue lifecycle through Broker, from the spec: CreateQueue (§1.3 name rules and attribute
// ranges, §3.1 attributes and idempotency), DeleteQueue and re-creation (§3.4), GetQueueUrl (§3.2)
// and ListQueues (§3.3), cases A.5–A.19 of §8, with the neighbours of each boundary. Attributes
// after creation are in queue_attributes_test.cpp, purge and tags in queue_purge_tags_test.cpp.
#include "engine/support/queues_fixture.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace inflight::engine {
namespace {

constexpr Millis kStart = 1'700'000'000'000;

const std::string kDeletedRecently
    = "You must wait 60 seconds after deleting a queue before you can create another with the "
      "same name.";
std::string alreadyExists(const std::string& attribute)
{
    return "A queue already exists with the same name and a different value for attribute "
        + attribute;
}

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
    const auto got = receive("q", 10);
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
    ASSERT_TRUE(succeeds(broker.deleteQueue("q", "test")));
    EXPECT_TRUE(failsWith(tryCreate("q"), ErrorCode::QueueDeletedRecently, kDeletedRecently));
    clock.advance(59'999);
    EXPECT_TRUE(failsWith(tryCreate("q"), ErrorCode::QueueDeletedRecently, kDeletedRecently));
    clock.advance(1);
    EXPECT_TRUE(succeeds(tryCreate("q")));
}

TEST_F(QueuesTest, createAfterTheRecreateWindowSucceeds)
{
    create("q");
    ASSERT_TRUE(succeeds(broker.deleteQueue("q", "test")));
    clock.advance(60'001);
    EXPECT_TRUE(succeeds(tryCreate("q")));
}

TEST_F(QueuesTest, recreateDelayIsConfigurable)
{
    BrokerOptions options;
    options.recreateDelay = 5 * kSecond;
    restart(options);
    create("q");
    ASSERT_TRUE(succeeds(broker.deleteQueue("q", "test")));
    clock.advance(4'999);
    EXPECT_TRUE(failsWith(tryCreate("q"), ErrorCode::QueueDeletedRecently));
    clock.advance(1);
    EXPECT_TRUE(succeeds(tryCreate("q")));
}

TEST_F(QueuesTest, deleteRecentlyBlocksOnlyThatName)
{
    create("q");
    ASSERT_TRUE(succeeds(broker.deleteQueue("q", "test")));
    EXPECT_TRUE(succeeds(tryCreate("Q")));
    EXPECT_TRUE(succeeds(tryCreate("q2")));
}

TEST_F(QueuesTest, recreatedQueueStartsEmptyWithDefaults)
{
    create("q", {{"VisibilityTimeout", "45"}}, {{"team", "a"}});
    send("q", "old");
    send("q", "delayed", 900);
    receive("q", 1);
    ASSERT_TRUE(succeeds(broker.deleteQueue("q", "test")));
    clock.advance(60'000);
    create("q");
    EXPECT_EQ(counters("q"), "0/0/0");
    EXPECT_EQ(attribute("q", "VisibilityTimeout"), "30");
    EXPECT_EQ(attribute("q", "CreatedTimestamp"), std::to_string((kStart + 60'000) / 1000));
    auto tags = broker.listQueueTags("q");
    ASSERT_TRUE(succeeds(tags));
    EXPECT_TRUE(tags->empty());
    EXPECT_TRUE(receive("q", 10).empty());
}

TEST_F(QueuesTest, deleteQueueDeletesRegardlessOfContent)
{
    create("q");
    for (int i = 0; i < 3; ++i)
        send("q", "m" + std::to_string(i));
    send("q", "later", 60);
    receive("q", 1);
    EXPECT_TRUE(succeeds(broker.deleteQueue("q", "test")));
    EXPECT_TRUE(failsWith(broker.getQueue("q"), ErrorCode::QueueDoesNotExist, kNoSuchQueue));
    EXPECT_EQ(listAll(), Names{});
}

TEST_F(QueuesTest, everyCallOnADeletedQueueIsQueueDoesNotExist)
{
    create("q");
    send("q", "m");
    const auto got = receive("q", 10);
    ASSERT_EQ(got.size(), 1u);
    const std::string receipt = got[0].receiptHandle;
    ASSERT_TRUE(succeeds(broker.deleteQueue("q", "test")));

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
    EXPECT_TRUE(gone(broker.deleteMessage("q", receipt, "test")));
    EXPECT_TRUE(gone(broker.changeMessageVisibility("q", receipt, 10, "test")));
    EXPECT_TRUE(gone(broker.getQueueAttributes("q", {"All"})));
    EXPECT_TRUE(gone(broker.setQueueAttributes("q", {{"DelaySeconds", "1"}}, "test")));
    EXPECT_TRUE(gone(broker.purgeQueue("q", PurgeTarget::Normal, "test")));
    EXPECT_TRUE(gone(broker.tagQueue("q", {{"k", "v"}}, "test")));
    EXPECT_TRUE(gone(broker.untagQueue("q", {"k"}, "test")));
    EXPECT_TRUE(gone(broker.listQueueTags("q")));
    EXPECT_TRUE(gone(broker.listDeadLetterSourceQueues("q", {})));
    EXPECT_TRUE(gone(broker.addPermission("q", "L", {"111122223333"}, {"SendMessage"}, "test")));
    EXPECT_TRUE(gone(broker.removePermission("q", "L", "test")));
    EXPECT_TRUE(gone(broker.deleteQueue("q", "test")));
}

TEST_F(QueuesTest, receiptOfDeletedQueueIsInvalidOnItsSuccessor)
{
    // The re-created queue is another queue: §7A (b) "other queue ⇒ ReceiptHandleIsInvalid".
    create("q");
    send("q", "m");
    const auto got = receive("q", 10);
    ASSERT_EQ(got.size(), 1u);
    ASSERT_TRUE(succeeds(broker.deleteQueue("q", "test")));
    clock.advance(60'000);
    create("q");
    send("q", "new");
    EXPECT_TRUE(failsWith(broker.deleteMessage("q", got[0].receiptHandle, "test"),
                          ErrorCode::ReceiptHandleIsInvalid));
    EXPECT_EQ(counters("q"), "1/0/0");
}

TEST_F(QueuesTest, deleteOfUnknownQueueIsQueueDoesNotExist)
{
    EXPECT_TRUE(
        failsWith(broker.deleteQueue("never", "test"), ErrorCode::QueueDoesNotExist, kNoSuchQueue));
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
    ASSERT_TRUE(succeeds(broker.deleteQueue("a", "test")));
    EXPECT_EQ(listAll(), Names{"b"});
}

} // namespace
} // namespace inflight::engine
