// AWS JSON 1.0 (spec §2.2, §2.4, §2.5). simdjson (Debian's libsimdjson-dev) parses request bodies
// into the member model the Query codec shares (sqs_request.h); answers are nlohmann::json members
// (sqs_output.h), printed by appendJson (json_writer.h) to the bytes nlohmann::json prints. No
// hand-written parser. simdjson validates UTF-8 as it parses and reads a request several times
// faster than QJsonDocument (docs/PERFORMANCE.md). Integers stay
// integers, so epoch-millisecond timestamps print without an exponent. A body is refused as a
// SerializationException, as AWS's deserializer refuses it, when it is not JSON, nests too deep,
// or gives a member of the API a JSON type that does not fit the member's shape.
#include "protocol/json_writer.h"
#include "protocol/receive_answer.h"
#include "protocol/sqs_codec.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace inflight::protocol {

namespace json {

namespace {

using Members = SqsRequest::Members;

const QByteArray kContentType = QByteArrayLiteral("application/x-amz-json-1.0");
const QByteArray kTargetPrefix = QByteArrayLiteral("AmazonSQS.");

// The deepest request of the API (body → Entries → entry → MessageAttributes → value →
// StringListValues) nests 6 levels; 32 leaves room for members we do not read and bounds the
// recursion of members() below. simdjson checks it as it parses.
constexpr std::size_t kMaxJsonDepth = 32;

HttpResponse answer(int status)
{
    HttpResponse response;
    response.status = status;
    response.contentType = kContentType;
    response.headers.append({QByteArrayLiteral("x-amzn-RequestId"), newRequestId()});
    return response;
}

HttpResponse respond(int status, const Output& body)
{
    HttpResponse response = answer(status);
    // Text that is not UTF-8 cannot reach here (the engine refuses it); were it to, it prints as
    // U+FFFD rather than failing the answer.
    appendJson(response.body, body);
    return response;
}

// The parsed body as the member tree SqsRequest reads. Recurses as deep as the document nests:
// at most kMaxJsonDepth.
Members members(simdjson::dom::element element)
{
    switch (element.type()) {
    case simdjson::dom::element_type::OBJECT: {
        Members object = Members::object();
        // Into the map itself: no null member made first and then assigned. A repeated key keeps
        // its last value, as JSON parsers commonly do.
        auto& fields = object.get_ref<Members::object_t&>();
        for (const auto field : simdjson::dom::object(element))
            fields.insert_or_assign(std::string(field.key), members(field.value));
        return object;
    }
    case simdjson::dom::element_type::ARRAY: {
        Members array = Members::array();
        // Room for the items at once (a batch's ten entries grew the vector five times). The
        // count is exact below simdjson's 2^24 - 1 and a body is at most 2 MiB; the cap keeps a
        // miscount from reserving much.
        const simdjson::dom::array items(element);
        auto& list = array.get_ref<Members::array_t&>();
        list.reserve(std::min<std::size_t>(items.size(), 1024));
        for (const simdjson::dom::element item : items)
            list.push_back(members(item));
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

// ---- member shapes (§2.2: strings are strings, integers numbers, maps objects, lists arrays) --

enum class Shape {
    String,
    Integer,       // a number, or a decimal string (SqsRequest::integer reads both)
    StringList,    // an array of strings
    StringMap,     // an object of strings
    StructureList, // an array of objects whose members have shapes of their own (batch Entries)
    StructureMap,  // an object of such objects (MessageAttributes)
};

struct MemberShape {
    std::string_view name;
    Shape shape;
};

// Every input member of the API, batch entries' and MessageAttributeValue's included: SQS gives a
// name one shape wherever it appears. Members not listed are not the API's and are not looked at.
constexpr MemberShape kMemberShapes[] = {
    {"QueueUrl", Shape::String},
    {"QueueName", Shape::String},
    {"QueueOwnerAWSAccountId", Shape::String},
    {"QueueNamePrefix", Shape::String},
    {"NextToken", Shape::String},
    {"MaxResults", Shape::Integer},
    {"Attributes", Shape::StringMap},
    {"tags", Shape::StringMap},
    {"Tags", Shape::StringMap},
    {"AttributeNames", Shape::StringList},
    {"TagKeys", Shape::StringList},
    {"Label", Shape::String},
    {"AWSAccountIds", Shape::StringList},
    {"Actions", Shape::StringList},
    {"MessageBody", Shape::String},
    {"DelaySeconds", Shape::Integer},
    {"MessageAttributes", Shape::StructureMap},
    {"MessageSystemAttributes", Shape::StructureMap},
    {"MessageDeduplicationId", Shape::String},
    {"MessageGroupId", Shape::String},
    {"Entries", Shape::StructureList},
    {"Id", Shape::String},
    {"ReceiptHandle", Shape::String},
    {"VisibilityTimeout", Shape::Integer},
    {"MaxNumberOfMessages", Shape::Integer},
    {"WaitTimeSeconds", Shape::Integer},
    {"MessageSystemAttributeNames", Shape::StringList},
    {"MessageAttributeNames", Shape::StringList},
    {"ReceiveRequestAttemptId", Shape::String},
    {"SourceArn", Shape::String},
    {"DestinationArn", Shape::String},
    {"MaxNumberOfMessagesPerSecond", Shape::Integer},
    {"TaskHandle", Shape::String},
    // MessageAttributeValue / MessageSystemAttributeValue
    {"DataType", Shape::String},
    {"StringValue", Shape::String},
    {"BinaryValue", Shape::String}, // base64
    {"StringListValues", Shape::StringList},
    {"BinaryListValues", Shape::StringList},
};

std::optional<Shape> shapeOf(std::string_view member)
{
    for (const MemberShape& entry : kMemberShapes) {
        if (entry.name == member)
            return entry.shape;
    }
    return std::nullopt;
}

const char* jsonTypeName(const Members& value)
{
    switch (value.type()) {
    case Members::value_t::string: return "a string";
    case Members::value_t::boolean: return "a boolean";
    case Members::value_t::number_integer:
    case Members::value_t::number_unsigned:
    case Members::value_t::number_float: return "a number";
    case Members::value_t::object: return "an object";
    case Members::value_t::array: return "an array";
    default: return "null";
    }
}

// Where a member sits in the body: its key in an object or its index in an array, below its
// parent (none: a member of the body itself). Written out only for the error of a mismatch.
struct MemberPath {
    const MemberPath* parent = nullptr;
    std::string_view key; // unless an array's item
    std::size_t index = 0;
    bool isItem = false;
};

// "Entries[2].MessageAttributes.color"
std::string pathText(const MemberPath& path)
{
    std::string text = path.parent ? pathText(*path.parent) : std::string();
    if (path.isItem)
        return text + '[' + std::to_string(path.index) + ']';
    return text.empty() ? std::string(path.key) : text + '.' + std::string(path.key);
}

// The message of the SerializationException. The path can hold a client's map key, hence the
// excerpt.
std::string mismatch(const MemberPath& path, const char* expected, const Members& value)
{
    return "The member " + engine::excerpt(pathText(path)) + " must be " + expected + ", not "
        + jsonTypeName(value) + ".";
}

std::optional<std::string> structureMismatch(const Members& structure, const MemberPath* parent);

// The recursion follows the shapes, not the document: a structure inside a structure at most.
std::optional<std::string> valueMismatch(const Members& value, Shape shape, const MemberPath& path)
{
    switch (shape) {
    case Shape::String:
        if (!value.is_string())
            return mismatch(path, "a string", value);
        return std::nullopt;
    case Shape::Integer:
        if (!value.is_number() && !value.is_string())
            return mismatch(path, "a number", value);
        return std::nullopt;
    case Shape::StringList:
    case Shape::StructureList: {
        if (!value.is_array())
            return mismatch(path, "an array", value);
        const bool structures = shape == Shape::StructureList;
        for (std::size_t i = 0; i < value.size(); ++i) {
            const Members& item = value[i];
            const MemberPath itemPath{&path, {}, i, true};
            if (structures ? !item.is_object() : !item.is_string())
                return mismatch(itemPath, structures ? "an object" : "a string", item);
            if (structures) {
                if (auto found = structureMismatch(item, &itemPath))
                    return found;
            }
        }
        return std::nullopt;
    }
    case Shape::StringMap:
    case Shape::StructureMap: {
        if (!value.is_object())
            return mismatch(path, "an object", value);
        const bool structures = shape == Shape::StructureMap;
        for (auto it = value.begin(); it != value.end(); ++it) {
            const Members& item = it.value();
            const MemberPath keyPath{&path, it.key()};
            if (structures ? !item.is_object() : !item.is_string())
                return mismatch(keyPath, structures ? "an object" : "a string", item);
            if (structures) {
                if (auto found = structureMismatch(item, &keyPath))
                    return found;
            }
        }
        return std::nullopt;
    }
    }
    return std::nullopt;
}

// A member that is null is absent, whatever its shape.
std::optional<std::string> structureMismatch(const Members& structure, const MemberPath* parent)
{
    for (auto it = structure.begin(); it != structure.end(); ++it) {
        const std::optional<Shape> shape = shapeOf(it.key());
        if (!shape || it.value().is_null())
            continue;
        if (auto found = valueMismatch(it.value(), *shape, MemberPath{parent, it.key()}))
            return found;
    }
    return std::nullopt;
}

SqsWireError malformedBody(const QString& reason)
{
    return sqsWireError(ProtocolError::MalformedBody,
                        QStringLiteral("The request body is not a JSON object: %1.").arg(reason));
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
    // One parser per thread, reused: it keeps its buffers between requests, and the depth limit
    // set here when it grows for a larger body.
    thread_local simdjson::dom::parser parser;
    const std::size_t size = std::size_t(request.body.size());
    if (parser.max_depth() != kMaxJsonDepth)
        if (const auto failure = parser.allocate(size, kMaxJsonDepth))
            return malformedBody(QString::fromUtf8(simdjson::error_message(failure)));
    // simdjson reads SIMDJSON_PADDING bytes past the end: the body is copied into a padded buffer
    // kept per thread (a memcpy), not into a new allocation per request as parse() would.
    thread_local std::string padded;
    if (padded.size() < size + simdjson::SIMDJSON_PADDING)
        padded.resize(size + simdjson::SIMDJSON_PADDING);
    std::memcpy(padded.data(), request.body.constData(), size);
    simdjson::dom::element document;
    if (const auto failure
        = parser.parse(padded.data(), size, /*realloc_if_needed=*/false).get(document)) {
        if (failure == simdjson::DEPTH_ERROR)
            return malformedBody(
                QStringLiteral("it nests more than %1 levels deep").arg(kMaxJsonDepth));
        return malformedBody(QString::fromUtf8(simdjson::error_message(failure)));
    }
    if (!document.is_object())
        return malformedBody(QStringLiteral("not an object"));
    Members body = members(document);
    if (auto found = structureMismatch(body, nullptr))
        return sqsWireError(ProtocolError::MalformedBody, QString::fromStdString(*found));
    return SqsRequest(action, std::move(body));
}

HttpResponse success(const Output& output)
{
    return respond(200, output);
}

HttpResponse success(const engine::ReceiveResult& result)
{
    HttpResponse response = answer(200);
    appendReceiveJson(response.body, result);
    return response;
}

HttpResponse success(const IdBatch& batch)
{
    HttpResponse response = answer(200);
    appendIdBatchJson(response.body, batch);
    return response;
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
