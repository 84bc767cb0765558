#pragma once

#include "run_options.h"

#include <QString>

namespace inflight::session {
class Session;
}

namespace inflight::app {

// What RunOptions ask of a session once it is open: the clock frozen or at a speed, the queues of
// --config created (or updated). Empty when done, else a sentence for the user (nothing of a bad
// config file is applied).
QString applyRunOptions(session::Session& session, const RunOptions& options);

} // namespace inflight::app
