// ReceiveMessage's answers are written straight from the engine's result (receive_answer.h). They
// were printed from an Output tree before, by the codecs' generic printers; that tree, built as
// the action built it, stays here as the reference: both protocols' answers must keep its bytes.
#include "protocol/receive_answer.h"

#include "protocol/sqs_codec.h"
#include "protocol/sqs_output.h"

#include "engine/digest.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace protocol = inflight::protocol;
namespace engine = inflight::engine;
using protocol::Output;
using protocol::OutputObject;

namespace {

// The tree ReceiveMessage's action returned until the answer was written directly.
Output referenceOutput(const engine::ReceiveResult& result)
{
    if (result.messages.empty())
        return Output::object();
    Output messages = Output::array();
    for (const engine::ReceivedMessage& received : result.messages) {
        OutputObject message;
        if (!received.systemAttributes.empty()) {
            Output attributes = Output::object();
            for (const auto& [name, value] : received.systemAttributes)
                attributes[name] = value;
            message.add("Attributes", std::move(attributes));
        }
        message.add("Body", received.body);
        message.add("MD5OfBody", received.md5OfBody());
        if (!received.attributes.empty()) {
            message.add("MD5OfMessageAttributes", received.md5OfMessageAttributes());
            OutputObject attributes;
            for (const auto& [name, value] : received.attributes) {
                OutputObject attribute;
                if (value.isBinary())
                    attribute.add(
                        "BinaryValue",
                        QByteArray::fromStdString(value.binaryValue).toBase64().toStdString());
                attribute.add("DataType", value.dataType);
                if (!value.isBinary())
                    attribute.add("StringValue", value.stringValue);
                attributes.add(name, attribute.take());
            }
            message.add("MessageAttributes", attributes.take());
        }
        message.add("MessageId", received.messageId.str());
        message.add("ReceiptHandle", received.receiptHandle.str());
        messages.push_back(message.take());
    }
    return OutputObject().add("Messages", std::move(messages)).take();
}

// An answer's body up to its request id, which is new for every answer.
QByteArray withoutRequestId(const protocol::HttpResponse& response)
{
    const qsizetype metadata = response.body.indexOf("<ResponseMetadata>");
    return metadata < 0 ? response.body : response.body.left(metadata);
}

void expectSameAnswers(const engine::ReceiveResult& result)
{
    const Output reference = referenceOutput(result);
    const protocol::HttpResponse json = protocol::json::success(result);
    const protocol::HttpResponse jsonReference = protocol::json::success(reference);
    EXPECT_EQ(json.body.toStdString(), jsonReference.body.toStdString());
    EXPECT_EQ(json.status, 200);
    EXPECT_EQ(json.contentType, jsonReference.contentType);

    const protocol::HttpResponse xml = protocol::query::success(result);
    const protocol::HttpResponse xmlReference
        = protocol::query::success(QStringLiteral("ReceiveMessage"), reference);
    EXPECT_EQ(withoutRequestId(xml).toStdString(), withoutRequestId(xmlReference).toStdString());
    EXPECT_TRUE(xml.body.endsWith("</RequestId></ResponseMetadata></ReceiveMessageResponse>\n"))
        << xml.body.toStdString();
    EXPECT_EQ(xml.contentType, xmlReference.contentType);
}

engine::ReceivedMessage message(std::string body, int n)
{
    engine::ReceivedMessage received;
    received.body = std::move(body);
    received.messageId = "8f0c1a9e-5b7d-4c1e-9a3f-2d6b7e8f9a0" + std::to_string(n % 10);
    received.receiptHandle = "AQEBm2Vf+q/7sXk0=_-" + std::to_string(n);
    return received;
}

engine::MessageAttributeValue stringAttribute(std::string type, std::string value)
{
    engine::MessageAttributeValue attribute;
    attribute.dataType = std::move(type);
    attribute.stringValue = std::move(value);
    return attribute;
}

engine::MessageAttributeValue binaryAttribute(std::string type, std::string bytes)
{
    engine::MessageAttributeValue attribute;
    attribute.dataType = std::move(type);
    attribute.binaryValue = std::move(bytes);
    return attribute;
}

} // namespace

