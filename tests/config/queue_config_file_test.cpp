// Queues from a configuration file (issue "Inflight in a test suite", §2; queue_config_file.h):
// the file's shape, every attribute of the create dialog, redrive in any order, OCI options,
// messages, idempotent loading, and every kind of bad file refused with its position and without
// changing the broker.
#include "config/queue_config_file.h"

#include "engine/broker.h"
#include "engine/snapshot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::config {
namespace {

using engine::ErrorCode;
using engine::QueueKind;

const std::string kOrigin = "config file";

// The lines of a file, so that a test reads with its line numbers.
std::string lines(std::initializer_list<std::string_view> rows)
{
    std::string text;
    for (std::string_view row : rows) {
        text += row;
        text += '\n';
    }
    return text;
}

std::string arn(const std::string& name)
{
    return "arn:aws:sqs:us-east-1:000000000000:" + name;
}

class QueueConfigFileTest : public testing::Test {
protected:
    engine::ManualClock clock;
    engine::Broker broker{clock};
    std::vector<engine::Event> events;

    void SetUp() override
    {
        broker.setEventSink([this](std::span<engine::Event> batch) {
            events.insert(events.end(), batch.begin(), batch.end());
        });
    }

    engine::Result<ConfigApplied> load(std::string_view json)
    {
        auto parsed = parseQueueConfig(json);
        if (!parsed)
            return parsed.error();
        return applyQueueConfig(broker, *parsed, kOrigin);
    }

    ConfigApplied loaded(std::string_view json)
    {
        auto result = load(json);
        EXPECT_TRUE(result.ok()) << engine::describe(result.error());
        return result.ok() ? *result : ConfigApplied{};
    }

    QueueConfigFile parsed(std::string_view json)
    {
        auto result = parseQueueConfig(json);
        EXPECT_TRUE(result.ok()) << engine::describe(result.error());
        return result.ok() ? *result : QueueConfigFile{};
    }

    std::string attribute(const std::string& queue, const std::string& name)
    {
        auto all = broker.getQueueAttributes(queue, {"All"});
        EXPECT_TRUE(all.ok()) << queue;
        if (!all.ok())
            return {};
        const auto it = all->find(name);
        return it == all->end() ? "(none)" : it->second;
    }

    std::vector<engine::MessageView> messages(const std::string& queue)
    {
        auto peeked = broker.peekMessages(queue);
        EXPECT_TRUE(peeked.ok()) << queue;
        return peeked.ok() ? *peeked : std::vector<engine::MessageView>{};
    }

    // Everything a file could change: the queues, their attributes and tags, their messages.
    std::string brokerState()
    {
        std::string state;
        for (const engine::QueueRecord& queue : broker.queueRecords()) {
            state += queue.name + (queue.oci ? " (oci)\n" : "\n");
            for (const auto& [key, value] : queue.attributes)
                state += "  " + key + "=" + value + "\n";
            for (const auto& [key, value] : queue.tags)
                state += "  tag " + key + "=" + value + "\n";
            (void)broker.forEachMessage(queue.name, [&](const engine::MessageRecord& message) {
                state += "  message " + message.body + "\n";
            });
        }
        return state;
    }

    // The file is refused with "<where>: …<what>…" (where = "line L, column C, at PATH"), its
    // parameter the path, and the broker is left exactly as it was, without an event.
    void expectRefused(std::string_view json, const std::string& where, std::string_view what)
    {
        const std::string before = brokerState();
        events.clear();
        const auto result = load(json);
        ASSERT_FALSE(result.ok()) << "accepted, expected: " << where;
        const engine::Error& error = result.error();
        EXPECT_EQ(error.code, ErrorCode::InvalidParameterValue);
        EXPECT_EQ(error.message.substr(0, where.size() + 2), where + ": ") << error.message;
        EXPECT_NE(error.message.find(what), std::string::npos)
            << error.message << "\n  does not say: " << what;
        const std::string path = where.substr(where.find(", at ") + 5);
        EXPECT_EQ(error.parameter, path == "the top level" ? "" : path);
        EXPECT_EQ(brokerState(), before);
        EXPECT_TRUE(events.empty());
    }

    void createQueue(const std::string& name, const engine::StringMap& attributes = {},
                     bool oci = false)
    {
        const auto created = broker.createQueue(
            engine::CreateQueueRequest{.name = name, .attributes = attributes, .oci = oci});
        ASSERT_TRUE(created.ok()) << engine::describe(created.error());
    }
};

// ---- the shape -----------------------------------------------------------------------------------

TEST_F(QueueConfigFileTest, issueExampleCreatesQueuesTagsRedriveAndMessages)
{
    const ConfigApplied applied = loaded(lines({
        R"({"queues": [)",
        R"(  {"name": "orders", "attributes": {"VisibilityTimeout": "30",)",
        R"(     "RedrivePolicy": "{\"deadLetterTargetArn\": \"orders-dlq\", \"maxReceiveCount\": 3}"},)",
        R"(   "tags": {"team": "a"}, "messages": [{"body": "first order"}]},)",
        R"(  {"name": "jobs", "type": "oci", "options": {"deadLetterQueueDeliveryCount": 3}},)",
        R"(  {"name": "orders-dlq"})",
        R"(]})",
    }));

    EXPECT_EQ(applied.queuesCreated, 3);
    EXPECT_EQ(applied.queuesUpdated, 0);
    EXPECT_EQ(applied.messagesSent, 1);
    const auto orders = broker.queueView("orders");
    ASSERT_TRUE(orders.ok());
    EXPECT_EQ(orders->kind, QueueKind::Standard);
    EXPECT_EQ(orders->attributes.at("VisibilityTimeout"), "30");
    EXPECT_EQ(orders->deadLetterTarget, "orders-dlq");
    EXPECT_EQ(orders->maxReceiveCount, 3);
    EXPECT_EQ(orders->tags, (engine::StringMap{{"team", "a"}}));
    const auto sent = messages("orders");
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].body, "first order");
    const auto jobs = broker.queueView("jobs");
    ASSERT_TRUE(jobs.ok());
    EXPECT_EQ(jobs->kind, QueueKind::Oci);
    EXPECT_EQ(jobs->attributes.at("deadLetterQueueDeliveryCount"), "3");
    EXPECT_TRUE(broker.queueView("jobs.dlq").ok());
    // Every change the file made says who asked.
    ASSERT_FALSE(events.empty());
    for (const engine::Event& event : events)
        EXPECT_EQ(event.origin, kOrigin) << engine::eventKindName(event.kind);
}

