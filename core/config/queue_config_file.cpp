// Reading a configuration file (queue_config_file.h): nlohmann checks the syntax and builds the
// document, a positions-only scan of the same text (queue_config_positions.h) says where each value
// is, and a walk in document order checks the shape and fills a QueueConfigFile.
#include "config/queue_config_file.h"

#include "config/queue_config_positions.h"
#include "engine/queue_config.h"
#include "text/base64.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <limits>
#include <optional>
#include <utility>

namespace inflight::config {

namespace {

using Json = nlohmann::json;
using engine::Done;
using engine::Error;
using engine::QueueKind;
using engine::Result;
using engine::Status;

// ---- syntax ------------------------------------------------------------------------------------

// nlohmann's SAX events, only to stop at depth kMaxConfigDepth + 1 before any document is built,
// and to keep the parser's syntax error.
class SyntaxCheck {
public:
    bool null() { return true; }
    bool boolean(bool) { return true; }
    bool number_integer(Json::number_integer_t) { return true; }
    bool number_unsigned(Json::number_unsigned_t) { return true; }
    bool number_float(Json::number_float_t, const std::string&) { return true; }
    bool string(std::string&) { return true; }
    bool binary(Json::binary_t&) { return true; }
    bool key(std::string&) { return true; }
    bool start_object(std::size_t) { return enter(); }
    bool end_object() { return leave(); }
    bool start_array(std::size_t) { return enter(); }
    bool end_array() { return leave(); }
    bool parse_error(std::size_t byte, const std::string&, const Json::exception& error)
    {
        m_errorByte = byte;
        m_error = error.what();
        return false;
    }

    bool tooDeep() const { return m_depth > kMaxConfigDepth; }
    const std::optional<std::string>& error() const { return m_error; }
    std::size_t errorByte() const { return m_errorByte; }

private:
    bool enter() { return ++m_depth <= kMaxConfigDepth; }
    bool leave()
    {
        --m_depth;
        return true;
    }

    std::size_t m_depth = 0;
    std::optional<std::string> m_error;
    std::size_t m_errorByte = 0;
};

// "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error while parsing
// value - invalid literal; last read: 'tru,'" without the parts the position replaces.
std::string syntaxMessage(const std::string& what)
{
    const std::size_t column = what.find("column ");
    const std::size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
    return "malformed JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2));
}

// ---- the document with positions ---------------------------------------------------------------

struct Field {
    const Json* json = nullptr;
    std::size_t node = 0;
    std::string path{};
};

std::string_view kindOf(const Json& value)
{
    switch (value.type()) {
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "a list";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::null: return "null";
    default: return "a number";
    }
}

class Reader {
public:
    Reader(std::string_view text, const std::vector<JsonNode>& nodes, const Json& root)
        : m_text(text), m_nodes(nodes), m_root(root), m_lines(text)
    {
    }

    Field root() const { return Field{&m_root, 0, {}}; }

    ConfigPosition at(const Field& field) const
    {
        return position(m_nodes[field.node].value, field.path);
    }
    // Where the field's member name is (its value, for a list element).
    ConfigPosition keyAt(const Field& field) const
    {
        const JsonNode& node = m_nodes[field.node];
        return position(node.key == JsonNode::kNoKey ? node.value : node.key, field.path);
    }

    Error error(const Field& field, std::string_view what) const
    {
        return configError(at(field), what);
    }
    Error wrongType(const Field& field, std::string_view expected) const
    {
        return error(field,
                     "expected " + std::string(expected) + ", found "
                         + std::string(kindOf(*field.json)));
    }
    Error keyError(const Field& field, std::string_view what) const
    {
        return configError(keyAt(field), what);
    }
    // At the object, with the path of the member it lacks.
    Error missing(const Field& object, std::string_view name, std::string_view what) const
    {
        return configError(position(m_nodes[object.node].value, memberPath(object.path, name)),
                           what);
    }

    // A value as the engine's text: a string's characters, "true"/"false", a number as written
    // ("30"), an object or list as written without the spaces between tokens.
    std::string text(const Field& field) const
    {
        const Json& value = *field.json;
        if (value.is_string())
            return value.get<std::string>();
        if (value.is_boolean())
            return value.get<bool>() ? "true" : "false";
        const JsonNode& node = m_nodes[field.node];
        return withoutSpaces(m_text.substr(node.value, node.stop - node.value));
    }
    // text() of a string, number or boolean; nullopt for anything else.
    std::optional<std::string> scalar(const Field& field) const
    {
        const Json& value = *field.json;
        if (value.is_string() || value.is_boolean() || value.is_number())
            return text(field);
        return std::nullopt;
    }

