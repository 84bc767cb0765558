#include "run_setup.h"

#include "control/queue_config_file.h"
#include "session/session.h"

#include <QFile>

namespace inflight::app {

QString applyRunOptions(session::Session& session, const RunOptions& options)
{
    if (options.speed)
        session.setSpeed(*options.speed);
    if (options.frozen)
        session.pause();
    if (options.configPath.isEmpty())
        return {};
    QFile file(options.configPath);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("--config %1: %2").arg(options.configPath, file.errorString());
    const QByteArray text = file.readAll();
    const auto parsed = control::parseQueueConfig(
        std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    if (!parsed)
        return QStringLiteral("--config %1: %2")
            .arg(options.configPath, QString::fromStdString(parsed.error().message));
    const auto applied = control::applyQueueConfig(session.broker(), *parsed, "config file");
    if (!applied)
        return QStringLiteral("--config %1: %2")
            .arg(options.configPath, QString::fromStdString(applied.error().message));
    session.advanceNow();
    return {};
}

} // namespace inflight::app