TEST_F(QueueConfigFileTest, versionOneAndAnEmptyListAreAFile)
{
    EXPECT_EQ(loaded(R"({"version": 1, "queues": []})").queuesCreated, 0);
    EXPECT_EQ(loaded("\xEF\xBB\xBF{\"queues\": []}").queuesCreated, 0);
    EXPECT_TRUE(broker.queues().empty());
}

TEST_F(QueueConfigFileTest, everyAttributeOfTheCreateDialog)
{
    const ConfigApplied applied = loaded(lines({
        R"({)",
        R"(  "queues": [)",
        R"(    {)",
        R"(      "name": "orders",)",
        R"(      "attributes": {)",
        R"(        "VisibilityTimeout": 45,)",
        R"(        "DelaySeconds": "5",)",
        R"(        "MessageRetentionPeriod": 3600,)",
        R"(        "MaximumMessageSize": 2048,)",
        R"(        "ReceiveMessageWaitTimeSeconds": 10,)",
        R"(        "RedrivePolicy": {"deadLetterTargetArn": "orders-dlq", "maxReceiveCount": 4})",
        R"(      })",
        R"(    },)",
        R"(    {"name": "orders-dlq"},)",
        R"(    {)",
        R"(      "name": "payments.fifo",)",
        R"(      "attributes": {)",
        R"(        "FifoQueue": true,)",
        R"(        "VisibilityTimeout": 60,)",
        R"(        "ContentBasedDeduplication": true,)",
        R"(        "DeduplicationScope": "messageGroup",)",
        R"(        "FifoThroughputLimit": "perMessageGroupId",)",
        R"(        "RedrivePolicy": {"deadLetterTargetArn":)",
        R"(          "arn:aws:sqs:us-east-1:000000000000:payments-dlq.fifo", "maxReceiveCount": "2"})",
        R"(      })",
        R"(    },)",
        R"(    {"name": "payments-dlq.fifo"},)",
        R"(    {)",
        R"(      "name": "jobs",)",
        R"(      "type": "oci",)",
        R"(      "options": {)",
        R"(        "visibilityInSeconds": 20,)",
        R"(        "retentionInSeconds": 7200,)",
        R"(        "maxMessageSizeInBytes": 4096,)",
        R"(        "timeoutInSeconds": 5,)",
        R"(        "deadLetterQueueDeliveryCount": 3,)",
        R"(        "channelConsumptionLimit": 50)",
        R"(      })",
        R"(    })",
        R"(  ])",
        R"(})",
    }));

    EXPECT_EQ(applied.queuesCreated, 5);
    EXPECT_EQ(attribute("orders", "VisibilityTimeout"), "45");
    EXPECT_EQ(attribute("orders", "DelaySeconds"), "5");
    EXPECT_EQ(attribute("orders", "MessageRetentionPeriod"), "3600");
    EXPECT_EQ(attribute("orders", "MaximumMessageSize"), "2048");
    EXPECT_EQ(attribute("orders", "ReceiveMessageWaitTimeSeconds"), "10");
    EXPECT_EQ(attribute("orders", "RedrivePolicy"),
              R"({"deadLetterTargetArn":")" + arn("orders-dlq") + R"(","maxReceiveCount":4})");

    EXPECT_EQ(broker.queueView("payments.fifo")->kind, QueueKind::Fifo);
    EXPECT_EQ(attribute("payments.fifo", "FifoQueue"), "true");
    EXPECT_EQ(attribute("payments.fifo", "VisibilityTimeout"), "60");
    EXPECT_EQ(attribute("payments.fifo", "ContentBasedDeduplication"), "true");
    EXPECT_EQ(attribute("payments.fifo", "DeduplicationScope"), "messageGroup");
    EXPECT_EQ(attribute("payments.fifo", "FifoThroughputLimit"), "perMessageGroupId");
    EXPECT_EQ(broker.queueView("payments.fifo")->deadLetterTarget, "payments-dlq.fifo");
    EXPECT_EQ(broker.queueView("payments.fifo")->maxReceiveCount, 2);
    EXPECT_EQ(broker.queueView("payments-dlq.fifo")->kind, QueueKind::Fifo);

    EXPECT_EQ(broker.queueView("jobs")->kind, QueueKind::Oci);
    EXPECT_EQ(attribute("jobs", "visibilityInSeconds"), "20");
    EXPECT_EQ(attribute("jobs", "retentionInSeconds"), "7200");
    EXPECT_EQ(attribute("jobs", "maxMessageSizeInBytes"), "4096");
    EXPECT_EQ(attribute("jobs", "timeoutInSeconds"), "5");
    EXPECT_EQ(attribute("jobs", "deadLetterQueueDeliveryCount"), "3");
    EXPECT_EQ(attribute("jobs", "channelConsumptionLimit"), "50");
}

TEST_F(QueueConfigFileTest, policiesAsObjectsWithQueueNamesAndTheOtherAttributes)
{
    loaded(lines({
        R"({"queues": [)",
        R"(  {"name": "orders", "attributes": {)",
        R"(    "RedrivePolicy": {"deadLetterTargetArn": "orders-dlq", "maxReceiveCount": 5},)",
        R"(    "Policy": {"Version": "2012-10-17", "Statement": []},)",
        R"(    "KmsMasterKeyId": "alias/aws/sqs", "KmsDataKeyReusePeriodSeconds": 600}},)",
        R"(  {"name": "orders-dlq", "attributes": {)",
        R"(    "SqsManagedSseEnabled": true,)",
        R"(    "RedriveAllowPolicy": {"redrivePermission": "byQueue", "sourceQueueArns": ["orders"]}}})",
        R"(]})",
    }));

    EXPECT_EQ(broker.queueView("orders")->deadLetterTarget, "orders-dlq");
    EXPECT_EQ(attribute("orders", "Policy"), R"({"Version":"2012-10-17","Statement":[]})");
    EXPECT_EQ(attribute("orders", "KmsMasterKeyId"), "alias/aws/sqs");
    EXPECT_EQ(attribute("orders", "KmsDataKeyReusePeriodSeconds"), "600");
    EXPECT_EQ(attribute("orders-dlq", "SqsManagedSseEnabled"), "true");
    EXPECT_NE(attribute("orders-dlq", "RedriveAllowPolicy").find(arn("orders")), std::string::npos);
}

