#include "ui/widgets/engine_text.h"

#include <QByteArray>
#include <QDateTime>

namespace inflight::ui {

QString formatEngineDateTime(engine::Millis time)
{
    return QDateTime::fromMSecsSinceEpoch(time).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString attributeValueText(const engine::MessageAttributeValue& value)
{
    if (value.isBinary())
        return QString::fromLatin1(QByteArray::fromStdString(value.binaryValue).toBase64());
    return toQString(value.stringValue);
}

int attributeInt(const engine::StringMap& attributes, const char* name, int fallback)
{
    const auto it = attributes.find(name);
    if (it == attributes.end())
        return fallback;
    bool ok = false;
    const int value = toQString(it->second).toInt(&ok);
    return ok ? value : fallback;
}

std::int64_t secondsUntil(engine::Millis deadline, engine::Millis now)
{
    if (deadline <= now)
        return 0;
    return (deadline - now + engine::kSecond - 1) / engine::kSecond;
}

} // namespace inflight::ui
