// The Query protocol (spec §2.2–§2.5): form parameters in, XML out. form.cpp decodes the form and
// XmlWriter (xml_writer.h) prints the XML as UTF-8 from the answer's members, the bytes
// QXmlStreamWriter printed without a QString per name and value (docs/PERFORMANCE.md).
#include "protocol/form.h"
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

// ---- request: flattened parameters → member tree ------------------------------------------------

// The most segments a parameter name may have. The deepest name of the API,
// SendMessageBatchRequestEntry.N.MessageAttribute.M.Value.StringListValue.K, has 7; a name of
// 20,000 segments used to overflow the stack while the tree below was read.
constexpr qsizetype kMaxNameSegments = 16;

// "Attribute.1.Name" = "DelaySeconds" is the path Attribute → 1 → Name. Digit-only segments are
// 1-based list indexes; the rest are member names. Names and values are UTF-8, as decoded from the
// form (form.h) and as the member tree holds them.
// Invariant: at most kMaxNameSegments levels deep (decodeRequest refuses longer names), which
// bounds the recursion of readPlainValue / readStructure and of the destructor.
struct ParameterNode {
    std::optional<std::string> value;
    std::map<std::string, ParameterNode, std::less<>> named;
    std::map<std::int64_t, ParameterNode> indexed;
};

// A segment that is a list index: decimal digits (ASCII spaces around them allowed, no sign), in
// range.
std::optional<std::int64_t> indexOf(std::string_view segment)
{
    const auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
    while (!segment.empty() && space(segment.front()))
        segment.remove_prefix(1);
    while (!segment.empty() && space(segment.back()))
        segment.remove_suffix(1);
    std::int64_t index = 0;
    const char* end = segment.data() + segment.size();
    if (segment.empty() || segment.front() < '0' || segment.front() > '9')
        return std::nullopt;
    const auto [stop, failure] = std::from_chars(segment.data(), end, index);
    if (failure != std::errc() || stop != end)
        return std::nullopt;
    return index;
}