TEST_F(QueueConfigFileTest, withQueueArnsLeavesArnsAndOtherAttributes)
{
    const auto arnFor = [](const std::string& name) { return "ARN(" + name + ")"; };
    const engine::StringMap resolved = withQueueArns(
        {{"RedrivePolicy", R"({"deadLetterTargetArn":"dlq","maxReceiveCount":3})"},
         {"RedriveAllowPolicy",
          R"({"redrivePermission":"byQueue","sourceQueueArns":["a","arn:aws:sqs:r:1:b"]})"},
         {"VisibilityTimeout", "dlq"}},
        arnFor);
    EXPECT_EQ(resolved.at("RedrivePolicy"),
              R"j({"deadLetterTargetArn":"ARN(dlq)","maxReceiveCount":3})j");
    EXPECT_EQ(
        resolved.at("RedriveAllowPolicy"),
        R"j({"redrivePermission":"byQueue","sourceQueueArns":["ARN(a)","arn:aws:sqs:r:1:b"]})j");
    EXPECT_EQ(resolved.at("VisibilityTimeout"), "dlq");
    const engine::StringMap asGiven = {{"RedrivePolicy", R"({"deadLetterTargetArn": "arn:x"})"}};
    EXPECT_EQ(withQueueArns(asGiven, arnFor), asGiven);
}

// ---- FIFO ----------------------------------------------------------------------------------------

TEST_F(QueueConfigFileTest, fifoQueuesFromTheSuffixWithContentBasedDeduplication)
{
    const ConfigApplied applied = loaded(lines({
        R"({"queues": [)",
        R"(  {"name": "events.fifo", "attributes": {"ContentBasedDeduplication": "true"},)",
        R"(   "messages": [)",
        R"(    {"body": "same", "groupId": "g1"},)",
        R"(    {"body": "same", "groupId": "g1"},)",
        R"(    {"body": "other", "groupId": "g2", "deduplicationId": "d-1"}]},)",
        R"(  {"name": "plain.fifo", "type": "fifo",)",
        R"(   "messages": [{"body": "x", "groupId": "g", "deduplicationId": "1"}]})",
        R"(]})",
    }));

    EXPECT_EQ(applied.queuesCreated, 2);
    EXPECT_EQ(applied.messagesSent, 3); // the second "same" is a duplicate, not stored
    EXPECT_EQ(broker.queueView("events.fifo")->kind, QueueKind::Fifo);
    EXPECT_EQ(broker.queueView("plain.fifo")->kind, QueueKind::Fifo);
    EXPECT_EQ(attribute("plain.fifo", "ContentBasedDeduplication"), "false");
    const auto stored = messages("events.fifo");
    ASSERT_EQ(stored.size(), 2u);
    EXPECT_EQ(stored[0].body, "same");
    EXPECT_EQ(stored[0].groupId, "g1");
    EXPECT_EQ(stored[1].groupId, "g2");
    EXPECT_EQ(stored[1].deduplicationId, "d-1");
}

TEST_F(QueueConfigFileTest, fifoQueueAttributeFalseOnAStandardQueueAgrees)
{
    loaded(R"({"queues": [{"name": "plain", "attributes": {"FifoQueue": false}}]})");
    EXPECT_EQ(broker.queueView("plain")->kind, QueueKind::Standard);
}

// ---- redrive -------------------------------------------------------------------------------------

// A -> B -> C, declared in each of the six orders.
TEST_F(QueueConfigFileTest, redriveChainInEveryOrder)
{
    std::array<std::string, 3> entries = {
        R"({"name": "a", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "b", "maxReceiveCount": 1}}})",
        R"({"name": "b", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "c", "maxReceiveCount": 2}}})",
        R"({"name": "c"})",
    };
    int orders = 0;
    do {
        SCOPED_TRACE(entries[0] + entries[1] + entries[2]);
        engine::ManualClock clock2;
        engine::Broker fresh(clock2);
        auto file = parseQueueConfig(R"({"queues": [)" + entries[0] + ", " + entries[1] + ", "
                                     + entries[2] + "]}");
        ASSERT_TRUE(file.ok()) << engine::describe(file.error());
        std::vector<std::string> order;
        for (std::size_t index : file->creationOrder)
            order.push_back(file->queues[index].name);
        EXPECT_EQ(order, (std::vector<std::string>{"c", "b", "a"}));
        const auto applied = applyQueueConfig(fresh, *file, kOrigin);
        ASSERT_TRUE(applied.ok()) << engine::describe(applied.error());
        EXPECT_EQ(applied->queuesCreated, 3);
        EXPECT_EQ(fresh.queueView("a")->deadLetterTarget, "b");
        EXPECT_EQ(fresh.queueView("b")->deadLetterTarget, "c");
        EXPECT_EQ(fresh.queueView("b")->maxReceiveCount, 2);
        ++orders;
    } while (std::next_permutation(entries.begin(), entries.end()));
    EXPECT_EQ(orders, 6);
}

TEST_F(QueueConfigFileTest, creationOrderKeepsFileOrderOtherwise)
{
    const QueueConfigFile file = parsed(lines({
        R"({"queues": [{"name": "x"}, {"name": "src", "attributes": {"RedrivePolicy":)",
        R"(  {"deadLetterTargetArn": "dlq", "maxReceiveCount": 1}}}, {"name": "y"}, {"name": "dlq"}]})",
    }));
    EXPECT_EQ(file.creationOrder, (std::vector<std::size_t>{0, 3, 1, 2}));
}

TEST_F(QueueConfigFileTest, redriveToAnExistingQueue)
{
    createQueue("existing-dlq");
    loaded(R"({"queues": [{"name": "a", "attributes": {"RedrivePolicy": )"
           R"({"deadLetterTargetArn": "existing-dlq", "maxReceiveCount": 3}}}]})");
    EXPECT_EQ(broker.queueView("a")->deadLetterTarget, "existing-dlq");
}

