// The Query protocol (spec §2.2–§2.5): form parameters in, XML out. query_parameters.cpp reads the
// form into the member tree, and XmlWriter (xml_writer.h) prints the XML as UTF-8 from the
// answer's members, the bytes QXmlStreamWriter printed without a QString per name and value
// (docs/PERFORMANCE.md).
#include "protocol/query_parameters.h"
#include "protocol/sqs_codec.h"
#include "protocol/utf8.h"

#include "protocol/receive_answer.h"
#include "protocol/xml_writer.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace inflight::protocol {

namespace query {

namespace {

constexpr std::string_view kNamespace = "http://queue.amazonaws.com/doc/2012-11-05/";

// ---- response: member tree → XML -----------------------------------------------------------

// The order real SQS prints members in (a message, a batch entry, lists before NextToken); other
// members follow in name order. Clients do not depend on it, people reading the XML do.
int memberRank(std::string_view name)
{
    static constexpr std::string_view kOrder[] = {
        "Id",
        "QueueUrl",
        "MessageId",
        "ReceiptHandle",
        "MD5OfBody",
        "Body",
        "Attributes",
        "MD5OfMessageBody",
        "MD5OfMessageAttributes",
        "MD5OfMessageSystemAttributes",
        "MessageAttributes",
        "SequenceNumber",
        "SenderFault",
        "Code",
        "Message",
        "StringValue",
        "BinaryValue",
        "DataType",
        "Messages",
        "QueueUrls",
        "queueUrls",
        "Successful",
        "Failed",
        "Results",
    };
    for (int i = 0; i < int(std::size(kOrder)); ++i) {
        if (kOrder[i] == name)
            return i;
    }
    return int(std::size(kOrder));
}

void writeScalar(XmlWriter& writer, std::string_view name, const Output& value)
{
    if (value.is_string())
        return writer.textElement(name, value.get_ref<const std::string&>());
    if (value.is_boolean())
        return writer.textElement(name, value.get<bool>() ? "true" : "false");
    if (value.is_number_integer()) {
        char digits[24];
        const auto end
            = std::to_chars(digits, digits + sizeof digits, value.get<std::int64_t>()).ptr;
        return writer.textElement(name, std::string_view(digits, std::size_t(end - digits)));
    }
    writer.textElement(name, value.dump());
}

void writeMembers(XmlWriter& writer, const Output& object, std::string_view action);

void writeValue(XmlWriter& writer, std::string_view name, const Output& value,
                std::string_view action)
{
    if (value.is_array()) { // flattened: one element per item, named like the list
        for (const Output& item : value)
            writeValue(writer, name, item, action);
    } else if (value.is_object()) {
        writer.startElement(name);
        writeMembers(writer, value, action);
        writer.endElement();
    } else {
        writeScalar(writer, name, value);
    }
}

// A map member: one element per key, `<Name>`/`<Key>` then `<Value>`.
void writeMap(XmlWriter& writer, std::string_view element, std::string_view keyField,
              const Output& map, std::string_view action)
{
    for (auto it = map.begin(); it != map.end(); ++it) {
        writer.startElement(element);
        writer.textElement(keyField, it.key());
        writeValue(writer, "Value", it.value(), action);
        writer.endElement();
    }
}

void writeMember(XmlWriter& writer, std::string_view name, const Output& value,
                 std::string_view action)
{
    if (name == "Attributes")
        return writeMap(writer, "Attribute", "Name", value, action);
    if (name == "MessageAttributes")
        return writeMap(writer, "MessageAttribute", "Name", value, action);
    if (name == "Tags")
        return writeMap(writer, "Tag", "Key", value, action);
    if (name == "QueueUrls" || name == "queueUrls")
        return writeValue(writer, "QueueUrl", value, action);
    if (name == "Messages")
        return writeValue(writer, "Message", value, action);
    if (name == "Successful")
        return writeValue(writer, std::string(action) + "ResultEntry", value, action);
    if (name == "Failed")
        return writeValue(writer, "BatchResultErrorEntry", value, action);
    if (name == "Results")
        return writeValue(writer, "ListMessageMoveTasksResultEntry", value, action);
    writeValue(writer, name, value, action);
}

void writeMembers(XmlWriter& writer, const Output& object, std::string_view action)
{
    // Keys come sorted by name; stable_sort keeps that within a rank.
    std::vector<std::pair<std::string_view, const Output*>> members;
    members.reserve(object.size());
    for (auto it = object.begin(); it != object.end(); ++it)
        members.emplace_back(it.key(), &it.value());
    std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) {
        return memberRank(a.first) < memberRank(b.first);
    });
    for (const auto& [name, value] : members)
        writeMember(writer, name, *value, action);
}

