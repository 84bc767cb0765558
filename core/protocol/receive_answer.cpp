#include "protocol/receive_answer.h"

#include "protocol/json_writer.h"
#include "protocol/xml_writer.h"

#include "engine/digest.h"

#include <array>
#include <cstring>
#include <string_view>
#include <vector>

namespace inflight::protocol {

namespace {

// Text the engine makes (hex digests, message ids, receipt handles: letters, digits, '-', '+',
// '/', '_' and '='), which no protocol escapes.
void appendToken(QByteArray& out, std::string_view text)
{
    out += '"';
    out.append(text.data(), qsizetype(text.size()));
    out += '"';
}

// A run of markup and engine-made tokens, put together on the stack and appended in one piece: a
// message's answer is mostly such runs, and each QByteArray append is an out-of-line call that
// checks its room (about a hundred instructions; they were a tenth of a JSON receive's).
class Run {
public:
    Run& operator<<(std::string_view text)
    {
        Q_ASSERT(m_size + text.size() <= sizeof m_text);
        std::memcpy(m_text + m_size, text.data(), text.size());
        m_size += text.size();
        return *this;
    }
    void appendTo(QByteArray& out) const { out.append(m_text, qsizetype(m_size)); }
    std::string_view view() const { return {m_text, m_size}; }

private:
    // The longest run: the tokens after a body (digest 32, id 36, receipt 48) and their markup.
    char m_text[320];
    std::size_t m_size = 0;
};

std::string base64Of(const std::string& bytes)
{
    return QByteArray::fromStdString(bytes).toBase64().toStdString();
}

// A MessageAttributeValue: BinaryValue or StringValue, and DataType, in key order.
void appendAttributeValueJson(QByteArray& out, const engine::MessageAttributeValue& value)
{
    if (value.isBinary()) {
        out += "{\"BinaryValue\":";
        appendJsonString(out, base64Of(value.binaryValue));
        out += ",\"DataType\":";
        appendJsonString(out, value.dataType);
    } else {
        out += "{\"DataType\":";
        appendJsonString(out, value.dataType);
        out += ",\"StringValue\":";
        appendJsonString(out, value.stringValue);
    }
    out += '}';
}

// `after`: a message before it in the answer (a comma first).
void appendMessageJson(QByteArray& out, const engine::ReceivedMessage& message,
                       std::string_view md5OfBody, bool after)
{
    if (message.systemAttributes.empty()) {
        out += after ? ",{\"Body\":" : "{\"Body\":"; // one append for the punctuation
    } else {
        out += after ? ",{\"Attributes\":{" : "{\"Attributes\":{";
        bool first = true;
        for (const auto& [name, value] : message.systemAttributes) { // in name order
            if (!first)
                out += ',';
            first = false;
            appendJsonString(out, name);
            out += ':';
            appendJsonString(out, value);
        }
        out += "},\"Body\":";
    }
    appendJsonString(out, message.body);
    if (message.attributes.empty()) {
        // The rest is made of tokens no protocol escapes: one append.
        Run rest;
        rest << ",\"MD5OfBody\":\"" << md5OfBody << "\",\"MessageId\":\""
             << message.messageId.view() << "\",\"ReceiptHandle\":\""
             << message.receiptHandle.view() << "\"}";
        rest.appendTo(out);
        return;
    }
    out += ",\"MD5OfBody\":";
    appendToken(out, md5OfBody);
    {
        out += ",\"MD5OfMessageAttributes\":";
        appendToken(out, engine::md5OfMessageAttributes(message.attributes));
        out += ",\"MessageAttributes\":{";
        bool first = true;
        for (const auto& [name, value] : message.attributes) { // in name order
            if (!first)
                out += ',';
            first = false;
            appendJsonString(out, name);
            out += ':';
            appendAttributeValueJson(out, value);
        }
        out += '}';
    }
    out += ",\"MessageId\":";
    appendToken(out, message.messageId.view());
    out += ",\"ReceiptHandle\":";
    appendToken(out, message.receiptHandle.view());
    out += '}';
}

} // namespace

void appendReceiveJson(QByteArray& out, const engine::ReceiveResult& result)
{
    if (result.messages.empty()) {
        out += "{}";
        return;
    }
    // The members' names and punctuation, the digest, id and receipt: about 200 bytes a message
    // besides its body (attributes grow it once, if any).
    std::size_t size = 16;
    for (const engine::ReceivedMessage& message : result.messages)
        size += message.body.size() + 224;
    out.reserve(out.size() + qsizetype(size));
    out += "{\"Messages\":[";
    for (std::size_t i = 0; i < result.messages.size(); ++i) {
        const engine::ReceivedMessage& message = result.messages[i];
        appendMessageJson(out, message, engine::md5HexText(message.body).view(), i > 0);
    }
    out += "]}";
}

void writeReceiveXml(XmlWriter& writer, const engine::ReceiveResult& result)
{
    for (const engine::ReceivedMessage& message : result.messages) {
        const engine::Md5HexText digest = engine::md5HexText(message.body);
        if (message.systemAttributes.empty() && message.attributes.empty()) {
            // Nearly every message: its markup around the body in two pieces (the writer's calls
            // for each element cost more than the tokens).
            Run head;
            head << "<Message><MessageId>" << message.messageId.view()
                 << "</MessageId><ReceiptHandle>" << message.receiptHandle.view()
                 << "</ReceiptHandle><MD5OfBody>" << digest.view() << "</MD5OfBody><Body>";
            writer.markup(head.view());
            writer.text(message.body);
            writer.markup("</Body></Message>");
            continue;
        }
        writer.startElement("Message");
        // The elements of tokens no protocol escapes, in one piece (Run).
        Run tokens;
        tokens << "<MessageId>" << message.messageId.view() << "</MessageId><ReceiptHandle>"
               << message.receiptHandle.view() << "</ReceiptHandle><MD5OfBody>" << digest.view()
               << "</MD5OfBody>";
        writer.markup(tokens.view());
        writer.textElement("Body", message.body);
        for (const auto& [name, value] : message.systemAttributes) {
            writer.startElement("Attribute");
            writer.textElement("Name", name);
            writer.textElement("Value", value);
            writer.endElement();
        }
        if (!message.attributes.empty()) {
            writer.textElement("MD5OfMessageAttributes",
                               engine::md5OfMessageAttributes(message.attributes));
            for (const auto& [name, value] : message.attributes) {
                writer.startElement("MessageAttribute");
                writer.textElement("Name", name);
                writer.startElement("Value");
                if (value.isBinary())
                    writer.textElement("BinaryValue", base64Of(value.binaryValue));
                else
                    writer.textElement("StringValue", value.stringValue);
                writer.textElement("DataType", value.dataType);
                writer.endElement();
                writer.endElement();
            }
        }
        writer.endElement();
    }
}

} // namespace inflight::protocol
