#include "sim/producer.h"

#include <cmath>

namespace inflight::sim {

namespace {

MessageTemplate compiled(const std::string& text)
{
    auto t = MessageTemplate::compile(text);
    return t ? std::move(*t) : MessageTemplate{};
}

} // namespace

Producer::Producer(ActorId id, engine::Broker& broker, std::uint64_t seed, ProducerSpec spec)
    : Actor(id, ActorKind::Producer, broker, seed, "producer " + spec.name), m_spec(std::move(spec))
{
    compile();
}

void Producer::setSpec(const ActorSpec& spec)
{
    m_spec = std::get<ProducerSpec>(spec);
    m_origin = "producer " + producer().name;
    m_created = 0;
    compile();
}

void Producer::compile()
{
    const ProducerSpec& p = producer();
    m_body = compiled(p.body);
    m_attributes.clear();
    for (const auto& [name, attribute] : p.attributes)
        if (!attribute.dataType.starts_with("Binary"))
            m_attributes.emplace(name, compiled(attribute.value));
    const auto optional = [](const std::optional<std::string>& text) {
        return text ? std::optional(compiled(*text)) : std::nullopt;
    };
    m_group = optional(p.groupId);
    m_deduplication = optional(p.deduplicationId);
    m_channel = optional(p.channel);
}

std::optional<Millis> Producer::nextAction() const
{
    if (m_state != ActorState::Running)
        return std::nullopt;
    Millis t = std::min(m_arrivalAt, m_burstAt);
    if (!m_retries.empty())
        t = std::min(t, m_retries.front().at);
    if (t == engine::kNoDeadline)
        return std::nullopt;
    return t;
}

void Producer::act()
{
    const Millis at = *nextAction();
    const Millis t = now();
    if (!m_retries.empty() && m_retries.front().at == at)
        retry();
    else if (m_arrivalAt == at)
        arrive(t);
    else
        burst(t);
    finishIfDone();
}

void Producer::start(Millis now, Millis delay)
{
    if (m_state != ActorState::Stopped)
        return;
    m_state = ActorState::Running;
    const ProducerSpec& p = producer();
    m_base = now + delay;
    m_arrivals = 0;
    m_exact = static_cast<double>(m_base);
    m_arrivalAt = m_base;
    if (p.arrivals == Arrivals::Poisson) {
        m_arrivalAt = engine::kNoDeadline;
        scheduleArrival();
    }
    m_burstAt = p.bursts ? m_base + p.bursts->first : engine::kNoDeadline;
    finishIfDone();
}

void Producer::stop()
{
    m_state = ActorState::Stopped;
    m_arrivalAt = m_burstAt = engine::kNoDeadline;
    m_retries.clear();
}

void Producer::shift(Millis delta)
{
    if (m_arrivalAt != engine::kNoDeadline)
        m_arrivalAt += delta;
    if (m_burstAt != engine::kNoDeadline)
        m_burstAt += delta;
    m_base += delta;
    m_exact += static_cast<double>(delta);
    for (Retry& r : m_retries)
        r.at += delta;
}

std::int64_t Producer::remaining() const
{
    const ProducerSpec& p = producer();
    return p.total ? std::max<std::int64_t>(*p.total - m_created, 0) : INT64_MAX;
}

void Producer::finishIfDone()
{
    if (m_state != ActorState::Running || remaining() > 0 || !m_retries.empty())
        return;
    m_state = ActorState::Finished;
    m_arrivalAt = m_burstAt = engine::kNoDeadline;
}

// The next arrival after the current one: gap = batchSize / rate seconds.
void Producer::scheduleArrival()
{
    const ProducerSpec& p = producer();
    if (remaining() <= 0) {
        m_arrivalAt = engine::kNoDeadline;
        return;
    }
    const double gap = 1000.0 * static_cast<double>(p.batchSize) / p.rate;
    if (p.arrivals == Arrivals::Constant) {
        ++m_arrivals;
        m_arrivalAt = m_base + std::llround(static_cast<double>(m_arrivals) * gap);
    } else {
        m_exact += m_random.exponential(gap);
        m_arrivalAt = std::llround(m_exact);
    }
}

engine::SendMessageRequest Producer::makeMessage(Millis now)
{
    const ProducerSpec& p = producer();
    const std::int64_t n = m_next++;
    ++m_created;
    engine::SendMessageRequest request;
    request.queue = p.queue;
    request.body = m_body.render(n, now, m_random);
    for (const auto& [name, attribute] : p.attributes) {
        engine::MessageAttributeValue value;
        value.dataType = attribute.dataType;
        if (attribute.dataType.starts_with("Binary"))
            value.binaryValue = attribute.value;
        else
            value.stringValue = m_attributes.at(name).render(n, now, m_random);
        request.attributes.emplace(name, std::move(value));
    }
    if (m_group)
        request.groupId = m_group->render(n, now, m_random);
    if (m_deduplication)
        request.deduplicationId = m_deduplication->render(n, now, m_random);
    if (m_channel)
        request.channelId = m_channel->render(n, now, m_random);
    if (p.delaySeconds != 0)
        request.delaySeconds = p.delaySeconds;
    request.origin = m_origin;
    return request;
}

void Producer::stored(const engine::SendMessageRequest& request, bool deduplicated, Millis now)
{
    ++(deduplicated ? m_figures.deduplicated : m_figures.sent);
    const ProducerSpec& p = producer();
    if (!deduplicated && m_random.chance(p.retryProbability))
        m_retries.push_back(Retry{planFrom(now) + p.retryAfter, request});
}

void Producer::send(std::vector<engine::SendMessageRequest> messages, Millis now)
{
    if (messages.size() == 1) {
        const auto sent = m_broker.sendMessage(messages.front());
        if (sent) {
            stored(messages.front(), sent->deduplicated, now);
        } else {
            ++m_figures.sendErrors;
            recordError(sent.error());
        }
        return;
    }
    std::vector<engine::BatchSendEntry> entries;
    entries.reserve(messages.size());
    for (std::size_t i = 0; i < messages.size(); ++i)
        entries.push_back(engine::BatchSendEntry{std::to_string(i), messages[i]});
    const auto sent = m_broker.sendMessageBatch(producer().queue, entries, m_origin);
    if (!sent) {
        m_figures.sendErrors += static_cast<std::int64_t>(messages.size());
        recordError(sent.error());
        return;
    }
    std::size_t success = 0;
    std::size_t failure = 0;
    for (std::size_t i = 0; i < messages.size(); ++i) {
        if (sent->succeededInOrder[i]) {
            stored(messages[i], sent->successful[success++].result.deduplicated, now);
        } else {
            ++m_figures.sendErrors;
            recordError(sent->failed[failure++].error);
        }
    }
}

void Producer::arrive(Millis now)
{
    const auto count = std::min(producer().batchSize, remaining());
    std::vector<engine::SendMessageRequest> messages;
    for (std::int64_t i = 0; i < count; ++i)
        messages.push_back(makeMessage(now));
    if (!messages.empty())
        send(std::move(messages), now);
    scheduleArrival();
}

void Producer::burst(Millis now)
{
    const ProducerSpec& p = producer();
    std::int64_t count = std::min(p.bursts->messages, remaining());
    while (count > 0) {
        const auto size = std::min(count, p.batchSize);
        std::vector<engine::SendMessageRequest> messages;
        for (std::int64_t i = 0; i < size; ++i)
            messages.push_back(makeMessage(now));
        send(std::move(messages), now);
        count -= size;
    }
    m_burstAt = remaining() > 0 ? m_burstAt + p.bursts->every : engine::kNoDeadline;
    if (remaining() <= 0)
        m_arrivalAt = engine::kNoDeadline;
}

void Producer::retry()
{
    Retry r = std::move(m_retries.front());
    m_retries.pop_front();
    ++m_figures.retries;
    const auto sent = m_broker.sendMessage(r.request);
    if (!sent) {
        ++m_figures.sendErrors;
        recordError(sent.error());
        return;
    }
    ++(sent->deduplicated ? m_figures.deduplicated : m_figures.sent);
}

} // namespace inflight::sim
