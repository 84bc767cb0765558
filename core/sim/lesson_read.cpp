// Reading a scenario file's "lesson" (lesson.h): its steps, their actions and checks, each value
// positioned, every actor and queue they name checked against the scenario.
#include "sim/figures.h"
#include "sim/scenario_reader.h"

#include <cmath>

namespace inflight::sim::scenario_json {

namespace {

using Action = LessonAction;
using Check = LessonCheck;

const config::ConfigQueue* queueOf(const Scenario& scenario, const std::string& name)
{
    for (const config::ConfigQueue& queue : scenario.queues.queues)
        if (queue.name == name)
            return &queue;
    return nullptr;
}

bool isActor(const Scenario& scenario, const std::string& name)
{
    for (const ScenarioActor& actor : scenario.actors)
        if (actorName(actor.spec) == name)
            return true;
    return false;
}

bool isQueueCount(std::string_view count, bool matching)
{
    for (const char* name : {"messages", "available", "inFlight", "delayed", "receiveCount"})
        if (count == name)
            return true;
    if (matching)
        return false;
    for (const char* name :
         {"sent", "received", "deleted", "visibilityExpired", "movedToDeadLetter",
          "retentionExpired", "purged", "deduplicated", "emptyReceives", "blocked"})
        if (count == name)
            return true;
    return false;
}

// Text as a string or a list of lines (joined with "\n").
Result<std::string> linesOf(const Reader& r, const Field& f)
{
    if (f.json->is_string())
        return f.json->get<std::string>();
    if (!f.json->is_array())
        return r.wrongType(f, "a string or a list of lines");
    std::string text;
    for (const Field& line : r.elements(f)) {
        auto part = stringOf(r, line);
        if (!part)
            return part.error();
        if (!text.empty())
            text += '\n';
        text += *part;
    }
    return text;
}

// An attribute value as the engine's string: strings as they are, whole numbers in digits, true
// and false, an object (a policy) or any other number as its JSON text.
Result<std::string> attributeOf(const Reader& r, const Field& f)
{
    if (f.json->is_string())
        return f.json->get<std::string>();
    if (f.json->is_boolean())
        return std::string(f.json->get<bool>() ? "true" : "false");
    if (f.json->is_number() || f.json->is_object())
        return r.compact(f);
    return r.wrongType(f, "a string, number, boolean or (a policy) an object");
}

class LessonReader {
public:
    LessonReader(const Reader& reader, const Scenario& scenario) : r(reader), m_scenario(scenario)
    {
    }

    Status plan(const Field& lesson, LessonPlan& plan)
    {
        plan.position = r.at(lesson);
        std::optional<Field> steps;
        Status read = eachMember(r, lesson, "an object with \"steps\"",
                                 [&](const std::string& name, const Field& f) -> Status {
                                     if (name != "steps")
                                         return unknownKey(r, f, name, "a lesson has steps");
                                     steps = f;
                                     return Done{};
                                 });
        if (!read)
            return read;
        if (!steps)
            return r.missing(lesson, "steps", "missing: the lesson's steps");
        if (!steps->json->is_array())
            return r.wrongType(*steps, "a list of steps");
        if (steps->json->empty())
            return r.error(*steps, "a lesson has at least one step");
        for (const Field& entry : r.elements(*steps)) {
            LessonStep step;
            if (Status one = this->step(entry, step); !one)
                return one;
            plan.steps.push_back(std::move(step));
        }
        return Done{};
    }

private:
    Status step(const Field& entry, LessonStep& step)
    {
        step.position = r.at(entry);
        bool hasText = false;
        Status read = eachMember(
            r, entry, "an object with a step's text",
            [&](const std::string& name, const Field& f) -> Status {
                if (name == "text") {
                    hasText = true;
                    return take(linesOf(r, f), step.text);
                }
                if (name == "do")
                    return actions(f, step.actions);
                if (name == "doText")
                    return take(stringOf(r, f), step.doText);
                if (name == "check") {
                    Check check;
                    if (Status c = this->check(f, check); !c)
                        return c;
                    step.check = std::move(check);
                    return Done{};
                }
                if (name == "checkText")
                    return take(stringOf(r, f), step.checkText);
                if (name == "pauseWhenMet")
                    return take(booleanOf(r, f), step.pauseWhenMet);
                return unknownKey(r, f, name,
                                  "a step has text, do, doText, check, checkText and pauseWhenMet");
            });
        if (!read)
            return read;
        if (!hasText)
            return r.missing(entry, "text", "missing: every step has a text");
        return Done{};
    }

