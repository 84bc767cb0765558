#include "run_options.h"

#include <QDateTime>
#include <QUrl>

#include <random>

namespace inflight::app {

namespace {

// "2030-01-01T00:00:00Z" (ISO 8601; UTC unless it names an offset) or epoch milliseconds.
std::optional<engine::Millis> parseTime(const QString& text)
{
    bool isNumber = false;
    const qint64 millis = text.toLongLong(&isNumber);
    if (isNumber)
        return millis >= 0 ? std::optional<engine::Millis>(millis) : std::nullopt;
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid())
        return std::nullopt;
    if (time.timeSpec() == Qt::LocalTime && !text.contains(QLatin1Char('+'))
        && !text.endsWith(QLatin1Char('Z')))
        time.setTimeSpec(Qt::UTC); // no zone given: UTC, so a run is the same everywhere
    return time.toMSecsSinceEpoch();
}

std::uint64_t entropySeed()
{
    std::random_device device;
    const std::uint64_t seed = (std::uint64_t(device()) << 32) ^ device();
    return seed == 0 ? 1 : seed;
}

} // namespace

RunOptionParser::RunOptionParser(QCommandLineParser& parser)
    : m_clock(
        QStringLiteral("clock"),
        QStringLiteral("running (default) or frozen: engine time then moves only through "
                       "the control API (POST /_inflight/v1/clock) or the window's controls."),
        QStringLiteral("mode")),
      m_speed(QStringLiteral("speed"),
              QStringLiteral("Engine time runs this many times as fast as the wall clock."),
              QStringLiteral("n")),
      m_start(QStringLiteral("start"),
              QStringLiteral("Engine time at start, ISO 8601 (UTC unless an offset is given) or "
                             "epoch milliseconds; for memory or a new workspace."),
              QStringLiteral("time")),
      m_seed(QStringLiteral("seed"),
             QStringLiteral("Make ids reproducible: the same seed gives the same message ids, "
                            "receipts and request ids. Without it they never repeat across runs."),
             QStringLiteral("n")),
      m_config(QStringLiteral("config"),
               QStringLiteral("Create the queues of this JSON file at start (README: \"Queues from "
                              "a file\"); queues that exist are updated, not duplicated."),
               QStringLiteral("file")),
      m_control(QStringLiteral("control"),
                QStringLiteral("on (default) or off: the control API under /_inflight/v1/ on the "
                               "endpoint's port."),
                QStringLiteral("on|off")),
      m_controlToken(QStringLiteral("control-token"),
                     QStringLiteral("Let peers that are not on loopback use the control API with "
                                    "\"Authorization: Bearer TOKEN\"."),
                     QStringLiteral("token")),
      m_advertisedUrl(QStringLiteral("advertised-url"),
                      QStringLiteral("The scheme, host and port put into queue URLs, when clients "
                                     "reach the endpoint by another address (Docker port mapping, "
                                     "a proxy, a tunnel); its host passes the Host check."),
                      QStringLiteral("url")),
      m_inFlightLimit(
          QStringLiteral("in-flight-limit"),
          QStringLiteral("Messages a queue may have in flight (SQS: 120000), lowered so "
                         "a test reaches the limit in a few calls."),
          QStringLiteral("n")),
      m_trafficLog(QStringLiteral("traffic-log"),
                   QStringLiteral("Append every request the endpoint handles to this file, one "
                                  "JSON object a line (README: \"The traffic log\"); off: keep "
                                  "no traffic log at all, not even in memory."),
                   QStringLiteral("file|off")),
      m_scenario(QStringLiteral("scenario"),
                 QStringLiteral("Run this scenario file (README: \"Simulations and lessons\"; "
                                "resources/scenarios/ has the lessons'): its queues, its producers "
                                "and consumers on engine time, its clock and seed where --speed, "
                                "--start, --clock and --seed do not say otherwise. A bad file "
                                "starts nothing: exit 2 with its line, column and field."),
                 QStringLiteral("file")),
      m_sync(QStringLiteral("sync"),
             QStringLiteral("The workspace's sync mode, saved in it (README \"Workspaces\"): "
                            "normal (the default): changes reach the disk within a second; a "
                            "crash of the app loses nothing, a power cut at most the last second. "
                            "full: each change is on the disk before it is answered (survives a "
                            "power cut; slower)."),
             QStringLiteral("full|normal"))
{
    for (const QCommandLineOption* option :
         {&m_clock, &m_speed, &m_start, &m_seed, &m_config, &m_control, &m_controlToken,
          &m_advertisedUrl, &m_inFlightLimit, &m_trafficLog, &m_scenario, &m_sync})
        parser.addOption(*option);
}

