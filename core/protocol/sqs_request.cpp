#include "protocol/sqs_request.h"

#include <QByteArray>

#include <charconv>
#include <climits>
#include <cmath>

namespace inflight::protocol {

namespace {

using Node = SqsRequest::Node;
using Kind = MemberTree::Kind;

std::optional<std::string> scalarText(const Node& value)
{
    switch (value.kind) {
    case Kind::String: return std::string(value.text);
    case Kind::Boolean: return value.boolean ? "true" : "false";
    case Kind::Integer: return std::to_string(value.integer);
    case Kind::Unsigned: return std::to_string(value.unsignedInteger);
    case Kind::Float: {
        char text[32];
        const auto end = std::to_chars(text, text + sizeof text, value.real).ptr;
        return std::string(text, end); // the shortest form that reads back the same
    }
    default: return std::nullopt;
    }
}

engine::Error invalidValue(std::string_view parameter, std::string_view value, const char* reason)
{
    std::string message = "Value ";
    message += value;
    message += " for parameter ";
    message += parameter;
    message += " is invalid. Reason: ";
    message += reason;
    return engine::makeError(engine::ErrorCode::InvalidParameterValue, std::move(message),
                             std::string(parameter));
}

} // namespace

SqsRequest::SqsRequest(QString action) : m_action(std::move(action))
{
}

SqsRequest::SqsRequest(QString action, std::shared_ptr<const MemberTree> tree)
    : m_action(std::move(action)), m_tree(std::move(tree))
{
    if (m_tree && m_tree->root().kind == Kind::Object)
        m_members = &m_tree->root();
}

SqsRequest::SqsRequest(QString action, std::shared_ptr<const MemberTree> tree, const Node* members)
    : m_action(std::move(action)), m_tree(std::move(tree)), m_members(members)
{
}

const Node* SqsRequest::find(std::string_view key) const
{
    if (!m_members)
        return nullptr;
    const Node* member = m_tree->find(*m_members, key);
    return member && member->kind != Kind::Null ? member : nullptr;
}

nlohmann::json SqsRequest::membersJson() const
{
    return m_members ? m_tree->toJson(*m_members) : nlohmann::json();
}

bool SqsRequest::has(std::string_view key) const
{
    return find(key) != nullptr;
}

std::optional<std::string> SqsRequest::string(std::string_view key) const
{
    if (const Node* value = find(key))
        return scalarText(*value);
    return std::nullopt;
}

std::optional<std::string_view> SqsRequest::text(std::string_view key) const
{
    if (const Node* value = find(key); value && value->kind == Kind::String)
        return value->text;
    return std::nullopt;
}

engine::Result<std::optional<std::int64_t>> SqsRequest::integer(std::string_view key) const
{
    const Node* value = find(key);
    if (!value)
        return std::optional<std::int64_t>();
    switch (value->kind) {
    case Kind::Unsigned:
        if (value->unsignedInteger <= std::uint64_t(LLONG_MAX))
            return std::optional<std::int64_t>(std::int64_t(value->unsignedInteger));
        break;
    case Kind::Integer: return std::optional<std::int64_t>(value->integer);
    case Kind::Float: {
        // 5.0 is the integer 5, as a JSON number without a fraction would be.
        const double d = value->real;
        if (std::trunc(d) == d && std::fabs(d) < 9.2e18)
            return std::optional<std::int64_t>(static_cast<std::int64_t>(d));
        break;
    }
    case Kind::String: {
        // Decimal, surrounding white space allowed, as QString::toLongLong reads it.
        bool ok = false;
        const qlonglong i
            = QByteArray::fromRawData(value->text.data(), qsizetype(value->text.size()))
                  .toLongLong(&ok, 10);
        if (ok)
            return std::optional<std::int64_t>(i);
        break;
    }
    default: break;
    }
    return invalidValue(key, scalarText(*value).value_or(std::string()), "Must be an integer.");
}

std::vector<std::string> SqsRequest::stringList(std::string_view key) const
{
    std::vector<std::string> result;
    const Node* array = find(key);
    if (!array || array->kind != Kind::Array)
        return result;
    result.reserve(array->count);
    for (const Node& item : m_tree->children(*array)) {
        if (auto text = scalarText(item))
            result.push_back(std::move(*text));
    }
    return result;
}

engine::StringMap SqsRequest::stringMap(std::string_view key) const
{
    engine::StringMap result;
    const Node* object = find(key);
    if (!object || object->kind != Kind::Object)
        return result;
    for (const Node& member : m_tree->children(*object)) {
        if (auto text = scalarText(member))
            result.emplace(std::string(member.key), std::move(*text));
    }
    return result;
}

engine::Result<engine::MessageAttributes> SqsRequest::messageAttributes(std::string_view key) const
{
    engine::MessageAttributes result;
    const Node* object = find(key);
    if (!object || object->kind != Kind::Object)
        return result;
    static const Node kAbsent{};
    const auto field = [this](const Node& attribute, std::string_view name) -> const Node& {
        const Node* found = m_tree->find(attribute, name);
        return found ? *found : kAbsent;
    };
    for (const Node& value : m_tree->children(*object)) {
        engine::MessageAttributeValue attribute;
        attribute.dataType = scalarText(field(value, "DataType")).value_or(std::string());
        attribute.stringValue = scalarText(field(value, "StringValue")).value_or(std::string());
        const Node& binary = field(value, "BinaryValue");
        if (binary.kind == Kind::String && !binary.text.empty()) {
            auto decoded = QByteArray::fromBase64Encoding(
                QByteArray::fromRawData(binary.text.data(), qsizetype(binary.text.size())),
                QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded)
                return invalidValue(std::string(key) + '.' + std::string(value.key)
                                        + ".BinaryValue",
                                    binary.text, "Must be base64-encoded binary data.");
            attribute.binaryValue = decoded.decoded.toStdString();
        }
        result.emplace(std::string(value.key), std::move(attribute));
    }
    return result;
}

std::vector<SqsRequest> SqsRequest::entries(std::string_view key) const
{
    std::vector<SqsRequest> result;
    const Node* array = find(key);
    if (!array || array->kind != Kind::Array)
        return result;
    result.reserve(array->count);
    for (const Node& item : m_tree->children(*array))
        result.push_back(SqsRequest(m_action, m_tree, item.kind == Kind::Object ? &item : nullptr));
    return result;
}

engine::Error SqsRequest::missing(std::string_view parameter)
{
    std::string message = "The request must contain the parameter ";
    message += parameter;
    message += '.';
    return engine::makeError(engine::ErrorCode::MissingParameter, std::move(message),
                             std::string(parameter));
}

} // namespace inflight::protocol
