#pragma once

#include "config/queue_config_file.h"
#include "engine/broker_options.h"
#include "sim/actor_spec.h"
#include "sim/lesson_step.h"
#include "sim/simulation.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inflight::sim {

// ---- the file ----------------------------------------------------------------------------------
//
// A scenario is a whole system that runs by itself: queues, the actors that use them, how the
// clock runs and what the trainer wants to say about it. JSON in UTF-8, at most
// config::kMaxConfigBytes, nested at most config::kMaxConfigDepth deep:
//
//   {
//     "version": 1,                  required; 1 is the only version
//     "title": "…",                  optional text
//     "notes": "…",                  optional text (or a list of lines, joined with "\n")
//     "seed": 0,                     optional (default 0): a whole number 0..2^64-1, or a string
//                                    of digits ("000"); the actors' random choices, and the
//                                    engine's ids when the host makes its broker with
//                                    scenarioBrokerOptions()
//     "clock": {                     optional
//       "speed": 10,                 engine seconds per real second, above 0 and at most 100000
//       "start": "2024-05-01T09:00:00Z",   engine time at the start (ISO 8601, "Z" or an offset)
//       "paused": false              start paused
//     },
//     "engine": {"inFlightLimit": 20},     optional; the in-flight limit of standard and FIFO
//                                    queues (1..120000, as --in-flight-limit), for the host's
//                                    broker
//     "queues": [ … ],               optional; exactly the "queues" of a configuration file
//                                    (control/queue_config_file.h): SQS standard and FIFO queues
//                                    with attributes, tags, redrive and first messages, OCI queues
//                                    with options
//     "actors": [                    optional; in this order (it is the order of their actions
//                                    when due at the same time)
//       {
//         "type": "producer",        required: "producer" | "consumer"
//         "name": "orders-feed",     required, unique: 1..80 of [A-Za-z0-9_.-] (origin
//                                    "producer orders-feed")
//         "queue": "orders",         required: a queue of the file or one that exists
//         "rate": 5,                 messages per engine second (default 1)
//         "arrivals": "poisson",     "constant" (default) | "poisson"
//         "bursts": {"everySeconds": 60, "messages": 20, "firstAfterSeconds": 30},
//                                    firstAfterSeconds defaults to everySeconds
//         "total": 100,              messages in all (default: unbounded)
//         "body": "order {n}",       a template (message_template.h); an object or list is the
//                                    template of its compact JSON text (default "message {n}")
//         "attributes": {"kind": "order", "n": {"DataType": "Number", "StringValue": "{n}"}},
//                                    values: a string (String) or number (Number) template, or
//                                    {"DataType", "StringValue" | "BinaryValue" (base64)}
//         "groupId": "customer-{n%5}",         FIFO (template)
//         "deduplicationId": "order-{n}",      FIFO (template); left out: content-based
//         "retryProbability": 0.2, "retryAfterSeconds": 1,
//         "delaySeconds": 5,         standard queues
//         "batchSize": 10,           SendMessageBatch (OCI PutMessages: up to 20)
//         "channel": "tenant-{n%3}", OCI (template)
//         "startAfterSeconds": 0, "autoStart": true
//       },
//       {
//         "type": "consumer", "name": "worker", "queue": "orders",
//         "workers": 2,              default 1
//         "receive": {"maxMessages": 10, "waitTimeSeconds": 20, "visibilityTimeout": 30,
//                     "channelFilter": "tenant-1", "attemptIds": true,
//                     "lostAnswerProbability": 0.1, "idleSeconds": 1},
//         "processing": 2,           seconds: a number (fixed), {"fixed": 2}, {"uniform": [1, 3]}
//                                    or {"exponential": 2} (the mean); default 1
//         "outcomes": {"succeed": 0.8, "fail": 0.1, "crash": 0.05, "release": 0.05},
//                                    probabilities; succeed left out is what the others leave
//         "crashDowntimeSeconds": 30,
//         "poison": "POISON",        a regular expression (ECMAScript) searched in the body
//         "heartbeat": {"extendBySeconds": 30, "everySeconds": 20, "maxSeconds": 300},
//         "startAfterSeconds": 0, "autoStart": true
//       }
//     ],
//     "lesson": {"steps": [ … ]}    optional; a guided lesson's steps (lesson.h has the format)
//   }
//
// actor_spec.h says what each field does. Any other key, anywhere, is an error (so a typo is not
// ignored), and so is a name repeated in one object and an actor name used twice. Seconds are
// numbers (fractions down to the millisecond).

inline constexpr int kScenarioVersion = 1;

struct ScenarioClock {
    double speed = 1.0;
    std::optional<engine::Millis> start{};
    bool paused = false;
    friend bool operator==(const ScenarioClock&, const ScenarioClock&) = default;
};

struct ScenarioActor {
    ActorSpec spec{};
    config::ConfigPosition position{}; // the actor's object
    // Where each field given is, by its parameter name in the checks of actor_spec.h ("rate",
    // "receive.maxMessages", "attributes.kind").
    std::map<std::string, config::ConfigPosition> fields{};
};

struct Scenario {
    std::string title{};
    std::string notes{};
    std::uint64_t seed = 0;
    ScenarioClock clock{};
    std::optional<std::int64_t> inFlightLimit{};
    config::QueueConfigFile queues{};
    std::vector<ScenarioActor> actors{};
    std::optional<LessonPlan> lesson{}; // "lesson" (lesson.h)
};

// Parses and checks the whole file without touching any broker: JSON syntax, the shape above, the
// queues as parseQueueConfig checks them, every actor on its own (checkActorSpec), actor names
// unique. Errors: InvalidParameterValue "line L, column C, at PATH: …" (PATH as
// "actors[1].receive.maxMessages"; the error's parameter), as config::parseQueueConfig words
// them.
engine::Result<Scenario> parseScenario(std::string_view json);

// The scenario as a file parseScenario reads back to the same scenario (positions aside):
// indented JSON, fields left at their defaults left out.
std::string writeScenario(const Scenario& scenario);

// One actor as its entry in "actors" would be written, compact JSON ({"type": "consumer", …}).
std::string actorSpecJson(const ActorSpec& spec);

// `base` with the scenario's seed and in-flight limit: the options of a broker to run it on.
engine::BrokerOptions scenarioBrokerOptions(const Scenario& scenario,
                                            engine::BrokerOptions base = {});

struct ScenarioApplied {
    config::ConfigApplied queues{};
    std::vector<ActorId> actors{}; // in the file's order
};

// Applies a parsed scenario to the simulation's broker and the simulation, all or nothing: first
// every actor is checked against its queue (of the file, else an existing one: checkActorFits)
// and against the actors the simulation has (names), then the queues are applied
// (config::applyQueueConfig, itself tried on a scratch copy first), then the simulation takes
// the scenario's seed and the actors are added (those with autoStart start, after their
// startAfter). A refusal is positioned like parseScenario's and changes nothing. The clock is the
// host's to set (Scenario::clock). Queue calls carry `origin`.
engine::Result<ScenarioApplied> applyScenario(Simulation& simulation, const Scenario& scenario,
                                              const engine::Origin& origin = "scenario");

} // namespace inflight::sim
