#include "ui/widgets/engine_text.h"

#include <QDateTime>

namespace inflight::ui {

QString formatEngineDateTime(engine::Millis time)
{
    return QDateTime::fromMSecsSinceEpoch(time).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

std::int64_t secondsUntil(engine::Millis deadline, engine::Millis now)
{
    if (deadline <= now)
        return 0;
    return (deadline - now + engine::kSecond - 1) / engine::kSecond;
}

} // namespace inflight::ui
