// The "actors" of a scenario file (scenario.h): one reader per entry, producer or consumer, that
// notes where each field is so that a check's error points at it.
#include "sim/scenario_reader.h"

#include "text/base64.h"

namespace inflight::sim::scenario_json {

namespace {

class ActorReader {
public:
    ActorReader(const Reader& reader, const Field& entry, ScenarioActor& actor)
        : r(reader), m_entry(entry), m_actor(actor)
    {
    }

    Status read()
    {
        if (!m_entry.json->is_object())
            return r.wrongType(m_entry, "an object with an actor's type, name and queue");
        m_actor.position = r.at(m_entry);
        std::optional<Field> type;
        for (const auto& [name, field] : r.members(m_entry))
            if (name == "type")
                type = field;
        if (!type)
            return r.missing(m_entry, "type", "missing: \"producer\" or \"consumer\"");
        auto kind = stringOf(r, *type);
        if (!kind)
            return kind.error();
        note("type", *type);
        Status read = Done{};
        if (*kind == "producer")
            read = producer();
        else if (*kind == "consumer")
            read = consumer();
        else
            return r.error(*type, "unknown type \"" + *kind + "\": \"producer\" or \"consumer\"");
        if (!read)
            return read;
        for (const char* required : {"name", "queue"})
            if (!m_actor.fields.contains(required))
                return r.missing(m_entry, required,
                                 std::string("missing: every actor needs a ") + required);
        if (Status checked = checkActorSpec(m_actor.spec); !checked)
            return positioned(checked.error());
        return Done{};
    }

    // A check's error at the field its parameter names (the actor, with that path, if absent).
    Error positioned(const Error& error) const
    {
        if (const auto it = m_actor.fields.find(error.parameter); it != m_actor.fields.end())
            return config::configError(it->second, error.message);
        ConfigPosition at = m_actor.position;
        at.path = error.parameter.empty() ? m_entry.path : m_entry.path + "." + error.parameter;
        return config::configError(at, error.message);
    }

private:
    void note(const std::string& parameter, const Field& field)
    {
        m_actor.fields[parameter] = r.at(field);
    }

    Status common(const std::string& name, const Field& f, std::string& actorName,
                  std::string& queue, Millis& startAfter, bool& autoStart, bool& handled)
    {
        handled = true;
        if (name == "type")
            return Done{};
        note(name, f);
        if (name == "name")
            return take(stringOf(r, f), actorName);
        if (name == "queue")
            return take(stringOf(r, f), queue);
        if (name == "startAfterSeconds")
            return take(secondsOf(r, f), startAfter);
        if (name == "autoStart")
            return take(booleanOf(r, f), autoStart);
        m_actor.fields.erase(name);
        handled = false;
        return Done{};
    }

    Status producer()
    {
        ProducerSpec p;
        Status read = eachMember(
            r, m_entry, "an object", [&](const std::string& name, const Field& f) -> Status {
                bool handled = false;
                if (Status c = common(name, f, p.name, p.queue, p.startAfter, p.autoStart, handled);
                    !c || handled)
                    return c;
                note(name, f);
                if (name == "rate")
                    return take(numberOf(r, f), p.rate);
                if (name == "arrivals") {
                    auto text = stringOf(r, f);
                    if (!text)
                        return text.error();
                    if (*text != "constant" && *text != "poisson")
                        return r.error(f, "\"constant\" or \"poisson\"");
                    p.arrivals = *text == "poisson" ? Arrivals::Poisson : Arrivals::Constant;
                    return Done{};
                }
                if (name == "bursts")
                    return bursts(f, p);
                if (name == "total") {
                    std::int64_t total = 0;
                    if (Status t = take(integerOf(r, f), total); !t)
                        return t;
                    p.total = total;
                    return Done{};
                }
                if (name == "body")
                    return take(templateOf(r, f, true), p.body);
                if (name == "attributes")
                    return attributes(f, p);
                if (name == "groupId" || name == "deduplicationId" || name == "channel") {
                    std::string text;
                    if (Status t = take(templateOf(r, f, false), text); !t)
                        return t;
                    (name == "groupId"               ? p.groupId
                         : name == "deduplicationId" ? p.deduplicationId
                                                     : p.channel)
                        = std::move(text);
                    return Done{};
                }
                if (name == "retryProbability")
                    return take(numberOf(r, f), p.retryProbability);
                if (name == "retryAfterSeconds")
                    return take(secondsOf(r, f), p.retryAfter);
                if (name == "delaySeconds")
                    return take(integerOf(r, f), p.delaySeconds);
                if (name == "batchSize")
                    return take(integerOf(r, f), p.batchSize);
                return unknownKey(
                    r, f, name,
                    "a producer has type, name, queue, rate, arrivals, bursts, total, "
                    "body, attributes, groupId, deduplicationId, channel, "
                    "retryProbability, retryAfterSeconds, delaySeconds, batchSize, "
                    "startAfterSeconds and autoStart");
            });
        m_actor.spec = std::move(p);
        return read;
    }

