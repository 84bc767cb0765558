#include "run_setup.h"

#include "config/queue_config_file.h"
#include "session/session.h"

#include <QFile>

namespace inflight::app {

namespace {

QString loadScenario(session::Session& session, const RunOptions& options, bool playLesson)
{
    if (!options.scenario)
        return {};
    const auto loaded = session.loadScenario(
        *options.scenario, session::Session::ScenarioLoad{.clock = false, .lesson = playLesson});
    if (!loaded)
        return QStringLiteral("--scenario %1: %2")
            .arg(options.scenarioPath, QString::fromStdString(loaded.error().message));
    return {};
}

} // namespace

Status readScenario(RunOptions& options)
{
    if (options.scenarioPath.isEmpty())
        return engine::Done{};
    QFile file(options.scenarioPath);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("--scenario %1: %2").arg(options.scenarioPath, file.errorString());
    const QByteArray text = file.readAll();
    auto parsed = sim::parseScenario(
        std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    if (!parsed)
        return QStringLiteral("--scenario %1: %2")
            .arg(options.scenarioPath, QString::fromStdString(parsed.error().message));
    const sim::Scenario& scenario = *parsed;
    if (!options.seeded)
        options.seed = scenario.seed; // the engine's ids; the command line's --seed wins
    if (!options.inFlightLimit && scenario.inFlightLimit)
        options.inFlightLimit = scenario.inFlightLimit;
    if (!options.start && scenario.clock.start)
        options.start = scenario.clock.start;
    if (!options.speed)
        options.speed = scenario.clock.speed;
    options.frozen = options.frozen || scenario.clock.paused;
    options.scenario = std::move(*parsed);
    return engine::Done{};
}

QString applyRunOptions(session::Session& session, const RunOptions& options, bool playLesson)
{
    if (options.speed)
        session.setSpeed(*options.speed);
    if (options.frozen)
        session.pause();
    if (options.configPath.isEmpty())
        return loadScenario(session, options, playLesson);
    QFile file(options.configPath);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("--config %1: %2").arg(options.configPath, file.errorString());
    const QByteArray text = file.readAll();
    const auto parsed = config::parseQueueConfig(
        std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    if (!parsed)
        return QStringLiteral("--config %1: %2")
            .arg(options.configPath, QString::fromStdString(parsed.error().message));
    const auto applied = config::applyQueueConfig(session.broker(), *parsed, "config file");
    if (!applied)
        return QStringLiteral("--config %1: %2")
            .arg(options.configPath, QString::fromStdString(applied.error().message));
    session.advanceNow();
    return loadScenario(session, options, playLesson);
}

} // namespace inflight::app