Result<RunOptions> RunOptionParser::options(const QCommandLineParser& parser) const
{
    RunOptions options;
    if (parser.isSet(m_clock)) {
        const QString mode = parser.value(m_clock);
        if (mode != QStringLiteral("frozen") && mode != QStringLiteral("running"))
            return QStringLiteral("--clock wants frozen or running, not %1").arg(mode);
        options.frozen = mode == QStringLiteral("frozen");
    }
    if (parser.isSet(m_speed)) {
        bool ok = false;
        const double speed = parser.value(m_speed).toDouble(&ok);
        if (!ok || speed <= 0 || speed > 100'000)
            return QStringLiteral("--speed wants a number above 0 and at most 100000, not %1")
                .arg(parser.value(m_speed));
        options.speed = speed;
    }
    if (parser.isSet(m_start)) {
        options.start = parseTime(parser.value(m_start));
        if (!options.start)
            return QStringLiteral("--start wants an ISO 8601 time (2030-01-01T00:00:00Z) or epoch "
                                  "milliseconds, not %1")
                .arg(parser.value(m_start));
    }
    if (parser.isSet(m_seed)) {
        bool ok = false;
        options.seed = parser.value(m_seed).toULongLong(&ok);
        if (!ok)
            return QStringLiteral("--seed wants a whole number, not %1").arg(parser.value(m_seed));
        options.seeded = true;
    } else {
        options.seed = entropySeed();
    }
    options.configPath = parser.value(m_config);
    options.scenarioPath = parser.value(m_scenario);
    if (parser.isSet(m_control)) {
        const QString mode = parser.value(m_control);
        if (mode != QStringLiteral("on") && mode != QStringLiteral("off"))
            return QStringLiteral("--control wants on or off, not %1").arg(mode);
        options.control = mode == QStringLiteral("on");
    }
    options.controlToken = parser.value(m_controlToken);
    if (parser.isSet(m_advertisedUrl)) {
        QString url = parser.value(m_advertisedUrl);
        while (url.endsWith(QLatin1Char('/')))
            url.chop(1);
        const QUrl parsed(url, QUrl::StrictMode);
        if (!parsed.isValid()
            || (parsed.scheme() != QStringLiteral("http")
                && parsed.scheme() != QStringLiteral("https"))
            || parsed.host().isEmpty() || !parsed.path().isEmpty())
            return QStringLiteral("--advertised-url wants http://HOST[:PORT] (or https), not %1")
                .arg(parser.value(m_advertisedUrl));
        options.advertisedUrl = url;
    }
    if (parser.isSet(m_inFlightLimit)) {
        bool ok = false;
        const qlonglong limit = parser.value(m_inFlightLimit).toLongLong(&ok);
        if (!ok || limit < 1 || limit > 120'000)
            return QStringLiteral("--in-flight-limit wants a whole number from 1 to 120000, not %1")
                .arg(parser.value(m_inFlightLimit));
        options.inFlightLimit = limit;
    }
    if (parser.isSet(m_trafficLog)) {
        const QString value = parser.value(m_trafficLog);
        if (value.isEmpty())
            return QStringLiteral("--traffic-log wants a file or off");
        options.trafficLog = value != QStringLiteral("off");
        if (options.trafficLog)
            options.trafficLogPath = value;
    }
    if (parser.isSet(m_sync)) {
        options.sync = store::syncModeFromName(parser.value(m_sync).toStdString());
        if (!options.sync)
            return QStringLiteral("--sync wants full or normal, not %1").arg(parser.value(m_sync));
    }
    return options;
}

} // namespace inflight::app
