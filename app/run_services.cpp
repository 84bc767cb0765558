#include "run_services.h"

#include <QCoreApplication>

namespace inflight::app {

workspace::SessionSettings sessionSettings(const RunOptions& run)
{
    workspace::SessionSettings settings;
    settings.broker.seed = run.seed;
    if (run.inFlightLimit)
        settings.broker.inFlightLimitStandard = settings.broker.inFlightLimitFifo
            = *run.inFlightLimit;
    settings.start = run.start;
    settings.frozen = run.frozen;
    return settings;
}

std::unique_ptr<control::ControlApi> controlApi(session::Session& session, const RunOptions& run,
                                                const traffic::TrafficLog* traffic,
                                                std::uint64_t firstCursor)
{
    if (!run.control)
        return nullptr;
    return std::make_unique<control::ControlApi>(
        session,
        control::ControlOptions{.version = QCoreApplication::applicationVersion(),
                                .token = run.controlToken,
                                .firstCursor = firstCursor,
                                .traffic = traffic});
}

Result<Traffic> trafficLog(const RunOptions& run)
{
    Traffic traffic;
    if (!run.trafficLog)
        return traffic;
    traffic.log = std::make_unique<traffic::TrafficLog>();
    if (!run.trafficLogPath.isEmpty()) {
        traffic.file = std::make_unique<traffic::TrafficFile>(*traffic.log);
        if (!traffic.file->open(run.trafficLogPath))
            return QStringLiteral("--traffic-log %1: %2")
                .arg(run.trafficLogPath, traffic.file->errorString());
    }
    return traffic;
}

} // namespace inflight::app
