#include "protocol/sqs_codec.h"

#include <QUuid>

namespace inflight::protocol {

SqsProtocol detectSqsProtocol(const HttpRequest& request)
{
    if (!request.header(QByteArrayLiteral("X-Amz-Target")).isEmpty())
        return SqsProtocol::Json;
    const QByteArray contentType
        = request.header(QByteArrayLiteral("Content-Type")).trimmed().toLower();
    return contentType.startsWith("application/x-amz-json") ? SqsProtocol::Json
                                                            : SqsProtocol::Query;
}

QByteArray newRequestId()
{
    return QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
}

SqsResponder::SqsResponder(SqsProtocol protocol, QString action)
    : m_protocol(protocol), m_action(std::move(action))
{
}

HttpResponse SqsResponder::success(const QJsonObject& output) const
{
    return m_protocol == SqsProtocol::Json ? json::success(output)
                                           : query::success(m_action, output);
}

HttpResponse SqsResponder::error(const SqsWireError& error) const
{
    return m_protocol == SqsProtocol::Json ? json::error(error) : query::error(error);
}

HttpResponse SqsResponder::error(const engine::Error& error) const
{
    return this->error(sqsWireError(error));
}

} // namespace inflight::protocol
