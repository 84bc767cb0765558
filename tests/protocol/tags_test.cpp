// At most 50 tags per queue (§1.3) on the wire: CreateQueue over JSON, TagQueue over Query, the
// count being the queue's after the call (engine/tags_test.cpp has the rules). More is
// InvalidParameterValue "Too many tags added for queue <name>.".
#include "protocol_fixture.h"

#include <QUrl>

namespace inflight::protocol::testing {
namespace {

using TagsTest = QueueProtocolTest;

TEST_F(TagsTest, createQueueOverJsonTakesAtMostFiftyTags)
{
    const auto tags = [](int count) {
        QByteArray members;
        for (int i = 0; i < count; ++i)
            members += (i ? ",\"k" : "\"k") + QByteArray::number(i) + "\":\"v\"";
        return "{" + members + "}";
    };
    EXPECT_EQ(json("CreateQueue", R"({"QueueName":"fifty","tags":)" + tags(50) + "}").status, 200);
    const HttpResponse refused
        = json("CreateQueue", R"({"QueueName":"many","tags":)" + tags(51) + "}");
    expectJsonError(refused, 400, "InvalidParameterValueException", "InvalidParameterValue");
    EXPECT_EQ(object(refused).value(QStringLiteral("message")).toString(),
              QStringLiteral("Too many tags added for queue many."));
    EXPECT_FALSE(broker.getQueue("many").ok());
}

TEST_F(TagsTest, tagQueueOverQueryCountsTheQueuesTagsToo)
{
    QByteArray form = "Action=TagQueue&QueueUrl=" + encodedUrl;
    for (int i = 1; i <= 50; ++i)
        form += "&Tag." + QByteArray::number(i) + ".Key=k" + QByteArray::number(i) + "&Tag."
            + QByteArray::number(i) + ".Value=v";
    ASSERT_EQ(query(form).status, 200);
    const HttpResponse refused
        = query("Action=TagQueue&QueueUrl=" + encodedUrl + "&Tag.1.Key=one-more&Tag.1.Value=v");
    expectQueryError(refused, 400, "InvalidParameterValue");
    EXPECT_EQ(xmlText(refused.body, QStringLiteral("Message")),
              QStringLiteral("Too many tags added for queue q."));
    ASSERT_EQ(query("Action=UntagQueue&QueueUrl=" + encodedUrl + "&TagKey.1=k1").status, 200);
    EXPECT_EQ(query("Action=TagQueue&QueueUrl=" + encodedUrl + "&Tag.1.Key=one-more&Tag.1.Value=v")
                  .status,
              200);
}

} // namespace
} // namespace inflight::protocol::testing
