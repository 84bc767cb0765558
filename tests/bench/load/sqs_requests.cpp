#include "sqs_requests.h"

namespace inflight::load {

namespace {

std::string formEncode(std::string_view text)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size() * 3 / 2);
    for (const unsigned char c : text) {
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
            || c == '_' || c == '.' || c == '~') {
            out += char(c);
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

// Bodies here are printable ASCII without quotes or backslashes; handles are copied verbatim from
// a JSON reply, so they are valid JSON string contents already.
std::string jsonString(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    out += text;
    out += '"';
    return out;
}

std::string xmlUnescape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '&') {
            out += text[i];
            continue;
        }
        const std::size_t end = text.find(';', i);
        const std::string_view entity = text.substr(i + 1, end - i - 1);
        if (entity == "amp")
            out += '&';
        else if (entity == "lt")
            out += '<';
        else if (entity == "gt")
            out += '>';
        else if (entity == "quot")
            out += '"';
        else if (entity == "apos")
            out += '\'';
        else
            out.append(text.substr(i, end - i + 1));
        i = end;
    }
    return out;
}

// Values of `"key":"…"` (JSON) in order; tolerates spaces after the colon.
std::vector<std::string> jsonStrings(std::string_view body, std::string_view key)
{
    std::vector<std::string> values;
    const std::string needle = "\"" + std::string(key) + "\"";
    std::size_t at = 0;
    while ((at = body.find(needle, at)) != std::string_view::npos) {
        at += needle.size();
        while (at < body.size() && (body[at] == ' ' || body[at] == ':'))
            ++at;
        if (at >= body.size() || body[at] != '"')
            continue;
        const std::size_t start = ++at;
        while (at < body.size() && body[at] != '"')
            at += body[at] == '\\' ? 2 : 1;
        values.emplace_back(body.substr(start, at - start));
    }
    return values;
}

// Texts of `<key>…</key>` (XML) in order, unescaped.
std::vector<std::string> xmlTexts(std::string_view body, std::string_view key)
{
    std::vector<std::string> values;
    const std::string open = "<" + std::string(key) + ">";
    const std::string close = "</" + std::string(key) + ">";
    std::size_t at = 0;
    while ((at = body.find(open, at)) != std::string_view::npos) {
        at += open.size();
        const std::size_t end = body.find(close, at);
        if (end == std::string_view::npos)
            break;
        values.push_back(xmlUnescape(body.substr(at, end - at)));
        at = end + close.size();
    }
    return values;
}

} // namespace

SqsRequests::SqsRequests(Protocol protocol, std::string hostHeader)
    : m_protocol(protocol), m_hostHeader(std::move(hostHeader))
{
}

std::string SqsRequests::post(std::string_view action, std::string_view payload) const
{
    std::string request;
    request.reserve(256 + payload.size());
    request += "POST / HTTP/1.1\r\nHost: ";
    request += m_hostHeader;
    if (m_protocol == Protocol::Json) {
        request += "\r\nContent-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.";
        request += action;
    } else {
        request += "\r\nContent-Type: application/x-www-form-urlencoded";
    }
    request += "\r\nContent-Length: ";
    request += std::to_string(payload.size());
    request += "\r\n\r\n";
    request += payload;
    return request;
}

std::string SqsRequests::createQueue(std::string_view name) const
{
    if (m_protocol == Protocol::Json)
        return post("CreateQueue", "{\"QueueName\":" + jsonString(name) + "}");
    return post("CreateQueue",
                "Action=CreateQueue&Version=2012-11-05&QueueName=" + formEncode(name));
}

std::string SqsRequests::sendMessage(std::string_view body) const
{
    if (m_protocol == Protocol::Json)
        return post("SendMessage",
                    "{\"QueueUrl\":" + jsonString(m_queueUrl)
                        + ",\"MessageBody\":" + jsonString(body) + "}");
    return post("SendMessage",
                "Action=SendMessage&Version=2012-11-05&QueueUrl=" + formEncode(m_queueUrl)
                    + "&MessageBody=" + formEncode(body));
}

std::string SqsRequests::sendMessageBatch(std::string_view body, int entries) const
{
    std::string payload;
    if (m_protocol == Protocol::Json) {
        payload = "{\"QueueUrl\":" + jsonString(m_queueUrl) + ",\"Entries\":[";
        for (int i = 0; i < entries; ++i) {
            payload += i == 0 ? "{\"Id\":\"m" : ",{\"Id\":\"m";
            payload += std::to_string(i) + "\",\"MessageBody\":" + jsonString(body) + "}";
        }
        payload += "]}";
    } else {
        payload = "Action=SendMessageBatch&Version=2012-11-05&QueueUrl=" + formEncode(m_queueUrl);
        const std::string encoded = formEncode(body);
        for (int i = 1; i <= entries; ++i) {
            const std::string prefix = "&SendMessageBatchRequestEntry." + std::to_string(i);
            payload += prefix + ".Id=m" + std::to_string(i) + prefix + ".MessageBody=" + encoded;
        }
    }
    return post("SendMessageBatch", payload);
}

std::string SqsRequests::receiveMessage(int maxMessages) const
{
    if (m_protocol == Protocol::Json)
        return post("ReceiveMessage",
                    "{\"QueueUrl\":" + jsonString(m_queueUrl) + ",\"MaxNumberOfMessages\":"
                        + std::to_string(maxMessages) + ",\"WaitTimeSeconds\":0}");
    return post("ReceiveMessage",
                "Action=ReceiveMessage&Version=2012-11-05&QueueUrl=" + formEncode(m_queueUrl)
                    + "&MaxNumberOfMessages=" + std::to_string(maxMessages) + "&WaitTimeSeconds=0");
}

std::string SqsRequests::deleteMessageBatch(const std::vector<std::string>& receiptHandles) const
{
    std::string payload;
    if (m_protocol == Protocol::Json) {
        payload = "{\"QueueUrl\":" + jsonString(m_queueUrl) + ",\"Entries\":[";
        for (std::size_t i = 0; i < receiptHandles.size(); ++i) {
            payload += i == 0 ? "{\"Id\":\"d" : ",{\"Id\":\"d";
            payload += std::to_string(i) + "\",\"ReceiptHandle\":" + jsonString(receiptHandles[i])
                + "}";
        }
        payload += "]}";
    } else {
        payload = "Action=DeleteMessageBatch&Version=2012-11-05&QueueUrl=" + formEncode(m_queueUrl);
        for (std::size_t i = 0; i < receiptHandles.size(); ++i) {
            const std::string prefix = "&DeleteMessageBatchRequestEntry." + std::to_string(i + 1);
            payload += prefix + ".Id=d" + std::to_string(i) + prefix
                + ".ReceiptHandle=" + formEncode(receiptHandles[i]);
        }
    }
    return post("DeleteMessageBatch", payload);
}

std::string SqsRequests::queueUrlOf(std::string_view replyBody) const
{
    const auto values = m_protocol == Protocol::Json ? jsonStrings(replyBody, "QueueUrl")
                                                     : xmlTexts(replyBody, "QueueUrl");
    return values.empty() ? std::string() : values.front();
}

std::vector<std::string> SqsRequests::receiptHandlesOf(std::string_view replyBody) const
{
    return m_protocol == Protocol::Json ? jsonStrings(replyBody, "ReceiptHandle")
                                        : xmlTexts(replyBody, "ReceiptHandle");
}

} // namespace inflight::load
