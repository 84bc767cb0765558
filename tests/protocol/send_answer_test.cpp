// SendMessage's answer written straight from what was sent (send_answer.h) gives the bytes the
// Output tree of the same members gave, in JSON and in Query, with and without attributes and on
// FIFO queues; and an SDK's SendMessage through the endpoint reads its digests back.
#include "protocol/send_answer.h"
#include "protocol/sqs_codec.h"

#include "engine/digest.h"

#include <gtest/gtest.h>

namespace inflight::protocol {
namespace {

engine::MessageAttributes attributesOf(const std::string& value)
{
    engine::MessageAttributes attributes;
    attributes["color"].dataType = "String";
    attributes["color"].stringValue = value;
    return attributes;
}

std::vector<std::pair<engine::SendMessageRequest, engine::SendResult>> sends()
{
    std::vector<std::pair<engine::SendMessageRequest, engine::SendResult>> all;
    for (int variant = 0; variant < 8; ++variant) {
        engine::SendMessageRequest message;
        if (variant != 7) // no body at all: the digest of nothing
            message.body = "body \"" + std::to_string(variant) + "\" <&> é";
        if (variant & 1)
            message.attributes = attributesOf("red");
        if (variant & 2)
            message.systemAttributes = attributesOf("Root=1-abc");
        engine::SendResult result;
        result.messageId = "6f3a1c2e-0000-4000-8000-00000000000" + std::to_string(variant);
        if (variant & 4)
            result.sequenceNumber = "1000000000000000000" + std::to_string(variant);
        all.emplace_back(std::move(message), std::move(result));
    }
    return all;
}

// The response with its request id (random, in a header and in a Query body) made "ID".
HttpResponse withoutRequestId(HttpResponse response)
{
    for (auto& [name, value] : response.headers) {
        if (name == "x-amzn-RequestId") {
            EXPECT_EQ(value.size(), 36);
            response.body.replace(value, "ID");
            value = "ID";
        }
    }
    return response;
}

TEST(SendAnswer, jsonBytesAreTheOutputTreesBytes)
{
    for (const auto& [message, result] : sends()) {
        const SendAnswer sent = sendAnswerOf(message, result);
        const HttpResponse direct = withoutRequestId(json::success(sent));
        const HttpResponse tree = withoutRequestId(json::success(sendOutputOf(sent)));
        EXPECT_EQ(direct.body, tree.body);
        EXPECT_EQ(direct.status, 200);
        EXPECT_EQ(direct.contentType, tree.contentType);
        EXPECT_EQ(direct.headers, tree.headers);
    }
}

TEST(SendAnswer, queryBytesAreTheOutputTreesBytes)
{
    for (const auto& [message, result] : sends()) {
        const SendAnswer sent = sendAnswerOf(message, result);
        const HttpResponse direct = withoutRequestId(query::success(sent));
        const HttpResponse tree
            = withoutRequestId(query::success(QStringLiteral("SendMessage"), sendOutputOf(sent)));
        EXPECT_TRUE(direct.body.contains("<RequestId>ID</RequestId>"));
        EXPECT_EQ(direct.body, tree.body);
        EXPECT_EQ(direct.contentType, tree.contentType);
        EXPECT_EQ(direct.headers, tree.headers);
    }
}

TEST(SendAnswer, holdsTheDigestsOfWhatWasSentAndOnlyThoseSent)
{
    engine::SendMessageRequest message;
    message.body = "hello";
    engine::SendResult result;
    result.messageId = "id";
    SendAnswer sent = sendAnswerOf(message, result);
    EXPECT_EQ(sent.md5OfMessageBody.view(), "5d41402abc4b2a76b9719d911017c592");
    EXPECT_TRUE(sent.md5OfMessageAttributes.empty());
    EXPECT_TRUE(sent.md5OfMessageSystemAttributes.empty());
    EXPECT_TRUE(sent.sequenceNumber.empty());
    QByteArray body;
    appendSendJson(body, sent);
    EXPECT_EQ(body, R"({"MD5OfMessageBody":"5d41402abc4b2a76b9719d911017c592","MessageId":"id"})");

    message.attributes = attributesOf("red");
    sent = sendAnswerOf(message, result);
    EXPECT_EQ(sent.md5OfMessageAttributes, engine::md5OfMessageAttributes(message.attributes));
    EXPECT_FALSE(sent.md5OfMessageAttributes.empty());
}

} // namespace
} // namespace inflight::protocol
