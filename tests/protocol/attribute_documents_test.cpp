// The JSON documents inside queue attributes on the wire (RedrivePolicy, RedriveAllowPolicy,
// Policy: at most 8,192 bytes, 32 levels; engine/attribute_documents_test.cpp has the rules): a
// document too large or too deep is InvalidAttributeValue in the request's protocol, over JSON and
// Query, on CreateQueue and SetQueueAttributes, and the answer does not grow with it.
#include "protocol_fixture.h"

#include <QUrl>

namespace inflight::protocol::testing {
namespace {

// `depth` arrays nested in each other.
QByteArray nestedArrays(int depth)
{
    return QByteArray(depth, '[') + QByteArray(depth, ']');
}

// A RedrivePolicy whose maxReceiveCount is `depth` arrays deep: 140 KB at 70,000.
QByteArray deepRedrivePolicy(int depth)
{
    return R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":)"
        + nestedArrays(depth) + "}";
}

// A JSON string holding `text` (which has no characters JSON must escape but `"`).
QByteArray jsonString(QByteArray text)
{
    return '"' + text.replace("\"", "\\\"") + '"';
}

using AttributeDocumentsTest = QueueProtocolTest;

TEST_F(AttributeDocumentsTest, aDeepRedrivePolicyOverJsonIsInvalidAttributeValue)
{
    const QByteArray policy = jsonString(deepRedrivePolicy(70'000));
    const HttpResponse created = json(
        "CreateQueue", R"({"QueueName":"deep","Attributes":{"RedrivePolicy":)" + policy + "}}");
    expectJsonError(created, 400, "InvalidAttributeValue", "InvalidAttributeValue");
    EXPECT_LE(created.body.size(), 1'000);
    EXPECT_FALSE(broker.getQueue("deep").ok());
    const HttpResponse set = json("SetQueueAttributes",
                                  R"({"QueueUrl":")" + url.toUtf8()
                                      + R"(","Attributes":{"RedrivePolicy":)" + policy + "}}");
    expectJsonError(set, 400, "InvalidAttributeValue", "InvalidAttributeValue");
    EXPECT_LE(set.body.size(), 1'000);
}

TEST_F(AttributeDocumentsTest, aDeepRedrivePolicyOverQueryIsInvalidAttributeValue)
{
    const QByteArray policy
        = QUrl::toPercentEncoding(QString::fromLatin1(deepRedrivePolicy(70'000)));
    const HttpResponse created = query(
        "Action=CreateQueue&QueueName=deep&Attribute.1.Name=RedrivePolicy&Attribute.1.Value="
        + policy);
    expectQueryError(created, 400, "InvalidAttributeValue");
    EXPECT_LE(created.body.size(), 1'000);
    const HttpResponse set = query("Action=SetQueueAttributes&QueueUrl=" + encodedUrl
                                   + "&Attribute.1.Name=RedrivePolicy&Attribute.1.Value=" + policy);
    expectQueryError(set, 400, "InvalidAttributeValue");
    EXPECT_LE(set.body.size(), 1'000);
}

TEST_F(AttributeDocumentsTest, aPolicyNestedDeeperThan32LevelsIsInvalidAttributeValue)
{
    const QByteArray deep = R"({"Version":"2012-10-17","x":)" + nestedArrays(32) + "}";
    const HttpResponse response
        = json("SetQueueAttributes",
               R"({"QueueUrl":")" + url.toUtf8() + R"(","Attributes":{"Policy":)" + jsonString(deep)
                   + "}}");
    expectJsonError(response, 400, "InvalidAttributeValue", "InvalidAttributeValue");
    EXPECT_EQ(object(response).value(QStringLiteral("message")).toString(),
              QStringLiteral("Invalid value for the parameter Policy. Reason: The document nests "
                             "more than 32 levels deep."));
}

} // namespace
} // namespace inflight::protocol::testing
