// The Query protocol (spec §2.2–§2.5): form parameters in, XML out. form.cpp decodes the form
// and QXmlStreamWriter prints the XML, with no hand-written escaper beyond the one rule XML
// printers lack (a CR in text must be written `&#xD;` or parsers fold it away).
#include "protocol/form.h"
#include "protocol/sqs_codec.h"
#include "protocol/utf8.h"

#include <QXmlStreamWriter>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace inflight::protocol {

namespace query {

namespace {

const QString kNamespace = QStringLiteral("http://queue.amazonaws.com/doc/2012-11-05/");

// ---- request: flattened parameters → member tree ------------------------------------------------

// The most segments a parameter name may have. The deepest name of the API,
// SendMessageBatchRequestEntry.N.MessageAttribute.M.Value.StringListValue.K, has 7; a name of
// 20,000 segments used to overflow the stack while the tree below was read.
constexpr qsizetype kMaxNameSegments = 16;

// "Attribute.1.Name" = "DelaySeconds" is the path Attribute → 1 → Name. Digit-only segments are
// 1-based list indexes; the rest are member names.
// Invariant: at most kMaxNameSegments levels deep (decodeRequest refuses longer names), which
// bounds the recursion of plainValue / structureOf and of the destructor.
struct ParameterNode {
    std::optional<QString> value;
    std::map<QString, ParameterNode> named;
    std::map<qint64, ParameterNode> indexed;
};

void insertParameter(ParameterNode& root, const QString& key, const QString& value)
{
    ParameterNode* node = &root;
    for (const QStringView segment : QStringView(key).split(QLatin1Char('.'))) {
        bool isIndex = false;
        const qint64 index = segment.toLongLong(&isIndex);
        if (isIndex && !segment.startsWith(QLatin1Char('+'))
            && !segment.startsWith(QLatin1Char('-')))
            node = &node->indexed[index];
        else
            node = &node->named[segment.toString()];
    }
    node->value = value;
}

enum class MemberKind { List, Map };

struct QueryMember {
    QLatin1String query; // flattened name in the Query protocol
    QLatin1String json;  // member name in the JSON protocol
    MemberKind kind;
    QLatin1String keyField; // maps: the field holding the key ("Name" or "Key")
};

// Spec §2.3. Every member not listed keeps its name and is a scalar or a structure.
const QueryMember kQueryMembers[] = {
    {QLatin1String("Attribute"), QLatin1String("Attributes"), MemberKind::Map,
     QLatin1String("Name")},
    {QLatin1String("Tag"), QLatin1String("Tags"), MemberKind::Map, QLatin1String("Key")},
    {QLatin1String("TagKey"), QLatin1String("TagKeys"), MemberKind::List, {}},
    {QLatin1String("AttributeName"), QLatin1String("AttributeNames"), MemberKind::List, {}},
    {QLatin1String("MessageSystemAttributeName"),
     QLatin1String("MessageSystemAttributeNames"),
     MemberKind::List,
     {}},
    {QLatin1String("MessageAttributeName"),
     QLatin1String("MessageAttributeNames"),
     MemberKind::List,
     {}},
    {QLatin1String("MessageAttribute"), QLatin1String("MessageAttributes"), MemberKind::Map,
     QLatin1String("Name")},
    {QLatin1String("MessageSystemAttribute"), QLatin1String("MessageSystemAttributes"),
     MemberKind::Map, QLatin1String("Name")},
    {QLatin1String("SendMessageBatchRequestEntry"), QLatin1String("Entries"), MemberKind::List, {}},
    {QLatin1String("DeleteMessageBatchRequestEntry"),
     QLatin1String("Entries"),
     MemberKind::List,
     {}},
    {QLatin1String("ChangeMessageVisibilityBatchRequestEntry"),
     QLatin1String("Entries"),
     MemberKind::List,
     {}},
    {QLatin1String("AWSAccountId"), QLatin1String("AWSAccountIds"), MemberKind::List, {}},
    {QLatin1String("ActionName"), QLatin1String("Actions"), MemberKind::List, {}},
};

const QueryMember* findQueryMember(const QString& name)
{
    for (const QueryMember& member : kQueryMembers) {
        if (member.query == name)
            return &member;
    }
    return nullptr;
}

SqsRequest::Members structureOf(const ParameterNode& node, const QString& action);

SqsRequest::Members plainValue(const ParameterNode& node, const QString& action)
{
    if (node.value)
        return node.value->toStdString();
    if (!node.indexed.empty()) {
        SqsRequest::Members array = SqsRequest::Members::array();
        for (const auto& [index, item] : node.indexed)
            array.push_back(plainValue(item, action));
        return array;
    }
    return structureOf(node, action);
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
    for (const auto& [index, item] : node.indexed)
        items.push_back(&item);
    return items;
}

SqsRequest::Members memberValue(const QueryMember& member, const ParameterNode& node,
                                const QString& action)
{
    if (member.kind == MemberKind::List) {
        SqsRequest::Members array = SqsRequest::Members::array();
        for (const ParameterNode* item : itemsOf(node))
            array.push_back(plainValue(*item, action));
        return array;
    }
    SqsRequest::Members map = SqsRequest::Members::object();
    for (const ParameterNode* item : itemsOf(node)) {
        const auto key = item->named.find(member.keyField);
        const auto value = item->named.find(QStringLiteral("Value"));
        if (key == item->named.end() || !key->second.value)
            continue;
        map[key->second.value->toStdString()] = value == item->named.end()
            ? SqsRequest::Members(std::string())
            : plainValue(value->second, action);
    }
    return map;
}

SqsRequest::Members structureOf(const ParameterNode& node, const QString& action)
{
    SqsRequest::Members object = SqsRequest::Members::object();
    for (const auto& [name, child] : node.named) {
        const QueryMember* member = findQueryMember(name);
        if (!member) {
            object[name.toStdString()] = plainValue(child, action);
            continue;
        }
        // CreateQueue's tag map is the lower-case `tags` member (§2.4); TagQueue's is `Tags`.
        const bool createQueueTags
            = member->json == QLatin1String("Tags") && action == QLatin1String("CreateQueue");
        object[createQueueTags ? std::string("tags") : QString(member->json).toStdString()]
            = memberValue(*member, child, action);
    }
    return object;
}

// ---- response: member tree → XML -----------------------------------------------------------

// The order real SQS prints members in (a message, a batch entry, lists before NextToken); other
// members follow in name order. Clients do not depend on it, people reading the XML do.
int memberRank(const QString& name)
{
    static const QLatin1String kOrder[] = {
        QLatin1String("Id"),
        QLatin1String("QueueUrl"),
        QLatin1String("MessageId"),
        QLatin1String("ReceiptHandle"),
        QLatin1String("MD5OfBody"),
        QLatin1String("Body"),
        QLatin1String("Attributes"),
        QLatin1String("MD5OfMessageBody"),
        QLatin1String("MD5OfMessageAttributes"),
        QLatin1String("MD5OfMessageSystemAttributes"),
        QLatin1String("MessageAttributes"),
        QLatin1String("SequenceNumber"),
        QLatin1String("SenderFault"),
        QLatin1String("Code"),
        QLatin1String("Message"),
        QLatin1String("StringValue"),
        QLatin1String("BinaryValue"),
        QLatin1String("DataType"),
        QLatin1String("Messages"),
        QLatin1String("QueueUrls"),
        QLatin1String("queueUrls"),
        QLatin1String("Successful"),
        QLatin1String("Failed"),
        QLatin1String("Results"),
    };
    for (int i = 0; i < int(std::size(kOrder)); ++i) {
        if (kOrder[i] == name)
            return i;
    }
    return int(std::size(kOrder));
}

bool isXmlChar(char32_t c)
{
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
        || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

bool needsCare(const QString& text)
{
    return std::any_of(text.begin(), text.end(), [](QChar c) {
        return c.unicode() < 0x20 || c.isSurrogate() || c.unicode() >= 0xFFFE;
    });
}

// Text content: `"` is printed as &quot; by the writer, CR as &#xD; here so that "\r\n" survives
// a parser's line-end normalisation (§2.4). Characters XML cannot carry (only possible in echoed
// input inside error messages: bodies are validated) become U+FFFD.
void writeText(QXmlStreamWriter& writer, const QString& text)
{
    if (!needsCare(text)) {
        writer.writeCharacters(text);
        return;
    }
    QString run;
    const auto flush = [&] {
        if (!run.isEmpty())
            writer.writeCharacters(run);
        run.clear();
    };
    for (const char32_t c : text.toUcs4()) {
        if (c == 0xD) {
            flush();
            writer.writeEntityReference(QStringLiteral("#xD"));
        } else if (isXmlChar(c)) {
            // Not QString::fromUcs4, which reads a U+FEFF as a byte-order mark and drops it.
            run.append(QChar::fromUcs4(c));
        } else {
            run.append(QChar(0xFFFD));
        }
    }
    flush();
}

void writeTextElement(QXmlStreamWriter& writer, const QString& name, const QString& text)
{
    writer.writeStartElement(name);
    writeText(writer, text);
    writer.writeEndElement();
}

QString scalarText(const Output& value)
{
    if (value.is_string())
        return textOf(value.get_ref<const std::string&>());
    if (value.is_boolean())
        return value.get<bool>() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.is_number_integer())
        return QString::number(value.get<std::int64_t>());
    return QString::fromStdString(value.dump());
}

void writeMembers(QXmlStreamWriter& writer, const Output& object, const QString& action);

void writeValue(QXmlStreamWriter& writer, const QString& name, const Output& value,
                const QString& action)
{
    if (value.is_array()) { // flattened: one element per item, named like the list
        for (const Output& item : value)
            writeValue(writer, name, item, action);
    } else if (value.is_object()) {
        writer.writeStartElement(name);
        writeMembers(writer, value, action);
        writer.writeEndElement();
    } else {
        writeTextElement(writer, name, scalarText(value));
    }
}

// A map member: one element per key, `<Name>`/`<Key>` then `<Value>`.
void writeMap(QXmlStreamWriter& writer, const QString& element, const QString& keyField,
              const Output& map, const QString& action)
{
    for (auto it = map.begin(); it != map.end(); ++it) {
        writer.writeStartElement(element);
        writeTextElement(writer, keyField, textOf(it.key()));
        writeValue(writer, QStringLiteral("Value"), it.value(), action);
        writer.writeEndElement();
    }
}

void writeMember(QXmlStreamWriter& writer, const QString& name, const Output& value,
                 const QString& action)
{
    if (name == QLatin1String("Attributes"))
        return writeMap(writer, QStringLiteral("Attribute"), QStringLiteral("Name"), value, action);
    if (name == QLatin1String("MessageAttributes"))
        return writeMap(writer, QStringLiteral("MessageAttribute"), QStringLiteral("Name"), value,
                        action);
    if (name == QLatin1String("Tags"))
        return writeMap(writer, QStringLiteral("Tag"), QStringLiteral("Key"), value, action);
    if (name == QLatin1String("QueueUrls") || name == QLatin1String("queueUrls"))
        return writeValue(writer, QStringLiteral("QueueUrl"), value, action);
    if (name == QLatin1String("Messages"))
        return writeValue(writer, QStringLiteral("Message"), value, action);
    if (name == QLatin1String("Successful"))
        return writeValue(writer, action + QStringLiteral("ResultEntry"), value, action);
    if (name == QLatin1String("Failed"))
        return writeValue(writer, QStringLiteral("BatchResultErrorEntry"), value, action);
    if (name == QLatin1String("Results"))
        return writeValue(writer, QStringLiteral("ListMessageMoveTasksResultEntry"), value, action);
    writeValue(writer, name, value, action);
}

void writeMembers(QXmlStreamWriter& writer, const Output& object, const QString& action)
{
    // Keys come sorted by name; stable_sort keeps that within a rank.
    std::vector<std::pair<QString, const Output*>> members;
    members.reserve(object.size());
    for (auto it = object.begin(); it != object.end(); ++it)
        members.emplace_back(QString::fromStdString(it.key()), &it.value());
    std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) {
        return memberRank(a.first) < memberRank(b.first);
    });
    for (const auto& [name, value] : members)
        writeMember(writer, name, *value, action);
}

