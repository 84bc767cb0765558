// AWS JSON 1.0 (spec §2.2, §2.4, §2.5). simdjson (Debian's libsimdjson-dev) parses request bodies
// into the member model the Query codec shares (sqs_request.h); nlohmann::json prints answers
// (sqs_output.h). No hand-written parser or printer. simdjson validates UTF-8 as it parses and
// reads a request several times faster than QJsonDocument (docs/PERFORMANCE.md). Integers stay
// integers, so epoch-millisecond timestamps print without an exponent.
#include "protocol/sqs_codec.h"

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

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

// The parsed body as the member tree SqsRequest reads.
SqsRequest::Members members(simdjson::dom::element element)
{
    using Members = SqsRequest::Members;
    switch (element.type()) {
    case simdjson::dom::element_type::OBJECT: {
        Members object = Members::object();
        for (const auto field : simdjson::dom::object(element))
            object[std::string(field.key)] = members(field.value);
        return object;
    }
    case simdjson::dom::element_type::ARRAY: {
        Members array = Members::array();
        for (const simdjson::dom::element item : simdjson::dom::array(element))
            array.push_back(members(item));
        return array;
    }
    case simdjson::dom::element_type::STRING: return std::string(std::string_view(element));
    case simdjson::dom::element_type::INT64: return std::int64_t(element);
    case simdjson::dom::element_type::UINT64: return std::uint64_t(element);
    case simdjson::dom::element_type::DOUBLE: return double(element);
    case simdjson::dom::element_type::BOOL: return bool(element);
    case simdjson::dom::element_type::NULL_VALUE: return nullptr;
    }
    return nullptr;
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
        return SqsRequest(action, SqsRequest::Members::object());
    // One parser per thread, reused: it keeps its buffers between requests.
    thread_local simdjson::dom::parser parser;
    simdjson::dom::element document;
    if (const auto failure
        = parser.parse(request.body.constData(), std::size_t(request.body.size())).get(document))
        return sqsWireError(ProtocolError::MalformedBody,
                            QStringLiteral("The request body is not a JSON object: %1.")
                                .arg(QString::fromUtf8(simdjson::error_message(failure))));
    if (!document.is_object())
        return sqsWireError(
            ProtocolError::MalformedBody,
            QStringLiteral("The request body is not a JSON object: not an object."));
    return SqsRequest(action, members(document));
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