TEST(ReceiveAnswer, anEmptyReceiveIsAnEmptyObjectAndAnEmptyResult)
{
    const engine::ReceiveResult none;
    EXPECT_EQ(protocol::json::success(none).body, "{}");
    EXPECT_TRUE(withoutRequestId(protocol::query::success(none))
                    .endsWith("<ReceiveMessageResponse "
                              "xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\">"
                              "<ReceiveMessageResult/>"));
    expectSameAnswers(none);
}

TEST(ReceiveAnswer, aPlainMessageIsWrittenAsTheTreeWas)
{
    engine::ReceiveResult result;
    result.messages.push_back(message("hello", 1));
    expectSameAnswers(result);
    EXPECT_EQ(protocol::json::success(result).body.toStdString(),
              "{\"Messages\":[{\"Body\":\"hello\",\"MD5OfBody\":\"" + engine::md5Hex("hello")
                  + "\",\"MessageId\":\"8f0c1a9e-5b7d-4c1e-9a3f-2d6b7e8f9a01\","
                    "\"ReceiptHandle\":\"AQEBm2Vf+q/7sXk0=_-1\"}]}");
}

TEST(ReceiveAnswer, bodiesThatNeedEscapingAreEscapedAsTheTreeWas)
{
    engine::ReceiveResult result;
    result.messages.push_back(message("a \"quoted\" \\ back\tslash\r\n end", 1));
    result.messages.push_back(message("<xml attr=\"v\">&amp; ]]></xml>", 2));
    result.messages.push_back(message("\xE2\x82\xAC \xF0\x9F\x98\x80 caf\xC3\xA9", 3));
    result.messages.push_back(message("\xEF\xBB\xBF"
                                      "starts with a byte-order mark",
                                      4));
    result.messages.push_back(message("", 5));
    result.messages.push_back(message("not UTF-8: \xFF\xFE end", 6));
    expectSameAnswers(result);
}

TEST(ReceiveAnswer, attributesAndMessageAttributesAreWrittenAsTheTreeWas)
{
    engine::ReceiveResult result;
    engine::ReceivedMessage first = message("with everything", 1);
    first.systemAttributes = {{"ApproximateReceiveCount", "3"},
                              {"SentTimestamp", "1796398522111"},
                              {"MessageGroupId", "group \"a\" <1>"},
                              {"SenderId", "AKIDEXAMPLE"}};
    first.attributes = {{"color", stringAttribute("String", "blue & <green>")},
                        {"count", stringAttribute("Number", "42")},
                        {"raw", binaryAttribute("Binary", std::string("\x00\x01\xFF\x7F", 4))},
                        {"custom", stringAttribute("String.custom", "\xE2\x82\xAC")},
                        {"blob", binaryAttribute("Binary.png", "\x89PNG")}};
    result.messages.push_back(first);
    engine::ReceivedMessage second = message("attributes only", 2);
    second.systemAttributes = {{"SentTimestamp", "1"}};
    result.messages.push_back(second);
    engine::ReceivedMessage third = message("message attributes only", 3);
    third.attributes = {{"a", stringAttribute("String", "")}};
    result.messages.push_back(third);
    expectSameAnswers(result);
}

TEST(ReceiveAnswer, randomResultsAreWrittenAsTheTreeWas)
{
    std::mt19937 random(20261205);
    const std::string alphabet = std::string("abcXYZ019 \"\\<>&'\t\r\n\x01\x1f\x7f")
        + "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xEF\xBB\xBF";
    const auto text = [&](std::size_t most) {
        std::string out;
        const std::size_t size = random() % (most + 1);
        for (std::size_t i = 0; i < size; ++i)
            out += alphabet[random() % alphabet.size()];
        return out; // may cut a character short: not UTF-8 now and then
    };
    for (int round = 0; round < 300; ++round) {
        engine::ReceiveResult result;
        const int count = int(random() % 14); // past a receive's ten: digests on the heap
        for (int i = 0; i < count; ++i) {
            engine::ReceivedMessage received = message(text(200), i);
            for (int a = int(random() % 3); a > 0; --a)
                received.systemAttributes[text(12)] = text(20);
            for (int a = int(random() % 4); a > 0; --a) {
                if (random() % 2)
                    received.attributes[text(10)] = stringAttribute("String", text(30));
                else
                    received.attributes[text(10)] = binaryAttribute("Binary", text(30));
            }
            result.messages.push_back(std::move(received));
        }
        SCOPED_TRACE(round);
        expectSameAnswers(result);
    }
}