TEST_F(QueueConfigFileTest, redriveCyclesAreRefused)
{
    expectRefused(
        lines({
            R"({"queues": [)",
            R"(  {"name": "a", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "b", "maxReceiveCount": 1}}},)",
            R"(  {"name": "b", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "a", "maxReceiveCount": 1}}})",
            R"(]})",
        }),
        "line 2, column 73, at queues[0].attributes.RedrivePolicy.deadLetterTargetArn",
        "the redrive policies form a cycle: a -> b -> a");
    // A cycle entered from outside is reported at its own first queue.
    expectRefused(
        lines({
            R"({"queues": [)",
            R"(  {"name": "x", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "c", "maxReceiveCount": 1}}},)",
            R"(  {"name": "b", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "c", "maxReceiveCount": 1}}},)",
            R"(  {"name": "c", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "b", "maxReceiveCount": 1}}})",
            R"(]})",
        }),
        "line 3, column 73, at queues[1].attributes.RedrivePolicy.deadLetterTargetArn",
        "cycle: b -> c -> b");
    expectRefused(R"({"queues": [{"name": "a", "attributes": {"RedrivePolicy": )"
                  R"("{\"deadLetterTargetArn\": \"a\", \"maxReceiveCount\": 1}"}}]})",
                  "line 1, column 59, at queues[0].attributes.RedrivePolicy", "cycle: a -> a");
}

// ---- OCI -----------------------------------------------------------------------------------------

TEST_F(QueueConfigFileTest, ociQueueAsTheOciQueueShorthandMakesIt)
{
    // --oci-queue "jobs:deadLetterQueueDeliveryCount=2,visibilityInSeconds=10"
    loaded(R"({"queues": [{"name": "jobs", "type": "oci", "options": )"
           R"({"deadLetterQueueDeliveryCount": "2", "visibilityInSeconds": 10}}]})");
    createQueue("shorthand", {{"deadLetterQueueDeliveryCount", "2"}, {"visibilityInSeconds", "10"}},
                /*oci=*/true);
    auto fromFile = *broker.queueRecord("jobs");
    auto fromShorthand = *broker.queueRecord("shorthand");
    EXPECT_EQ(fromFile.attributes, fromShorthand.attributes);
    EXPECT_EQ(broker.queueView("jobs")->deadLetterTarget, "jobs.dlq");
}

TEST_F(QueueConfigFileTest, ociRetentionIsSetOnlyAtCreation)
{
    const std::string file = R"({"queues": [{"name": "jobs", "type": "oci", "options": )"
                             R"({"retentionInSeconds": 7200}}]})";
    loaded(file);
    EXPECT_EQ(loaded(file).queuesUnchanged, 1);
    std::string changed = file;
    changed.replace(changed.find("7200"), 4, "3600");
    // {"queues": [{"name": "jobs", "type": "oci", "options": {"retentionInSeconds": 3600}}]}
    expectRefused(changed, "line 1, column 79, at queues[0].options.retentionInSeconds",
                  "jobs keeps messages 7200 seconds");
}

// ---- messages ------------------------------------------------------------------------------------

TEST_F(QueueConfigFileTest, messagesOfEachKind)
{
    const ConfigApplied applied = loaded(lines({
        R"({"queues": [)",
        R"(  {"name": "std", "messages": [)",
        R"(    {"body": "plain"},)",
        R"(    {"body": {"orderId": 7, "items": [1, 2.50]}},)",
        R"(    {"body": "attrs", "attributes": {"kind": "order", "count": 3,)",
        R"(       "price": {"DataType": "Number.float", "StringValue": "9.5"},)",
        R"(       "raw": {"DataType": "Binary", "BinaryValue": "AAEC"}}},)",
        R"(    {"body": "later", "delaySeconds": 30},)",
        R"(    {"body": "soon", "delaySeconds": "10"}]},)",
        R"(  {"name": "ordered.fifo", "messages": [)",
        R"(    {"body": "f", "groupId": "g", "deduplicationId": "d"}]},)",
        R"(  {"name": "jobs", "type": "oci", "messages": [)",
        R"(    {"body": "o", "channel": "c1"}, {"body": "o2"}]})",
        R"(]})",
    }));

    EXPECT_EQ(applied.messagesSent, 8);
    const auto plain = messages("std");
    ASSERT_EQ(plain.size(), 5u);
    EXPECT_EQ(plain[0].body, "plain");
    EXPECT_EQ(plain[0].state, engine::MessageState::Available);
    // As written, without the spaces: member order and numbers stay.
    EXPECT_EQ(plain[1].body, R"({"orderId":7,"items":[1,2.50]})");
    const engine::MessageAttributes& attributes = plain[2].attributes;
    ASSERT_EQ(attributes.size(), 4u);
    EXPECT_EQ(attributes.at("kind"), (engine::MessageAttributeValue{"String", "order", ""}));
    EXPECT_EQ(attributes.at("count"), (engine::MessageAttributeValue{"Number", "3", ""}));
    EXPECT_EQ(attributes.at("price"), (engine::MessageAttributeValue{"Number.float", "9.5", ""}));
    EXPECT_EQ(attributes.at("raw"),
              (engine::MessageAttributeValue{"Binary", "", std::string("\x00\x01\x02", 3)}));
    EXPECT_EQ(plain[3].state, engine::MessageState::Delayed);
    EXPECT_EQ(plain[3].deliverAt, clock.now() + 30 * engine::kSecond);
    EXPECT_EQ(plain[4].deliverAt, clock.now() + 10 * engine::kSecond);

    const auto fifo = messages("ordered.fifo");
    ASSERT_EQ(fifo.size(), 1u);
    EXPECT_EQ(fifo[0].groupId, "g");
    EXPECT_EQ(fifo[0].deduplicationId, "d");

    const auto oci = messages("jobs");
    ASSERT_EQ(oci.size(), 2u);
    EXPECT_EQ(oci[0].channelId, "c1");
    EXPECT_EQ(oci[1].body, "o2");
}

// ---- loading again -------------------------------------------------------------------------------

