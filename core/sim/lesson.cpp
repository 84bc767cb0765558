// Playing a lesson (lesson.h): performing a step's "do" through the broker and the simulation,
// and evaluating its check against engine state and the actors' figures.
#include "sim/lesson.h"

#include "config/queue_config_file.h"
#include "sim/figures.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace inflight::sim {

namespace {

using Action = LessonAction;
using Check = LessonCheck;
using engine::Done;
using engine::ErrorCode;

std::string seconds(engine::Millis ms)
{
    if (ms % 1000 == 0)
        return std::to_string(ms / 1000) + " s";
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", static_cast<double>(ms) / 1000.0);
    std::string out = text;
    while (out.back() == '0')
        out.pop_back();
    return out + " s";
}

std::string joined(const std::vector<std::string>& names)
{
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return out;
}

std::string comparison(const Check& c)
{
    const char* op = c.compare == Check::Compare::AtLeast ? " ≥ "
        : c.compare == Check::Compare::AtMost             ? " ≤ "
                                                          : " = ";
    return op + std::to_string(c.value);
}

bool compares(const Check& c, std::int64_t value)
{
    switch (c.compare) {
    case Check::Compare::AtLeast: return value >= c.value;
    case Check::Compare::AtMost: return value <= c.value;
    case Check::Compare::Equals: return value == c.value;
    }
    return false;
}

std::string queueLabel(const std::string& queue, bool deadLetter)
{
    return deadLetter ? "the DLQ of " + queue : queue;
}

// The queue an action or check means: `queue`, or its dead-letter queue.
engine::Result<std::string> resolveQueue(engine::Broker& broker, const std::string& queue,
                                         bool deadLetter)
{
    if (!deadLetter)
        return queue;
    auto view = broker.queueView(queue);
    if (!view)
        return view.error();
    if (view->deadLetterTarget.empty())
        return engine::makeError(ErrorCode::InvalidParameterValue,
                                 "The queue " + queue + " has no dead-letter queue.", "queue");
    return view->deadLetterTarget;
}

std::optional<std::int64_t> statsCount(const engine::QueueStats& s, std::string_view count)
{
    if (count == "available")
        return s.available;
    if (count == "inFlight")
        return s.inFlight;
    if (count == "delayed")
        return s.delayed;
    if (count == "messages")
        return s.available + s.inFlight + s.delayed;
    if (count == "sent")
        return s.sent;
    if (count == "received")
        return s.received;
    if (count == "deleted")
        return s.deleted;
    if (count == "visibilityExpired")
        return s.visibilityExpired;
    if (count == "movedToDeadLetter")
        return s.movedToDeadLetter;
    if (count == "retentionExpired")
        return s.retentionExpired;
    if (count == "purged")
        return s.purged;
    if (count == "deduplicated")
        return s.deduplicated;
    if (count == "emptyReceives")
        return s.emptyReceives;
    return std::nullopt;
}

// The count a queue check compares; nullopt when it cannot be had now (no such queue, no message
// to take a receive count from).
std::optional<std::int64_t> queueCount(const Check& c, engine::Broker& broker)
{
    const auto queue = resolveQueue(broker, c.queue, c.deadLetter);
    if (!queue)
        return std::nullopt;
    if (c.count == "blocked") {
        const auto blocked = broker.blockedMessages(*queue);
        if (!blocked)
            return std::nullopt;
        return static_cast<std::int64_t>(blocked->size());
    }
    if (!c.bodyContains && c.count != "receiveCount") {
        const auto stats = broker.queueStats(*queue);
        if (!stats)
            return std::nullopt;
        return statsCount(*stats, c.count);
    }
    const auto messages = broker.peekMessages(*queue);
    if (!messages)
        return std::nullopt;
    std::int64_t count = 0;
    std::optional<std::int64_t> highest;
    for (const engine::MessageView& m : *messages) {
        if (c.bodyContains && m.body.find(*c.bodyContains) == std::string::npos)
            continue;
        const bool counted = c.count == "messages" || c.count == "receiveCount"
            || (c.count == "available" && m.state == engine::MessageState::Available)
            || (c.count == "inFlight" && m.state == engine::MessageState::InFlight)
            || (c.count == "delayed" && m.state == engine::MessageState::Delayed);
        if (counted)
            ++count;
        highest = std::max<std::int64_t>(highest.value_or(0), m.receiveCount);
    }
    if (c.count == "receiveCount")
        return highest;
    return count;
}

std::string countLabel(const Check& c)
{
    std::string what = c.count == "receiveCount" ? "highest receive count" : c.count;
    if (c.bodyContains)
        what += " of messages containing \"" + *c.bodyContains + "\"";
    return what;
}

// The value a Figure or Queue check compares (before any baseline); nullopt when there is none.
std::optional<std::int64_t> rawValue(const Check& c, engine::Broker& broker,
                                     const Simulation& simulation)
{
    if (c.kind == Check::Kind::Queue)
        return queueCount(c, broker);
    if (c.kind != Check::Kind::Figure)
        return std::nullopt;
    const auto id = simulation.findActor(c.actor);
    const auto info = id ? simulation.actor(*id) : std::nullopt;
    if (!info)
        return std::nullopt;
    return figure(info->figures, c.figure).value_or(0);
}

void collectBaseline(const Check& c, engine::Broker& broker, const Simulation& simulation,
                     CheckBaseline& into)
{
    if (c.sinceStep)
        into.values[&c] = rawValue(c, broker, simulation).value_or(0);
    for (const Check& inner : c.checks)
        collectBaseline(inner, broker, simulation, into);
}

std::string sinceLabel(const Check& c)
{
    return c.sinceStep ? " since this step" : "";
}

engine::Status actorsExist(const Simulation& simulation, const std::vector<std::string>& names)
{
    for (const std::string& name : names)
        if (!simulation.findActor(name))
            return engine::makeError(ErrorCode::ResourceNotFound,
                                     "The simulation has no actor named " + name + ".", "actors");
    return Done{};
}

} // namespace

