// The traffic log's "Copy as curl" and "Copy as aws sqs" commands (traffic_commands.h).
#include "traffic/traffic_commands.h"

#include <gtest/gtest.h>

using namespace inflight::traffic;
using inflight::protocol::WireProtocol;

namespace {

TrafficRecord jsonSend()
{
    TrafficRecord record;
    record.protocol = WireProtocol::SqsJson;
    record.method = "POST";
    record.path = "/";
    record.address = QStringLiteral("127.0.0.1:50000");
    record.requestHeaders = {
        {"Host", "127.0.0.1:9324"},
        {"Content-Length", "99"},
        {"X-Amz-Target", "AmazonSQS.SendMessage"},
        {"Content-Type", "application/x-amz-json-1.0"},
        {"Authorization",
         "AWS4-HMAC-SHA256 Credential=AKIDTEST/20261201/eu-west-1/sqs/"
         "aws4_request, SignedHeaders=host, Signature=00"},
    };
    record.requestBody = R"({"QueueUrl":"http://127.0.0.1:9324/000000000000/orders",)"
                         R"("MessageBody":"it's here","DelaySeconds":5,)"
                         R"("MessageAttributes":{"a":{"DataType":"String","StringValue":"x"}}})";
    return record;
}

} // namespace

TEST(CliName, SplitsWordsAndAcronyms)
{
    EXPECT_EQ(cliName(QStringLiteral("SendMessageBatch")), QStringLiteral("send-message-batch"));
    EXPECT_EQ(cliName(QStringLiteral("QueueUrl")), QStringLiteral("queue-url"));
    EXPECT_EQ(cliName(QStringLiteral("QueueOwnerAWSAccountId")),
              QStringLiteral("queue-owner-aws-account-id"));
    EXPECT_EQ(cliName(QStringLiteral("tags")), QStringLiteral("tags"));
}

TEST(ShellQuote, EscapesSingleQuotes)
{
    EXPECT_EQ(shellQuote(QStringLiteral("it's")), QStringLiteral("'it'\\''s'"));
}

TEST(CurlCommand, SendsTheSameMethodUrlHeadersAndBody)
{
    const QString curl = curlCommand(jsonSend());
    EXPECT_TRUE(curl.startsWith(QStringLiteral("curl -X POST 'http://127.0.0.1:9324/'")))
        << qPrintable(curl);
    EXPECT_TRUE(curl.contains(QStringLiteral("-H 'X-Amz-Target: AmazonSQS.SendMessage'")));
    EXPECT_TRUE(curl.contains(QStringLiteral("--data-binary '{\"QueueUrl\"")));
    EXPECT_TRUE(curl.contains(QStringLiteral("it'\\''s here")));
    EXPECT_FALSE(curl.contains(QStringLiteral("Content-Length")));
    EXPECT_FALSE(curl.contains(QStringLiteral("-H 'Host")));
}

TEST(CurlCommand, SaysWhenTheBodyWasCut)
{
    TrafficRecord record = jsonSend();
    record.requestTruncated = true;
    record.requestBodySize = 300'000;
    EXPECT_TRUE(curlCommand(record).startsWith(QStringLiteral("# the traffic log kept")));
}

TEST(AwsCliCommand, JsonRequestBecomesOptions)
{
    const QString aws = awsCliCommand(jsonSend());
    EXPECT_TRUE(aws.startsWith(QStringLiteral("aws sqs send-message")));
    EXPECT_TRUE(aws.contains(QStringLiteral("--endpoint-url 'http://127.0.0.1:9324'")));
    EXPECT_TRUE(aws.contains(QStringLiteral("--region 'eu-west-1'")));
    EXPECT_TRUE(
        aws.contains(QStringLiteral("--queue-url 'http://127.0.0.1:9324/000000000000/orders'")));
    EXPECT_TRUE(aws.contains(QStringLiteral("--message-body 'it'\\''s here'")));
    EXPECT_TRUE(aws.contains(QStringLiteral("--delay-seconds '5'")));
    EXPECT_TRUE(aws.contains(QStringLiteral(
        "--message-attributes '{\"a\":{\"DataType\":\"String\",\"StringValue\":\"x\"}}'")));
}

TEST(AwsCliCommand, QueryRequestBecomesTheSameOptions)
{
    TrafficRecord record;
    record.protocol = WireProtocol::SqsQuery;
    record.method = "POST";
    record.path = "/000000000000/orders";
    record.requestHeaders
        = {{"Host", "localhost:9324"}, {"Content-Type", "application/x-www-form-urlencoded"}};
    record.requestBody = "Action=ReceiveMessage&Version=2012-11-05&MaxNumberOfMessages=10&"
                         "AttributeName.1=All&"
                         "QueueUrl=http%3A%2F%2Flocalhost%3A9324%2F000000000000%2Forders";
    const QString aws = awsCliCommand(record);
    EXPECT_TRUE(aws.startsWith(QStringLiteral("aws sqs receive-message"))) << qPrintable(aws);
    EXPECT_TRUE(aws.contains(QStringLiteral("--max-number-of-messages '10'")));
    EXPECT_TRUE(
        aws.contains(QStringLiteral("--queue-url 'http://localhost:9324/000000000000/orders'")));
    EXPECT_TRUE(aws.contains(QStringLiteral("--attribute-names 'All'"))) << qPrintable(aws);
    EXPECT_FALSE(aws.contains(QStringLiteral("--region")));
    // The protocol's own Version is no option of the CLI's (--version prints its version).
    EXPECT_FALSE(aws.contains(QStringLiteral("--version"))) << qPrintable(aws);
}

TEST(AwsCliCommand, NoneForOciOrCutBodies)
{
    TrafficRecord oci = jsonSend();
    oci.protocol = WireProtocol::OciRest;
    EXPECT_TRUE(awsCliCommand(oci).isEmpty());
    TrafficRecord cut = jsonSend();
    cut.requestTruncated = true;
    EXPECT_TRUE(awsCliCommand(cut).isEmpty());
}