    Status bursts(const Field& object, ProducerSpec& p)
    {
        Bursts b;
        bool firstGiven = false;
        Status read = eachMember(r, object, "an object with everySeconds and messages",
                                 [&](const std::string& name, const Field& f) -> Status {
                                     note("bursts." + name, f);
                                     if (name == "everySeconds")
                                         return take(secondsOf(r, f), b.every);
                                     if (name == "messages")
                                         return take(integerOf(r, f), b.messages);
                                     if (name == "firstAfterSeconds") {
                                         firstGiven = true;
                                         return take(secondsOf(r, f), b.first);
                                     }
                                     return unknownKey(r, f, name,
                                                       "bursts have everySeconds, messages and "
                                                       "firstAfterSeconds");
                                 });
        if (!read)
            return read;
        for (const char* required : {"everySeconds", "messages"})
            if (!m_actor.fields.contains(std::string("bursts.") + required))
                return r.missing(object, required,
                                 "missing: bursts need everySeconds and messages");
        if (!firstGiven)
            b.first = b.every;
        p.bursts = b;
        return Done{};
    }

    Status attributes(const Field& object, ProducerSpec& p)
    {
        return eachMember(
            r, object, "an object of message attributes by name",
            [&](const std::string& name, const Field& f) -> Status {
                note("attributes." + name, f);
                AttributeTemplate attribute;
                if (f.json->is_string()) {
                    attribute.value = f.json->get<std::string>();
                } else if (f.json->is_number()) {
                    attribute.dataType = "Number";
                    attribute.value = r.compact(f);
                } else if (f.json->is_object()) {
                    bool typed = false, valued = false;
                    Status read = eachMember(
                        r, f, "", [&](const std::string& key, const Field& member) -> Status {
                            if (key != "DataType" && key != "StringValue" && key != "BinaryValue")
                                return unknownKey(r, member, key,
                                                  "a message attribute has DataType, and "
                                                  "StringValue or BinaryValue");
                            auto text = stringOf(r, member);
                            if (!text)
                                return text.error();
                            if (key == "DataType") {
                                typed = true;
                                attribute.dataType = *text;
                            } else if (key == "StringValue") {
                                valued = true;
                                attribute.value = *text;
                            } else {
                                auto bytes = text::base64Decode(*text);
                                if (!bytes)
                                    return r.error(member, "not base64");
                                valued = true;
                                attribute.value = std::move(*bytes);
                            }
                            return Done{};
                        });
                    if (!read)
                        return read;
                    if (!typed)
                        return r.missing(f, "DataType",
                                         "missing: a message attribute needs a DataType");
                    if (!valued)
                        return r.missing(f, "StringValue",
                                         "missing: a message attribute needs a StringValue or "
                                         "BinaryValue");
                } else {
                    return r.wrongType(f, "a string, a number or an object with a DataType");
                }
                p.attributes[name] = std::move(attribute);
                return Done{};
            });
    }

    Status consumer()
    {
        ConsumerSpec c;
        bool succeedGiven = false;
        Status read = eachMember(
            r, m_entry, "an object", [&](const std::string& name, const Field& f) -> Status {
                bool handled = false;
                if (Status s = common(name, f, c.name, c.queue, c.startAfter, c.autoStart, handled);
                    !s || handled)
                    return s;
                note(name, f);
                if (name == "workers")
                    return take(integerOf(r, f), c.workers);
                if (name == "receive")
                    return receive(f, c.receive);
                if (name == "processing")
                    return processing(f, c.processing);
                if (name == "outcomes")
                    return outcomes(f, c.outcomes, succeedGiven);
                if (name == "crashDowntimeSeconds")
                    return take(secondsOf(r, f), c.crashDowntime);
                if (name == "poison") {
                    std::string pattern;
                    if (Status t = take(stringOf(r, f), pattern); !t)
                        return t;
                    c.poison = std::move(pattern);
                    return Done{};
                }
                if (name == "heartbeat")
                    return heartbeat(f, c);
                return unknownKey(r, f, name,
                                  "a consumer has type, name, queue, workers, receive, processing, "
                                  "outcomes, crashDowntimeSeconds, poison, heartbeat, "
                                  "startAfterSeconds and autoStart");
            });
        if (read && !succeedGiven) {
            const Outcomes& o = c.outcomes;
            c.outcomes.succeed = 1.0 - o.fail - o.crash - o.release;
            if (c.outcomes.succeed < -1e-9)
                return positioned(engine::makeError(engine::ErrorCode::InvalidParameterValue,
                                                    "the probabilities add up to more than 1",
                                                    "outcomes"));
            c.outcomes.succeed = std::max(c.outcomes.succeed, 0.0);
        }
        m_actor.spec = std::move(c);
        return read;
    }

