#pragma once

// The steps of a guided lesson as plain values: what a scenario file's "lesson" member holds
// (Scenario::lesson; the format is in lesson.h, LessonRun plays them).

#include "config/queue_config_file.h"
#include "engine/clock.h"
#include "engine/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace inflight::sim {

// One thing a step's "Do it" does. The kinds and their fields:
//   Start, Stop, PauseActors, ResumeActors   `actors` (by name, in order)
//   Send        `queue`, `body`, `groupId`, `deduplicationId`, `delaySeconds`, `channel`
//   Receive     `queue` (or its DLQ with `deadLetter`), `maxMessages`, `visibilityTimeout`
//   Peek        `queue` (or its DLQ), `bodyContains`: the messages are handed to the host to show
//   SetAttributes  `queue`, `attributes` (SetQueueAttributes; OCI: the queue's options)
//   Redrive     `queue` (the dead-letter queue, or with `deadLetter` the DLQ of `queue`),
//               `destination` (none: back to each message's source), `maxMessagesPerSecond`
//   Run         `duration`: the host runs the clock for it, then pauses (Session::runFor)
//   Pause, Resume   the clock
//   Speed       `speed`
struct LessonAction {
    enum class Kind : std::uint8_t {
        Start,
        Stop,
        PauseActors,
        ResumeActors,
        Send,
        Receive,
        Peek,
        SetAttributes,
        Redrive,
        Run,
        Pause,
        Resume,
        Speed,
    };
    Kind kind = Kind::Start;
    std::vector<std::string> actors{};
    std::string queue{};
    bool deadLetter = false;
    std::string body{};
    std::optional<std::string> groupId{}, deduplicationId{}, channel{}, bodyContains{};
    std::optional<std::int64_t> delaySeconds{};
    std::optional<std::int64_t> maxMessages{}, visibilityTimeout{};
    engine::StringMap attributes{};
    std::optional<std::string> destination{};
    std::optional<std::int64_t> maxMessagesPerSecond{};
    engine::Millis duration = 0;
    double speed = 1.0;
    config::ConfigPosition position{};
};

// What a step waits for. The kinds:
//   Figure       the figure `figure` (figures.h) of actor `actor` compared with `value`
//   ActorState   actor `actor` is in state `state` ("running", "stopped", "paused", "finished")
//   Queue        a count of queue `queue` (or its DLQ with `deadLetter`) compared with `value`:
//                without `bodyContains` a QueueStats member ("available", "inFlight", "delayed",
//                "sent", "received", "deleted", "visibilityExpired", "movedToDeadLetter",
//                "retentionExpired", "purged", "deduplicated", "emptyReceives"), "messages"
//                (available + in flight + delayed) or "receiveCount" (the highest receive count
//                of its messages); with `bodyContains` of the messages whose body contains it:
//                "messages", "available", "inFlight", "delayed" or "receiveCount"
//                FIFO queues also "blocked": available messages behind a message of their
//                group that is not (head-of-line blocking; Broker::blockedMessages)
//   Elapsed      `elapsed` engine ms have passed since the step began (or its "do" was performed)
//   All, Any     every one / one of `checks`
// Figure and Queue checks with `sinceStep` compare how much the value grew since the step began
// (or its "do" was performed) instead of the value itself.
struct LessonCheck {
    enum class Kind : std::uint8_t { Figure, ActorState, Queue, Elapsed, All, Any };
    enum class Compare : std::uint8_t { AtLeast, AtMost, Equals };
    Kind kind = Kind::Figure;
    std::string actor{};
    std::string figure{};
    std::string state{};
    std::string queue{};
    bool deadLetter = false;
    std::optional<std::string> bodyContains{};
    std::string count{};
    Compare compare = Compare::AtLeast;
    std::int64_t value = 0;
    bool sinceStep = false;
    engine::Millis elapsed = 0;
    std::vector<LessonCheck> checks{};
    config::ConfigPosition position{};
};

struct LessonStep {
    std::string text{};
    std::vector<LessonAction> actions{}; // "do", in order; empty: no "Do it"
    std::string doText{};                // the button's words; empty: describeActions()
    std::optional<LessonCheck> check{};
    std::string checkText{}; // what ticks; empty: describeCheck()
    bool pauseWhenMet = false;
    config::ConfigPosition position{};
};

struct LessonPlan {
    std::vector<LessonStep> steps{};
    config::ConfigPosition position{};
};

} // namespace inflight::sim
