#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>
#include <QString>

#include <cstdint>
#include <string_view>

namespace inflight::protocol {

// One HTTP request as the server received it. The codecs never see a socket.
struct HttpRequest {
    QByteArray method; // "GET", "POST", ...
    QByteArray path;   // raw (not percent-decoded) path: "/000000000000/orders"
    QByteArray query;  // raw query string without '?'
    QList<QPair<QByteArray, QByteArray>> headers; // names as received
    QByteArray body;
    QString origin; // client address "127.0.0.1:53412": the engine Origin of every call it makes

    // The first header of that name, compared case-insensitively; empty if absent.
    QByteArray header(const QByteArray& name) const;
};

struct HttpResponse {
    int status = 200;
    QByteArray contentType; // empty: no body
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;

    // The first header of that name, compared case-insensitively; empty if absent.
    QByteArray header(const QByteArray& name) const;
};

// Qt's bytes as the text helpers (core/text) take them, without a copy.
inline std::string_view viewOf(QByteArrayView bytes)
{
    return {bytes.data(), std::size_t(bytes.size())};
}

// The reason phrase of an HTTP status ("Not Found"); "Status" for one we never send.
const char* reasonPhrase(int status);

// The largest request body the server accepts. SQS caps a request at 1 MiB of message payload
// (SendMessageBatch); form and JSON encoding of binary attributes need headroom, hence 2 MiB.
inline constexpr qsizetype kMaxRequestBody = 2 * 1024 * 1024;

// The protocol a request speaks, decided from its path and headers alone as Endpoint::handle
// decides it: Inflight's own control API under /_inflight/ (JSON in and out, core/control), OCI
// Queue REST under /20210201/, else SQS AWS JSON 1.0 or Query (spec §2.2). Small enough to keep
// with every answer in flight.
enum class WireProtocol : std::uint8_t { SqsJson, SqsQuery, OciRest, Control };
WireProtocol wireProtocol(const HttpRequest& request);

// The reserved prefix of the control API: nothing an SQS or OCI client sends starts with it.
bool isControlPath(const QByteArray& path);

// A control API error: `{"error": {"code": …, "message": …}}` with that status.
HttpResponse controlError(int status, const QByteArray& code, const QString& message);

// The answer to a request whose body exceeds kMaxRequestBody, in the request's own protocol (SQS
// JSON, Query or OCI REST, decided from the headers and path alone). SQS has no modelled error for
// this, so we answer HTTP 413 with the code `RequestEntityTooLarge` (JSON `__type` suffix and
// `x-amzn-query-error` code, Query `<Code>`, OCI `code`): SDKs surface the status and code as a
// client error without retrying.
HttpResponse requestTooLarge(const HttpRequest& request);

// The answer to bytes that break HTTP/1.1 (llhttp's grammar, a missing Host, headers over their
// limit), in the protocol `partial` — what was parsed of the request before it broke — shows:
// 400 `MalformedHttpRequest` for SQS (JSON shape MalformedHttpRequestException), 400
// `CannotParseRequest` for OCI (its API's code for a request it cannot parse). `reason` says what
// broke.
HttpResponse malformedRequest(const HttpRequest& partial, const QString& reason);

// A request refused before it reaches the engine (request_guard.h), in its own protocol: SQS 403
// `AccessDenied` (JSON AccessDeniedException), OCI 401 `NotAuthenticated`.
HttpResponse forbidden(const HttpRequest& request, const QString& reason);

// What a client gets instead of `unsent`, the answer to its request of `protocol`, when the
// workspace could not store the changes made up to that request: nothing unstored is acknowledged.
// HTTP 500 — SQS `InternalError` as a Receiver fault (JSON `__type` suffix and
// `x-amzn-query-error`, Query `<Code>` and `<Type>`), OCI `InternalServerError` with unsent's
// opc-request-id — which SDKs retry. The message says so, followed by `reason` (the store's, for
// the user) when there is one.
HttpResponse notStored(WireProtocol protocol, const HttpResponse& unsent, const QString& reason);

} // namespace inflight::protocol
