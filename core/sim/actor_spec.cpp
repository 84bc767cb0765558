#include "sim/actor_spec.h"

#include "sim/message_template.h"
#include "sim/sim_random.h"

#include <cmath>
#include <cstdio>
#include <regex>

namespace inflight::sim {

namespace {

using engine::Done;
using engine::ErrorCode;
using engine::QueueKind;
using engine::Status;

engine::Error fieldError(std::string field, std::string message)
{
    return engine::makeError(ErrorCode::InvalidParameterValue, std::move(message),
                             std::move(field));
}

bool validName(const std::string& name)
{
    if (name.empty() || name.size() > 80)
        return false;
    for (const char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
              || c == '-' || c == '.'))
            return false;
    return true;
}

Status checkCommon(const std::string& name, const std::string& queue, Millis startAfter)
{
    if (!validName(name))
        return fieldError("name",
                          "an actor's name is 1 to 80 characters of letters, digits, '_', '-' and "
                          "'.'");
    if (queue.empty())
        return fieldError("queue", "the queue's name is empty");
    if (startAfter < 0)
        return fieldError("startAfterSeconds", "must not be negative");
    return Done{};
}

Status checkTemplate(const std::string& field, const std::string& text)
{
    auto compiled = MessageTemplate::compile(text);
    if (!compiled)
        return fieldError(field, compiled.error().message);
    return Done{};
}

std::string shortNumber(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

bool isProbability(double p)
{
    return std::isfinite(p) && p >= 0.0 && p <= 1.0;
}

Status checkProducer(const ProducerSpec& p)
{
    if (Status common = checkCommon(p.name, p.queue, p.startAfter); !common)
        return common;
    if (!std::isfinite(p.rate) || p.rate <= 0.0 || p.rate > 100'000.0)
        return fieldError("rate", "messages per second: above 0 and at most 100000");
    if (p.bursts) {
        if (p.bursts->every <= 0)
            return fieldError("bursts.everySeconds", "must be above 0");
        if (p.bursts->messages < 1 || p.bursts->messages > 100'000)
            return fieldError("bursts.messages", "from 1 to 100000");
        if (p.bursts->first < 0)
            return fieldError("bursts.firstAfterSeconds", "must not be negative");
    }
    if (p.total && *p.total < 0)
        return fieldError("total", "must not be negative");
    if (Status body = checkTemplate("body", p.body); !body)
        return body;
    for (const auto& [name, attribute] : p.attributes) {
        const std::string field = "attributes." + name;
        if (!attribute.dataType.starts_with("String") && !attribute.dataType.starts_with("Number")
            && !attribute.dataType.starts_with("Binary"))
            return fieldError(field, "DataType must start with String, Number or Binary");
        if (!attribute.dataType.starts_with("Binary"))
            if (Status value = checkTemplate(field, attribute.value); !value)
                return value;
    }
    if (p.groupId)
        if (Status group = checkTemplate("groupId", *p.groupId); !group)
            return group;
    if (p.deduplicationId)
        if (Status id = checkTemplate("deduplicationId", *p.deduplicationId); !id)
            return id;
    if (p.channel)
        if (Status channel = checkTemplate("channel", *p.channel); !channel)
            return channel;
    if (!isProbability(p.retryProbability))
        return fieldError("retryProbability", "a probability from 0 to 1");
    if (p.retryAfter < 0)
        return fieldError("retryAfterSeconds", "must not be negative");
    if (p.delaySeconds < 0 || p.delaySeconds > 900)
        return fieldError("delaySeconds", "from 0 to 900 seconds");
    if (p.batchSize < 1 || p.batchSize > 20)
        return fieldError("batchSize", "from 1 to 10 (OCI queues: 20)");
    return Done{};
}

Status checkDuration(const std::string& field, const Duration& d)
{
    if (d.a < 0 || d.b < 0)
        return fieldError(field, "times must not be negative");
    if (d.kind == Duration::Kind::Uniform && d.b < d.a)
        return fieldError(field, "the uniform maximum is below its minimum");
    return Done{};
}

Status checkConsumer(const ConsumerSpec& c)
{
    if (Status common = checkCommon(c.name, c.queue, c.startAfter); !common)
        return common;
    if (c.workers < 1 || c.workers > 1000)
        return fieldError("workers", "from 1 to 1000");
    const ReceiveSettings& r = c.receive;
    if (r.maxMessages < 1 || r.maxMessages > 20)
        return fieldError("receive.maxMessages", "from 1 to 10 (OCI queues: 20)");
    if (r.waitTimeSeconds && (*r.waitTimeSeconds < 0 || *r.waitTimeSeconds > 30))
        return fieldError("receive.waitTimeSeconds", "from 0 to 20 seconds (OCI queues: 30)");
    if (r.visibilityTimeout && (*r.visibilityTimeout < 0 || *r.visibilityTimeout > 43'200))
        return fieldError("receive.visibilityTimeout", "from 0 to 43200 seconds");
    if (!isProbability(r.lostAnswerProbability))
        return fieldError("receive.lostAnswerProbability", "a probability from 0 to 1");
    if (r.lostAnswerProbability > 0.0 && !r.attemptIds)
        return fieldError("receive.lostAnswerProbability",
                          "a lost answer is asked for again with the same attempt id: set "
                          "attemptIds");
    if (r.idle && *r.idle < 0)
        return fieldError("receive.idleSeconds", "must not be negative");
    if (Status processing = checkDuration("processing", c.processing); !processing)
        return processing;
    const Outcomes& o = c.outcomes;
    for (const auto& [field, p] :
         {std::pair{"outcomes.succeed", o.succeed}, std::pair{"outcomes.fail", o.fail},
          std::pair{"outcomes.crash", o.crash}, std::pair{"outcomes.release", o.release}})
        if (!isProbability(p))
            return fieldError(field, "a probability from 0 to 1");
    const double sum = o.succeed + o.fail + o.crash + o.release;
    if (std::abs(sum - 1.0) > 1e-9)
        return fieldError("outcomes",
                          "the probabilities add up to " + shortNumber(sum) + ", not 1");
    if (c.crashDowntime < 0)
        return fieldError("crashDowntimeSeconds", "must not be negative");
    if (c.poison) {
        try {
            std::regex pattern(*c.poison, std::regex::ECMAScript);
        } catch (const std::regex_error& error) {
            return fieldError("poison", std::string("not a regular expression: ") + error.what());
        }
    }
    if (c.heartbeat) {
        const Heartbeat& h = *c.heartbeat;
        if (h.extendBy < 1 || h.extendBy > 43'200)
            return fieldError("heartbeat.extendBySeconds", "from 1 to 43200 seconds");
        if (h.every <= 0)
            return fieldError("heartbeat.everySeconds", "must be above 0");
        if (h.maximum < 1 || h.maximum > 43'200)
            return fieldError("heartbeat.maxSeconds",
                              "from 1 to 43200 seconds (the 12-hour cap from the receive)");
    }
    return Done{};
}

Status fitsProducer(const ProducerSpec& p, const QueueFacts& q)
{
    const bool oci = q.kind == QueueKind::Oci;
    const bool fifo = q.kind == QueueKind::Fifo;
    if (fifo && !p.groupId)
        return fieldError("groupId",
                          "missing: messages of the FIFO queue " + p.queue + " need a group id");
    if (!fifo && p.groupId && oci)
        return fieldError("groupId", "OCI queues have no message groups");
    if (fifo && !p.deduplicationId && !q.contentBasedDeduplication)
        return fieldError("deduplicationId",
                          "missing: the FIFO queue " + p.queue
                              + " has no content-based deduplication, so its messages need a "
                                "deduplication id");
    if (!fifo && p.deduplicationId)
        return fieldError("deduplicationId", "only FIFO queues deduplicate");
    if (p.delaySeconds != 0 && !(q.kind == QueueKind::Standard))
        return fieldError("delaySeconds",
                          fifo ? "FIFO queues have no per-message delay"
                               : "OCI queues have no per-message delay");
    if (p.channel && !oci)
        return fieldError("channel", "only OCI queues have channels");
    if (!oci && p.batchSize > 10)
        return fieldError("batchSize", "SendMessageBatch takes at most 10 messages");
    return Done{};
}

Status fitsConsumer(const ConsumerSpec& c, const QueueFacts& q)
{
    const bool oci = q.kind == QueueKind::Oci;
    const ReceiveSettings& r = c.receive;
    if (!oci && r.maxMessages > 10)
        return fieldError("receive.maxMessages", "SQS receives at most 10 messages at once");
    if (!oci && r.waitTimeSeconds && *r.waitTimeSeconds > 20)
        return fieldError("receive.waitTimeSeconds", "SQS long polls wait at most 20 seconds");
    if (!oci && r.channelFilter)
        return fieldError("receive.channelFilter", "only OCI queues have channels");
    if (r.attemptIds && q.kind != QueueKind::Fifo)
        return fieldError("receive.attemptIds", "only FIFO queues replay receive attempts");
    return Done{};
}

} // namespace

Millis Duration::draw(SimRandom& random) const
{
    switch (kind) {
    case Kind::Fixed: return a;
    case Kind::Uniform:
        return a + static_cast<Millis>(random.below(static_cast<std::uint64_t>(b - a) + 1));
    case Kind::Exponential: return std::llround(random.exponential(static_cast<double>(a)));
    }
    return a;
}

const std::string& actorName(const ActorSpec& spec)
{
    return std::visit([](const auto& s) -> const std::string& { return s.name; }, spec);
}

const std::string& actorQueue(const ActorSpec& spec)
{
    return std::visit([](const auto& s) -> const std::string& { return s.queue; }, spec);
}

engine::Status checkActorSpec(const ActorSpec& spec)
{
    if (const auto* p = std::get_if<ProducerSpec>(&spec))
        return checkProducer(*p);
    return checkConsumer(std::get<ConsumerSpec>(spec));
}

engine::Status checkActorFits(const ActorSpec& spec, const QueueFacts& queue)
{
    if (const auto* p = std::get_if<ProducerSpec>(&spec))
        return fitsProducer(*p, queue);
    return fitsConsumer(std::get<ConsumerSpec>(spec), queue);
}

} // namespace inflight::sim