    Status receive(const Field& object, ReceiveSettings& settings)
    {
        return eachMember(r, object, "an object of receive settings",
                          [&](const std::string& name, const Field& f) -> Status {
                              note("receive." + name, f);
                              if (name == "maxMessages")
                                  return take(integerOf(r, f), settings.maxMessages);
                              if (name == "waitTimeSeconds" || name == "visibilityTimeout") {
                                  std::int64_t value = 0;
                                  if (Status t = take(integerOf(r, f), value); !t)
                                      return t;
                                  (name == "waitTimeSeconds" ? settings.waitTimeSeconds
                                                             : settings.visibilityTimeout)
                                      = value;
                                  return Done{};
                              }
                              if (name == "channelFilter") {
                                  std::string filter;
                                  if (Status t = take(stringOf(r, f), filter); !t)
                                      return t;
                                  settings.channelFilter = std::move(filter);
                                  return Done{};
                              }
                              if (name == "attemptIds")
                                  return take(booleanOf(r, f), settings.attemptIds);
                              if (name == "lostAnswerProbability")
                                  return take(numberOf(r, f), settings.lostAnswerProbability);
                              if (name == "idleSeconds") {
                                  Millis idle = 0;
                                  if (Status t = take(secondsOf(r, f), idle); !t)
                                      return t;
                                  settings.idle = idle;
                                  return Done{};
                              }
                              return unknownKey(
                                  r, f, name,
                                  "receive has maxMessages, waitTimeSeconds, visibilityTimeout, "
                                  "channelFilter, attemptIds, lostAnswerProbability and "
                                  "idleSeconds");
                          });
    }

    Status processing(const Field& f, Duration& d)
    {
        if (f.json->is_number()) {
            d = Duration{Duration::Kind::Fixed, 0, 0};
            return take(secondsOf(r, f), d.a);
        }
        const char* expected = "seconds: a number, {\"fixed\": s}, {\"uniform\": [min, max]} or "
                               "{\"exponential\": mean}";
        if (!f.json->is_object())
            return r.wrongType(f, expected);
        const auto members = r.members(f);
        if (members.size() != 1)
            return r.error(f, std::string("one of ") + expected);
        const auto& [name, value] = members.front();
        note("processing." + name, value);
        if (name == "fixed" || name == "exponential") {
            d.kind = name == "fixed" ? Duration::Kind::Fixed : Duration::Kind::Exponential;
            d.b = 0;
            return take(secondsOf(r, value), d.a);
        }
        if (name == "uniform") {
            if (!value.json->is_array() || value.json->size() != 2)
                return r.wrongType(value, "a list of two numbers: [min, max] seconds");
            const auto bounds = r.elements(value);
            d.kind = Duration::Kind::Uniform;
            if (Status low = take(secondsOf(r, bounds[0]), d.a); !low)
                return low;
            return take(secondsOf(r, bounds[1]), d.b);
        }
        return unknownKey(r, value, name, "processing is fixed, uniform or exponential");
    }

    Status outcomes(const Field& object, Outcomes& o, bool& succeedGiven)
    {
        o = Outcomes{.succeed = 0.0};
        return eachMember(r, object, "an object of probabilities by outcome",
                          [&](const std::string& name, const Field& f) -> Status {
                              note("outcomes." + name, f);
                              double* slot = name == "succeed" ? &o.succeed
                                  : name == "fail"             ? &o.fail
                                  : name == "crash"            ? &o.crash
                                  : name == "release"          ? &o.release
                                                               : nullptr;
                              if (!slot)
                                  return unknownKey(r, f, name,
                                                    "outcomes are succeed, fail, crash and "
                                                    "release");
                              succeedGiven = succeedGiven || name == "succeed";
                              return take(numberOf(r, f), *slot);
                          });
    }

    Status heartbeat(const Field& object, ConsumerSpec& c)
    {
        Heartbeat h;
        Status read = eachMember(
            r, object, "an object with extendBySeconds, everySeconds and maxSeconds",
            [&](const std::string& name, const Field& f) -> Status {
                note("heartbeat." + name, f);
                if (name == "extendBySeconds")
                    return take(integerOf(r, f), h.extendBy);
                if (name == "everySeconds")
                    return take(secondsOf(r, f), h.every);
                if (name == "maxSeconds")
                    return take(integerOf(r, f), h.maximum);
                return unknownKey(r, f, name,
                                  "a heartbeat has extendBySeconds, everySeconds and maxSeconds");
            });
        if (!read)
            return read;
        for (const char* required : {"extendBySeconds", "everySeconds", "maxSeconds"})
            if (!m_actor.fields.contains(std::string("heartbeat.") + required))
                return r.missing(object, required,
                                 "missing: a heartbeat needs extendBySeconds, everySeconds and "
                                 "maxSeconds");
        c.heartbeat = h;
        return Done{};
    }

    const Reader& r;
    const Field& m_entry;
    ScenarioActor& m_actor;
};

} // namespace

Status readActor(const Reader& r, const Field& entry, ScenarioActor& actor)
{
    return ActorReader(r, entry, actor).read();
}

} // namespace inflight::sim::scenario_json