std::string describeCheck(const Check& c)
{
    switch (c.kind) {
    case Check::Kind::Figure: return c.actor + ": " + c.figure + sinceLabel(c) + comparison(c);
    case Check::Kind::ActorState: return c.actor + " is " + c.state;
    case Check::Kind::Queue:
        return queueLabel(c.queue, c.deadLetter) + ": " + countLabel(c) + sinceLabel(c)
            + comparison(c);
    case Check::Kind::Elapsed: return seconds(c.elapsed) + " of engine time";
    case Check::Kind::All:
    case Check::Kind::Any: {
        std::string out;
        for (const Check& inner : c.checks)
            out += (out.empty()                      ? ""
                        : c.kind == Check::Kind::All ? "; and "
                                                     : "; or ")
                + describeCheck(inner);
        return out;
    }
    }
    return {};
}

std::string describeActions(const std::vector<Action>& actions)
{
    std::string out;
    for (const Action& a : actions) {
        std::string one;
        switch (a.kind) {
        case Action::Kind::Start: one = "start " + joined(a.actors); break;
        case Action::Kind::Stop: one = "stop " + joined(a.actors); break;
        case Action::Kind::PauseActors: one = "pause " + joined(a.actors); break;
        case Action::Kind::ResumeActors: one = "resume " + joined(a.actors); break;
        case Action::Kind::Send: one = "send a message to " + a.queue; break;
        case Action::Kind::Receive:
            one = "receive from " + queueLabel(a.queue, a.deadLetter);
            break;
        case Action::Kind::Peek: one = "look into " + queueLabel(a.queue, a.deadLetter); break;
        case Action::Kind::SetAttributes: {
            std::string names;
            for (const auto& [name, value] : a.attributes)
                names += (names.empty() ? "" : ", ") + name + " " + value;
            one = "set " + names + " on " + a.queue;
            break;
        }
        case Action::Kind::Redrive:
            one = "redrive " + queueLabel(a.queue, a.deadLetter)
                + (a.destination ? " to " + *a.destination : std::string(" back to its source"));
            break;
        case Action::Kind::Run: one = "run the clock for " + seconds(a.duration); break;
        case Action::Kind::Pause: one = "pause the clock"; break;
        case Action::Kind::Resume: one = "resume the clock"; break;
        case Action::Kind::Speed: {
            char text[32];
            std::snprintf(text, sizeof text, "%g", a.speed);
            one = std::string("run the clock at ") + text + "×";
            break;
        }
        }
        if (out.empty() && !one.empty())
            one[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(one[0])));
        out += (out.empty() ? "" : "; ") + one;
    }
    return out;
}

std::string doTextOf(const LessonStep& step)
{
    return step.doText.empty() ? describeActions(step.actions) : step.doText;
}

std::string checkTextOf(const LessonStep& step)
{
    if (!step.checkText.empty())
        return step.checkText;
    return step.check ? describeCheck(*step.check) : std::string();
}

