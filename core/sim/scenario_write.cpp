// Writing a scenario file (scenario.h): the fields that differ from their defaults, in the order
// the format lists them, so that parseScenario reads the same scenario back.
#include "sim/scenario.h"

#include "sim/iso_time.h"
#include "sim/json_numbers.h"
#include "sim/lesson_json.h"
#include "text/base64.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace inflight::sim {

namespace {

using OrderedJson = nlohmann::ordered_json;

using json_numbers::number;
using json_numbers::seconds;

// An attribute's engine text as the file would give it: a policy as its object, a whole number as
// a number, true and false as booleans; anything else as the string.
OrderedJson attributeValue(const std::string& name, const std::string& value)
{
    if (name == "RedrivePolicy" || name == "RedriveAllowPolicy" || name == "Policy") {
        OrderedJson document = OrderedJson::parse(value, nullptr, false);
        if (document.is_object())
            return document;
        return value;
    }
    if (value == "true" || value == "false")
        return value == "true";
    const bool whole = !value.empty() && value.size() < 16 && (value == "0" || value[0] != '0')
        && value.find_first_not_of("0123456789") == std::string::npos;
    if (whole)
        return std::stoll(value);
    return value;
}

OrderedJson messageAttribute(const engine::MessageAttributeValue& value)
{
    OrderedJson out = OrderedJson::object();
    out["DataType"] = value.dataType;
    if (value.isBinary())
        out["BinaryValue"] = text::base64Encode(value.binaryValue);
    else
        out["StringValue"] = value.stringValue;
    return out;
}

OrderedJson queueJson(const config::ConfigQueue& queue)
{
    OrderedJson out = OrderedJson::object();
    out["name"] = queue.name;
    if (queue.kind == engine::QueueKind::Oci)
        out["type"] = "oci";
    OrderedJson attributes = OrderedJson::object();
    for (const auto& [name, value] : queue.attributes)
        if (!(name == "FifoQueue" && queue.kind == engine::QueueKind::Fifo))
            attributes[name] = attributeValue(name, value);
    if (!attributes.empty())
        out[queue.kind == engine::QueueKind::Oci ? "options" : "attributes"] = attributes;
    if (!queue.tags.empty())
        out["tags"] = queue.tags;
    if (!queue.messages.empty()) {
        OrderedJson messages = OrderedJson::array();
        for (const config::ConfigMessage& message : queue.messages) {
            const engine::SendMessageRequest& r = message.request;
            OrderedJson m = OrderedJson::object();
            m["body"] = r.body.value_or("");
            if (!r.attributes.empty()) {
                OrderedJson attributes = OrderedJson::object();
                for (const auto& [name, value] : r.attributes)
                    attributes[name] = messageAttribute(value);
                m["attributes"] = attributes;
            }
            if (r.delaySeconds)
                m["delaySeconds"] = *r.delaySeconds;
            if (r.groupId)
                m["groupId"] = *r.groupId;
            if (r.deduplicationId)
                m["deduplicationId"] = *r.deduplicationId;
            if (r.channelId)
                m["channel"] = *r.channelId;
            messages.push_back(std::move(m));
        }
        out["messages"] = messages;
    }
    return out;
}

OrderedJson producerJson(const ProducerSpec& p)
{
    const ProducerSpec d;
    OrderedJson out = OrderedJson::object();
    out["type"] = "producer";
    out["name"] = p.name;
    out["queue"] = p.queue;
    if (p.rate != d.rate)
        out["rate"] = number(p.rate);
    if (p.arrivals != d.arrivals)
        out["arrivals"] = "poisson";
    if (p.bursts) {
        OrderedJson bursts = OrderedJson::object();
        bursts["everySeconds"] = seconds(p.bursts->every);
        bursts["messages"] = p.bursts->messages;
        if (p.bursts->first != p.bursts->every)
            bursts["firstAfterSeconds"] = seconds(p.bursts->first);
        out["bursts"] = bursts;
    }
    if (p.total)
        out["total"] = *p.total;
    if (p.body != d.body)
        out["body"] = p.body;
    if (!p.attributes.empty()) {
        OrderedJson attributes = OrderedJson::object();
        for (const auto& [name, a] : p.attributes) {
            OrderedJson value = OrderedJson::object();
            value["DataType"] = a.dataType;
            if (a.dataType.starts_with("Binary"))
                value["BinaryValue"] = text::base64Encode(a.value);
            else
                value["StringValue"] = a.value;
            attributes[name] = value;
        }
        out["attributes"] = attributes;
    }
    if (p.groupId)
        out["groupId"] = *p.groupId;
    if (p.deduplicationId)
        out["deduplicationId"] = *p.deduplicationId;
    if (p.retryProbability != d.retryProbability)
        out["retryProbability"] = p.retryProbability;
    if (p.retryAfter != d.retryAfter)
        out["retryAfterSeconds"] = seconds(p.retryAfter);
    if (p.delaySeconds != d.delaySeconds)
        out["delaySeconds"] = p.delaySeconds;
    if (p.batchSize != d.batchSize)
        out["batchSize"] = p.batchSize;
    if (p.channel)
        out["channel"] = *p.channel;
    if (p.startAfter != d.startAfter)
        out["startAfterSeconds"] = seconds(p.startAfter);
    if (p.autoStart != d.autoStart)
        out["autoStart"] = p.autoStart;
    return out;
}

OrderedJson durationJson(const Duration& duration)
{
    switch (duration.kind) {
    case Duration::Kind::Fixed: return seconds(duration.a);
    case Duration::Kind::Uniform: {
        OrderedJson out = OrderedJson::object();
        out["uniform"] = OrderedJson::array({seconds(duration.a), seconds(duration.b)});
        return out;
    }
    case Duration::Kind::Exponential: {
        OrderedJson out = OrderedJson::object();
        out["exponential"] = seconds(duration.a);
        return out;
    }
    }
    return seconds(duration.a);
}

OrderedJson consumerJson(const ConsumerSpec& c)
{
    const ConsumerSpec d;
    OrderedJson out = OrderedJson::object();
    out["type"] = "consumer";
    out["name"] = c.name;
    out["queue"] = c.queue;
    if (c.workers != d.workers)
        out["workers"] = c.workers;
    if (c.receive != d.receive) {
        const ReceiveSettings& r = c.receive;
        OrderedJson receive = OrderedJson::object();
        if (r.maxMessages != d.receive.maxMessages)
            receive["maxMessages"] = r.maxMessages;
        if (r.waitTimeSeconds)
            receive["waitTimeSeconds"] = *r.waitTimeSeconds;
        if (r.visibilityTimeout)
            receive["visibilityTimeout"] = *r.visibilityTimeout;
        if (r.channelFilter)
            receive["channelFilter"] = *r.channelFilter;
        if (r.attemptIds)
            receive["attemptIds"] = true;
        if (r.lostAnswerProbability != 0.0)
            receive["lostAnswerProbability"] = r.lostAnswerProbability;
        if (r.idle)
            receive["idleSeconds"] = seconds(*r.idle);
        out["receive"] = receive;
    }
    if (c.processing != d.processing)
        out["processing"] = durationJson(c.processing);
    if (c.outcomes != d.outcomes) {
        OrderedJson outcomes = OrderedJson::object();
        outcomes["succeed"] = c.outcomes.succeed;
        for (const auto& [name, p] :
             {std::pair{"fail", c.outcomes.fail}, std::pair{"crash", c.outcomes.crash},
              std::pair{"release", c.outcomes.release}})
            if (p != 0.0)
                outcomes[name] = p;
        out["outcomes"] = outcomes;
    }
    if (c.crashDowntime != d.crashDowntime)
        out["crashDowntimeSeconds"] = seconds(c.crashDowntime);
    if (c.poison)
        out["poison"] = *c.poison;
    if (c.heartbeat) {
        OrderedJson heartbeat = OrderedJson::object();
        heartbeat["extendBySeconds"] = c.heartbeat->extendBy;
        heartbeat["everySeconds"] = seconds(c.heartbeat->every);
        heartbeat["maxSeconds"] = c.heartbeat->maximum;
        out["heartbeat"] = heartbeat;
    }
    if (c.startAfter != d.startAfter)
        out["startAfterSeconds"] = seconds(c.startAfter);
    if (c.autoStart != d.autoStart)
        out["autoStart"] = c.autoStart;
    return out;
}

} // namespace

