#pragma once

#include "engine/broker.h"
#include "sim/lesson_step.h"
#include "sim/scenario.h"
#include "sim/simulation.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace inflight::sim {

// ---- the format ----------------------------------------------------------------------------------
//
// A guided lesson is a scenario (scenario.h) with steps, in the same file under "lesson", so that
// `inflight --headless --scenario FILE` runs a lesson's system too (the steps then wait for a
// reader). parseScenario reads it into Scenario::lesson, writeScenario writes it back.
//
//   "lesson": {
//     "steps": [                            required, at least one
//       {
//         "text": "…",                      required: what the reader is told (a string, or a
//                                           list of lines joined with "\n")
//         "do": {"stop": "slow-worker", "start": ["patient-worker"], "resume": true},
//                                           optional: what "Do it" does, the members in the order
//                                           written; or a list of such objects. Actions:
//           "start" | "stop" | "pauseActors" | "resumeActors": an actor's name or a list of names
//           "send": {"queue", "body" (a string, or an object or list: its JSON text), "groupId",
//                    "deduplicationId", "delaySeconds", "channel"}
//           "receive": {"queue", "deadLetter", "maxMessages", "visibilityTimeout"}  (at once)
//           "peek": {"queue", "deadLetter", "bodyContains"}     the messages, shown to the reader
//           "setAttributes": {"queue", "attributes": {…}}       as a configuration file's (OCI:
//                                           its options); e.g. a longer VisibilityTimeout
//           "redrive": {"queue", "deadLetter", "destination", "maxMessagesPerSecond"}: a message
//                                           move task from the dead-letter queue `queue` (with
//                                           "deadLetter": true, from the DLQ of `queue`) back to
//                                           each message's source, or to `destination`
//           "run": 30                       seconds: the clock runs that long, then pauses
//           "pause": true | "resume": true  the clock
//           "speed": 60                     the clock's speed (above 0, at most 100000)
//         "doText": "…",                    optional: the button's words (default: describeActions)
//         "check": {…},                     optional: what ticks the step (below)
//         "checkText": "…",                 optional: what the tick says (default: describeCheck)
//         "pauseWhenMet": true              optional (default false): the clock pauses the moment
//                                           the check is met
//       }
//     ]
//   }
//
// Checks (each compares with exactly one of "atLeast", "atMost", "equals", a whole number,
// except "state" and "elapsed"):
//   {"actor": "slow-worker", "figure": "processedMoreThanOnce", "atLeast": 1}   figures.h's names
//   {"actor": "slow-worker", "state": "stopped"}        running | stopped | paused | finished
//   {"queue": "orders", "count": "inFlight", "atLeast": 1}
//   {"queue": "orders", "deadLetter": true, "bodyContains": "POISON", "count": "messages",
//    "atLeast": 1}                                       a DLQ holding the poison message
//   {"queue": "orders", "bodyContains": "POISON", "count": "receiveCount", "atLeast": 2}
//   {"queue": "payments.fifo", "count": "blocked", "atLeast": 3}   head-of-line blocking
//   {"actor": "slow-worker", "figure": "processed", "sinceStep": true, "atLeast": 20}
//                                                   grown by 20 since the step began (or its
//                                                   "do" was performed); figures and counts
//   {"elapsed": 300}                                300 engine seconds since then
//   {"all": [check, …]}, {"any": [check, …]}
// (lesson_step.h, LessonCheck, lists the counts.) Actors named in a lesson must be actors of the
// scenario and queues queues of the scenario; "deadLetter" needs the queue to have one (a
// RedrivePolicy in the file, or an OCI queue). Errors are positioned like the rest of the file
// ("line L, column C, at lesson.steps[2].check.figure: …").
//
// A step is met when its check is met — whether the reader pressed "Do it" or did the same by
// hand — or, without a check, once its "do" was performed; a step with neither waits for next()
// (the reader's "Next"). The steps of the built-in lessons are written so that no check is met
// before its step's "do" (tests/sim/lesson_test.cpp checks that).

// What performing a step's "do" asks of the host beside the engine calls made, and what it shows.
struct LessonEffects {
    std::optional<engine::Millis> runFor{}; // run the clock this long, then pause
    bool pauseClock = false;
    bool resumeClock = false;
    std::optional<double> speed{};
    std::vector<engine::ReceivedMessage> received{}; // of "receive"
    std::vector<engine::MessageView> peeked{};       // of "peek"
    std::vector<std::string> moveTasks{};            // handles of "redrive"
};