CheckBaseline baselineOf(const Check& check, engine::Broker& broker, const Simulation& simulation)
{
    CheckBaseline baseline;
    baseline.since = broker.clock().now();
    collectBaseline(check, broker, simulation, baseline);
    return baseline;
}

CheckProgress evaluateCheck(const Check& c, engine::Broker& broker, const Simulation& simulation,
                            const CheckBaseline* baseline)
{
    const auto grown = [&](std::int64_t value) {
        if (!c.sinceStep || !baseline)
            return value;
        const auto it = baseline->values.find(&c);
        return it == baseline->values.end() ? value : value - it->second;
    };
    switch (c.kind) {
    case Check::Kind::Figure: {
        const auto value = rawValue(c, broker, simulation);
        if (!value)
            return {false, c.actor + ": not in the simulation"};
        const std::int64_t shown = grown(*value);
        return {compares(c, shown),
                c.actor + " " + c.figure + sinceLabel(c) + ": " + std::to_string(shown) + " (wanted"
                    + comparison(c) + ")"};
    }
    case Check::Kind::ActorState: {
        const auto id = simulation.findActor(c.actor);
        const auto info = id ? simulation.actor(*id) : std::nullopt;
        if (!info)
            return {false, c.actor + ": not in the simulation"};
        const std::string state(actorStateName(info->state));
        return {state == c.state, c.actor + " is " + state + " (wanted " + c.state + ")"};
    }
    case Check::Kind::Queue: {
        const auto value = queueCount(c, broker);
        const std::string label
            = queueLabel(c.queue, c.deadLetter) + " " + countLabel(c) + sinceLabel(c) + ": ";
        if (!value)
            return {false, label + "none (wanted" + comparison(c) + ")"};
        const std::int64_t shown = grown(*value);
        return {compares(c, shown),
                label + std::to_string(shown) + " (wanted" + comparison(c) + ")"};
    }
    case Check::Kind::Elapsed: {
        const engine::Millis passed
            = baseline ? std::max<engine::Millis>(broker.clock().now() - baseline->since, 0) : 0;
        return {baseline && passed >= c.elapsed,
                seconds(passed) + " of " + seconds(c.elapsed) + " passed"};
    }
    case Check::Kind::All:
    case Check::Kind::Any: {
        const bool all = c.kind == Check::Kind::All;
        bool met = all;
        std::string text;
        for (const Check& inner : c.checks) {
            const CheckProgress one = evaluateCheck(inner, broker, simulation, baseline);
            met = all ? met && one.met : met || one.met;
            text += (text.empty() ? "" : "; ") + one.text;
        }
        return {met, text};
    }
    }
    return {};
}

LessonRun::LessonRun(LessonPlan plan, engine::Origin origin)
    : m_plan(std::move(plan)), m_origin(std::move(origin)), m_metAt(m_plan.steps.size())
{
}

const LessonStep* LessonRun::step() const
{
    return finished() ? nullptr : &m_plan.steps[m_current];
}

std::optional<engine::Millis> LessonRun::metAt(std::size_t index) const
{
    return index < m_metAt.size() ? m_metAt[index] : std::nullopt;
}

