#pragma once

#include "protocol/http_types.h"

#include <QByteArray>

#include <llhttp.h>

#include <cstddef>
#include <functional>

namespace inflight::server {

// HTTP/1.1 requests out of a byte stream, one at a time, with llhttp: no socket, no timers, so a
// connection (HttpConnection) and a fuzz target drive it alike. Bounded: request line and headers
// at most kMaxHeaderBytes, a body at most protocol::kMaxRequestBody (refused from its
// Content-Length before a byte of it is read, or from the running size of a chunked body).
//
// What it enforces beyond llhttp's grammar, each answered by the caller in the request's protocol
// (protocol::httpError): an HTTP/1.1 request needs a `Host` header; an absolute-form target
// (`POST http://host:9324/20210201/…`) is routed by its path, as RFC 9112 §3.2.2 asks of a server.
class HttpRequestParser {
public:
    // Request line plus headers. Far above what any SDK sends (a few KiB with SigV4).
    static constexpr qsizetype kMaxHeaderBytes = 64 * 1024;

    enum class Status {
        NeedMore,  // everything given was taken; no complete request yet
        Request,   // a complete request: takeRequest(); the bytes after `consumed` are the next
        TooLarge,  // the body exceeds protocol::kMaxRequestBody
        Malformed, // not HTTP, or breaks a rule above: errorReason() says why
    };
    struct Step {
        Status status = Status::NeedMore;
        std::size_t consumed = 0; // bytes of `data` taken
    };

    HttpRequestParser();
    HttpRequestParser(const HttpRequestParser&) = delete;
    HttpRequestParser& operator=(const HttpRequestParser&) = delete;

    // Called once the headers of a request with a body that asks `Expect: 100-continue` are in.
    void setContinueHandler(std::function<void()> handler) { m_onContinue = std::move(handler); }

    // Parses up to one request from `data`. After TooLarge or Malformed the parser is spent:
    // reset() before giving it more.
    Step parse(const char* data, std::size_t length);
    // The complete request of the last Status::Request (moved out).
    protocol::HttpRequest takeRequest();
    // What is known of the request being parsed (method, path, headers so far): enough to answer a
    // refused or malformed one in its own protocol.
    const protocol::HttpRequest& partialRequest() const { return m_request; }
    // Whether the connection stays open after answering the last complete request.
    bool keepAlive() const { return m_keepAlive; }
    // Why the last Malformed: llhttp's reason or ours.
    QByteArray errorReason() const { return m_reason; }
    // True between the first byte of a request and its end: a client that stops here is slow,
    // not idle.
    bool inRequest() const { return m_inRequest; }
    // True between the first byte of a request and the end of its headers.
    bool inHeaders() const { return m_inHeaders; }
    // Ready for a new stream (after an error, or a connection reused).
    void reset();

private:
    int onMessageBegin();
    int onUrl(const char* at, size_t length);
    int onHeaderField(const char* at, size_t length);
    int onHeaderValue(const char* at, size_t length);
    int onHeaderValueComplete();
    int onHeadersComplete();
    int onBody(const char* at, size_t length);
    int onMessageComplete();
    bool addHeaderBytes(size_t length);
    void takeTarget();
    int fail(const char* reason);
    static const llhttp_settings_t& settings();

    llhttp_t m_parser;
    std::function<void()> m_onContinue;
    protocol::HttpRequest m_request; // the message being parsed
    QByteArray m_url;
    QByteArray m_field;
    QByteArray m_value;
    QByteArray m_reason;
    qsizetype m_headerBytes = 0;
    bool m_keepAlive = true;
    bool m_tooLarge = false;
    bool m_messageReady = false;
    bool m_inRequest = false;
    bool m_inHeaders = false;
};

} // namespace inflight::server