TEST_F(QueueConfigFileTest, loadingTwiceChangesNothingTheSecondTime)
{
    const std::string file = lines({
        R"({"queues": [)",
        R"(  {"name": "orders", "attributes": {"VisibilityTimeout": 30, "RedrivePolicy":)",
        R"(     {"deadLetterTargetArn": "orders-dlq", "maxReceiveCount": 3}},)",
        R"(   "tags": {"team": "a"}, "messages": [{"body": "one"}, {"body": "two"}]},)",
        R"(  {"name": "orders-dlq"},)",
        R"(  {"name": "pay.fifo", "attributes": {"ContentBasedDeduplication": true},)",
        R"(   "messages": [{"body": "p", "groupId": "g"}]},)",
        R"(  {"name": "jobs", "type": "oci", "options": {"retentionInSeconds": 600},)",
        R"(   "messages": [{"body": "j"}]})",
        R"(]})",
    });
    const ConfigApplied first = loaded(file);
    EXPECT_EQ(first.queuesCreated, 4);
    EXPECT_EQ(first.messagesSent, 4);
    const std::string afterFirst = brokerState();

    events.clear();
    const ConfigApplied second = loaded(file);
    EXPECT_EQ(second.queuesCreated, 0);
    EXPECT_EQ(second.queuesUpdated, 0);
    EXPECT_EQ(second.queuesUnchanged, 4);
    EXPECT_EQ(second.messagesSent, 0);
    EXPECT_EQ(brokerState(), afterFirst);
    EXPECT_TRUE(events.empty());
}

TEST_F(QueueConfigFileTest, loadingAChangedFileUpdatesAttributesAndTagsWithoutMessages)
{
    loaded(
        R"({"queues": [{"name": "orders", "attributes": {"VisibilityTimeout": 30, )"
        R"("DelaySeconds": 2}, "tags": {"team": "a", "keep": "k"}, "messages": [{"body": "one"}]}, )"
        R"({"name": "other"}]})");
    events.clear();
    const ConfigApplied applied
        = loaded(R"({"queues": [{"name": "orders", "attributes": {"VisibilityTimeout": "45"}, )"
                 R"("tags": {"team": "b", "new": "n"}, "messages": [{"body": "one"}]}, )"
                 R"({"name": "other"}]})");

    EXPECT_EQ(applied.queuesCreated, 0);
    EXPECT_EQ(applied.queuesUpdated, 1);
    EXPECT_EQ(applied.queuesUnchanged, 1);
    EXPECT_EQ(applied.messagesSent, 0);
    EXPECT_EQ(attribute("orders", "VisibilityTimeout"), "45");
    EXPECT_EQ(attribute("orders", "DelaySeconds"), "2"); // not in the file: left as it was
    EXPECT_EQ(*broker.listQueueTags("orders"),
              (engine::StringMap{{"team", "b"}, {"keep", "k"}, {"new", "n"}}));
    EXPECT_EQ(messages("orders").size(), 1u);
    ASSERT_EQ(events.size(), 2u); // SetQueueAttributes, TagQueue
    for (const engine::Event& event : events) {
        EXPECT_EQ(event.kind, engine::EventKind::QueueChanged);
        EXPECT_EQ(event.origin, kOrigin);
    }
}

TEST_F(QueueConfigFileTest, anExistingQueueOfAnotherTypeIsRefused)
{
    createQueue("jobs");
    expectRefused(R"({"queues": [{"name": "jobs", "type": "oci"}]})",
                  "line 1, column 38, at queues[0].type",
                  "a queue named jobs exists already, as a standard queue");
    expectRefused(R"({"queues": [{"name": "jobs", "type": "oci"}, {"name": "new"}]})",
                  "line 1, column 38, at queues[0].type", "exists already");
}

// ---- bad files -----------------------------------------------------------------------------------

struct BadFile {
    std::string json;
    std::string where;
    std::string what;
};

void PrintTo(const BadFile& file, std::ostream* out)
{
    *out << file.json;
}

class BadFileTest : public QueueConfigFileTest, public testing::WithParamInterface<BadFile> {};

TEST_P(BadFileTest, isRefusedAtItsPositionAndChangesNothing)
{
    // A broker with something in it, to show that it stays as it is.
    createQueue("before");
    ASSERT_TRUE(
        broker.sendMessage(engine::SendMessageRequest{.queue = "before", .body = "b"}).ok());
    expectRefused(GetParam().json, GetParam().where, GetParam().what);
}

INSTANTIATE_TEST_SUITE_P(
    MalformedJson, BadFileTest,
    testing::Values(
        BadFile{R"({"queues": [{"name": "a",}]})", "line 1, column 26, at queues[0]",
                "malformed JSON: syntax error while parsing object key - unexpected '}'"},
        BadFile{lines({
                    R"({)",
                    R"(  "queues": [)",
                    R"(    {"name": "a"})",
                    R"(    {"name": "b"})",
                    R"(  ])",
                    R"(})",
                }),
                "line 4, column 5, at queues", "expected ']'"},
        BadFile{R"({"queues": [{"name": "a", "attributes": {"FifoQueue": tru}}]})",
                "line 1, column 58, at queues[0].attributes.FifoQueue", "invalid literal"},
        BadFile{R"({"queues": [{"name": "a")", "line 1, column 25, at queues[0]",
                "unexpected end of input"},
        BadFile{R"({"queues": [{"name": "unterminated)", "line 1, column 35, at queues[0].name",
                "malformed JSON"},
        BadFile{"", "line 1, column 1, at the top level", "unexpected end of input"},
        BadFile{"{\"queues\": [{\"name\": \"bad\xFF\"}]}", "line 1, column 26, at queues[0].name",
                "ill-formed UTF-8"}));