    // ---- "do" ----------------------------------------------------------------------------------

    Status actions(const Field& f, std::vector<Action>& into)
    {
        if (f.json->is_object())
            return actionMembers(f, into);
        if (!f.json->is_array())
            return r.wrongType(f, "an object of actions, or a list of such objects");
        if (f.json->empty())
            return r.error(f, "a list of at least one action");
        for (const Field& element : r.elements(f)) {
            if (!element.json->is_object())
                return r.wrongType(element, "an object of actions");
            if (Status one = actionMembers(element, into); !one)
                return one;
        }
        return Done{};
    }

    Status actionMembers(const Field& object, std::vector<Action>& into)
    {
        if (object.json->empty())
            return r.error(object, "an object of at least one action");
        return eachMember(r, object, "an object of actions",
                          [&](const std::string& name, const Field& f) -> Status {
                              Action action;
                              action.position = r.at(f);
                              if (Status one = this->action(name, f, action); !one)
                                  return one;
                              into.push_back(std::move(action));
                              return Done{};
                          });
    }

    Status action(const std::string& name, const Field& f, Action& a)
    {
        using K = Action::Kind;
        if (name == "start" || name == "stop" || name == "pauseActors" || name == "resumeActors") {
            a.kind = name == "start"    ? K::Start
                : name == "stop"        ? K::Stop
                : name == "pauseActors" ? K::PauseActors
                                        : K::ResumeActors;
            return actorNames(f, a.actors);
        }
        if (name == "send") {
            a.kind = K::Send;
            return send(f, a);
        }
        if (name == "receive" || name == "peek" || name == "redrive") {
            a.kind = name == "receive" ? K::Receive : name == "peek" ? K::Peek : K::Redrive;
            return queueAction(name, f, a);
        }
        if (name == "setAttributes") {
            a.kind = K::SetAttributes;
            return setAttributes(f, a);
        }
        if (name == "run") {
            a.kind = K::Run;
            if (Status s = take(secondsOf(r, f), a.duration); !s)
                return s;
            if (a.duration <= 0)
                return r.error(f, "run for more than 0 seconds");
            return Done{};
        }
        if (name == "pause" || name == "resume") {
            a.kind = name == "pause" ? K::Pause : K::Resume;
            if (!f.json->is_boolean() || !f.json->get<bool>())
                return r.error(f, "true (" + name + " the clock)");
            return Done{};
        }
        if (name == "speed") {
            a.kind = K::Speed;
            if (Status s = take(numberOf(r, f), a.speed); !s)
                return s;
            if (!(a.speed > 0.0) || a.speed > 100'000.0)
                return r.error(f, "the speed is above 0 and at most 100000");
            return Done{};
        }
        return unknownKey(r, f, name,
                          "actions: start, stop, pauseActors, resumeActors, send, receive, peek, "
                          "setAttributes, redrive, run, pause, resume, speed");
    }

    Status actorNames(const Field& f, std::vector<std::string>& names)
    {
        const auto one = [&](const Field& item) -> Status {
            auto name = stringOf(r, item);
            if (!name)
                return name.error();
            if (!isActor(m_scenario, *name))
                return r.error(item, "the scenario has no actor named " + *name);
            names.push_back(*name);
            return Done{};
        };
        if (f.json->is_string())
            return one(f);
        if (!f.json->is_array() || f.json->empty())
            return r.wrongType(f, "an actor's name or a list of names");
        for (const Field& item : r.elements(f))
            if (Status s = one(item); !s)
                return s;
        return Done{};
    }

    // "queue" and "deadLetter" of an action or check: the queue must be the scenario's, and have
    // a dead-letter queue when asked for one.
    Status queueName(const Field& f, std::string& queue)
    {
        if (Status s = take(stringOf(r, f), queue); !s)
            return s;
        if (!queueOf(m_scenario, queue))
            return r.error(f, "the scenario has no queue named " + queue);
        return Done{};
    }

    Status deadLetterOf(const Field& object, const std::string& queue, bool deadLetter,
                        const std::optional<Field>& flag)
    {
        if (!deadLetter || queue.empty())
            return Done{};
        const config::ConfigQueue* declared = queueOf(m_scenario, queue);
        if (declared && declared->kind != engine::QueueKind::Oci
            && declared->deadLetterTarget.empty())
            return r.error(flag ? *flag : object,
                           "the queue " + queue + " has no dead-letter queue (RedrivePolicy)");
        return Done{};
    }

    Status send(const Field& f, Action& a)
    {
        bool hasQueue = false;
        Status read = eachMember(
            r, f, "an object with queue and body",
            [&](const std::string& name, const Field& v) -> Status {
                if (name == "queue") {
                    hasQueue = true;
                    return queueName(v, a.queue);
                }
                if (name == "body")
                    return take(templateOf(r, v, true), a.body);
                if (name == "groupId")
                    return take(stringOf(r, v), a.groupId);
                if (name == "deduplicationId")
                    return take(stringOf(r, v), a.deduplicationId);
                if (name == "channel")
                    return take(stringOf(r, v), a.channel);
                if (name == "delaySeconds") {
                    std::int64_t delay = 0;
                    if (Status s = take(integerOf(r, v), delay); !s)
                        return s;
                    a.delaySeconds = delay;
                    return Done{};
                }
                return unknownKey(r, v, name,
                                  "send has queue, body, groupId, deduplicationId, delaySeconds "
                                  "and channel");
            });
        if (!read)
            return read;
        if (!hasQueue)
            return r.missing(f, "queue", "missing: the queue to send to");
        return Done{};
    }

    Status queueAction(const std::string& what, const Field& f, Action& a)
    {
        bool hasQueue = false;
        std::optional<Field> flag;
        Status read = eachMember(
            r, f, "an object with queue", [&](const std::string& name, const Field& v) -> Status {
                if (name == "queue") {
                    hasQueue = true;
                    return queueName(v, a.queue);
                }
                if (name == "deadLetter") {
                    flag = v;
                    return take(booleanOf(r, v), a.deadLetter);
                }
                std::int64_t number = 0;
                if (what == "receive" && (name == "maxMessages" || name == "visibilityTimeout")) {
                    if (Status s = take(integerOf(r, v), number); !s)
                        return s;
                    (name == "maxMessages" ? a.maxMessages : a.visibilityTimeout) = number;
                    return Done{};
                }
                if (what == "peek" && name == "bodyContains")
                    return take(stringOf(r, v), a.bodyContains);
                if (what == "redrive" && name == "destination") {
                    std::string destination;
                    if (Status s = queueName(v, destination); !s)
                        return s;
                    a.destination = destination;
                    return Done{};
                }
                if (what == "redrive" && name == "maxMessagesPerSecond") {
                    if (Status s = take(integerOf(r, v), number); !s)
                        return s;
                    a.maxMessagesPerSecond = number;
                    return Done{};
                }
                return unknownKey(r, v, name,
                                  what == "receive" ? "receive has queue, deadLetter, maxMessages "
                                                      "and visibilityTimeout"
                                      : what == "peek"
                                      ? "peek has queue, deadLetter and bodyContains"
                                      : "redrive has queue, deadLetter, destination and "
                                        "maxMessagesPerSecond");
            });
        if (!read)
            return read;
        if (!hasQueue)
            return r.missing(f, "queue", "missing: the queue");
        return deadLetterOf(f, a.queue, a.deadLetter, flag);
    }

    Status setAttributes(const Field& f, Action& a)
    {
        bool hasQueue = false;
        bool hasAttributes = false;
        Status read = eachMember(
            r, f, "an object with queue and attributes",
            [&](const std::string& name, const Field& v) -> Status {
                if (name == "queue") {
                    hasQueue = true;
                    return queueName(v, a.queue);
                }
                if (name == "attributes") {
                    hasAttributes = true;
                    if (v.json->empty())
                        return r.error(v, "at least one attribute");
                    return eachMember(r, v, "an object of attributes",
                                      [&](const std::string& key, const Field& value) -> Status {
                                          auto text = attributeOf(r, value);
                                          if (!text)
                                              return text.error();
                                          a.attributes[key] = *text;
                                          return Done{};
                                      });
                }
                return unknownKey(r, v, name, "setAttributes has queue and attributes");
            });
        if (!read)
            return read;
        if (!hasQueue)
            return r.missing(f, "queue", "missing: the queue");
        if (!hasAttributes)
            return r.missing(f, "attributes", "missing: the attributes to set");
        return Done{};
    }

    // ---- "check" -------------------------------------------------------------------------------

    Status check(const Field& f, Check& c)
    {
        c.position = r.at(f);
        std::map<std::string, Field> given;
        Status read = eachMember(
            r, f, "an object: a check", [&](const std::string& name, const Field& v) -> Status {
                for (const char* known :
                     {"actor", "figure", "state", "queue", "deadLetter", "bodyContains", "count",
                      "atLeast", "atMost", "equals", "sinceStep", "elapsed", "all", "any"})
                    if (name == known) {
                        given.emplace(name, v);
                        return Done{};
                    }
                return unknownKey(r, v, name,
                                  "a check has actor with figure or state, queue with count, "
                                  "elapsed, or all or any");
            });
        if (!read)
            return read;
        const auto has = [&](const char* name) { return given.contains(name); };
        const auto onlyOf = [&](std::initializer_list<const char*> allowed) -> Status {
            for (const auto& [name, v] : given) {
                bool ok = false;
                for (const char* a : allowed)
                    ok = ok || name == a;
                if (!ok)
                    return r.keyError(v, "\"" + name + "\" does not belong in this check");
            }
            return Done{};
        };
        if (has("all") || has("any")) {
            c.kind = has("all") ? Check::Kind::All : Check::Kind::Any;
            if (Status only = onlyOf({has("all") ? "all" : "any"}); !only)
                return only;
            const Field& list = given.at(has("all") ? "all" : "any");
            if (!list.json->is_array() || list.json->empty())
                return r.wrongType(list, "a list of at least one check");
            for (const Field& element : r.elements(list)) {
                Check inner;
                if (Status one = check(element, inner); !one)
                    return one;
                c.checks.push_back(std::move(inner));
            }
            return Done{};
        }
        if (has("elapsed")) {
            c.kind = Check::Kind::Elapsed;
            if (Status only = onlyOf({"elapsed"}); !only)
                return only;
            const Field& elapsed = given.at("elapsed");
            if (Status s = take(secondsOf(r, elapsed), c.elapsed); !s)
                return s;
            if (c.elapsed <= 0)
                return r.error(elapsed, "more than 0 seconds");
            return Done{};
        }
        if (has("sinceStep"))
            if (Status s = take(booleanOf(r, given.at("sinceStep")), c.sinceStep); !s)
                return s;
        if (has("actor")) {
            if (Status s = take(stringOf(r, given.at("actor")), c.actor); !s)
                return s;
            if (!isActor(m_scenario, c.actor))
                return r.error(given.at("actor"), "the scenario has no actor named " + c.actor);
            if (has("state")) {
                c.kind = Check::Kind::ActorState;
                if (Status only = onlyOf({"actor", "state"}); !only)
                    return only;
                const Field& state = given.at("state");
                if (Status s = take(stringOf(r, state), c.state); !s)
                    return s;
                if (c.state != "running" && c.state != "stopped" && c.state != "paused"
                    && c.state != "finished")
                    return r.error(state, "running, stopped, paused or finished");
                return Done{};
            }
            c.kind = Check::Kind::Figure;
            if (Status only
                = onlyOf({"actor", "figure", "atLeast", "atMost", "equals", "sinceStep"});
                !only)
                return only;
            if (!has("figure"))
                return r.missing(f, "figure", "missing: the figure (or state) to check");
            const Field& figure = given.at("figure");
            if (Status s = take(stringOf(r, figure), c.figure); !s)
                return s;
            if (!sim::figure(ActorFigures{}, c.figure)) {
                std::string names;
                for (std::string_view name : figureNames())
                    names += (names.empty() ? "" : ", ") + std::string(name);
                return r.error(figure, "unknown figure " + c.figure + " (" + names + ")");
            }
            return comparison(f, given, c);
        }
        if (has("queue")) {
            c.kind = Check::Kind::Queue;
            if (Status only = onlyOf({"queue", "deadLetter", "bodyContains", "count", "atLeast",
                                      "atMost", "equals", "sinceStep"});
                !only)
                return only;
            if (Status s = queueName(given.at("queue"), c.queue); !s)
                return s;
            std::optional<Field> flag;
            if (has("deadLetter")) {
                flag = given.at("deadLetter");
                if (Status s = take(booleanOf(r, *flag), c.deadLetter); !s)
                    return s;
            }
            if (Status s = deadLetterOf(f, c.queue, c.deadLetter, flag); !s)
                return s;
            if (has("bodyContains"))
                if (Status s = take(stringOf(r, given.at("bodyContains")), c.bodyContains); !s)
                    return s;
            if (!has("count"))
                return r.missing(f, "count", "missing: the count to check (messages, inFlight, …)");
            const Field& count = given.at("count");
            if (Status s = take(stringOf(r, count), c.count); !s)
                return s;
            if (!isQueueCount(c.count, c.bodyContains.has_value()))
                return r.error(count,
                               c.bodyContains
                                   ? "of the messages matching bodyContains: messages, available, "
                                     "inFlight, delayed or receiveCount"
                                   : "messages, available, inFlight, delayed, receiveCount, "
                                     "sent, received, deleted, visibilityExpired, "
                                     "movedToDeadLetter, retentionExpired, purged, "
                                     "deduplicated, emptyReceives or blocked");
            return comparison(f, given, c);
        }
        return r.error(f,
                       "a check has actor (with figure or state), queue (with count), all or "
                       "any");
    }

    Status comparison(const Field& f, const std::map<std::string, Field>& given, Check& c)
    {
        int found = 0;
        for (const auto& [name, compare] : {std::pair{"atLeast", Check::Compare::AtLeast},
                                            std::pair{"atMost", Check::Compare::AtMost},
                                            std::pair{"equals", Check::Compare::Equals}}) {
            const auto it = given.find(name);
            if (it == given.end())
                continue;
            if (++found > 1)
                return r.keyError(it->second, "one of atLeast, atMost and equals only");
            c.compare = compare;
            if (Status s = take(integerOf(r, it->second), c.value); !s)
                return s;
        }
        if (found == 0)
            return r.missing(f, "atLeast", "missing: atLeast, atMost or equals");
        return Done{};
    }

    const Reader& r;
    const Scenario& m_scenario;
};

} // namespace

Status readLesson(const Reader& r, const Field& lesson, const Scenario& scenario, LessonPlan& plan)
{
    return LessonReader(r, scenario).plan(lesson, plan);
}

} // namespace inflight::sim::scenario_json
