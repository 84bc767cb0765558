#include "traffic/traffic_json.h"

#include "protocol/http_types.h"

#include <QDateTime>
#include <QStringDecoder>
#include <QUrl>

namespace inflight::traffic {

namespace {

using Json = nlohmann::json;

std::string text(const QString& s)
{
    return s.toStdString();
}

std::string bytes(const QByteArray& b)
{
    return b.toStdString();
}

bool isUtf8(const QByteArray& body)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    [[maybe_unused]] const QString decoded = decoder.decode(body);
    return !decoder.hasError();
}

// `member` = the body as text, or base64 with "encoding": "base64" beside it.
void putBody(Json& object, const char* member, const QByteArray& body)
{
    if (isUtf8(body)) {
        object[member] = bytes(body);
    } else {
        object[member] = bytes(body.toBase64());
        object["encoding"] = "base64";
    }
}

Json headerList(const Headers& headers)
{
    Json out = Json::array();
    for (const auto& [name, value] : headers)
        out.push_back({{"name", bytes(name)}, {"value", bytes(value)}});
    return out;
}

Json clientIdentityJson(const ClientIdentity& client)
{
    return {{"key", text(client.key)},
            {"accessKeyId", text(client.accessKeyId)},
            {"sdk", text(client.sdk)},
            {"sdkVersion", text(client.sdkVersion)},
            {"host", text(client.host)}};
}

std::string isoTime(std::int64_t epochMs)
{
    return QDateTime::fromMSecsSinceEpoch(epochMs, Qt::UTC)
        .toString(Qt::ISODateWithMs)
        .toStdString();
}

// HAR wants the phrase the answer carried; a waiting row (status 0) has none.
std::string statusText(int status)
{
    return status == 0 ? std::string() : protocol::reasonPhrase(status);
}

Json harEntry(const TrafficRecord& r)
{
    const QByteArray host = headerValue(r.requestHeaders, "Host");
    QByteArray url = "http://" + (host.isEmpty() ? QByteArrayLiteral("127.0.0.1") : host) + r.path;
    if (!r.query.isEmpty())
        url += '?' + r.query;
    Json queryString = Json::array();
    for (const QByteArray& pair : r.query.split('&')) {
        if (pair.isEmpty())
            continue;
        const qsizetype equals = pair.indexOf('=');
        auto decode = [](const QByteArray& part) {
            QByteArray plus = part;
            plus.replace('+', ' ');
            return QUrl::fromPercentEncoding(plus).toStdString();
        };
        queryString.push_back(
            {{"name", decode(pair.left(equals))},
             {"value", equals < 0 ? std::string() : decode(pair.mid(equals + 1))}});
    }
    Json request = {{"method", bytes(r.method)},
                    {"url", bytes(url)},
                    {"httpVersion", "HTTP/1.1"},
                    {"cookies", Json::array()},
                    {"headers", headerList(r.requestHeaders)},
                    {"queryString", queryString},
                    {"headersSize", -1},
                    {"bodySize", r.requestBodySize}};
    if (!r.requestBody.isEmpty() || r.requestBodySize > 0) {
        Json post = {{"mimeType", bytes(r.requestContentType)}, {"params", Json::array()}};
        putBody(post, "text", r.requestBody);
        if (r.requestTruncated)
            post["comment"] = "truncated by the traffic log's per-request cap";
        request["postData"] = std::move(post);
    }
    Json content = {{"size", r.responseBodySize}, {"mimeType", bytes(r.responseContentType)}};
    putBody(content, "text", r.responseBody);
    if (r.responseTruncated)
        content["comment"] = "truncated by the traffic log's per-request cap";
    Json response = {{"status", r.status},
                     {"statusText", statusText(r.status)},
                     {"httpVersion", "HTTP/1.1"},
                     {"cookies", Json::array()},
                     {"headers", headerList(r.responseHeaders)},
                     {"content", std::move(content)},
                     {"redirectURL", ""},
                     {"headersSize", -1},
                     {"bodySize", r.status == 0 ? -1 : r.responseBodySize}};
    const double waitMs = static_cast<double>(r.latencyUs) / 1000.0;
    return {{"startedDateTime", isoTime(r.wallTimeMs)},
            {"time", waitMs},
            {"request", std::move(request)},
            {"response", std::move(response)},
            {"cache", Json::object()},
            {"timings", {{"send", 0}, {"wait", waitMs}, {"receive", 0}}},
            {"_inflight",
             {{"cursor", r.cursor},
              {"operation", text(r.operation)},
              {"queue", text(r.queue)},
              {"client", clientIdentityJson(r.client)},
              {"errorCode", text(r.errorCode)},
              {"outcome", text(r.outcome)},
              {"staleReceipt", r.staleReceipt},
              {"waiting", r.waiting}}},
            {"_explanation", text(r.explanation)}};
}

} // namespace

Json recordJson(const TrafficRecord& r)
{
    Json request = {{"headers", headerList(r.requestHeaders)},
                    {"bodySize", r.requestBodySize},
                    {"truncated", r.requestTruncated}};
    putBody(request, "body", r.requestBody);
    Json response = {{"headers", headerList(r.responseHeaders)},
                     {"bodySize", r.responseBodySize},
                     {"truncated", r.responseTruncated}};
    putBody(response, "body", r.responseBody);
    return {{"cursor", r.cursor},
            {"time", r.wallTimeMs},
            {"engineTime", r.engineTimeMs},
            {"client", clientIdentityJson(r.client)},
            {"address", text(r.address)},
            {"userAgent", text(r.userAgent)},
            {"protocol", protocolName(r.protocol)},
            {"method", bytes(r.method)},
            {"path", bytes(r.path)},
            {"operation", text(r.operation)},
            {"queue", text(r.queue)},
            {"status", r.status},
            {"errorCode", text(r.errorCode)},
            {"errorMessage", text(r.errorMessage)},
            {"latencyUs", r.latencyUs},
            {"requestId", bytes(r.requestId)},
            {"outcome", text(r.outcome)},
            {"explanation", text(r.explanation)},
            {"staleReceipt", r.staleReceipt},
            {"waiting", r.waiting},
            {"request", std::move(request)},
            {"response", std::move(response)}};
}

Json clientJson(const ClientStats& c)
{
    Json out = clientIdentityJson(c.identity);
    out["address"] = text(c.address);
    out["firstSeen"] = c.firstSeenMs;
    out["lastSeen"] = c.lastSeenMs;
    out["requests"] = c.requests;
    out["sends"] = c.sends;
    out["receives"] = c.receives;
    out["emptyReceives"] = c.emptyReceives;
    out["deletes"] = c.deletes;
    out["errors"] = c.errors;
    out["waitingPolls"] = c.waitingPolls;
    return out;
}

Json harDocument(const std::vector<TrafficRecord>& records, const QString& version)
{
    Json entries = Json::array();
    for (const TrafficRecord& record : records)
        entries.push_back(harEntry(record));
    return {{"log",
             {{"version", "1.2"},
              {"creator", {{"name", "Inflight"}, {"version", text(version)}}},
              {"pages", Json::array()},
              {"entries", std::move(entries)}}}};
}

} // namespace inflight::traffic
