#include "traffic/traffic_capture.h"

#include "traffic/client_identity.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <unordered_map>

namespace inflight::traffic {

namespace {

QString between(const QByteArray& xml, const char* open, const char* close)
{
    const qsizetype at = xml.indexOf(open);
    if (at < 0)
        return {};
    const qsizetype from = at + qstrlen(open);
    const qsizetype end = xml.indexOf(close, from);
    return end < 0 ? QString() : QString::fromUtf8(xml.mid(from, end - from));
}

QString jsonString(const nlohmann::json& object, const char* key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                 : QString();
}

QString verb(const QString& op)
{
    if (op.startsWith(QLatin1String("SendMessage")) || op == QLatin1String("PutMessages"))
        return QStringLiteral("sent");
    if (op.startsWith(QLatin1String("DeleteMessage")))
        return QStringLiteral("deleted");
    if (op.startsWith(QLatin1String("ChangeMessageVisibility"))
        || op.startsWith(QLatin1String("UpdateMessage")))
        return QStringLiteral("changed");
    return {};
}

// The common outcomes are a few texts over and over ("sent 1", "received 10 of max 10"): each is
// made once per thread and shared, so most requests cost the log no text of their own.
template <typename Make>
QString remembered(int kind, std::int64_t a, std::int64_t b, Make make)
{
    if (a < 0 || a >= 0x10000 || b < -1 || b >= 0x10000)
        return make();
    thread_local std::unordered_map<std::uint64_t, QString> texts;
    const std::uint64_t key
        = (std::uint64_t(kind) << 40) | (std::uint64_t(a) << 20) | std::uint64_t(b + 1);
    if (const auto it = texts.find(key); it != texts.end())
        return it->second;
    QString text = make();
    if (texts.size() < 4096)
        texts.emplace(key, text);
    return text;
}

} // namespace

WireError wireError(const protocol::HttpResponse& response)
{
    WireError out;
    if (response.body.isEmpty())
        return out;
    if (response.body.startsWith('<')) { // Query XML
        out.code = between(response.body, "<Code>", "</Code>");
        out.message = between(response.body, "<Message>", "</Message>");
        return out;
    }
    const auto body
        = nlohmann::json::parse(response.body.begin(), response.body.end(), nullptr, false);
    if (!body.is_object())
        return out;
    if (const auto error = body.find("error"); error != body.end() && error->is_object()) {
        out.code = jsonString(*error, "code"); // control API
        out.message = jsonString(*error, "message");
        return out;
    }
    out.code = jsonString(body, "__type");
    if (const qsizetype hash = out.code.lastIndexOf(QLatin1Char('#')); hash >= 0)
        out.code = out.code.mid(hash + 1);
    if (out.code.isEmpty())
        out.code = jsonString(body, "code");
    out.message = jsonString(body, "message");
    if (out.message.isEmpty())
        out.message = jsonString(body, "Message");
    return out;
}

QString outcomeText(const protocol::RequestSummary& summary, int status, const QString& errorCode)
{
    if (status >= 400)
        return errorCode.isEmpty() ? QStringLiteral("HTTP %1").arg(status) : errorCode;
    const QString& op = summary.operation;
    if (op == QLatin1String("ReceiveMessage") || op == QLatin1String("GetMessages")) {
        if (summary.succeeded > 0 && summary.receivedAgain > 0)
            return QStringLiteral("received %1 of max %2 · %3 received again")
                .arg(summary.succeeded)
                .arg(summary.maxMessages)
                .arg(summary.receivedAgain);
        if (summary.succeeded > 0)
            return remembered(0, summary.succeeded, summary.maxMessages, [&] {
                return QStringLiteral("received %1 of max %2")
                    .arg(summary.succeeded)
                    .arg(summary.maxMessages);
            });
        if (summary.waitSeconds > 0)
            return remembered(1, summary.waitSeconds, 0, [&] {
                return QStringLiteral("empty after a %1 s long poll").arg(summary.waitSeconds);
            });
        return QStringLiteral("empty");
    }
    const QString done = verb(op);
    if (done.isEmpty() || summary.succeeded < 0)
        return QStringLiteral("ok");
    const auto counted = [&] { return QStringLiteral("%1 %2").arg(done).arg(summary.succeeded); };
    if (summary.failed <= 0 && !summary.staleReceipt)
        return remembered(2 + int(done.front().unicode()), summary.succeeded, 0, counted);
    QString text = counted();
    if (summary.failed > 0) {
        text += QStringLiteral(", %1 failed").arg(summary.failed);
        if (!summary.firstFailure.isEmpty())
            text += QStringLiteral(": ") + QString::fromUtf8(summary.firstFailure);
    }
    // What a consumer that overran its visibility timeout does: at a glance, not in the detail.
    if (summary.staleReceipt)
        text += QStringLiteral(" · stale receipt");
    return text;
}

TrafficRecord arrival(protocol::HttpRequest&& request, const ClientIdentities::Known& client,
                      const QString& address, const protocol::RequestSummary& summary,
                      std::int64_t wallTimeMs, std::int64_t engineTimeMs, bool waiting)
{
    TrafficRecord record;
    record.wallTimeMs = wallTimeMs;
    record.engineTimeMs = engineTimeMs;
    record.client = client.identity;
    record.address = address;
    record.userAgent = client.userAgent;
    record.protocol = summary.protocol;
    record.operation = summary.operation;
    record.queue = summary.queue;
    record.waiting = waiting;
    if (waiting)
        record.outcome = summary.waitSeconds > 0
            ? QStringLiteral("waiting up to %1 s").arg(summary.waitSeconds)
            : QStringLiteral("waiting");
    record.requestContentType = request.header(QByteArrayLiteral("Content-Type"));
    record.requestBodySize = request.body.size();
    record.method = std::move(request.method);
    record.path = std::move(request.path);
    record.query = std::move(request.query);
    record.requestHeaders = std::move(request.headers);
    record.requestBody = std::move(request.body);
    return record;
}

TrafficRecord arrival(const protocol::HttpRequest& request, const protocol::RequestSummary& summary,
                      std::int64_t wallTimeMs, std::int64_t engineTimeMs, bool waiting)
{
    const QByteArray agent = request.header(QByteArrayLiteral("User-Agent"));
    const ClientIdentities::Known client{
        identify(request.header(QByteArrayLiteral("Authorization")), request.query, agent,
                 request.origin),
        QString::fromUtf8(agent)};
    return arrival(protocol::HttpRequest(request), client, request.origin, summary, wallTimeMs,
                   engineTimeMs, waiting);
}

void answered(TrafficRecord& record, const protocol::HttpResponse& response,
              const protocol::RequestSummary& summary, std::int64_t latencyUs)
{
    record.waiting = false;
    record.status = response.status;
    record.latencyUs = latencyUs;
    QByteArray id = response.header(QByteArrayLiteral("x-amzn-RequestId"));
    if (id.isEmpty())
        id = response.header(QByteArrayLiteral("opc-request-id"));
    record.requestId = id;
    if (response.status >= 400) {
        const WireError error = wireError(response);
        record.errorCode = error.code;
        record.errorMessage = error.message;
    }
    record.succeeded = summary.succeeded;
    record.failed = summary.failed;
    record.outcome = outcomeText(summary, response.status, record.errorCode);
    record.explanation = summary.explanation;
    record.staleReceipt = summary.staleReceipt;
    record.receivedAgain = summary.receivedAgain;
    record.responseHeaders = response.headers;
    record.responseContentType = response.contentType;
    record.responseBody = response.body;
    record.responseBodySize = response.body.size();
}

void hungUp(TrafficRecord& record, std::int64_t latencyUs)
{
    record.waiting = false;
    record.status = 0; // no answer was sent (HAR: status 0, an aborted request)
    record.latencyUs = latencyUs;
    record.outcome = QStringLiteral("client hung up");
}

qsizetype PackedHeaders::packedSize() const
{
    if (!m_block.isNull())
        return m_block.size();
    qsizetype size = 0;
    for (const auto& [name, value] : m_list)
        size += name.size() + value.size() + 2;
    return size;
}

char* PackedHeaders::write(char* at) const
{
    const auto put = [&at](const QByteArray& bytes) {
        std::memcpy(at, bytes.constData(), static_cast<std::size_t>(bytes.size()));
        at += bytes.size();
    };
    if (!m_block.isNull()) {
        put(m_block);
        return at;
    }
    for (const auto& [name, value] : m_list) {
        put(name);
        *at++ = '\0';
        put(value);
        *at++ = '\0';
    }
    return at;
}

void PackedHeaders::adopt(QByteArray block)
{
    m_block = std::move(block);
    m_list = Headers(); // not clear(): that would give a shared list a new buffer of its own
}

Headers PackedHeaders::list() const
{
    if (m_block.isNull())
        return m_list;
    Headers out;
    qsizetype at = 0;
    while (at < m_block.size()) {
        const qsizetype nameEnd = m_block.indexOf('\0', at);
        const qsizetype valueEnd = m_block.indexOf('\0', nameEnd + 1);
        out.append(
            {m_block.mid(at, nameEnd - at), m_block.mid(nameEnd + 1, valueEnd - nameEnd - 1)});
        at = valueEnd + 1;
    }
    return out;
}

QByteArray headerValue(const Headers& headers, const char* name)
{
    for (const auto& [key, value] : headers)
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return {};
}

const char* protocolName(protocol::WireProtocol protocol)
{
    switch (protocol) {
    case protocol::WireProtocol::SqsJson: return "sqs-json";
    case protocol::WireProtocol::SqsQuery: return "sqs-query";
    case protocol::WireProtocol::OciRest: return "oci-rest";
    case protocol::WireProtocol::Control: return "control";
    }
    return "?";
}

} // namespace inflight::traffic