INSTANTIATE_TEST_SUITE_P(
    WrongTypes, BadFileTest,
    testing::Values(
        BadFile{"[]", "line 1, column 1, at the top level",
                "expected an object with \"queues\", found a list"},
        BadFile{R"({"queues": {}})", "line 1, column 12, at queues",
                "expected a list of queues, found an object"},
        BadFile{R"({"queues": ["orders"]})", "line 1, column 13, at queues[0]",
                "expected an object with a queue's name, found a string"},
        BadFile{R"({"queues": [{"name": 5}]})", "line 1, column 22, at queues[0].name",
                "expected a string, found a number"},
        BadFile{R"({"queues": [{"name": "a", "attributes": {"VisibilityTimeout": [30]}}]})",
                "line 1, column 63, at queues[0].attributes.VisibilityTimeout",
                "expected a string, number or boolean, found a list"},
        BadFile{R"({"queues": [{"name": "a", "attributes": {"VisibilityTimeout": {"s": 30}}}]})",
                "line 1, column 63, at queues[0].attributes.VisibilityTimeout", "found an object"},
        BadFile{R"({"queues": [{"name": "a", "attributes": {"RedrivePolicy": ["b"]}}]})",
                "line 1, column 59, at queues[0].attributes.RedrivePolicy",
                "expected a JSON object or its text, found a list"},
        BadFile{R"({"queues": [{"name": "a", "attributes": 7}]})",
                "line 1, column 41, at queues[0].attributes",
                "expected an object of attribute names and values"},
        BadFile{R"({"queues": [{"name": "a", "tags": {"team": null}}]})",
                "line 1, column 44, at queues[0].tags.team", "found null"},
        BadFile{R"({"queues": [{"name": "a", "messages": "hi"}]})",
                "line 1, column 39, at queues[0].messages", "expected a list of messages"},
        BadFile{R"({"queues": [{"name": "a", "messages": [{"body": 5}]}]})",
                "line 1, column 49, at queues[0].messages[0].body",
                "expected a string (or an object or list, sent as JSON text), found a number"},
        BadFile{
            R"({"queues": [{"name": "a", "messages": [{"body": "x", "delaySeconds": "soon"}]}]})",
            "line 1, column 70, at queues[0].messages[0].delaySeconds",
            "expected an integer, found a string"},
        BadFile{R"({"queues": [{"name": "a", "messages": [{"body": "x", "groupId": 1}]}]})",
                "line 1, column 65, at queues[0].messages[0].groupId", "expected a string"},
        BadFile{
            R"({"queues": [{"name": "a", "messages": [{"body": "x", "attributes": {"k": true}}]}]})",
            "line 1, column 74, at queues[0].messages[0].attributes.k",
            "expected a string, a number or an object with a DataType, found a boolean"},
        BadFile{R"({"version": 2, "queues": []})", "line 1, column 13, at version",
                "this Inflight reads version 1 only"},
        BadFile{R"({"queues": [{"name": "a", "type": "sqs"}]})",
                "line 1, column 35, at queues[0].type", "unknown type \"sqs\""},
        BadFile{R"({"queues": [{"name": "a", "type": "fifo"}]})",
                "line 1, column 35, at queues[0].type", "a FIFO queue's name must end in .fifo"},
        BadFile{R"({"queues": [{"name": "a.fifo", "type": "standard"}]})",
                "line 1, column 40, at queues[0].type",
                "a queue whose name ends in .fifo is a FIFO queue"},
        BadFile{R"({"queues": [{"name": "a.fifo", "attributes": {"FifoQueue": false}}]})",
                "line 1, column 60, at queues[0].attributes.FifoQueue", "FifoQueue false"},
        BadFile{R"({"queues": [{"name": "a", "attributes": {"FifoQueue": "true"}}]})",
                "line 1, column 55, at queues[0].attributes.FifoQueue",
                "FifoQueue true needs a queue name ending in .fifo"}));

INSTANTIATE_TEST_SUITE_P(
    UnknownKeys, BadFileTest,
    testing::Values(
        BadFile{R"({"queue": []})", "line 1, column 2, at queue",
                "unknown key \"queue\" (a file has \"version\" and \"queues\")"},
        BadFile{R"({"queues": [{"name": "a", "atributes": {}}]})",
                "line 1, column 27, at queues[0].atributes", "unknown key \"atributes\""},
        BadFile{lines({
                    R"({"queues": [)",
                    R"(  {"name": "a", "messages": [)",
                    R"(    {"body": "x", "bdy": "y"})",
                    R"(  ]})",
                    R"(]})",
                }),
                "line 3, column 19, at queues[0].messages[0].bdy", "unknown key \"bdy\""},
        BadFile{
            R"({"queues": [{"name": "a", "messages": [{"body": "x", "attributes": {"k": {"DataType": "String", "Value": "v"}}}]}]})",
            "line 1, column 97, at queues[0].messages[0].attributes.k.Value",
            "unknown key \"Value\""},
        BadFile{R"({"queues": [{"name": "a", "attributes": {"VisibilityTimout": 5}}]})",
                "line 1, column 42, at queues[0].attributes.VisibilityTimout",
                "InvalidAttributeName: Unknown Attribute VisibilityTimout."},
        BadFile{R"({"queues": [{"name": "a", "attributes": {"ContentBasedDeduplication": true}}]})",
                "line 1, column 42, at queues[0].attributes.ContentBasedDeduplication",
                "Unknown Attribute ContentBasedDeduplication."},
        BadFile{R"({"queues": [{"name": "j", "type": "oci", "attributes": {}}]})",
                "line 1, column 42, at queues[0].attributes",
                "OCI queues take \"options\", not \"attributes\""},
        BadFile{R"({"queues": [{"name": "a", "options": {}}]})",
                "line 1, column 27, at queues[0].options", "\"options\" are for OCI queues"},
        BadFile{
            R"({"queues": [{"name": "j", "type": "oci", "options": {"VisibilityTimeout": 5}}]})",
            "line 1, column 54, at queues[0].options.VisibilityTimeout", "Unknown Attribute"},
        BadFile{
            R"({"queues": [{"name": "j", "type": "oci", "messages": [{"body": "x", "groupId": "g"}]}]})",
            "line 1, column 69, at queues[0].messages[0].groupId",
            "messages of OCI queues have no groupId"},
        BadFile{R"({"queues": [{"name": "a", "messages": [{"body": "x", "channel": "c"}]}]})",
                "line 1, column 54, at queues[0].messages[0].channel",
                "only messages of OCI queues have a channel"},
        BadFile{R"({"queues": [{"name": "a", "name": "b"}]})",
                "line 1, column 27, at queues[0].name", "this name is given twice in one object"},
        BadFile{R"({"queues": [{"name": "a", "tags": {"t": "1", "\u0074": "2"}}]})",
                "line 1, column 46, at queues[0].tags.t", "given twice"}));

