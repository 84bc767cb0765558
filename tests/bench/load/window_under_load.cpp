// inflight_window_load: the window with its endpoint, for measuring how the window keeps up while
// clients load the endpoint. Opens the real MainWindow (offscreen unless QT_QPA_PLATFORM says
// otherwise) on a Session with an HttpServer on 127.0.0.1 (port 0: any free one), prints
// "Inflight endpoint listening on URL", and for --seconds measures the window thread's event loop
// with a 10 ms timer: how late each tick comes is how long a click or a repaint would wait. Then it
// prints the lateness percentiles and how many engine events the window took in. compare.sh runs
// it beside inflight_load. With --traffic-log on, the endpoint keeps its traffic log and the window
// shows it (Traffic and Clients tabs), and it prints the log's largest size seen against its caps
// (traffic_compare.sh runs it both ways). With --scenario FILE [--speed N] it runs that scenario's
// actors behind the window at N× (default 60) and prints how late the actors acted against their
// engine deadlines (Session::ActorLag; issue 13: "with the window open at 60×, actors keep within
// 100 ms of engine time"), e.g. with tests/bench/load/ten-and-ten.json.
#include "server/http_server.h"
#include "session/session.h"
#include "sim/scenario.h"
#include "traffic/traffic_log.h"
#include "ui/main_window.h"

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QHostAddress>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

int main(int argc, char* argv[])
{
    double seconds = 12;
    bool trafficLog = false;
    bool trafficShown = false;
    const char* scenarioPath = nullptr;
    double speed = 60;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--seconds") == 0)
            seconds = std::atof(argv[++i]);
        else if (std::strcmp(argv[i], "--scenario") == 0)
            scenarioPath = argv[++i];
        else if (std::strcmp(argv[i], "--speed") == 0)
            speed = std::atof(argv[++i]);
        else if (std::strcmp(argv[i], "--traffic-log") == 0) {
            // on: kept and shown; kept: kept by the endpoint, not shown (where the cost goes).
            const char* value = argv[++i];
            trafficLog = std::strcmp(value, "on") == 0 || std::strcmp(value, "kept") == 0;
            trafficShown = std::strcmp(value, "on") == 0;
        }
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Inflight-bench")); // not the user's settings
    std::optional<inflight::sim::Scenario> scenario;
    if (scenarioPath) {
        QFile file(QString::fromLocal8Bit(scenarioPath));
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "inflight_window_load: cannot read %s\n", scenarioPath);
            return 1;
        }
        const QByteArray text = file.readAll();
        auto parsed = inflight::sim::parseScenario(std::string_view(text.constData(), text.size()));
        if (!parsed) {
            std::fprintf(stderr, "inflight_window_load: %s: %s\n", scenarioPath,
                         parsed.error().message.c_str());
            return 1;
        }
        scenario = std::move(*parsed);
    }
    inflight::session::Session session(scenario ? inflight::sim::scenarioBrokerOptions(*scenario)
                                                : inflight::engine::BrokerOptions{},
                                       QDateTime::currentMSecsSinceEpoch(), false);
    inflight::server::HttpServer server(session);
    if (!server.listen(QHostAddress::LocalHost, 0)) {
        std::fprintf(stderr, "inflight_window_load: %s\n", qPrintable(server.errorString()));
        return 1;
    }
    inflight::traffic::TrafficLog log;
    if (trafficLog)
        server.setTrafficLog(&log);
    inflight::ui::MainWindow window(session);
    if (trafficShown)
        window.setTrafficLog(log);
    window.show();
    std::size_t maxRecords = 0;
    qsizetype maxBodyBytes = 0;

    long events = 0;
    QObject::connect(&session, &inflight::session::Session::eventsReady, &app,
                     [&events](const std::vector<inflight::engine::Event>& batch) {
                         events += static_cast<long>(batch.size());
                     });

    constexpr int kTickMillis = 10;
    std::vector<double> lateness;
    QElapsedTimer clock;
    qint64 last = 0;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    QObject::connect(&tick, &QTimer::timeout, &app, [&] {
        const qint64 now = clock.nsecsElapsed();
        if (last != 0)
            lateness.push_back(std::max(0.0, double(now - last) / 1e6 - kTickMillis));
        last = now;
        maxRecords = std::max(maxRecords, log.size());
        maxBodyBytes = std::max(maxBodyBytes, log.bodyBytes());
    });
    QTimer::singleShot(static_cast<int>(seconds * 1000), &app, &QApplication::quit);

    if (scenario) {
        if (auto loaded = session.loadScenario(
                *scenario, inflight::session::Session::ScenarioLoad{.clock = false});
            !loaded) {
            std::fprintf(stderr, "inflight_window_load: %s\n", loaded.error().message.c_str());
            return 1;
        }
        session.setSpeed(speed);
        session.resetActorLag();
    }
    std::printf("Inflight endpoint listening on %s\n", qPrintable(server.baseUrl()));
    std::fflush(stdout);
    clock.start();
    tick.start(kTickMillis);
    app.exec();

    std::sort(lateness.begin(), lateness.end());
    const auto at = [&](double p) {
        return lateness.empty() ? 0.0
                                : lateness[std::size_t(p * double(lateness.size() - 1) + 0.5)];
    };
    std::printf("window ticks=%zu expected=%.0f late_p50_ms=%.2f late_p99_ms=%.2f late_max_ms=%.2f "
                "events=%ld\n",
                lateness.size(), seconds * 1000 / kTickMillis, at(0.5), at(0.99),
                lateness.empty() ? 0.0 : lateness.back(), events);
    if (scenario) {
        const auto lag = session.actorLag();
        std::printf("actors speed=%.0f deadlines=%lld lag_mean_ms=%.1f lag_max_ms=%lld "
                    "within_100ms_pct=%.2f wakeups=%lld wake_late_mean_real_ms=%.2f "
                    "wake_late_max_real_ms=%lld\n",
                    speed, static_cast<long long>(lag.deadlines), lag.mean(),
                    static_cast<long long>(lag.max),
                    lag.deadlines == 0
                        ? 100.0
                        : 100.0 * double(lag.deadlines - lag.over100ms) / double(lag.deadlines),
                    static_cast<long long>(lag.wakeups),
                    lag.wakeups == 0 ? 0.0 : double(lag.wakeLateTotal) / double(lag.wakeups),
                    static_cast<long long>(lag.wakeLateMax));
    }
    if (trafficLog)
        std::printf("traffic records=%llu max_records=%zu cap_records=%zu max_body_bytes=%lld "
                    "cap_body_bytes=%lld dropped=%llu\n",
                    static_cast<unsigned long long>(log.cursor()), maxRecords,
                    log.limits().maxRecords, static_cast<long long>(maxBodyBytes),
                    static_cast<long long>(log.limits().maxBodyBytesTotal),
                    static_cast<unsigned long long>(log.dropped()));
    return 0;
}
