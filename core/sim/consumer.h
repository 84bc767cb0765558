#pragma once

#include "sim/actor.h"

#include <deque>
#include <regex>
#include <unordered_map>
#include <vector>

namespace inflight::sim {

// Receives from one queue with a number of workers and processes what it gets in engine time
// (actor_spec.h, ConsumerSpec). Each worker on its own: receive (a long poll waits in the engine:
// Broker::receiveMessageAsync), process the messages of the answer one after another, each for a
// drawn time and with a drawn outcome, heartbeats while it holds messages, then receive again at
// once; after an empty answer or an error it waits receive.idle first. Its actions, when due at
// the same time: by worker, and for one worker the end of a processing, then a heartbeat, then a
// receive (or the end of a crash).
class Consumer final : public Actor {
public:
    // Requires checkActorSpec(spec) to have passed.
    Consumer(ActorId id, engine::Broker& broker, std::uint64_t seed, ConsumerSpec spec);
    // Cancels its pending long polls.
    ~Consumer() override;

    const ActorSpec& spec() const override { return m_spec; }
    void setSpec(const ActorSpec& spec) override;
    std::optional<Millis> nextAction() const override;
    void act() override;
    void start(Millis now, Millis delay) override;
    void stop() override;

    // Messages received and not yet finished, over all workers.
    std::size_t held() const;

private:
    enum class Phase : std::uint8_t { Stopped, Idle, Receiving, Processing, Crashed };
    enum class Step : std::uint8_t { Finish, Heartbeat, Wake };

    struct Held {
        engine::ReceivedMessage message{};
        Millis receivedAt = 0;
        Millis visibleAt = 0;
    };
    struct Worker {
        Phase phase = Phase::Stopped;
        std::string origin{};
        // Idle: the next receive; Crashed: back up; Processing: start the next message (an answer
        // that came while the consumer was paused).
        Millis wakeAt = engine::kNoDeadline;
        Millis finishAt = engine::kNoDeadline; // Processing: the end of the front message's
        Millis heartbeatAt = engine::kNoDeadline;
        Millis heartbeatBase = 0; // the receive, moved by pauses (heartbeat k at base + k·every)
        std::int64_t heartbeatCount = 0;
        std::deque<Held> held{}; // Processing: the front one is processed (once started)
        bool started = false;    // the front one's processing has begun
        Outcome outcome = Outcome::Succeed;
        bool poisoned = false;
        engine::WaitId waitId = 0;
        std::uint64_t receiveToken = 0; // the receive an answer must belong to
        Millis askedAt = 0;
        std::optional<std::string> attemptId{}; // to ask again after a lost answer
        std::uint64_t attempts = 0;
    };
    // Per message id, for duplicate processing (ActorFigures::processedMoreThanOnce). Dropped once
    // the message is deleted and no worker processes it.
    struct Seen {
        std::int64_t active = 0;
        std::int64_t completed = 0;
        bool deleted = false;
    };

    const ConsumerSpec& consumer() const { return std::get<ConsumerSpec>(m_spec); }
    void configure();
    void shift(Millis delta) override;
    std::pair<Step, Millis> nextOf(const Worker& worker) const;

    void receive(std::size_t w, Millis now);
    void answered(std::size_t w, std::uint64_t token, engine::Result<engine::ReceiveResult> result);
    // After an empty answer or an error: the next receive after receive.idle.
    void goIdle(Worker& worker, Millis now);
    void startNext(Worker& worker, Millis now);
    void finish(Worker& worker, Millis now);
    void heartbeat(Worker& worker, Millis now);
    void abandon(Worker& worker);
    void endProcessing(Worker& worker);
    Outcome drawOutcome();
    void forget(const std::string& messageId);

    ActorSpec m_spec;
    std::optional<std::regex> m_poison;
    std::vector<Worker> m_workers;
    std::unordered_map<std::string, Seen> m_seen;
    std::uint64_t m_tokens = 0;
};

} // namespace inflight::sim