INSTANTIATE_TEST_SUITE_P(
    MissingKeys, BadFileTest,
    testing::Values(
        BadFile{"{}", "line 1, column 1, at queues", "missing: the list of queues"},
        BadFile{R"({"queues": [{"type": "oci"}]})", "line 1, column 13, at queues[0].name",
                "missing: every queue needs a name"},
        BadFile{lines({
                    R"({"queues": [)",
                    R"(  {"name": "a"},)",
                    R"(  {"name": "b", "messages": [{"body": "x"},)",
                    R"(                             {"delaySeconds": 1}]})",
                    R"(]})",
                }),
                "line 4, column 30, at queues[1].messages[1].body",
                "missing: every message needs a body"},
        BadFile{
            R"({"queues": [{"name": "a", "messages": [{"body": "x", "attributes": {"k": {"StringValue": "v"}}}]}]})",
            "line 1, column 74, at queues[0].messages[0].attributes.k.DataType",
            "missing: a message attribute needs a DataType"}));

INSTANTIATE_TEST_SUITE_P(
    ValuesTheEngineRefuses, BadFileTest,
    testing::Values(
        BadFile{R"({"queues": [{"name": "a", "attributes": {"VisibilityTimeout": 50000}}]})",
                "line 1, column 63, at queues[0].attributes.VisibilityTimeout",
                "InvalidAttributeValue: Invalid value for the parameter VisibilityTimeout."},
        BadFile{R"({"queues": [{"name": "a", "attributes": {"MaximumMessageSize": "big"}}]})",
                "line 1, column 64, at queues[0].attributes.MaximumMessageSize",
                "Invalid value for the parameter MaximumMessageSize."},
        BadFile{R"({"queues": [{"name": "a", "attributes": {"VisibilityTimeout": 1.5}}]})",
                "line 1, column 63, at queues[0].attributes.VisibilityTimeout",
                "InvalidAttributeValue"},
        BadFile{
            R"({"queues": [{"name": "a", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "b", "maxReceiveCount": 0}}}, {"name": "b"}]})",
            "line 1, column 59, at queues[0].attributes.RedrivePolicy",
            "Invalid value for maxReceiveCount: 0"},
        BadFile{
            R"({"queues": [{"name": "j", "type": "oci", "options": {"deadLetterQueueDeliveryCount": 21}}]})",
            "line 1, column 86, at queues[0].options.deadLetterQueueDeliveryCount",
            "deadLetterQueueDeliveryCount"},
        BadFile{R"({"queues": [{"name": "bad name"}]})", "line 1, column 22, at queues[0].name",
                "Can only include alphanumeric characters"},
        BadFile{R"({"queues": [{"name": "j.fifo", "type": "oci"}]})",
                "line 1, column 22, at queues[0].name", "Can only include alphanumeric"}));

INSTANTIATE_TEST_SUITE_P(
    RefusedWhenApplied, BadFileTest,
    testing::Values(
        // The queue before it would be created and the message sent: nothing is.
        BadFile{
            lines({
                R"({"queues": [)",
                R"(  {"name": "fine", "messages": [{"body": "m"}]},)",
                R"(  {"name": "a", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "nowhere", "maxReceiveCount": 3}}})",
                R"(]})",
            }),
            "line 3, column 73, at queues[1].attributes.RedrivePolicy.deadLetterTargetArn",
            "the dead-letter queue nowhere is neither in this file nor an existing queue"},
        BadFile{
            R"({"queues": [{"name": "a", "attributes": {"RedrivePolicy": )"
            R"("{\"deadLetterTargetArn\": \"arn:aws:sqs:us-east-1:000000000000:gone\", \"maxReceiveCount\": 3}"}}]})",
            "line 1, column 59, at queues[0].attributes.RedrivePolicy",
            "the dead-letter queue gone is neither"},
        BadFile{lines({
                    R"({"queues": [)",
                    R"(  {"name": "a"},)",
                    R"(  {"name": "a"})",
                    R"(]})",
                }),
                "line 3, column 12, at queues[1].name",
                "queue a is declared twice (first at line 2, column 12)"},
        BadFile{
            R"({"queues": [{"name": "a", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "d.fifo", "maxReceiveCount": 3}}}, {"name": "d.fifo"}]})",
            "line 1, column 59, at queues[0].attributes.RedrivePolicy",
            "Dead-letter queue must be same type of queue as the source."},
        BadFile{
            R"({"queues": [{"name": "dlq", "attributes": {"RedriveAllowPolicy": {"redrivePermission": "denyAll"}}}, )"
            R"({"name": "a", "attributes": {"RedrivePolicy": {"deadLetterTargetArn": "dlq", "maxReceiveCount": 3}}}]})",
            "line 1, column 148, at queues[1].attributes.RedrivePolicy", "does not allow"},
        BadFile{R"({"queues": [{"name": "a", "tags": {"aws:team": "x"}}]})",
                "line 1, column 35, at queues[0].tags", "reserved prefix aws:"},
        BadFile{
            lines({
                R"({"queues": [)",
                R"(  {"name": "f.fifo", "attributes": {"ContentBasedDeduplication": true}, "messages": [)",
                R"(    {"body": "ok", "groupId": "g"},)",
                R"(    {"body": "no group"})",
                R"(  ]})",
                R"(]})",
            }),
            "line 4, column 5, at queues[0].messages[1].groupId",
            "MissingParameter: The request must contain the parameter MessageGroupId."},
        BadFile{R"({"queues": [{"name": "f.fifo", "messages": [{"body": "x", "groupId": "g"}]}]})",
                "line 1, column 45, at queues[0].messages[0].deduplicationId",
                "ContentBasedDeduplication enabled or MessageDeduplicationId provided"},
        BadFile{R"({"queues": [{"name": "a", "messages": [{"body": "bad \u0001"}]}]})",
                "line 1, column 49, at queues[0].messages[0].body", "InvalidMessageContents"},
        BadFile{R"({"queues": [{"name": "a", "messages": [{"body": "x", "delaySeconds": 901}]}]})",
                "line 1, column 70, at queues[0].messages[0].delaySeconds",
                "DelaySeconds must be >= 0 and <= 900"},
        BadFile{
            R"({"queues": [{"name": "a.fifo", "attributes": {"ContentBasedDeduplication": true}, )"
            R"("messages": [{"body": "x", "groupId": "g", "delaySeconds": 5}]}]})",
            "line 1, column 142, at queues[0].messages[0].delaySeconds",
            "not valid for this queue type"},
        BadFile{
            R"({"queues": [{"name": "a", "messages": [{"body": "x", "attributes": {"AWS.k": "v"}}]}]})",
            "line 1, column 68, at queues[0].messages[0].attributes", "AWS."},
        BadFile{
            R"({"queues": [{"name": "a", "messages": [{"body": "x", "attributes": {"k": {"DataType": "Binary", "BinaryValue": "%%%"}}}]}]})",
            "line 1, column 112, at queues[0].messages[0].attributes.k.BinaryValue",
            "BinaryValue is not base64"},
        BadFile{R"({"queues": [{"name": "before", "type": "oci"}]})",
                "line 1, column 40, at queues[0].type",
                "a queue named before exists already, as a standard queue"}));

