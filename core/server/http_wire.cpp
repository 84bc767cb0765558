#include "server/http_wire.h"

namespace inflight::server {

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 100: return QByteArrayLiteral("Continue");
    case 200: return QByteArrayLiteral("OK");
    case 204: return QByteArrayLiteral("No Content");
    case 400: return QByteArrayLiteral("Bad Request");
    case 401: return QByteArrayLiteral("Unauthorized");
    case 403: return QByteArrayLiteral("Forbidden");
    case 404: return QByteArrayLiteral("Not Found");
    case 405: return QByteArrayLiteral("Method Not Allowed");
    case 409: return QByteArrayLiteral("Conflict");
    case 413: return QByteArrayLiteral("Payload Too Large");
    case 429: return QByteArrayLiteral("Too Many Requests");
    case 500: return QByteArrayLiteral("Internal Server Error");
    case 501: return QByteArrayLiteral("Not Implemented");
    case 503: return QByteArrayLiteral("Service Unavailable");
    default: return QByteArrayLiteral("Status");
    }
}

bool isFramingHeader(const QByteArray& name)
{
    // We write these ourselves; a copy from the codec would contradict them.
    return name.compare("content-length", Qt::CaseInsensitive) == 0
        || name.compare("content-type", Qt::CaseInsensitive) == 0
        || name.compare("connection", Qt::CaseInsensitive) == 0
        || name.compare("transfer-encoding", Qt::CaseInsensitive) == 0;
}

} // namespace

QByteArray serializeResponse(const protocol::HttpResponse& response, bool keepAlive)
{
    QByteArray out;
    qsizetype headerBytes = 0;
    for (const auto& [name, value] : response.headers)
        headerBytes += name.size() + value.size() + 4;
    out.reserve(128 + headerBytes + response.contentType.size() + response.body.size());

    out += "HTTP/1.1 ";
    out += QByteArray::number(response.status);
    out += ' ';
    out += reasonPhrase(response.status);
    out += "\r\n";
    for (const auto& [name, value] : response.headers) {
        if (isFramingHeader(name))
            continue;
        out += name;
        out += ": ";
        out += value;
        out += "\r\n";
    }
    if (!response.contentType.isEmpty()) {
        out += "Content-Type: ";
        out += response.contentType;
        out += "\r\n";
    }
    out += "Content-Length: ";
    out += QByteArray::number(response.body.size());
    out += "\r\n";
    if (!keepAlive)
        out += "Connection: close\r\n";
    out += "\r\n";
    out += response.body;
    return out;
}

protocol::HttpResponse malformedRequest(const QByteArray& reason)
{
    protocol::HttpResponse response;
    response.status = 400;
    response.contentType = QByteArrayLiteral("text/plain; charset=utf-8");
    response.body = QByteArrayLiteral("Malformed HTTP request: ") + reason + '\n';
    return response;
}

QByteArray continueResponse()
{
    return QByteArrayLiteral("HTTP/1.1 100 Continue\r\n\r\n");
}

} // namespace inflight::server
