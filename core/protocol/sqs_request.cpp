#include "protocol/sqs_request.h"

#include <QJsonArray>
#include <QLocale>
#include <QVariant>

namespace inflight::protocol {

namespace {

std::optional<QString> scalarText(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::String: return value.toString();
    case QJsonValue::Bool: return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const QVariant number = value.toVariant();
        if (number.typeId() == QMetaType::LongLong)
            return QString::number(number.toLongLong());
        return QString::number(value.toDouble(), 'g', QLocale::FloatingPointShortest);
    }
    default: return std::nullopt;
    }
}

engine::Error invalidValue(const QString& parameter, const QString& value, const char* reason)
{
    return engine::makeError(engine::ErrorCode::InvalidParameterValue,
                             (QStringLiteral("Value ") + value + QStringLiteral(" for parameter ")
                              + parameter + QStringLiteral(" is invalid. Reason: ")
                              + QLatin1String(reason))
                                 .toStdString(),
                             parameter.toStdString());
}

} // namespace

SqsRequest::SqsRequest(QString action, QJsonObject members)
    : m_action(std::move(action)), m_members(std::move(members))
{
}

bool SqsRequest::has(const QString& key) const
{
    const QJsonValue value = m_members.value(key);
    return !value.isUndefined() && !value.isNull();
}

std::optional<std::string> SqsRequest::string(const QString& key) const
{
    if (auto text = scalarText(m_members.value(key)))
        return text->toStdString();
    return std::nullopt;
}

engine::Result<std::optional<std::int64_t>> SqsRequest::integer(const QString& key) const
{
    const QJsonValue value = m_members.value(key);
    if (value.isUndefined() || value.isNull())
        return std::optional<std::int64_t>();
    if (value.isDouble()) {
        const double d = value.toDouble();
        const qint64 i = value.toInteger();
        if (static_cast<double>(i) == d)
            return std::optional<std::int64_t>(i);
    } else if (value.isString()) {
        bool ok = false;
        const qlonglong i = value.toString().toLongLong(&ok, 10);
        if (ok)
            return std::optional<std::int64_t>(i);
    }
    return invalidValue(key, scalarText(value).value_or(QString()), "Must be an integer.");
}

std::vector<std::string> SqsRequest::stringList(const QString& key) const
{
    std::vector<std::string> result;
    const QJsonArray array = m_members.value(key).toArray();
    result.reserve(array.size());
    for (const QJsonValue& item : array) {
        if (auto text = scalarText(item))
            result.push_back(text->toStdString());
    }
    return result;
}

engine::StringMap SqsRequest::stringMap(const QString& key) const
{
    engine::StringMap result;
    const QJsonObject object = m_members.value(key).toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (auto text = scalarText(it.value()))
            result.emplace(it.key().toStdString(), text->toStdString());
    }
    return result;
}

engine::Result<engine::MessageAttributes> SqsRequest::messageAttributes(const QString& key) const
{
    engine::MessageAttributes result;
    const QJsonObject object = m_members.value(key).toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QJsonObject value = it.value().toObject();
        engine::MessageAttributeValue attribute;
        attribute.dataType
            = scalarText(value.value(QStringLiteral("DataType"))).value_or(QString()).toStdString();
        attribute.stringValue = scalarText(value.value(QStringLiteral("StringValue")))
                                    .value_or(QString())
                                    .toStdString();
        const QString binary = value.value(QStringLiteral("BinaryValue")).toString();
        if (!binary.isEmpty()) {
            auto decoded = QByteArray::fromBase64Encoding(binary.toLatin1(),
                                                          QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded)
                return invalidValue(key + QLatin1Char('.') + it.key()
                                        + QStringLiteral(".BinaryValue"),
                                    binary, "Must be base64-encoded binary data.");
            attribute.binaryValue = decoded.decoded.toStdString();
        }
        result.emplace(it.key().toStdString(), std::move(attribute));
    }
    return result;
}

std::vector<SqsRequest> SqsRequest::entries(const QString& key) const
{
    std::vector<SqsRequest> result;
    const QJsonArray array = m_members.value(key).toArray();
    result.reserve(array.size());
    for (const QJsonValue& item : array)
        result.emplace_back(m_action, item.toObject());
    return result;
}

engine::Error SqsRequest::missing(const QString& parameter)
{
    return engine::makeError(
        engine::ErrorCode::MissingParameter,
        (QStringLiteral("The request must contain the parameter ") + parameter + QLatin1Char('.'))
            .toStdString(),
        parameter.toStdString());
}

} // namespace inflight::protocol
