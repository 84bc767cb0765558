#pragma once

#include "engine/clock.h"
#include "engine/error.h"
#include "engine/types.h"
#include "ui/models/model_text.h"

#include <QLocale>
#include <QString>

#include <cstdint>
#include <string>

// Text helpers of the window, beside the models' own (model_text.h: toQString, formatEngineTime,
// formatTimeLeft, shortId, …).
namespace inflight::ui {

inline std::string toStdString(const QString& text)
{
    return text.toStdString();
}

// "InvalidParameterValue: Value 50000 for parameter VisibilityTimeout is invalid. …" — the
// service's code and message, as the window shows every engine error.
inline QString describeError(const engine::Error& error)
{
    return toQString(engine::describe(error));
}

// "1 message", "3 messages" (the window ships no translations, so plurals are spelled here).
inline QString messagesText(qint64 count)
{
    return count == 1 ? QStringLiteral("1 message")
                      : QStringLiteral("%1 messages").arg(QLocale().toString(count));
}

// A whole-number queue attribute ("VisibilityTimeout", "timeoutInSeconds", …) from a
// GetQueueAttributes map, or `fallback` when absent or not a number.
int attributeInt(const engine::StringMap& attributes, const char* name, int fallback);

// A message attribute's value as the window shows it: the string, or the bytes in base64.
QString attributeValueText(const engine::MessageAttributeValue& value);

// Engine time with its date ("2025-11-30 14:03:07").
QString formatEngineDateTime(engine::Millis time);

// Seconds left until `deadline`, rounded up, never negative: the remaining visibility a receipt
// still holds, as ChangeMessageVisibility counts it.
std::int64_t secondsUntil(engine::Millis deadline, engine::Millis now);

// The origin the window passes on every broker call, shown in the event log and timeline.
inline engine::Origin windowOrigin()
{
    return engine::Origin{"window"};
}

} // namespace inflight::ui
