// AWS JSON 1.0 (spec §2.2, §2.4, §2.5). QJsonDocument parses requests into the member model the
// Query codec shares (sqs_request.h); nlohmann::json prints answers (sqs_output.h). No hand-written
// parser or printer. Integers stay integers, so epoch-millisecond timestamps print without an
// exponent.
#include "protocol/sqs_codec.h"

#include <QJsonDocument>
#include <QJsonParseError>

namespace inflight::protocol {

namespace json {

namespace {

const QByteArray kContentType = QByteArrayLiteral("application/x-amz-json-1.0");
const QByteArray kTargetPrefix = QByteArrayLiteral("AmazonSQS.");

HttpResponse respond(int status, const Output& body)
{
    HttpResponse response;
    response.status = status;
    response.contentType = kContentType;
    response.headers.append({QByteArrayLiteral("x-amzn-RequestId"), newRequestId()});
    // Text that is not UTF-8 cannot reach here (the engine refuses it); were it to, it prints as
    // U+FFFD rather than failing the answer.
    response.body = QByteArray::fromStdString(
        body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    return response;
}

} // namespace

DecodedSqsRequest decodeRequest(const HttpRequest& request)
{
    const QByteArray target = request.header(QByteArrayLiteral("X-Amz-Target"));
    if (!target.startsWith(kTargetPrefix))
        return sqsWireError(
            ProtocolError::UnknownOperation,
            QStringLiteral("The requested operation %1 is not recognized by the service.")
                .arg(QString::fromLatin1(target)));
    const QString action = QString::fromLatin1(target.mid(kTargetPrefix.size()));
    if (request.body.trimmed().isEmpty())
        return SqsRequest(action, {});
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(request.body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return sqsWireError(ProtocolError::MalformedBody,
                            QStringLiteral("The request body is not a JSON object: %1.")
                                .arg(parseError.error != QJsonParseError::NoError
                                         ? parseError.errorString()
                                         : QStringLiteral("not an object")));
    return SqsRequest(action, document.object());
}

HttpResponse success(const Output& output)
{
    return respond(200, output);
}

HttpResponse error(const SqsWireError& error)
{
    const Output body{{"__type", "com.amazonaws.sqs#" + error.jsonShape.toStdString()},
                      {"message", error.message.toStdString()}};
    HttpResponse response = respond(error.status, body);
    // botocore reports the header's code and fault as the error's Code and Type (§2.5).
    response.headers.append(
        {QByteArrayLiteral("x-amzn-query-error"), error.queryCode + ';' + error.fault()});
    return response;
}

} // namespace json

} // namespace inflight::protocol
