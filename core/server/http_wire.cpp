#include "server/http_wire.h"

#include "protocol/ascii_case.h"

#include <charconv>

namespace inflight::server {

namespace {

bool isFramingHeader(const QByteArray& name)
{
    // We write these ourselves; a copy from the codec would contradict them.
    return protocol::equalsIgnoringAsciiCase(name, "content-length")
        || protocol::equalsIgnoringAsciiCase(name, "content-type")
        || protocol::equalsIgnoringAsciiCase(name, "connection")
        || protocol::equalsIgnoringAsciiCase(name, "transfer-encoding");
}

} // namespace

void appendResponseHead(QByteArray& out, const protocol::HttpResponse& response, bool keepAlive)
{
    char number[24];
    out += "HTTP/1.1 ";
    out.append(number, std::to_chars(number, number + sizeof number, response.status).ptr - number);
    out += ' ';
    out += protocol::reasonPhrase(response.status);
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
    out.append(number,
               std::to_chars(number, number + sizeof number, response.body.size()).ptr - number);
    out += "\r\n";
    if (!keepAlive)
        out += "Connection: close\r\n";
    out += "\r\n";
}

QByteArray serializeResponse(const protocol::HttpResponse& response, bool keepAlive)
{
    QByteArray out;
    qsizetype headerBytes = 0;
    for (const auto& [name, value] : response.headers)
        headerBytes += name.size() + value.size() + 4;
    out.reserve(128 + headerBytes + response.contentType.size() + response.body.size());
    appendResponseHead(out, response, keepAlive);
    out += response.body;
    return out;
}

QByteArray tooManyConnections()
{
    protocol::HttpResponse response;
    response.status = 503;
    response.contentType = QByteArrayLiteral("text/plain; charset=utf-8");
    response.headers.append({QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1")});
    response.body
        = QByteArrayLiteral("Inflight has as many connections open as it may; try again.\n");
    return serializeResponse(response, false);
}

QByteArray continueResponse()
{
    return QByteArrayLiteral("HTTP/1.1 100 Continue\r\n\r\n");
}

} // namespace inflight::server