// Actions whose output has no members print no <Result> element.
bool hasResultElement(const QString& action)
{
    static const QLatin1String kNoOutput[] = {
        QLatin1String("DeleteQueue"),
        QLatin1String("SetQueueAttributes"),
        QLatin1String("PurgeQueue"),
        QLatin1String("TagQueue"),
        QLatin1String("UntagQueue"),
        QLatin1String("AddPermission"),
        QLatin1String("RemovePermission"),
        QLatin1String("DeleteMessage"),
        QLatin1String("ChangeMessageVisibility"),
    };
    return std::none_of(std::begin(kNoOutput), std::end(kNoOutput),
                        [&](QLatin1String name) { return name == action; });
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

} // namespace

DecodedSqsRequest decodeRequest(const HttpRequest& request)
{
    std::optional<FormParameters> parameters = decodeForm(request.query);
    const std::optional<FormParameters> body
        = request.method != "GET" ? decodeForm(request.body) : FormParameters();
    if (!parameters || !body)
        return malformedQuery(QStringLiteral("a parameter name or value is not UTF-8 once "
                                             "percent-decoded"));
    parameters->append(*body);
    ParameterNode root;
    QString action;
    for (const auto& [key, value] : std::as_const(*parameters)) {
        if (key.count(QLatin1Char('.')) >= kMaxNameSegments)
            return malformedQuery(
                QStringLiteral("a parameter name has more than %1 parts separated by '.'")
                    .arg(kMaxNameSegments));
        if (key == QLatin1String("Action"))
            action = value;
        else
            insertParameter(root, key, value);
    }
    if (action.isEmpty())
        return sqsWireError(ProtocolError::MissingAction,
                            QStringLiteral("The request must contain the parameter Action."));
    return SqsRequest(action, structureOf(root, action));
}