engine::Result<LessonEffects> LessonRun::perform(engine::Broker& broker, Simulation& simulation)
{
    const LessonStep* current = step();
    if (!current)
        return engine::makeError(ErrorCode::InvalidParameterValue,
                                 "The lesson is finished: there is nothing more to do.", "step");
    for (const Action& a : current->actions)
        if (engine::Status exist = actorsExist(simulation, a.actors); !exist)
            return exist.error();
    // Counted from here: what the actions do counts toward sinceStep and elapsed checks.
    if (current->check)
        m_baseline = baselineOf(*current->check, broker, simulation);
    LessonEffects effects;
    for (const Action& a : current->actions) {
        engine::Status done = Done{};
        switch (a.kind) {
        case Action::Kind::Start:
        case Action::Kind::Stop:
        case Action::Kind::PauseActors:
        case Action::Kind::ResumeActors:
            for (const std::string& name : a.actors) {
                const ActorId id = *simulation.findActor(name);
                done = a.kind == Action::Kind::Start      ? simulation.startActor(id)
                    : a.kind == Action::Kind::Stop        ? simulation.stopActor(id)
                    : a.kind == Action::Kind::PauseActors ? simulation.pauseActor(id)
                                                          : simulation.resumeActor(id);
                if (!done)
                    break;
            }
            break;
        case Action::Kind::Send: {
            engine::SendMessageRequest send;
            send.queue = a.queue;
            send.body = a.body;
            send.groupId = a.groupId;
            send.deduplicationId = a.deduplicationId;
            send.delaySeconds = a.delaySeconds;
            send.channelId = a.channel;
            send.origin = m_origin;
            const auto sent = broker.sendMessage(send);
            if (!sent)
                done = sent.error();
            break;
        }
        case Action::Kind::Receive: {
            const auto queue = resolveQueue(broker, a.queue, a.deadLetter);
            if (!queue) {
                done = queue.error();
                break;
            }
            engine::ReceiveRequest receive;
            receive.queue = *queue;
            receive.maxMessages = a.maxMessages;
            receive.visibilityTimeout = a.visibilityTimeout;
            receive.systemAttributeNames = {"All"};
            receive.messageAttributeNames = {"All"};
            receive.origin = m_origin;
            auto received = broker.receiveMessage(receive);
            if (!received)
                done = received.error();
            else
                for (engine::ReceivedMessage& m : received->messages)
                    effects.received.push_back(std::move(m));
            break;
        }
        case Action::Kind::Peek: {
            const auto queue = resolveQueue(broker, a.queue, a.deadLetter);
            if (!queue) {
                done = queue.error();
                break;
            }
            auto messages = broker.peekMessages(*queue);
            if (!messages) {
                done = messages.error();
                break;
            }
            for (engine::MessageView& m : *messages)
                if (!a.bodyContains || m.body.find(*a.bodyContains) != std::string::npos)
                    effects.peeked.push_back(std::move(m));
            break;
        }
        case Action::Kind::SetAttributes: {
            const engine::StringMap attributes = config::withQueueArns(
                a.attributes, [&](const std::string& name) { return broker.arnForName(name); });
            done = broker.setQueueAttributes(a.queue, attributes, m_origin);
            break;
        }
        case Action::Kind::Redrive: {
            const auto queue = resolveQueue(broker, a.queue, a.deadLetter);
            if (!queue) {
                done = queue.error();
                break;
            }
            engine::StartMoveTaskRequest move;
            move.sourceArn = broker.arnForName(*queue);
            if (a.destination)
                move.destinationArn = broker.arnForName(*a.destination);
            move.maxMessagesPerSecond = a.maxMessagesPerSecond;
            move.origin = m_origin;
            const auto handle = broker.startMessageMoveTask(move);
            if (!handle)
                done = handle.error();
            else
                effects.moveTasks.push_back(*handle);
            break;
        }
        case Action::Kind::Run: effects.runFor = a.duration; break;
        case Action::Kind::Pause:
            effects.pauseClock = true;
            effects.resumeClock = false;
            break;
        case Action::Kind::Resume:
            effects.resumeClock = true;
            effects.pauseClock = false;
            break;
        case Action::Kind::Speed: effects.speed = a.speed; break;
        }
        if (!done)
            return done.error();
    }
    m_performed = true;
    if (!current->check)
        tick(broker.clock().now());
    return effects;
}

std::optional<std::size_t> LessonRun::evaluate(engine::Broker& broker, const Simulation& simulation,
                                               std::optional<engine::Millis> at)
{
    const LessonStep* current = step();
    if (!current || !current->check)
        return std::nullopt;
    if (!evaluateCheck(*current->check, broker, simulation, baseline(broker, simulation)).met)
        return std::nullopt;
    const std::size_t ticked = m_current;
    tick(at.value_or(broker.clock().now()));
    return ticked;
}

CheckProgress LessonRun::progress(engine::Broker& broker, const Simulation& simulation) const
{
    const LessonStep* current = step();
    if (!current)
        return {true, "The lesson is finished."};
    if (current->check)
        return evaluateCheck(*current->check, broker, simulation, baseline(broker, simulation));
    if (!current->actions.empty())
        return {false, "Do it: " + doTextOf(*current)};
    return {false, "Next when you have read this."};
}

void LessonRun::next(engine::Millis now)
{
    if (!finished())
        tick(now);
}

const CheckBaseline* LessonRun::baseline(engine::Broker& broker, const Simulation& simulation) const
{
    const LessonStep* current = step();
    if (!current || !current->check)
        return nullptr;
    if (!m_baseline)
        m_baseline = baselineOf(*current->check, broker, simulation);
    return &*m_baseline;
}

void LessonRun::tick(engine::Millis now)
{
    m_metAt[m_current] = now;
    ++m_current;
    m_performed = false;
    m_baseline.reset();
}

void LessonRun::restart()
{
    m_current = 0;
    m_performed = false;
    m_baseline.reset();
    std::fill(m_metAt.begin(), m_metAt.end(), std::nullopt);
}

} // namespace inflight::sim