    // An object's members in document order.
    std::vector<std::pair<std::string, Field>> members(const Field& object) const
    {
        std::vector<std::pair<std::string, Field>> result;
        for (std::size_t child = object.node + 1; child < m_nodes[object.node].end;
             child = m_nodes[child].end) {
            std::string name = memberNameAt(m_text, m_nodes[child].key);
            const auto it = object.json->find(name);
            if (it == object.json->end())
                continue; // not reached: the scan and nlohmann read the same names
            Field field{&*it, child, memberPath(object.path, name)};
            result.emplace_back(std::move(name), std::move(field));
        }
        return result;
    }

    std::vector<Field> elements(const Field& list) const
    {
        std::vector<Field> result;
        std::size_t index = 0;
        for (std::size_t child = list.node + 1;
             child < m_nodes[list.node].end && index < list.json->size();
             child = m_nodes[child].end, ++index)
            result.push_back(Field{&(*list.json)[index], child, elementPath(list.path, index)});
        return result;
    }

private:
    ConfigPosition position(std::size_t offset, std::string path) const
    {
        const auto [line, column] = m_lines.at(offset);
        return ConfigPosition{line, column, std::move(path)};
    }

    std::string_view m_text;
    const std::vector<JsonNode>& m_nodes;
    const Json& m_root;
    LineIndex m_lines;
};

// ---- values ------------------------------------------------------------------------------------

std::optional<std::int64_t> integerOf(const Json& value)
{
    if (value.is_number_unsigned()) {
        const auto n = value.get<std::uint64_t>();
        if (n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return std::nullopt;
        return static_cast<std::int64_t>(n);
    }
    if (value.is_number_integer())
        return value.get<std::int64_t>();
    if (value.is_string()) {
        const std::string& text = value.get_ref<const std::string&>();
        std::int64_t n = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
        if (ec == std::errc() && end == text.data() + text.size() && !text.empty())
            return n;
    }
    return std::nullopt;
}

std::string lowered(std::string text)
{
    for (char& c : text)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return text;
}

// configForCreate checks only an ARN's shape; whether the target exists is the broker's.
std::string placeholderArn(const std::string& name)
{
    return "arn:aws:sqs:us-east-1:000000000000:" + name;
}

bool isPolicyDocument(std::string_view attribute)
{
    return attribute == "RedrivePolicy" || attribute == "RedriveAllowPolicy"
        || attribute == "Policy";
}

// ---- queues ------------------------------------------------------------------------------------

Result<QueueKind> readKind(const Reader& reader, const std::string& name,
                           const std::optional<Field>& type)
{
    const bool fifoName = name.ends_with(".fifo");
    if (!type)
        return fifoName ? QueueKind::Fifo : QueueKind::Standard;
    if (!type->json->is_string())
        return reader.wrongType(*type, "\"standard\", \"fifo\" or \"oci\"");
    const std::string& text = type->json->get_ref<const std::string&>();
    if (text == "standard") {
        if (fifoName)
            return reader.error(*type, "a queue whose name ends in .fifo is a FIFO queue");
        return QueueKind::Standard;
    }
    if (text == "fifo") {
        if (!fifoName)
            return reader.error(*type, "a FIFO queue's name must end in .fifo");
        return QueueKind::Fifo;
    }
    if (text == "oci")
        return QueueKind::Oci;
    return reader.error(*type, "unknown type \"" + text + "\": \"standard\", \"fifo\" or \"oci\"");
}

// Where RedrivePolicy sends to, by queue name (an ARN's last part); left empty for a policy the
// engine refuses anyway.
void readDeadLetterTarget(const Reader& reader, const Field& field, const std::string& text,
                          ConfigQueue& queue)
{
    queue.deadLetterTargetPosition = reader.at(field);
    const Json policy = field.json->is_object() ? *field.json : Json::parse(text, nullptr, false);
    if (!policy.is_object())
        return;
    const auto arn = policy.find("deadLetterTargetArn");
    if (arn == policy.end() || !arn->is_string())
        return;
    std::string target = arn->get<std::string>();
    if (target.starts_with("arn:")) {
        const auto name = engine::queueNameFromArn(target);
        if (!name)
            return;
        target = *name;
    }
    queue.deadLetterTarget = std::move(target);
    if (field.json->is_object())
        for (const auto& [name, member] : reader.members(field))
            if (name == "deadLetterTargetArn")
                queue.deadLetterTargetPosition = reader.at(member);
}

Result<std::string> attributeValue(const Reader& reader, const std::string& name,
                                   const Field& field, ConfigQueue& queue)
{
    const bool document = queue.kind != QueueKind::Oci && isPolicyDocument(name);
    std::optional<std::string> text
        = document && field.json->is_object() ? reader.text(field) : reader.scalar(field);
    if (!text)
        return reader.wrongType(
            field, document ? "a JSON object or its text" : "a string, number or boolean");
    if (document && name == "RedrivePolicy")
        readDeadLetterTarget(reader, field, *text, queue);
    return std::move(*text);
}

Status readAttributes(const Reader& reader, const Field& settings, ConfigQueue& queue)
{
    if (!settings.json->is_object())
        return reader.wrongType(settings,
                                queue.kind == QueueKind::Oci
                                    ? "an object of OCI option names and values"
                                    : "an object of attribute names and values");
    for (const auto& [name, field] : reader.members(settings)) {
        auto value = attributeValue(reader, name, field, queue);
        if (!value)
            return value.error();
        queue.attributes[name] = std::move(*value);
        queue.attributePositions[name] = reader.at(field);
        queue.attributeNamePositions[name] = reader.keyAt(field);
    }
    return Done{};
}

// FifoQueue follows the type: set for a FIFO queue, and where given it must agree ("false" on a
// standard queue agrees and is dropped, as CreateQueue would refuse the name).
Status settleFifoQueue(ConfigQueue& queue)
{
    const auto given = queue.attributes.find("FifoQueue");
    if (given == queue.attributes.end()) {
        if (queue.kind == QueueKind::Fifo)
            queue.attributes["FifoQueue"] = "true";
        return Done{};
    }
    const std::string value = lowered(given->second);
    const ConfigPosition& at = queue.attributePositions["FifoQueue"];
    if (queue.kind == QueueKind::Fifo && value == "false")
        return configError(at,
                           "FifoQueue false contradicts the name: a queue whose name ends in "
                           ".fifo is a FIFO queue");
    if (queue.kind == QueueKind::Standard && value == "true")
        return configError(at, "FifoQueue true needs a queue name ending in .fifo");
    if (queue.kind == QueueKind::Standard && value == "false") {
        queue.attributes.erase(given);
        queue.attributePositions.erase("FifoQueue");
        queue.attributeNamePositions.erase("FifoQueue");
    }
    return Done{};
}

Status readTags(const Reader& reader, const Field& tags, ConfigQueue& queue)
{
    if (!tags.json->is_object())
        return reader.wrongType(tags, "an object of tag keys and values");
    queue.tagsPosition = reader.at(tags);
    for (const auto& [key, field] : reader.members(tags)) {
        auto value = reader.scalar(field);
        if (!value)
            return reader.wrongType(field, "a string, number or boolean");
        queue.tags[key] = std::move(*value);
    }
    return Done{};
}

// ---- messages ----------------------------------------------------------------------------------

Result<engine::MessageAttributeValue> readMessageAttribute(const Reader& reader, const Field& field)
{
    engine::MessageAttributeValue value;
    if (field.json->is_string()) {
        value.dataType = "String";
        value.stringValue = field.json->get<std::string>();
        return value;
    }
    if (field.json->is_number()) {
        value.dataType = "Number";
        value.stringValue = reader.text(field);
        return value;
    }
    if (!field.json->is_object())
        return reader.wrongType(field, "a string, a number or an object with a DataType");
    bool typed = false;
    for (const auto& [name, member] : reader.members(field)) {
        if (name != "DataType" && name != "StringValue" && name != "BinaryValue")
            return reader.keyError(member,
                                   "unknown key \"" + name
                                       + "\" (a message attribute has DataType, and "
                                         "StringValue or BinaryValue)");
        if (!member.json->is_string())
            return reader.wrongType(member, "a string");
        const std::string& text = member.json->get_ref<const std::string&>();
        if (name == "DataType") {
            value.dataType = text;
            typed = true;
        } else if (name == "StringValue") {
            value.stringValue = text;
        } else {
            auto bytes = text::base64Decode(text);
            if (!bytes)
                return reader.error(member, "BinaryValue is not base64");
            value.binaryValue = std::move(*bytes);
        }
    }
    if (!typed)
        return reader.missing(field, "DataType", "missing: a message attribute needs a DataType");
    return value;
}

Status readMessageAttributes(const Reader& reader, const Field& field, ConfigMessage& message)
{
    if (!field.json->is_object())
        return reader.wrongType(field, "an object of message attributes by name");
    for (const auto& [name, member] : reader.members(field)) {
        auto value = readMessageAttribute(reader, member);
        if (!value)
            return value.error();
        message.request.attributes[name] = std::move(*value);
    }
    return Done{};
}

// One message field into the request; the error names what is wrong with it.
Status readMessageField(const Reader& reader, const std::string& name, const Field& field,
                        QueueKind kind, ConfigMessage& message)
{
    engine::SendMessageRequest& request = message.request;
    const bool oci = kind == QueueKind::Oci;
    if (name == "body") {
        if (field.json->is_string())
            request.body = field.json->get<std::string>();
        else if (field.json->is_object() || field.json->is_array())
            request.body = reader.text(field);
        else
            return reader.wrongType(field, "a string (or an object or list, sent as JSON text)");
        return Done{};
    }
    if (name == "attributes")
        return readMessageAttributes(reader, field, message);
    if (name == "channel") {
        if (!oci)
            return reader.keyError(field, "only messages of OCI queues have a channel");
        if (!field.json->is_string())
            return reader.wrongType(field, "a string");
        request.channelId = field.json->get<std::string>();
        return Done{};
    }
    if (name == "delaySeconds" || name == "groupId" || name == "deduplicationId") {
        if (oci)
            return reader.keyError(field, "messages of OCI queues have no " + name);
        if (name == "delaySeconds") {
            const auto delay = integerOf(*field.json);
            if (!delay)
                return reader.wrongType(field, "an integer");
            request.delaySeconds = *delay;
            return Done{};
        }
        if (!field.json->is_string())
            return reader.wrongType(field, "a string");
        (name == "groupId" ? request.groupId : request.deduplicationId)
            = field.json->get<std::string>();
        return Done{};
    }
    return reader.keyError(field,
                           "unknown key \"" + name
                               + "\" (a message has body, attributes, delaySeconds, "
                                 "groupId, deduplicationId and channel)");
}

Result<ConfigMessage> readMessage(const Reader& reader, const Field& field,
                                  const ConfigQueue& queue)
{
    if (!field.json->is_object())
        return reader.wrongType(field, "an object with a body");
    ConfigMessage message;
    message.position = reader.at(field);
    message.request.queue = queue.name;
    for (const auto& [name, member] : reader.members(field)) {
        if (Status read = readMessageField(reader, name, member, queue.kind, message); !read)
            return read.error();
        message.fields[name] = reader.at(member);
    }
    if (!message.request.body)
        return reader.missing(field, "body", "missing: every message needs a body");
    return message;
}

Status readMessages(const Reader& reader, const Field& list, ConfigQueue& queue)
{
    if (!list.json->is_array())
        return reader.wrongType(list, "a list of messages");
    for (const Field& field : reader.elements(list)) {
        auto message = readMessage(reader, field, queue);
        if (!message)
            return message.error();
        queue.messages.push_back(std::move(*message));
    }
    return Done{};
}

// ---- one queue ---------------------------------------------------------------------------------

struct QueueFields {
    std::optional<Field> name, type, attributes, options, tags, messages;
};

Result<QueueFields> queueFields(const Reader& reader, const Field& entry)
{
    QueueFields fields;
    for (auto& [key, field] : reader.members(entry)) {
        std::optional<Field>* slot = key == "name" ? &fields.name
            : key == "type"                        ? &fields.type
            : key == "attributes"                  ? &fields.attributes
            : key == "options"                     ? &fields.options
            : key == "tags"                        ? &fields.tags
            : key == "messages"                    ? &fields.messages
                                                   : nullptr;
        if (!slot)
            return reader.keyError(field,
                                   "unknown key \"" + key
                                       + "\" (a queue has name, type, attributes, "
                                         "options, tags and messages)");
        *slot = std::move(field);
    }
    return fields;
}

// The attributes (options) on their own, as CreateQueue checks them; the broker checks the rest.
Status checkAttributes(const ConfigQueue& queue)
{
    const auto config
        = engine::configForCreate(withQueueArns(queue.attributes, placeholderArn),
                                  queue.kind == QueueKind::Oci, engine::BrokerOptions{});
    if (!config)
        return configError(positionOfQueueError(queue, config.error()), config.error());
    return Done{};
}

Result<ConfigQueue> readQueue(const Reader& reader, const Field& entry)
{
    if (!entry.json->is_object())
        return reader.wrongType(entry, "an object with a queue's name");
    auto fields = queueFields(reader, entry);
    if (!fields)
        return fields.error();
    ConfigQueue queue;
    queue.position = reader.at(entry);
    queue.tagsPosition = queue.position;
    if (!fields->name)
        return reader.missing(entry, "name", "missing: every queue needs a name");
    const Field& name = *fields->name;
    if (!name.json->is_string())
        return reader.wrongType(name, "a string");
    queue.name = name.json->get<std::string>();
    queue.namePosition = reader.at(name);
    auto kind = readKind(reader, queue.name, fields->type);
    if (!kind)
        return kind.error();
    queue.kind = *kind;
    queue.typePosition = fields->type ? reader.at(*fields->type) : queue.namePosition;
    if (Status valid = engine::validateQueueName(queue.name, queue.kind); !valid)
        return configError(queue.namePosition, valid.error());

    const bool oci = queue.kind == QueueKind::Oci;
    if (oci && fields->attributes)
        return reader.keyError(*fields->attributes,
                               "OCI queues take \"options\", not \"attributes\"");
    if (!oci && fields->options)
        return reader.keyError(*fields->options,
                               "\"options\" are for OCI queues; SQS queues take \"attributes\"");
    if (const auto& settings = oci ? fields->options : fields->attributes)
        if (Status read = readAttributes(reader, *settings, queue); !read)
            return read.error();
    if (!oci)
        if (Status fifo = settleFifoQueue(queue); !fifo)
            return fifo.error();
    if (Status checked = checkAttributes(queue); !checked)
        return checked.error();
    if (fields->tags)
        if (Status read = readTags(reader, *fields->tags, queue); !read)
            return read.error();
    if (fields->messages)
        if (Status read = readMessages(reader, *fields->messages, queue); !read)
            return read.error();
    return queue;
}

// ---- the whole file ----------------------------------------------------------------------------

std::string where(const ConfigPosition& at)
{
    return "line " + std::to_string(at.line) + ", column " + std::to_string(at.column);
}

Status checkUniqueNames(const QueueConfigFile& file)
{
    std::map<std::string_view, const ConfigQueue*> seen;
    for (const ConfigQueue& queue : file.queues) {
        const auto [it, added] = seen.emplace(queue.name, &queue);
        if (!added)
            return configError(queue.namePosition,
                               "queue " + queue.name + " is declared twice (first at "
                                   + where(it->second->namePosition) + ")");
    }
    return Done{};
}

// Every queue after the file's queue its RedrivePolicy names. Each queue names at most one, so the
// chains are followed iteratively; one that comes back to itself is a cycle.
Status orderForCreation(QueueConfigFile& file)
{
    std::map<std::string_view, std::size_t> index;
    for (std::size_t i = 0; i < file.queues.size(); ++i)
        index.emplace(file.queues[i].name, i);
    const auto targetOf = [&](std::size_t i) -> std::optional<std::size_t> {
        const auto it = index.find(file.queues[i].deadLetterTarget);
        return it == index.end() ? std::nullopt : std::optional(it->second);
    };
    enum class Mark : std::uint8_t { New, OnChain, Placed };
    std::vector<Mark> marks(file.queues.size(), Mark::New);
    for (std::size_t start = 0; start < file.queues.size(); ++start) {
        std::vector<std::size_t> chain;
        std::optional<std::size_t> next = start;
        while (next && marks[*next] == Mark::New) {
            marks[*next] = Mark::OnChain;
            chain.push_back(*next);
            next = targetOf(*next);
        }
        if (next && marks[*next] == Mark::OnChain) {
            // The cycle is the chain from *next on; report it at its first queue in the file.
            std::size_t first = *next;
            for (std::size_t i = *next; (i = *targetOf(i)) != *next;)
                first = std::min(first, i);
            std::string cycle = file.queues[first].name;
            for (std::size_t i = *targetOf(first);; i = *targetOf(i)) {
                cycle += " -> " + file.queues[i].name;
                if (i == first)
                    break;
            }
            return configError(file.queues[first].deadLetterTargetPosition,
                               "the redrive policies form a cycle: " + cycle);
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            marks[*it] = Mark::Placed;
            file.creationOrder.push_back(*it);
        }
    }
    return Done{};
}

Result<QueueConfigFile> readFile(const Reader& reader)
{
    const Field root = reader.root();
    if (!root.json->is_object())
        return reader.wrongType(root, "an object with \"queues\"");
    std::optional<Field> queues;
    for (auto& [key, field] : reader.members(root)) {
        if (key == "version") {
            if (!field.json->is_number_integer() || *field.json != 1)
                return reader.error(field, "this Inflight reads version 1 only");
        } else if (key == "queues") {
            queues = std::move(field);
        } else {
            return reader.keyError(
                field, "unknown key \"" + key + "\" (a file has \"version\" and \"queues\")");
        }
    }
    if (!queues)
        return reader.missing(root, "queues", "missing: the list of queues");
    if (!queues->json->is_array())
        return reader.wrongType(*queues, "a list of queues");
    QueueConfigFile file;
    for (const Field& entry : reader.elements(*queues)) {
        auto queue = readQueue(reader, entry);
        if (!queue)
            return queue.error();
        file.queues.push_back(std::move(*queue));
    }
    if (Status unique = checkUniqueNames(file); !unique)
        return unique.error();
    if (Status ordered = orderForCreation(file); !ordered)
        return ordered.error();
    return file;
}

ConfigPosition textPosition(std::string_view text, std::size_t offset, std::string path)
{
    const auto [line, column] = LineIndex(text).at(offset);
    return ConfigPosition{line, column, std::move(path)};
}

} // namespace

engine::Result<QueueConfigFile> parseQueueConfig(std::string_view json)
{
    if (json.size() > kMaxConfigBytes)
        return configError(ConfigPosition{},
                           "the file has " + std::to_string(json.size())
                               + " bytes; at most 16 MiB (" + std::to_string(kMaxConfigBytes)
                               + " bytes) are read");
    SyntaxCheck syntax;
    Json::sax_parse(json.begin(), json.end(), &syntax);
    if (syntax.tooDeep()) {
        const JsonScan scan = scanJson(json, kMaxConfigDepth);
        const std::size_t offset = scan.tooDeep ? scan.tooDeep->offset : 0;
        return configError(textPosition(json, offset, scan.pathAtStop),
                           "nested deeper than " + std::to_string(kMaxConfigDepth) + " levels");
    }
    if (syntax.error()) {
        // nlohmann counts the bytes read, the failing one included.
        const std::size_t offset
            = std::min(json.size(), syntax.errorByte() - (syntax.errorByte() > 0));
        const JsonScan scan = scanJson(json, kMaxConfigDepth, offset);
        return configError(textPosition(json, offset, scan.pathAtStop),
                           syntaxMessage(*syntax.error()));
    }
    const Json root = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
    const JsonScan scan = scanJson(json, kMaxConfigDepth);
    if (scan.duplicate)
        return configError(textPosition(json, scan.duplicate->offset, scan.duplicate->path),
                           "this name is given twice in one object");
    if (root.is_discarded() || scan.nodes.empty())
        return configError(ConfigPosition{}, "malformed JSON");
    return readFile(Reader(json, scan.nodes, root));
}

engine::StringMap withQueueArns(const engine::StringMap& attributes,
                                const std::function<std::string(const std::string&)>& arnFor)
{
    engine::StringMap result = attributes;
    const auto resolve = [&](Json& value) {
        if (!value.is_string() || value.get_ref<const std::string&>().starts_with("arn:"))
            return false;
        value = arnFor(value.get<std::string>());
        return true;
    };
    if (const auto it = result.find("RedrivePolicy"); it != result.end()) {
        Json policy = Json::parse(it->second, nullptr, false);
        if (policy.is_object() && policy.contains("deadLetterTargetArn")
            && resolve(policy["deadLetterTargetArn"]))
            it->second = policy.dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    if (const auto it = result.find("RedriveAllowPolicy"); it != result.end()) {
        Json policy = Json::parse(it->second, nullptr, false);
        bool changed = false;
        if (policy.is_object() && policy.contains("sourceQueueArns")
            && policy["sourceQueueArns"].is_array())
            for (Json& source : policy["sourceQueueArns"])
                changed = resolve(source) || changed;
        if (changed)
            it->second = policy.dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    return result;
}

} // namespace inflight::config