// Columns count characters; names that are not plain words are quoted in the path.
INSTANTIATE_TEST_SUITE_P(
    PositionsAndPaths, BadFileTest,
    testing::Values(BadFile{R"({"queues": [{"name": "a", "tags": {"größe": "x", "n": []}}]})",
                            "line 1, column 55, at queues[0].tags.n", "found a list"},
                    BadFile{R"({"queues": [{"name": "a", "tags": {"cost center": []}}]})",
                            "line 1, column 51, at queues[0].tags[\"cost center\"]",
                            "found a list"},
                    BadFile{"{\"queues\": [{\"name\": \"a\",\r\n  \"tags\": 1}]}",
                            "line 2, column 11, at queues[0].tags",
                            "expected an object of tag keys"},
                    BadFile{"\xEF\xBB\xBF{\"queues\": 1}", "line 1, column 12, at queues",
                            "expected a list of queues"}));

TEST_F(QueueConfigFileTest, aMessageTooLargeForItsQueueIsRefusedAtItsBody)
{
    const std::string body(2000, 'x');
    // {"queues": [{"name": "a", "attributes": {"MaximumMessageSize": 1024}, "messages": [{"body":
    // "xx…
    expectRefused(R"({"queues": [{"name": "a", "attributes": {"MaximumMessageSize": 1024}, )"
                  R"("messages": [{"body": ")"
                      + body + R"("}]}]})",
                  "line 1, column 93, at queues[0].messages[0].body",
                  "Message must be shorter than 1024 bytes.");
}

TEST_F(QueueConfigFileTest, aQueueDeletedRecentlyIsRefusedAtItsName)
{
    createQueue("gone");
    ASSERT_TRUE(broker.deleteQueue("gone", "test").ok());
    expectRefused(R"({"queues": [{"name": "gone"}]})", "line 1, column 22, at queues[0].name",
                  "QueueDeletedRecently");
}

TEST_F(QueueConfigFileTest, tooManyTagsOnAnExistingQueueIsRefusedAtTheTags)
{
    engine::StringMap tags;
    for (int i = 0; i < 45; ++i)
        tags["k" + std::to_string(i)] = "v";
    ASSERT_TRUE(broker.createQueue(engine::CreateQueueRequest{.name = "full", .tags = tags}).ok());
    std::string more;
    for (int i = 0; i < 10; ++i)
        more += (i ? ", " : "") + ("\"n" + std::to_string(i) + "\": \"v\"");
    expectRefused(R"({"queues": [{"name": "full", "tags": {)" + more + "}}]}",
                  "line 1, column 38, at queues[0].tags", "Too many tags added for queue full.");
}

// ---- bounds --------------------------------------------------------------------------------------

// queues[0].messages[0].body is at depth 6; each '[' inside it one more.
std::string nestedBody(int brackets)
{
    return R"({"queues": [{"name": "a", "messages": [{"body": )" + std::string(brackets, '[')
        + std::string(brackets, ']') + "}]}]}";
}

TEST_F(QueueConfigFileTest, nestingUpTo32IsRead)
{
    loaded(nestedBody(27)); // the innermost list at depth 32
    EXPECT_EQ(messages("a").at(0).body, std::string(27, '[') + std::string(27, ']'));
}

TEST_F(QueueConfigFileTest, nestingDeeperThan32IsRefusedAtTheFirstTooDeepValue)
{
    std::string path = "queues[0].messages[0].body";
    for (int i = 0; i < 27; ++i)
        path += "[0]";
    expectRefused(nestedBody(28), "line 1, column 76, at " + path, "nested deeper than 32 levels");
    // Far deeper, and malformed after the limit: the limit is what is reported.
    expectRefused(nestedBody(100000).substr(0, 100060), "line 1, column 76, at " + path,
                  "nested deeper than 32 levels");
}

// Positions are asked for out of order (an attribute's name after its value); on one long line
// that must not cost a scan from the line's start each time. (No messages: the engine's first
// message in a queue allocates its store, which would be most of what this measures.)
TEST_F(QueueConfigFileTest, aLargeFileOnOneLine)
{
    std::string file = R"({"queues": [)";
    constexpr int kPairs = 2000;
    for (int i = 0; i < kPairs; ++i) {
        const std::string n = std::to_string(i);
        file += (i ? ", " : "") + std::string(R"({"name": "src)") + n
            + R"(", "attributes": {"VisibilityTimeout": 5, "RedrivePolicy": {"deadLetterTargetArn": "dlq)"
            + n + R"(", "maxReceiveCount": 2}}}, {"name": "dlq)" + n + R"("})";
    }
    file += "]}";
    const ConfigApplied applied = loaded(file);
    EXPECT_EQ(applied.queuesCreated, 2 * kPairs);
    EXPECT_EQ(broker.queueView("src1999")->deadLetterTarget, "dlq1999");
}

TEST_F(QueueConfigFileTest, filesOver16MiBAreRefusedUnread)
{
    std::string file = R"({"queues": [])" + std::string(kMaxConfigBytes, ' ') + "}";
    expectRefused(file, "line 1, column 1, at the top level",
                  "at most 16 MiB (16777216 bytes) are read");
    file.erase(13, file.size() - kMaxConfigBytes);
    ASSERT_EQ(file.size(), kMaxConfigBytes);
    EXPECT_TRUE(parseQueueConfig(file).ok());
}

} // namespace
} // namespace inflight::config