// A check's state now, for the reader: "slow-worker processedMoreThanOnce: 2 (wanted ≥ 1)".
struct CheckProgress {
    bool met = false;
    std::string text{};
};

// "slow-worker: processedMoreThanOnce ≥ 1", "DLQ of orders: messages containing "POISON" ≥ 1".
std::string describeCheck(const LessonCheck& check);
// "Stop slow-worker; start patient-worker; resume the clock".
std::string describeActions(const std::vector<LessonAction>& actions);
// The step's own words if it has them, else the descriptions above.
std::string doTextOf(const LessonStep& step);
std::string checkTextOf(const LessonStep& step);

// What "sinceStep" and "elapsed" checks count from: the engine time and the values of a step's
// sinceStep checks (by check) when the step began or its "do" was performed.
struct CheckBaseline {
    engine::Millis since = 0;
    std::map<const LessonCheck*, std::int64_t> values{};
};

// The check's values now, as a baseline for it.
CheckBaseline baselineOf(const LessonCheck& check, engine::Broker& broker,
                         const Simulation& simulation);

// The check against the engine's state and the actors' figures now (peeks only: nothing changes).
// Without a baseline, sinceStep checks compare the values themselves and elapsed ones are unmet.
CheckProgress evaluateCheck(const LessonCheck& check, engine::Broker& broker,
                            const Simulation& simulation, const CheckBaseline* baseline = nullptr);

// Plays a lesson's steps over a broker and simulation that run its scenario: performs the
// current step's "do", evaluates its check and moves on. Passive and Qt-free like the
// simulation: the host calls evaluate() whenever engine state may have changed (the Session does
// after every deadline it serves, so that pauseWhenMet pauses at the moment), and moves the clock
// as perform() asks. Restartable: restart() goes back to the first step (the host restores the
// scenario's system: Session::restartLesson).
class LessonRun {
public:
    explicit LessonRun(LessonPlan plan, engine::Origin origin = "lesson");

    const LessonPlan& plan() const { return m_plan; }
    std::size_t size() const { return m_plan.steps.size(); }
    // The current step's index; size() once every step is met.
    std::size_t current() const { return m_current; }
    bool finished() const { return m_current >= m_plan.steps.size(); }
    // The current step; null once finished.
    const LessonStep* step() const;
    // Whether the current step's "do" has been performed.
    bool performed() const { return m_performed; }
    // When step `index` was met (engine time); nullopt while it is not.
    std::optional<engine::Millis> metAt(std::size_t index) const;

    // Performs the current step's "do" (ResourceNotFound for an unknown actor, before anything is
    // done; an engine refusal as the engine words it, after the actions before it). The current
    // step is then marked performed; a step without a check is met at once.
    engine::Result<LessonEffects> perform(engine::Broker& broker, Simulation& simulation);
    // Evaluates the current step and, when met, ticks it (metAt: `at`, else the broker's clock
    // now — a host serving a deadline late passes the deadline) and makes the next one current.
    // Returns the index of the step it ticked; nullopt when none (also once finished). At most
    // one step per call.
    std::optional<std::size_t> evaluate(engine::Broker& broker, const Simulation& simulation,
                                        std::optional<engine::Millis> at = std::nullopt);
    // The current step's check now (met, and what it shows); a step without one: not met, with
    // its "do" or "Next" as text.
    CheckProgress progress(engine::Broker& broker, const Simulation& simulation) const;
    // Ticks the current step whatever its check (the reader's "Next"/"Skip").
    void next(engine::Millis now);
    void restart();

private:
    void tick(engine::Millis now);
    // The current step's baseline, taken now if it has none yet.
    const CheckBaseline* baseline(engine::Broker& broker, const Simulation& simulation) const;

    LessonPlan m_plan;
    engine::Origin m_origin;
    std::size_t m_current = 0;
    bool m_performed = false;
    std::vector<std::optional<engine::Millis>> m_metAt;
    mutable std::optional<CheckBaseline> m_baseline; // of the current step
};

} // namespace inflight::sim
