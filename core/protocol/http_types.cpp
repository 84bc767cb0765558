#include "protocol/http_types.h"

#include "protocol/error_mapping.h"
#include "protocol/oci_rest.h"
#include "protocol/sqs_codec.h"

namespace inflight::protocol {

namespace {

QByteArray findHeader(const QList<QPair<QByteArray, QByteArray>>& headers, const QByteArray& name)
{
    for (const auto& [key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

} // namespace

QByteArray HttpRequest::header(const QByteArray& name) const
{
    return findHeader(headers, name);
}

QByteArray HttpResponse::header(const QByteArray& name) const
{
    return findHeader(headers, name);
}

HttpResponse requestTooLarge(const HttpRequest& request)
{
    const QString message
        = QStringLiteral("The request body must not be larger than %1 bytes.").arg(kMaxRequestBody);
    if (oci::isOciPath(request.path))
        return oci::errorResponse(request,
                                  ociWireError(ProtocolError::RequestEntityTooLarge, message));
    return SqsResponder(detectSqsProtocol(request), QString())
        .error(sqsWireError(ProtocolError::RequestEntityTooLarge, message));
}

} // namespace inflight::protocol