// Actions whose output has no members print no <Result> element.
bool hasResultElement(std::string_view action)
{
    static constexpr std::string_view kNoOutput[] = {
        "DeleteQueue",      "SetQueueAttributes", "PurgeQueue",
        "TagQueue",         "UntagQueue",         "AddPermission",
        "RemovePermission", "DeleteMessage",      "ChangeMessageVisibility",
    };
    return std::none_of(std::begin(kNoOutput), std::end(kNoOutput),
                        [&](std::string_view name) { return name == action; });
}

SqsWireError malformedQuery(const QString& reason)
{
    return sqsWireError(ProtocolError::MalformedQuery,
                        QStringLiteral("The query string is malformed: %1.").arg(reason));
}

HttpResponse xmlResponse(int status, const QByteArray& requestId, QByteArray body)
{
    HttpResponse response;
    response.status = status;
    response.contentType = QByteArrayLiteral("text/xml");
    response.headers.append({QByteArrayLiteral("x-amzn-RequestId"), requestId});
    response.body = std::move(body);
    return response;
}

// `<ActionResponse xmlns=…>`, `<ActionResult>` with what `writeResult` writes in it when
// `hasResult`, and `<ResponseMetadata>`.
template <class WriteResult>
HttpResponse answer(std::string_view action, bool hasResult, WriteResult writeResult,
                    qsizetype expectedSize = 512)
{
    const QByteArray requestId = newRequestId();
    QByteArray body;
    body.reserve(expectedSize);
    XmlWriter writer(body);
    writer.startDocument();
    writer.startElement(std::string(action) + "Response");
    writer.attribute("xmlns", kNamespace);
    if (hasResult) {
        writer.startElement(std::string(action) + "Result");
        writeResult(writer);
        writer.endElement();
    }
    writer.startElement("ResponseMetadata");
    writer.textElement("RequestId",
                       std::string_view(requestId.constData(), std::size_t(requestId.size())));
    writer.endDocument();
    return xmlResponse(200, requestId, std::move(body));
}

} // namespace

DecodedSqsRequest decodeRequest(const HttpRequest& request)
{
    const auto view = [](const QByteArray& bytes) {
        return std::string_view(bytes.constData(), std::size_t(bytes.size()));
    };
    engine::Result<QueryParameters, QueryFault> parameters = readQueryParameters(
        view(request.query), request.method != "GET" ? view(request.body) : std::string_view());
    if (!parameters) {
        switch (parameters.error()) {
        case QueryFault::NotUtf8:
            return malformedQuery(QStringLiteral("a parameter name or value is not UTF-8 once "
                                                 "percent-decoded"));
        case QueryFault::TooManyParts:
            return malformedQuery(
                QStringLiteral("a parameter name has more than %1 parts separated by '.'")
                    .arg(kMaxNameSegments));
        }
    }
    if (parameters->action.empty())
        return sqsWireError(ProtocolError::MissingAction,
                            QStringLiteral("The request must contain the parameter Action."));
    return SqsRequest(textOf(parameters->action), std::move(parameters->tree));
}

HttpResponse success(const QString& action, const Output& output)
{
    const QByteArray actionName = action.toUtf8();
    const std::string_view name(actionName.constData(), std::size_t(actionName.size()));
    return answer(name, hasResultElement(name) || !output.empty(),
                  [&](XmlWriter& writer) { writeMembers(writer, output, name); });
}

HttpResponse success(const engine::ReceiveResult& result)
{
    // The envelope, and about 300 bytes of elements, digest, id and receipt a message besides
    // its body.
    qsizetype size = 400;
    for (const engine::ReceivedMessage& message : result.messages)
        size += qsizetype(message.body.size()) + 320;
    return answer(
        "ReceiveMessage", true, [&](XmlWriter& writer) { writeReceiveXml(writer, result); }, size);
}

HttpResponse success(const QString& action, const IdBatch& batch)
{
    const QByteArray actionName = action.toUtf8();
    const std::string_view name(actionName.constData(), std::size_t(actionName.size()));
    return answer(name, true, [&](XmlWriter& writer) { writeIdBatchXml(writer, batch, name); });
}

HttpResponse success(const SendAnswer& sent)
{
    return answer("SendMessage", true, [&](XmlWriter& writer) { writeSendXml(writer, sent); });
}

HttpResponse error(const SqsWireError& error)
{
    const QByteArray requestId = newRequestId();
    const auto view = [](const QByteArray& bytes) {
        return std::string_view(bytes.constData(), std::size_t(bytes.size()));
    };
    QByteArray body;
    XmlWriter writer(body);
    writer.startDocument();
    writer.startElement("ErrorResponse");
    writer.attribute("xmlns", kNamespace);
    writer.startElement("Error");
    writer.textElement("Type", error.fault());
    writer.textElement("Code", view(error.queryCode));
    writer.textElement("Message", view(error.message.toUtf8()));
    writer.emptyElement("Detail");
    writer.endElement();
    writer.textElement("RequestId", view(requestId));
    writer.endDocument();
    return xmlResponse(error.status, requestId, std::move(body));
}

} // namespace query

} // namespace inflight::protocol
