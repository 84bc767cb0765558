#pragma once

#include "sim/actor.h"
#include "sim/message_template.h"

#include <deque>

namespace inflight::sim {

// Sends messages to one queue at a rate in engine time (actor_spec.h, ProducerSpec). Its
// actions, in this order when due at the same time: a retry, the next arrival (one message, or a
// batch of batchSize), a burst.
class Producer final : public Actor {
public:
    // Requires checkActorSpec(spec) to have passed.
    Producer(ActorId id, engine::Broker& broker, std::uint64_t seed, ProducerSpec spec);

    const ActorSpec& spec() const override { return m_spec; }
    void setSpec(const ActorSpec& spec) override;
    std::optional<Millis> nextAction() const override;
    void act() override;
    void start(Millis now, Millis delay) override;
    void stop() override;

    // The number {n} of the next message (1 for the first).
    std::int64_t nextNumber() const { return m_next; }

private:
    struct Retry {
        Millis at = 0;
        engine::SendMessageRequest request{};
    };

    const ProducerSpec& producer() const { return std::get<ProducerSpec>(m_spec); }
    void compile();
    void shift(Millis delta) override;
    std::int64_t remaining() const;
    engine::SendMessageRequest makeMessage(Millis now);
    void send(std::vector<engine::SendMessageRequest> messages, Millis now);
    void stored(const engine::SendMessageRequest& request, bool deduplicated, Millis now);
    void arrive(Millis now);
    void burst(Millis now);
    void retry();
    void scheduleArrival();
    void finishIfDone();

    ActorSpec m_spec;
    MessageTemplate m_body;
    std::map<std::string, MessageTemplate> m_attributes;
    std::optional<MessageTemplate> m_group, m_deduplication, m_channel;

    std::int64_t m_next = 1;    // {n} of the next message
    std::int64_t m_created = 0; // messages made since the start of this spec (for total)
    // Arrivals: constant ones at m_base + round(k · gap), Poisson ones at round(m_exact).
    Millis m_arrivalAt = engine::kNoDeadline;
    Millis m_base = 0;
    std::int64_t m_arrivals = 0;
    double m_exact = 0.0;
    Millis m_burstAt = engine::kNoDeadline;
    std::deque<Retry> m_retries; // in time order (one retryAfter for all)
};

} // namespace inflight::sim
