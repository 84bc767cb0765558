#pragma once

#include "app_result.h"

#include "engine/clock.h"
#include "sim/scenario.h"
#include "store/workspace_store.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

#include <cstdint>
#include <optional>

namespace inflight::app {

// How a run starts, for test suites and demos (the window and `--headless` alike): --clock,
// --speed, --start, --seed, --config, --scenario, --control, --control-token, --advertised-url,
// --in-flight-limit, --traffic-log, --sync.
struct RunOptions {
    bool frozen = false;                       // --clock frozen: engine time moves only when told
    std::optional<double> speed;               // --speed N
    std::optional<engine::Millis> start;       // --start TIME (epoch ms)
    std::uint64_t seed = 0;                    // --seed N, or one from the system's entropy
    bool seeded = false;                       // whether --seed was given (a reproducible run)
    QString configPath;                        // --config FILE
    bool control = true;                       // --control on|off
    QString controlToken;                      // --control-token TOKEN
    QString advertisedUrl;                     // --advertised-url URL, without a trailing '/'
    std::optional<std::int64_t> inFlightLimit; // --in-flight-limit N (SQS's is 120,000)
    bool trafficLog = true;                    // --traffic-log off: no log at all
    QString trafficLogPath;                    // --traffic-log FILE: JSON lines appended there
    QString scenarioPath;                      // --scenario FILE
    std::optional<sim::Scenario> scenario;     // its contents, once readScenario() (run_setup.h)
    std::optional<store::SyncMode> sync;       // --sync full|normal: the workspace's, saved in it
};

// Declares the options on `parser`; options(parser) reads them once it has processed the command
// line.
class RunOptionParser {
public:
    explicit RunOptionParser(QCommandLineParser& parser);

    // The options, or a sentence for the user naming the option that is wrong.
    Result<RunOptions> options(const QCommandLineParser& parser) const;

private:
    QCommandLineOption m_clock;
    QCommandLineOption m_speed;
    QCommandLineOption m_start;
    QCommandLineOption m_seed;
    QCommandLineOption m_config;
    QCommandLineOption m_control;
    QCommandLineOption m_controlToken;
    QCommandLineOption m_advertisedUrl;
    QCommandLineOption m_inFlightLimit;
    QCommandLineOption m_trafficLog;
    QCommandLineOption m_scenario;
    QCommandLineOption m_sync;
};

} // namespace inflight::app
