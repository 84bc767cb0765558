#include "protocol/http_types.h"

#include "protocol/error_mapping.h"
#include "protocol/oci_rest.h"
#include "protocol/sqs_codec.h"
#include "text/ascii_case.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace inflight::protocol {

namespace {

QByteArray findHeader(const QList<QPair<QByteArray, QByteArray>>& headers, const QByteArray& name)
{
    if (name.isEmpty())
        return {};
    for (const auto& [key, value] : headers) {
        if (text::equalsIgnoringAsciiCase(viewOf(key), viewOf(name)))
            return value;
    }
    return {};
}

// `request` matters only to OCI, for its opc-request-id.
HttpResponse errorAnswer(WireProtocol protocol, const HttpRequest& request, ProtocolError error,
                         const QString& message)
{
    if (protocol == WireProtocol::OciRest)
        return oci::errorResponse(request, ociWireError(error, message));
    if (protocol == WireProtocol::Control) {
        // The SQS status of the same failure, with a code of the control API's own.
        const SqsWireError sqs = sqsWireError(error, message);
        const QByteArray code = error == ProtocolError::Forbidden ? QByteArrayLiteral("Forbidden")
            : error == ProtocolError::NotStored                   ? QByteArrayLiteral("NotStored")
            : error == ProtocolError::RequestEntityTooLarge ? QByteArrayLiteral("RequestTooLarge")
                                                            : QByteArrayLiteral("BadRequest");
        return controlError(sqs.status, code, message);
    }
    const SqsProtocol sqs
        = protocol == WireProtocol::SqsJson ? SqsProtocol::Json : SqsProtocol::Query;
    return SqsResponder(sqs, QString()).error(sqsWireError(error, message));
}

} // namespace

const char* reasonPhrase(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    default: return "Status";
    }
}

QByteArray HttpRequest::header(const QByteArray& name) const
{
    return findHeader(headers, name);
}

QByteArray HttpResponse::header(const QByteArray& name) const
{
    return findHeader(headers, name);
}

bool isControlPath(const QByteArray& path)
{
    return path.startsWith("/_inflight/");
}

HttpResponse controlError(int status, const QByteArray& code, const QString& message)
{
    QJsonObject error{{QStringLiteral("code"), QString::fromLatin1(code)},
                      {QStringLiteral("message"), message}};
    HttpResponse response;
    response.status = status;
    response.contentType = QByteArrayLiteral("application/json");
    response.body = QJsonDocument(QJsonObject{{QStringLiteral("error"), error}})
                        .toJson(QJsonDocument::Compact);
    return response;
}

WireProtocol wireProtocol(const HttpRequest& request)
{
    if (isControlPath(request.path))
        return WireProtocol::Control;
    if (oci::isOciPath(request.path))
        return WireProtocol::OciRest;
    return detectSqsProtocol(request) == SqsProtocol::Json ? WireProtocol::SqsJson
                                                           : WireProtocol::SqsQuery;
}

HttpResponse requestTooLarge(const HttpRequest& request)
{
    const QString message
        = QStringLiteral("The request body must not be larger than %1 bytes.").arg(kMaxRequestBody);
    return errorAnswer(wireProtocol(request), request, ProtocolError::RequestEntityTooLarge,
                       message);
}

HttpResponse malformedRequest(const HttpRequest& partial, const QString& reason)
{
    return errorAnswer(wireProtocol(partial), partial, ProtocolError::MalformedHttp,
                       QStringLiteral("The request is not valid HTTP/1.1: %1.").arg(reason));
}

HttpResponse forbidden(const HttpRequest& request, const QString& reason)
{
    return errorAnswer(wireProtocol(request), request, ProtocolError::Forbidden, reason);
}

HttpResponse notStored(WireProtocol protocol, const HttpResponse& unsent, const QString& reason)
{
    QString message = QStringLiteral("The workspace could not store this change, so it is not "
                                     "acknowledged.");
    if (!reason.isEmpty())
        message += QLatin1Char(' ') + reason;
    HttpRequest answering; // all an error answer takes from the request it answers
    if (protocol == WireProtocol::OciRest) {
        const QByteArray id = unsent.header(QByteArrayLiteral("opc-request-id"));
        if (!id.isEmpty())
            answering.headers.append({QByteArrayLiteral("opc-request-id"), id});
    }
    return errorAnswer(protocol, answering, ProtocolError::NotStored, message);
}

} // namespace inflight::protocol