// False, with nothing more inserted, for a name of more than kMaxNameSegments segments.
bool insertParameter(ParameterNode& root, std::string_view key, std::string&& value)
{
    ParameterNode* node = &root;
    for (std::size_t start = 0, segments = 1;; ++segments) {
        if (segments > std::size_t(kMaxNameSegments))
            return false;
        const std::size_t dot = key.find('.', start);
        const std::string_view segment = key.substr(
            start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        if (const std::optional<std::int64_t> index = indexOf(segment)) {
            node = &node->indexed[*index];
        } else {
            auto found = node->named.find(segment);
            if (found == node->named.end())
                found = node->named.emplace(std::string(segment), ParameterNode()).first;
            node = &found->second;
        }
        if (dot == std::string_view::npos)
            break;
        start = dot + 1;
    }
    node->value = std::move(value);
    return true;
}

enum class MemberKind { List, Map };

struct QueryMember {
    std::string_view query; // flattened name in the Query protocol
    std::string_view json;  // member name in the JSON protocol
    MemberKind kind;
    std::string_view keyField; // maps: the field holding the key ("Name" or "Key")
};

// Spec §2.3. Every member not listed keeps its name and is a scalar or a structure.
constexpr QueryMember kQueryMembers[] = {
    {"Attribute", "Attributes", MemberKind::Map, "Name"},
    {"Tag", "Tags", MemberKind::Map, "Key"},
    {"TagKey", "TagKeys", MemberKind::List, {}},
    {"AttributeName", "AttributeNames", MemberKind::List, {}},
    {"MessageSystemAttributeName", "MessageSystemAttributeNames", MemberKind::List, {}},
    {"MessageAttributeName", "MessageAttributeNames", MemberKind::List, {}},
    {"MessageAttribute", "MessageAttributes", MemberKind::Map, "Name"},
    {"MessageSystemAttribute", "MessageSystemAttributes", MemberKind::Map, "Name"},
    {"SendMessageBatchRequestEntry", "Entries", MemberKind::List, {}},
    {"DeleteMessageBatchRequestEntry", "Entries", MemberKind::List, {}},
    {"ChangeMessageVisibilityBatchRequestEntry", "Entries", MemberKind::List, {}},
    {"AWSAccountId", "AWSAccountIds", MemberKind::List, {}},
    {"ActionName", "Actions", MemberKind::List, {}},
};

const QueryMember* findQueryMember(std::string_view name)
{
    for (const QueryMember& member : kQueryMembers) {
        if (member.query == name)
            return &member;
    }
    return nullptr;
}

// The parameters below `node` as the member tree's node `at`. Scalars stay strings.
void readStructure(const ParameterNode& node, std::string_view action, MemberTree& tree,
                   std::uint32_t at);

void readPlainValue(const ParameterNode& node, std::string_view action, MemberTree& tree,
                    std::uint32_t at)
{
    if (node.value) {
        const std::string_view text = tree.keep(*node.value);
        MemberTree::Node& leaf = tree.node(at);
        leaf.kind = MemberTree::Kind::String;
        leaf.text = text;
        return;
    }
    if (!node.indexed.empty()) {
        std::uint32_t child = tree.addChildren(at, MemberTree::Kind::Array,
                                               static_cast<std::uint32_t>(node.indexed.size()));
        for (const auto& [index, item] : node.indexed)
            readPlainValue(item, action, tree, child++);
        return;
    }
    readStructure(node, action, tree, at);
}

// A flattened list's items in index order; an unindexed member (legacy `AttributeName=All`,
// `Attribute.Name=…`) counts as a list of one.
std::vector<const ParameterNode*> itemsOf(const ParameterNode& node)
{
    std::vector<const ParameterNode*> items;
    if (node.indexed.empty()) {
        if (node.value || !node.named.empty())
            items.push_back(&node);
        return items;
    }
    items.reserve(node.indexed.size());
    for (const auto& [index, item] : node.indexed)
        items.push_back(&item);
    return items;
}

void readMemberValue(const QueryMember& member, const ParameterNode& node, std::string_view action,
                     MemberTree& tree, std::uint32_t at)
{
    const std::vector<const ParameterNode*> items = itemsOf(node);
    if (member.kind == MemberKind::List) {
        std::uint32_t child = tree.addChildren(at, MemberTree::Kind::Array,
                                               static_cast<std::uint32_t>(items.size()));
        for (const ParameterNode* item : items)
            readPlainValue(*item, action, tree, child++);
        return;
    }
    // A map: each item's key field names its entry, its `Value` (a string, or a structure for
    // message attributes) is the entry's value; an item without a key is left out, and a key
    // given twice keeps its later item.
    std::uint32_t entries = 0;
    for (const ParameterNode* item : items) {
        const auto key = item->named.find(member.keyField);
        entries += key != item->named.end() && key->second.value ? 1 : 0;
    }
    std::uint32_t child = tree.addChildren(at, MemberTree::Kind::Object, entries);
    for (const ParameterNode* item : items) {
        const auto key = item->named.find(member.keyField);
        const auto value = item->named.find(std::string_view("Value"));
        if (key == item->named.end() || !key->second.value)
            continue;
        tree.node(child).key = tree.keep(*key->second.value);
        if (value == item->named.end()) {
            tree.node(child).kind = MemberTree::Kind::String; // "": no text to keep
        } else {
            readPlainValue(value->second, action, tree, child);
        }
        ++child;
    }
    tree.orderMembers(at);
}

void readStructure(const ParameterNode& node, std::string_view action, MemberTree& tree,
                   std::uint32_t at)
{
    std::uint32_t child = tree.addChildren(at, MemberTree::Kind::Object,
                                           static_cast<std::uint32_t>(node.named.size()));
    for (const auto& [name, item] : node.named) {
        const QueryMember* member = findQueryMember(name);
        if (!member) {
            tree.node(child).key = tree.keep(name);
            readPlainValue(item, action, tree, child++);
            continue;
        }
        // CreateQueue's tag map is the lower-case `tags` member (§2.4); TagQueue's is `Tags`.
        const bool createQueueTags = member->json == "Tags" && action == "CreateQueue";
        tree.node(child).key = createQueueTags ? std::string_view("tags") : member->json;
        readMemberValue(*member, item, action, tree, child++);
    }
    // The JSON names of flattened members sort differently from their Query names, and two
    // Query names can give one JSON name (the last in name order wins, as before).
    tree.orderMembers(at);
}

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
    FormPairs parameters;
    if (!appendFormPairs(request.query, parameters)
        || (request.method != "GET" && !appendFormPairs(request.body, parameters)))
        return malformedQuery(QStringLiteral("a parameter name or value is not UTF-8 once "
                                             "percent-decoded"));
    ParameterNode root;
    std::string action;
    for (auto& [key, value] : parameters) {
        if (key == "Action") {
            action = std::move(value);
        } else if (!insertParameter(root, key, std::move(value))) {
            return malformedQuery(
                QStringLiteral("a parameter name has more than %1 parts separated by '.'")
                    .arg(kMaxNameSegments));
        }
    }
    if (action.empty())
        return sqsWireError(ProtocolError::MissingAction,
                            QStringLiteral("The request must contain the parameter Action."));
    // Decoded text is no longer than the form it came from.
    auto tree = std::make_shared<MemberTree>(std::size_t(request.query.size())
                                             + std::size_t(request.body.size()));
    readStructure(root, action, *tree, 0);
    return SqsRequest(textOf(action), std::move(tree));
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
