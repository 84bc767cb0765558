#pragma once

// A broker on a manual clock with a simulation over it, recording every engine event: the common
// ground of the simulation tests.

#include "engine/broker.h"
#include "sim/simulation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace inflight::sim::testing {

using engine::Event;
using engine::EventKind;
using engine::Millis;

constexpr Millis kStart = 1'700'000'000'000;

inline engine::BrokerOptions fixedOptions()
{
    engine::BrokerOptions options;
    options.seed = 42;
    return options;
}

class SimTest : public ::testing::Test {
protected:
    engine::ManualClock clock{kStart};
    engine::Broker broker{clock, fixedOptions()};
    Simulation sim{broker, 7};
    std::vector<Event> events;

    void SetUp() override
    {
        broker.setEventSink([this](std::span<Event> batch) {
            events.insert(events.end(), batch.begin(), batch.end());
        });
    }

    void createQueue(const std::string& name, engine::StringMap attributes = {}, bool oci = false)
    {
        if (name.ends_with(".fifo"))
            attributes.emplace("FifoQueue", "true");
        auto created = broker.createQueue(engine::CreateQueueRequest{
            .name = name, .attributes = std::move(attributes), .oci = oci});
        ASSERT_TRUE(created.ok()) << engine::describe(created.error());
    }

    void send(const std::string& queue, const std::string& body)
    {
        auto sent = broker.sendMessage(engine::SendMessageRequest{.queue = queue, .body = body});
        ASSERT_TRUE(sent.ok()) << engine::describe(sent.error());
    }

    ActorId add(const ActorSpec& spec)
    {
        auto added = sim.addActor(spec);
        EXPECT_TRUE(added.ok()) << (added.ok() ? "" : engine::describe(added.error()));
        return added.ok() ? *added : 0;
    }

    // Runs until kStart + ms.
    void runTo(Millis ms) { sim.runUntil(clock, kStart + ms); }

    ActorFigures figures(ActorId id) const { return sim.actor(id)->figures; }

    std::vector<Event> eventsOf(EventKind kind) const
    {
        std::vector<Event> result;
        std::copy_if(events.begin(), events.end(), std::back_inserter(result),
                     [&](const Event& e) { return e.kind == kind; });
        return result;
    }
    std::size_t countOf(EventKind kind) const { return eventsOf(kind).size(); }

    // Times of the events of one kind, relative to kStart.
    std::vector<Millis> timesOf(EventKind kind) const
    {
        std::vector<Millis> result;
        for (const Event& e : eventsOf(kind))
            result.push_back(e.time - kStart);
        return result;
    }

    std::vector<engine::MessageView> messages(const std::string& queue)
    {
        auto peeked = broker.peekMessages(queue);
        EXPECT_TRUE(peeked.ok());
        return peeked.ok() ? *peeked : std::vector<engine::MessageView>{};
    }
};

inline ProducerSpec producer(std::string name, std::string queue, double rate)
{
    ProducerSpec spec;
    spec.name = std::move(name);
    spec.queue = std::move(queue);
    spec.rate = rate;
    return spec;
}

inline ConsumerSpec consumer(std::string name, std::string queue, Millis processing)
{
    ConsumerSpec spec;
    spec.name = std::move(name);
    spec.queue = std::move(queue);
    spec.processing = Duration{Duration::Kind::Fixed, processing, 0};
    return spec;
}

// The consumer with 20 s long polls.
inline ConsumerSpec longPolling(ConsumerSpec spec)
{
    spec.receive.waitTimeSeconds = 20;
    return spec;
}

// An event as one line, for comparing whole runs.
inline std::string line(const Event& e)
{
    return std::string(engine::eventKindName(e.kind)) + " " + std::to_string(e.time) + " " + e.queue
        + " " + e.messageId + " " + e.receipt + " " + std::to_string(e.receiveCount) + " "
        + std::to_string(e.deadline) + " " + std::to_string(e.count) + " " + e.detail + " "
        + e.origin;
}

} // namespace inflight::sim::testing
