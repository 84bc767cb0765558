// Writing a lesson's steps (lesson.h) back as JSON, so that parseScenario reads the same steps.
#include "sim/lesson_json.h"

#include "sim/json_numbers.h"

#include <cmath>
#include <set>

namespace inflight::sim::lesson_json {

namespace {

using OrderedJson = nlohmann::ordered_json;
using Action = LessonAction;
using Check = LessonCheck;

using json_numbers::number;
using json_numbers::seconds;

// An attribute's engine text as the file gives it: a policy as its object, whole numbers as
// numbers, true and false as booleans.
OrderedJson attributeValue(const std::string& value)
{
    if (!value.empty() && value.front() == '{') {
        OrderedJson document = OrderedJson::parse(value, nullptr, false);
        if (document.is_object())
            return document;
    }
    if (value == "true" || value == "false")
        return value == "true";
    const bool whole = !value.empty() && value.size() < 16 && (value == "0" || value[0] != '0')
        && value.find_first_not_of("0123456789") == std::string::npos;
    if (whole)
        return std::stoll(value);
    return value;
}

const char* actionName(Action::Kind kind)
{
    switch (kind) {
    case Action::Kind::Start: return "start";
    case Action::Kind::Stop: return "stop";
    case Action::Kind::PauseActors: return "pauseActors";
    case Action::Kind::ResumeActors: return "resumeActors";
    case Action::Kind::Send: return "send";
    case Action::Kind::Receive: return "receive";
    case Action::Kind::Peek: return "peek";
    case Action::Kind::SetAttributes: return "setAttributes";
    case Action::Kind::Redrive: return "redrive";
    case Action::Kind::Run: return "run";
    case Action::Kind::Pause: return "pause";
    case Action::Kind::Resume: return "resume";
    case Action::Kind::Speed: return "speed";
    }
    return "start";
}

OrderedJson queueOf(const Action& a)
{
    OrderedJson out = OrderedJson::object();
    out["queue"] = a.queue;
    if (a.deadLetter)
        out["deadLetter"] = true;
    return out;
}

OrderedJson actionValue(const Action& a)
{
    switch (a.kind) {
    case Action::Kind::Start:
    case Action::Kind::Stop:
    case Action::Kind::PauseActors:
    case Action::Kind::ResumeActors:
        if (a.actors.size() == 1)
            return a.actors.front();
        return a.actors;
    case Action::Kind::Send: {
        OrderedJson out = OrderedJson::object();
        out["queue"] = a.queue;
        out["body"] = a.body;
        if (a.groupId)
            out["groupId"] = *a.groupId;
        if (a.deduplicationId)
            out["deduplicationId"] = *a.deduplicationId;
        if (a.delaySeconds)
            out["delaySeconds"] = *a.delaySeconds;
        if (a.channel)
            out["channel"] = *a.channel;
        return out;
    }
    case Action::Kind::Receive: {
        OrderedJson out = queueOf(a);
        if (a.maxMessages)
            out["maxMessages"] = *a.maxMessages;
        if (a.visibilityTimeout)
            out["visibilityTimeout"] = *a.visibilityTimeout;
        return out;
    }
    case Action::Kind::Peek: {
        OrderedJson out = queueOf(a);
        if (a.bodyContains)
            out["bodyContains"] = *a.bodyContains;
        return out;
    }
    case Action::Kind::SetAttributes: {
        OrderedJson out = OrderedJson::object();
        out["queue"] = a.queue;
        OrderedJson attributes = OrderedJson::object();
        for (const auto& [name, value] : a.attributes)
            attributes[name] = attributeValue(value);
        out["attributes"] = attributes;
        return out;
    }
    case Action::Kind::Redrive: {
        OrderedJson out = queueOf(a);
        if (a.destination)
            out["destination"] = *a.destination;
        if (a.maxMessagesPerSecond)
            out["maxMessagesPerSecond"] = *a.maxMessagesPerSecond;
        return out;
    }
    case Action::Kind::Run: return seconds(a.duration);
    case Action::Kind::Pause:
    case Action::Kind::Resume: return true;
    case Action::Kind::Speed: return number(a.speed);
    }
    return true;
}

// One object when no action repeats (members in order), else a list of one-action objects.
OrderedJson actionsJson(const std::vector<Action>& actions)
{
    std::set<Action::Kind> kinds;
    for (const Action& a : actions)
        kinds.insert(a.kind);
    if (kinds.size() == actions.size()) {
        OrderedJson out = OrderedJson::object();
        for (const Action& a : actions)
            out[actionName(a.kind)] = actionValue(a);
        return out;
    }
    OrderedJson out = OrderedJson::array();
    for (const Action& a : actions) {
        OrderedJson one = OrderedJson::object();
        one[actionName(a.kind)] = actionValue(a);
        out.push_back(std::move(one));
    }
    return out;
}

OrderedJson checkJson(const Check& c)
{
    OrderedJson out = OrderedJson::object();
    const auto compare = [&] {
        out[c.compare == Check::Compare::AtLeast      ? "atLeast"
                : c.compare == Check::Compare::AtMost ? "atMost"
                                                      : "equals"]
            = c.value;
    };
    switch (c.kind) {
    case Check::Kind::Figure:
        out["actor"] = c.actor;
        out["figure"] = c.figure;
        compare();
        if (c.sinceStep)
            out["sinceStep"] = true;
        break;
    case Check::Kind::ActorState:
        out["actor"] = c.actor;
        out["state"] = c.state;
        break;
    case Check::Kind::Queue:
        out["queue"] = c.queue;
        if (c.deadLetter)
            out["deadLetter"] = true;
        if (c.bodyContains)
            out["bodyContains"] = *c.bodyContains;
        out["count"] = c.count;
        compare();
        if (c.sinceStep)
            out["sinceStep"] = true;
        break;
    case Check::Kind::Elapsed: out["elapsed"] = seconds(c.elapsed); break;
    case Check::Kind::All:
    case Check::Kind::Any: {
        OrderedJson list = OrderedJson::array();
        for (const Check& inner : c.checks)
            list.push_back(checkJson(inner));
        out[c.kind == Check::Kind::All ? "all" : "any"] = list;
        break;
    }
    }
    return out;
}

} // namespace

nlohmann::ordered_json lessonJson(const LessonPlan& plan)
{
    OrderedJson steps = OrderedJson::array();
    for (const LessonStep& step : plan.steps) {
        OrderedJson out = OrderedJson::object();
        out["text"] = step.text;
        if (!step.actions.empty())
            out["do"] = actionsJson(step.actions);
        if (!step.doText.empty())
            out["doText"] = step.doText;
        if (step.check)
            out["check"] = checkJson(*step.check);
        if (!step.checkText.empty())
            out["checkText"] = step.checkText;
        if (step.pauseWhenMet)
            out["pauseWhenMet"] = true;
        steps.push_back(std::move(out));
    }
    OrderedJson out = OrderedJson::object();
    out["steps"] = steps;
    return out;
}

} // namespace inflight::sim::lesson_json
