#pragma once

#include "app_result.h"
#include "control/control_api.h"
#include "engine/broker_options.h"
#include "run_options.h"
#include "traffic/traffic_file.h"
#include "traffic/traffic_log.h"
#include "workspace/workspace_session.h"

#include <memory>

namespace inflight::session {
class Session;
}

namespace inflight::app {

// What a run (window or headless) builds from its RunOptions, beside the workspace.

// How its sessions start: the engine's seed (--seed, or the system's entropy), its in-flight
// limit (--in-flight-limit), the engine time of a fresh start (--start), a frozen clock.
workspace::SessionSettings sessionSettings(const RunOptions& run);

// The control API on `session`, unless --control off; it reads `traffic` (may be null). Its event
// cursors start at `firstCursor` (past those of the API it replaces, after a workspace switch).
std::unique_ptr<control::ControlApi> controlApi(session::Session& session, const RunOptions& run,
                                                const traffic::TrafficLog* traffic,
                                                std::uint64_t firstCursor = 1);

// The traffic log of a run (on unless --traffic-log off) and its file (--traffic-log FILE).
struct Traffic {
    std::unique_ptr<traffic::TrafficLog> log;
    std::unique_ptr<traffic::TrafficFile> file;
};
// The error says why the file cannot be opened.
Result<Traffic> trafficLog(const RunOptions& run);

} // namespace inflight::app