HttpResponse success(const QString& action, const Output& output)
{
    const QByteArray requestId = newRequestId();
    QByteArray body;
    QXmlStreamWriter writer(&body);
    writer.writeStartDocument();
    writer.writeStartElement(action + QStringLiteral("Response"));
    writer.writeAttribute(QStringLiteral("xmlns"), kNamespace);
    if (hasResultElement(action) || !output.empty()) {
        writer.writeStartElement(action + QStringLiteral("Result"));
        writeMembers(writer, output, action);
        writer.writeEndElement();
    }
    writer.writeStartElement(QStringLiteral("ResponseMetadata"));
    writeTextElement(writer, QStringLiteral("RequestId"), QString::fromLatin1(requestId));
    writer.writeEndElement();
    writer.writeEndElement();
    writer.writeEndDocument();
    return xmlResponse(200, requestId, std::move(body));
}

HttpResponse error(const SqsWireError& error)
{
    const QByteArray requestId = newRequestId();
    QByteArray body;
    QXmlStreamWriter writer(&body);
    writer.writeStartDocument();
    writer.writeStartElement(QStringLiteral("ErrorResponse"));
    writer.writeAttribute(QStringLiteral("xmlns"), kNamespace);
    writer.writeStartElement(QStringLiteral("Error"));
    writeTextElement(writer, QStringLiteral("Type"), QString::fromLatin1(error.fault()));
    writeTextElement(writer, QStringLiteral("Code"), QString::fromLatin1(error.queryCode));
    writeTextElement(writer, QStringLiteral("Message"), error.message);
    writer.writeEmptyElement(QStringLiteral("Detail"));
    writer.writeEndElement();
    writeTextElement(writer, QStringLiteral("RequestId"), QString::fromLatin1(requestId));
    writer.writeEndElement();
    writer.writeEndDocument();
    return xmlResponse(error.status, requestId, std::move(body));
}

} // namespace query

} // namespace inflight::protocol
