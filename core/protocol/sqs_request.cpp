#include "protocol/sqs_request.h"

#include <QByteArray>

#include <charconv>
#include <climits>
#include <cmath>

namespace inflight::protocol {

namespace {

using Members = SqsRequest::Members;

std::optional<std::string> scalarText(const Members& value)
{
    switch (value.type()) {
    case Members::value_t::string: return value.get_ref<const std::string&>();
    case Members::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case Members::value_t::number_integer: return std::to_string(value.get<std::int64_t>());
    case Members::value_t::number_unsigned: return std::to_string(value.get<std::uint64_t>());
    case Members::value_t::number_float: {
        char text[32];
        const auto end = std::to_chars(text, text + sizeof text, value.get<double>()).ptr;
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

SqsRequest::SqsRequest(QString action, Members members)
    : m_action(std::move(action)), m_root(std::make_shared<const Members>(std::move(members)))
{
    if (m_root->is_object())
        m_members = m_root.get();
}

SqsRequest::SqsRequest(QString action, std::shared_ptr<const Members> root, const Members* members)
    : m_action(std::move(action)), m_root(std::move(root)), m_members(members)
{
}

const Members* SqsRequest::find(std::string_view key) const
{
    if (!m_members)
        return nullptr;
    const auto it = m_members->find(key);
    if (it == m_members->end() || it->is_null())
        return nullptr;
    return &*it;
}

const SqsRequest::Members& SqsRequest::members() const
{
    static const Members kNone;
    return m_members ? *m_members : kNone;
}

bool SqsRequest::has(std::string_view key) const
{
    return find(key) != nullptr;
}

std::optional<std::string> SqsRequest::string(std::string_view key) const
{
    if (const Members* value = find(key))
        return scalarText(*value);
    return std::nullopt;
}

engine::Result<std::optional<std::int64_t>> SqsRequest::integer(std::string_view key) const
{
    const Members* value = find(key);
    if (!value)
        return std::optional<std::int64_t>();
    if (value->is_number_unsigned()) {
        const std::uint64_t u = value->get<std::uint64_t>();
        if (u <= std::uint64_t(LLONG_MAX))
            return std::optional<std::int64_t>(std::int64_t(u));
    } else if (value->is_number_integer()) {
        return std::optional<std::int64_t>(value->get<std::int64_t>());
    } else if (value->is_number_float()) {
        // 5.0 is the integer 5, as a JSON number without a fraction would be.
        const double d = value->get<double>();
        if (std::trunc(d) == d && std::fabs(d) < 9.2e18)
            return std::optional<std::int64_t>(static_cast<std::int64_t>(d));
    } else if (value->is_string()) {
        // Decimal, surrounding white space allowed, as QString::toLongLong reads it.
        const std::string& text = value->get_ref<const std::string&>();
        bool ok = false;
        const qlonglong i
            = QByteArray::fromRawData(text.data(), qsizetype(text.size())).toLongLong(&ok, 10);
        if (ok)
            return std::optional<std::int64_t>(i);
    }
    return invalidValue(key, scalarText(*value).value_or(std::string()), "Must be an integer.");
}

std::vector<std::string> SqsRequest::stringList(std::string_view key) const
{
    std::vector<std::string> result;
    const Members* array = find(key);
    if (!array || !array->is_array())
        return result;
    result.reserve(array->size());
    for (const Members& item : *array) {
        if (auto text = scalarText(item))
            result.push_back(std::move(*text));
    }
    return result;
}

engine::StringMap SqsRequest::stringMap(std::string_view key) const
{
    engine::StringMap result;
    const Members* object = find(key);
    if (!object || !object->is_object())
        return result;
    for (auto it = object->begin(); it != object->end(); ++it) {
        if (auto text = scalarText(it.value()))
            result.emplace(it.key(), std::move(*text));
    }
    return result;
}

engine::Result<engine::MessageAttributes> SqsRequest::messageAttributes(std::string_view key) const
{
    engine::MessageAttributes result;
    const Members* object = find(key);
    if (!object || !object->is_object())
        return result;
    static const Members kAbsent;
    const auto field = [](const Members& attribute, const char* name) -> const Members& {
        if (!attribute.is_object())
            return kAbsent;
        const auto it = attribute.find(name);
        return it == attribute.end() ? kAbsent : *it;
    };
    for (auto it = object->begin(); it != object->end(); ++it) {
        const Members& value = it.value();
        engine::MessageAttributeValue attribute;
        attribute.dataType = scalarText(field(value, "DataType")).value_or(std::string());
        attribute.stringValue = scalarText(field(value, "StringValue")).value_or(std::string());
        const Members& binary = field(value, "BinaryValue");
        if (binary.is_string() && !binary.get_ref<const std::string&>().empty()) {
            const std::string& text = binary.get_ref<const std::string&>();
            auto decoded = QByteArray::fromBase64Encoding(
                QByteArray::fromRawData(text.data(), qsizetype(text.size())),
                QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded)
                return invalidValue(std::string(key) + '.' + it.key() + ".BinaryValue", text,
                                    "Must be base64-encoded binary data.");
            attribute.binaryValue = decoded.decoded.toStdString();
        }
        result.emplace(it.key(), std::move(attribute));
    }
    return result;
}

std::vector<SqsRequest> SqsRequest::entries(std::string_view key) const
{
    std::vector<SqsRequest> result;
    const Members* array = find(key);
    if (!array || !array->is_array())
        return result;
    result.reserve(array->size());
    for (const Members& item : *array)
        result.push_back(SqsRequest(m_action, m_root, item.is_object() ? &item : nullptr));
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
