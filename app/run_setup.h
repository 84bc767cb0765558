#pragma once

#include "run_options.h"

#include <QString>

namespace inflight::session {
class Session;
}

namespace inflight::app {

// Reads and checks the file of --scenario (nothing is applied yet) into options.scenario, and
// lets it decide what the command line leaves open, for the session to be made with: the
// engine's seed (unless --seed), its in-flight limit (unless --in-flight-limit), engine time at
// the start (unless --start), the speed (unless --speed), and a paused clock when the scenario
// says so (--clock frozen pauses it anyway). Done (also without --scenario), else
// "--scenario FILE: line L, column C, at PATH: …" (or why the file cannot be read).
Status readScenario(RunOptions& options);

// What RunOptions ask of a session once it is open: the clock frozen or at a speed, the queues of
// --config created (or updated), then the scenario of --scenario loaded (its queues and actors,
// all or nothing; its clock through the options above) and, with `playLesson` (the window), its
// lesson played (Session::lessonRun; headless, nobody reads one, and its pauseWhenMet steps would
// stop the clock). Empty when done, else a sentence for the user (nothing of a bad config file or
// scenario is applied).
QString applyRunOptions(session::Session& session, const RunOptions& options,
                        bool playLesson = true);

} // namespace inflight::app
