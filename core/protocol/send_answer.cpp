#include "protocol/send_answer.h"

#include "protocol/json_writer.h"
#include "protocol/xml_writer.h"

namespace inflight::protocol {

SendAnswer sendAnswerOf(const engine::SendMessageRequest& message, const engine::SendResult& result)
{
    SendAnswer answer;
    answer.md5OfMessageBody = engine::md5HexText(message.body ? *message.body : std::string_view());
    if (!message.attributes.empty())
        answer.md5OfMessageAttributes = engine::md5OfMessageAttributes(message.attributes);
    if (!message.systemAttributes.empty())
        answer.md5OfMessageSystemAttributes
            = engine::md5OfMessageAttributes(message.systemAttributes);
    answer.messageId = result.messageId;
    answer.sequenceNumber = result.sequenceNumber;
    return answer;
}

Output sendOutputOf(const SendAnswer& answer)
{
    OutputObject output; // members in key order
    if (!answer.md5OfMessageAttributes.empty())
        output.add("MD5OfMessageAttributes", answer.md5OfMessageAttributes);
    output.add("MD5OfMessageBody", answer.md5OfMessageBody.str());
    if (!answer.md5OfMessageSystemAttributes.empty())
        output.add("MD5OfMessageSystemAttributes", answer.md5OfMessageSystemAttributes);
    output.add("MessageId", answer.messageId.str());
    if (!answer.sequenceNumber.empty())
        output.add("SequenceNumber", answer.sequenceNumber.str());
    return output.take();
}

void appendSendJson(QByteArray& out, const SendAnswer& answer)
{
    out.reserve(out.size() + 200);
    out += '{';
    if (!answer.md5OfMessageAttributes.empty()) {
        out += "\"MD5OfMessageAttributes\":";
        appendJsonString(out, answer.md5OfMessageAttributes);
        out += ',';
    }
    out += "\"MD5OfMessageBody\":";
    appendJsonString(out, answer.md5OfMessageBody.view());
    if (!answer.md5OfMessageSystemAttributes.empty()) {
        out += ",\"MD5OfMessageSystemAttributes\":";
        appendJsonString(out, answer.md5OfMessageSystemAttributes);
    }
    out += ",\"MessageId\":";
    appendJsonString(out, answer.messageId.view());
    if (!answer.sequenceNumber.empty()) {
        out += ",\"SequenceNumber\":";
        appendJsonString(out, answer.sequenceNumber.view());
    }
    out += '}';
}

void writeSendXml(XmlWriter& writer, const SendAnswer& answer)
{
    writer.textElement("MessageId", answer.messageId.view());
    writer.textElement("MD5OfMessageBody", answer.md5OfMessageBody.view());
    if (!answer.md5OfMessageAttributes.empty())
        writer.textElement("MD5OfMessageAttributes", answer.md5OfMessageAttributes);
    if (!answer.md5OfMessageSystemAttributes.empty())
        writer.textElement("MD5OfMessageSystemAttributes", answer.md5OfMessageSystemAttributes);
    if (!answer.sequenceNumber.empty())
        writer.textElement("SequenceNumber", answer.sequenceNumber.view());
}

} // namespace inflight::protocol
