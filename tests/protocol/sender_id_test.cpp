// SenderId through the codecs (docs/BEHAVIOUR.md, "SenderId"): a message sent with SigV4 carries
// the access key id of the request's credential scope (Authorization header or presigned URL),
// one sent without a signature the account id; SQS JSON and Query alike, single and batched.
#include "protocol/access_key.h"
#include "protocol/protocol_fixture.h"

#include <QJsonArray>

namespace inflight::protocol::testing {
namespace {

const QByteArray kAuthorization
    = "AWS4-HMAC-SHA256 Credential=AKIDPRODUCER/20240101/us-east-1/sqs/aws4_request, "
      "SignedHeaders=content-type;host;x-amz-date, Signature=0123abcd";

HttpRequest signedBy(HttpRequest request, const QByteArray& authorization = kAuthorization)
{
    request.headers.append({"Authorization", authorization});
    return request;
}

class SenderIdTest : public QueueProtocolTest {
protected:
    // The SenderId of every message a JSON receive returns, in order.
    QStringList senders()
    {
        const HttpResponse received
            = json("ReceiveMessage",
                   R"({"QueueUrl":")" + url.toUtf8()
                       + R"(","MaxNumberOfMessages":10,"VisibilityTimeout":0,)"
                         R"("MessageSystemAttributeNames":["SenderId"]})");
        EXPECT_EQ(received.status, 200) << received.body.toStdString();
        QStringList out;
        for (const auto& message : object(received).value(QStringLiteral("Messages")).toArray())
            out.append(message.toObject()
                           .value(QStringLiteral("Attributes"))
                           .toObject()
                           .value(QStringLiteral("SenderId"))
                           .toString());
        return out;
    }
};

TEST_F(SenderIdTest, jsonSendCarriesTheAccessKeyIdOfItsAuthorization)
{
    const QByteArray body = R"({"QueueUrl":")" + url.toUtf8() + R"(","MessageBody":"m"})";
    ASSERT_EQ(respond(signedBy(jsonRequest("SendMessage", body))).status, 200);
    ASSERT_EQ(json("SendMessage", body).status, 200); // unsigned
    EXPECT_EQ(senders(),
              (QStringList{QStringLiteral("AKIDPRODUCER"), QStringLiteral("000000000000")}));
}

TEST_F(SenderIdTest, jsonBatchGivesEveryEntryTheSender)
{
    const QByteArray body = R"({"QueueUrl":")" + url.toUtf8()
        + R"(","Entries":[{"Id":"a","MessageBody":"a"},{"Id":"b","MessageBody":"b"}]})";
    ASSERT_EQ(respond(signedBy(jsonRequest("SendMessageBatch", body))).status, 200);
    EXPECT_EQ(senders(),
              (QStringList{QStringLiteral("AKIDPRODUCER"), QStringLiteral("AKIDPRODUCER")}));
}

TEST_F(SenderIdTest, querySendAndBatchCarryTheAccessKeyId)
{
    ASSERT_EQ(respond(signedBy(queryRequest("Action=SendMessage&QueueUrl=" + encodedUrl
                                            + "&MessageBody=one")))
                  .status,
              200);
    ASSERT_EQ(
        respond(
            signedBy(queryRequest("Action=SendMessageBatch&QueueUrl=" + encodedUrl
                                  + "&SendMessageBatchRequestEntry.1.Id=a"
                                    "&SendMessageBatchRequestEntry.1.MessageBody=two"),
                     "AWS4-HMAC-SHA256 Credential=AKIDOTHER/20240101/us-east-1/sqs/aws4_request, "
                     "SignedHeaders=host, Signature=00"))
            .status,
        200);
    const HttpResponse received
        = query("Action=ReceiveMessage&QueueUrl=" + encodedUrl
                + "&MaxNumberOfMessages=10&MessageSystemAttributeName.1=SenderId");
    EXPECT_EQ(xmlTexts(received.body, QStringLiteral("Value")),
              (QStringList{QStringLiteral("AKIDPRODUCER"), QStringLiteral("AKIDOTHER")}));
}

TEST_F(SenderIdTest, aPresignedQueryCarriesItsCredentialsKey)
{
    HttpRequest request;
    request.method = "GET";
    request.path = "/000000000000/q";
    request.query = "Action=SendMessage&MessageBody=presigned&X-Amz-Algorithm=AWS4-HMAC-SHA256"
                    "&X-Amz-Credential=AKIDPRESIGNED%2F20240101%2Fus-east-1%2Fsqs%2Faws4_request"
                    "&X-Amz-Date=20240101T000000Z&X-Amz-SignedHeaders=host&X-Amz-Signature=00";
    request.headers = {{"Host", "127.0.0.1:9324"}};
    request.origin = QStringLiteral("127.0.0.1:53412");
    ASSERT_EQ(respond(request).status, 200) << respond(request).body.toStdString();
    EXPECT_EQ(senders().value(0), QStringLiteral("AKIDPRESIGNED"));
}

TEST(AccessKeyId, readsTheCredentialScopeOfEitherForm)
{
    EXPECT_EQ(accessKeyId(kAuthorization, {}), "AKIDPRODUCER");
    EXPECT_EQ(accessKeyId("AWS4-HMAC-SHA256 Credential=AKID", {}), "AKID");
    EXPECT_EQ(accessKeyId({}, "a=1&x-amz-credential=AK%2Fdate%2Fr%2Fs%2Faws4_request&b=2"), "AK");
    EXPECT_EQ(accessKeyId("Signature keyId=\"ocid1.user\"", {}), "") << "not SigV4";
    EXPECT_EQ(accessKeyId({}, "Action=SendMessage"), "");
    EXPECT_EQ(accessKeyId({}, {}), "");
}

} // namespace
} // namespace inflight::protocol::testing