std::string writeScenario(const Scenario& scenario)
{
    OrderedJson out = OrderedJson::object();
    out["version"] = kScenarioVersion;
    if (!scenario.title.empty())
        out["title"] = scenario.title;
    if (!scenario.notes.empty())
        out["notes"] = scenario.notes;
    out["seed"] = scenario.seed;
    const ScenarioClock defaults;
    if (scenario.clock != defaults) {
        OrderedJson clock = OrderedJson::object();
        if (scenario.clock.speed != defaults.speed)
            clock["speed"] = number(scenario.clock.speed);
        if (scenario.clock.start)
            clock["start"] = formatIsoTime(*scenario.clock.start);
        if (scenario.clock.paused)
            clock["paused"] = true;
        out["clock"] = clock;
    }
    if (scenario.inFlightLimit)
        out["engine"] = OrderedJson{{"inFlightLimit", *scenario.inFlightLimit}};
    OrderedJson queues = OrderedJson::array();
    for (const config::ConfigQueue& queue : scenario.queues.queues)
        queues.push_back(queueJson(queue));
    out["queues"] = queues;
    OrderedJson actors = OrderedJson::array();
    for (const ScenarioActor& actor : scenario.actors)
        actors.push_back(std::holds_alternative<ProducerSpec>(actor.spec)
                             ? producerJson(std::get<ProducerSpec>(actor.spec))
                             : consumerJson(std::get<ConsumerSpec>(actor.spec)));
    out["actors"] = actors;
    if (scenario.lesson)
        out["lesson"] = lesson_json::lessonJson(*scenario.lesson);
    return out.dump(2, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

std::string actorSpecJson(const ActorSpec& spec)
{
    const OrderedJson out = std::holds_alternative<ProducerSpec>(spec)
        ? producerJson(std::get<ProducerSpec>(spec))
        : consumerJson(std::get<ConsumerSpec>(spec));
    return out.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

} // namespace inflight::sim
