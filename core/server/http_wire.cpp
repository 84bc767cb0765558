#include "server/http_wire.h"

#include "text/ascii_case.h"

#include <charconv>
#include <cstring>
#include <string_view>

namespace inflight::server {

namespace {

bool isFramingHeader(const QByteArray& name)
{
    // We write these ourselves; a copy from the codec would contradict them.
    const std::string_view header = protocol::viewOf(name);
    return text::equalsIgnoringAsciiCase(header, "content-length")
        || text::equalsIgnoringAsciiCase(header, "content-type")
        || text::equalsIgnoringAsciiCase(header, "connection")
        || text::equalsIgnoringAsciiCase(header, "transfer-encoding");
}

// Writes pieces into room already made in the buffer.
struct HeadCursor {
    char* at;

    void put(std::string_view text)
    {
        if (text.empty())
            return; // an empty view's data may be null, which memcpy may not be given
        std::memcpy(at, text.data(), text.size());
        at += text.size();
    }
    void putBytes(const QByteArray& bytes)
    {
        put(std::string_view(bytes.constData(), bytes.size()));
    }
};

} // namespace

// The buffer is grown once, to what the head can take at most, the pieces copied in and the rest
// cut off: an append is an out-of-line call that checks for room each time, and a head is a dozen
// pieces.
void appendResponseHead(QByteArray& out, const protocol::HttpResponse& response, bool keepAlive)
{
    char status[24];
    const std::string_view statusText(
        status,
        std::size_t(std::to_chars(status, status + sizeof status, response.status).ptr - status));
    char length[24];
    const std::string_view lengthText(
        length,
        std::size_t(std::to_chars(length, length + sizeof length, response.body.size()).ptr
                    - length));
    const std::string_view reason = protocol::reasonPhrase(response.status);
    constexpr std::string_view kContentType = "Content-Type: ";
    constexpr std::string_view kContentLength = "Content-Length: ";
    constexpr std::string_view kClose = "Connection: close\r\n";

    // At most: every header counted, framing ones too (they are left out below).
    std::size_t most = 9 + statusText.size() + 1 + reason.size() + 2;
    for (const auto& [name, value] : response.headers)
        most += std::size_t(name.size() + value.size()) + 4;
    most += kContentType.size() + std::size_t(response.contentType.size()) + 2;
    most += kContentLength.size() + lengthText.size() + 2 + kClose.size() + 2;

    const qsizetype start = out.size();
    out.resize(start + qsizetype(most));
    HeadCursor head{out.data() + start};
    head.put("HTTP/1.1 ");
    head.put(statusText);
    head.put(" ");
    head.put(reason);
    head.put("\r\n");
    for (const auto& [name, value] : response.headers) {
        if (isFramingHeader(name))
            continue;
        head.putBytes(name);
        head.put(": ");
        head.putBytes(value);
        head.put("\r\n");
    }
    if (!response.contentType.isEmpty()) {
        head.put(kContentType);
        head.putBytes(response.contentType);
        head.put("\r\n");
    }
    head.put(kContentLength);
    head.put(lengthText);
    head.put("\r\n");
    if (!keepAlive)
        head.put(kClose);
    head.put("\r\n");
    out.resize(head.at - out.constData()); // shrinking keeps the room: nothing is allocated
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
