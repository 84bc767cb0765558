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
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::protocol {

namespace json {

namespace {

using Node = MemberTree::Node;
using Kind = MemberTree::Kind;

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

// The parsed body into the member tree SqsRequest reads, at node `at`. Recurses as deep as the
// document nests: at most kMaxJsonDepth.
void readMembers(simdjson::dom::element element, MemberTree& tree, std::uint32_t at)
{
    // A count simdjson keeps saturates at 2^24 - 1; a body is at most 2 MiB, but counting
    // then is what keeps a miscount from misplacing members.
    const auto countOf = [](auto container) {
        std::size_t count = container.size();
        if (count >= 0xFFFFFF) {
            count = 0;
            for ([[maybe_unused]] const auto item : container)
                ++count;
        }
        return static_cast<std::uint32_t>(count);
    };
    switch (element.type()) {
    case simdjson::dom::element_type::OBJECT: {
        const simdjson::dom::object fields(element);
        std::uint32_t child = tree.addChildren(at, Kind::Object, countOf(fields));
        for (const auto field : fields) {
            tree.node(child).key = tree.keep(field.key);
            readMembers(field.value, tree, child++);
        }
        // Key order, a repeated key keeping its last value, as JSON parsers commonly do.
        tree.orderMembers(at);
        return;
    }
    case simdjson::dom::element_type::ARRAY: {
        const simdjson::dom::array items(element);
        std::uint32_t child = tree.addChildren(at, Kind::Array, countOf(items));
        for (const simdjson::dom::element item : items)
            readMembers(item, tree, child++);
        return;
    }
    case simdjson::dom::element_type::STRING: {
        const std::string_view text = tree.keep(std::string_view(element));
        MemberTree::Node& node = tree.node(at);
        node.kind = Kind::String;
        node.text = text;
        return;
    }
    case simdjson::dom::element_type::INT64:
        tree.node(at).kind = Kind::Integer;
        tree.node(at).integer = std::int64_t(element);
        return;
    case simdjson::dom::element_type::UINT64:
        tree.node(at).kind = Kind::Unsigned;
        tree.node(at).unsignedInteger = std::uint64_t(element);
        return;
    case simdjson::dom::element_type::DOUBLE:
        tree.node(at).kind = Kind::Float;
        tree.node(at).real = double(element);
        return;
    case simdjson::dom::element_type::BOOL:
        tree.node(at).kind = Kind::Boolean;
        tree.node(at).boolean = bool(element);
        return;
    case simdjson::dom::element_type::NULL_VALUE: return;
    }
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

// The names by length: a member's name is compared only with those of its length (one to four),
// not with all of them (every member of a body is looked up).
constexpr std::size_t kLongestShapeName = 32;
using ShapesByLength = std::array<std::vector<const MemberShape*>, kLongestShapeName + 1>;
static_assert(std::all_of(std::begin(kMemberShapes), std::end(kMemberShapes),
                          [](const MemberShape& entry) {
                              return entry.name.size() <= kLongestShapeName;
                          }));

ShapesByLength shapesByLength()
{
    ShapesByLength byLength;
    for (const MemberShape& entry : kMemberShapes)
        byLength[entry.name.size()].push_back(&entry);
    return byLength;
}

std::optional<Shape> shapeOf(std::string_view member)
{
    static const ShapesByLength kByLength = shapesByLength();
    if (member.size() > kLongestShapeName)
        return std::nullopt;
    for (const MemberShape* entry : kByLength[member.size()]) {
        if (entry->name == member)
            return entry->shape;
    }
    return std::nullopt;
}

const char* jsonTypeName(const Node& value)
{
    switch (value.kind) {
    case Kind::String: return "a string";
    case Kind::Boolean: return "a boolean";
    case Kind::Integer:
    case Kind::Unsigned:
    case Kind::Float: return "a number";
    case Kind::Object: return "an object";
    case Kind::Array: return "an array";
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

// The SerializationException of a member that is not of its shape. The path can hold a client's
// map key, hence the excerpt.
SqsWireError mismatch(const MemberPath& path, const char* expected, const Node& value)
{
    return sqsWireError(ProtocolError::MalformedBody,
                        QString::fromStdString("The member " + engine::excerpt(pathText(path))
                                               + " must be " + expected + ", not "
                                               + jsonTypeName(value) + "."));
}

WireStatus checkStructure(const MemberTree& tree, const Node& structure, const MemberPath* parent);

// The recursion follows the shapes, not the document: a structure inside a structure at most.
WireStatus checkValue(const MemberTree& tree, const Node& value, Shape shape,
                      const MemberPath& path)
{
    switch (shape) {
    case Shape::String:
        if (value.kind != Kind::String)
            return mismatch(path, "a string", value);
        return engine::Done{};
    case Shape::Integer:
        if (value.kind != Kind::Integer && value.kind != Kind::Unsigned && value.kind != Kind::Float
            && value.kind != Kind::String)
            return mismatch(path, "a number", value);
        return engine::Done{};
    case Shape::StringList:
    case Shape::StructureList: {
        if (value.kind != Kind::Array)
            return mismatch(path, "an array", value);
        const bool structures = shape == Shape::StructureList;
        const std::span<const Node> items = tree.children(value);
        for (std::size_t i = 0; i < items.size(); ++i) {
            const Node& item = items[i];
            const MemberPath itemPath{&path, {}, i, true};
            if (item.kind != (structures ? Kind::Object : Kind::String))
                return mismatch(itemPath, structures ? "an object" : "a string", item);
            if (structures) {
                if (WireStatus checked = checkStructure(tree, item, &itemPath); !checked)
                    return checked;
            }
        }
        return engine::Done{};
    }
    case Shape::StringMap:
    case Shape::StructureMap: {
        if (value.kind != Kind::Object)
            return mismatch(path, "an object", value);
        const bool structures = shape == Shape::StructureMap;
        for (const Node& item : tree.children(value)) {
            const MemberPath keyPath{&path, item.key};
            if (item.kind != (structures ? Kind::Object : Kind::String))
                return mismatch(keyPath, structures ? "an object" : "a string", item);
            if (structures) {
                if (WireStatus checked = checkStructure(tree, item, &keyPath); !checked)
                    return checked;
            }
        }
        return engine::Done{};
    }
    }
    return engine::Done{};
}

// Done when every member of the API in `structure` has its shape, else the SerializationException
// of the first that has not, in key order. A member that is null is absent, whatever its shape.
WireStatus checkStructure(const MemberTree& tree, const Node& structure, const MemberPath* parent)
{
    for (const Node& member : tree.children(structure)) {
        const std::optional<Shape> shape = shapeOf(member.key);
        if (!shape || member.kind == Kind::Null)
            continue;
        if (WireStatus checked = checkValue(tree, member, *shape, MemberPath{parent, member.key});
            !checked)
            return checked;
    }
    return engine::Done{};
}

SqsWireError malformedBody(const QString& reason)
{
    return sqsWireError(ProtocolError::MalformedBody,
                        QStringLiteral("The request body is not a JSON object: %1.").arg(reason));
}

} // namespace

bool isIntegerMember(std::string_view member)
{
    return shapeOf(member) == Shape::Integer;
}

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
        return SqsRequest(action);
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
    // The text of the members is no longer than the body.
    auto tree = std::make_shared<MemberTree>(size);
    readMembers(document, *tree, 0);
    if (const WireStatus checked = checkStructure(*tree, tree->root(), nullptr); !checked)
        return checked.error();
    return SqsRequest(action, std::move(tree));
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

HttpResponse success(const SendAnswer& sent)
{
    HttpResponse response = answer(200);
    appendSendJson(response.body, sent);
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
