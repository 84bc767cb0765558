#include "traffic/traffic_capture.h"

#include "traffic/client_identity.h"

#include <nlohmann/json.hpp>

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
        if (summary.succeeded > 0)
            return QStringLiteral("received %1 of max %2")
                .arg(summary.succeeded)
                .arg(summary.maxMessages);
        if (summary.waitSeconds > 0)
            return QStringLiteral("empty after a %1 s long poll").arg(summary.waitSeconds);
        return QStringLiteral("empty");
    }
    const QString done = verb(op);
    if (done.isEmpty() || summary.succeeded < 0)
        return QStringLiteral("ok");
    QString text = QStringLiteral("%1 %2").arg(done).arg(summary.succeeded);
    if (summary.failed > 0) {
        text += QStringLiteral(", %1 failed").arg(summary.failed);
        if (!summary.firstFailure.isEmpty())
            text += QStringLiteral(": ") + QString::fromUtf8(summary.firstFailure);
    }
    return text;
}

TrafficRecord arrival(const protocol::HttpRequest& request, const ClientIdentities::Known& client,
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
    record.method = request.method;
    record.path = request.path;
    record.query = request.query;
    record.operation = summary.operation;
    record.queue = summary.queue;
    record.waiting = waiting;
    if (waiting)
        record.outcome = summary.waitSeconds > 0
            ? QStringLiteral("waiting up to %1 s").arg(summary.waitSeconds)
            : QStringLiteral("waiting");
    record.requestHeaders = request.headers;
    record.requestContentType = request.header(QByteArrayLiteral("Content-Type"));
    record.requestBody = request.body; // shared until the log cuts it
    record.requestBodySize = request.body.size();
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
    return arrival(request, client, request.origin, summary, wallTimeMs, engineTimeMs, waiting);
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
    record.requestId = QString::fromLatin1(id);
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

PackedHeaders::PackedHeaders(const Headers& headers)
{
    qsizetype size = 0;
    for (const auto& [name, value] : headers)
        size += name.size() + value.size() + 2;
    m_block.reserve(size);
    for (const auto& [name, value] : headers) {
        m_block.append(name).append('\0');
        m_block.append(value).append('\0');
    }
}

Headers PackedHeaders::list() const
{
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
