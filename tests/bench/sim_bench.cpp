// Simulated actors against the engine's own cycle (issue 13, docs/PERFORMANCE.md "Simulated
// actors"): 10 producers and 10 consumers run unpaced — Simulation::runUntil on a manual clock,
// as fast as the machine goes — beside the engine's send 10 → receive(10) → delete 10 cycle of
// engine_bench, both with an event sink, so that one run gives both figures and their ratio
// (target: the simulation at least 25% of the engine).
// Run: build-bench-sim/tests/bench/sim_bench --benchmark_counters_tabular=true
#include "engine/broker.h"
#include "rate_reporter.h"
#include "sim/simulation.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>

using namespace inflight;
using engine::Millis;

namespace {

const std::string kBody256(256, 'x');
// 256-byte bodies from the producers too: 251 characters and " {n}" (up to 5 digits here).
const std::string kTemplate256 = std::string(251, 'x') + " {n}";

constexpr int kPairs = 10;
// Each producer sends 10 messages per engine millisecond, which its consumer takes with one
// receive of 10, deletes one by one and asks again: per message one SendMessage, one
// DeleteMessage and a tenth of a ReceiveMessage, as in the engine's cycle (plus the consumer's
// empty receive when it asks again before the next ten arrive).
constexpr double kRate = 10'000.0;

// The engine's own cycle, exactly as engine_bench's BM_StandardSendReceiveDeleteWithEvents.
void BM_EngineSendReceiveDeleteWithEvents(benchmark::State& state)
{
    engine::ManualClock clock;
    engine::Broker broker(clock);
    std::int64_t events = 0;
    broker.setEventSink([&](std::span<const engine::Event> batch) {
        events += static_cast<std::int64_t>(batch.size());
    });
    (void)broker.createQueue({.name = "bench"});
    engine::SendMessageRequest send{.queue = "bench", .body = kBody256};
    engine::ReceiveRequest receive{.queue = "bench", .maxMessages = 10};
    std::int64_t messages = 0;
    for (auto _ : state) {
        for (int i = 0; i < 10; ++i)
            benchmark::DoNotOptimize(broker.sendMessage(send));
        auto received = broker.receiveMessage(receive);
        for (const engine::ReceivedMessage& m : received->messages)
            benchmark::DoNotOptimize(broker.deleteMessage("bench", m.receiptHandle, "test"));
        messages += static_cast<std::int64_t>(received->messages.size());
        clock.advance(1);
    }
    state.counters["messages/s"]
        = benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
    benchmark::DoNotOptimize(events);
}
BENCHMARK(BM_EngineSendReceiveDeleteWithEvents);

// 10 producers and 10 consumers, one queue each, run unpaced: each iteration is 10 ms of engine
// time (1,000 messages sent, received, processed and deleted) through Simulation::runUntil.
void BM_SimulationTenProducersTenConsumers(benchmark::State& state)
{
    engine::ManualClock clock;
    engine::Broker broker(clock);
    std::int64_t events = 0;
    broker.setEventSink([&](std::span<const engine::Event> batch) {
        events += static_cast<std::int64_t>(batch.size());
    });
    sim::Simulation simulation(broker, 1);
    for (int i = 0; i < kPairs; ++i) {
        const std::string queue = "q" + std::to_string(i);
        (void)broker.createQueue({.name = queue});
        sim::ProducerSpec producer;
        producer.name = "feed-" + std::to_string(i);
        producer.queue = queue;
        producer.rate = kRate;
        producer.body = kTemplate256;
        if (!simulation.addActor(producer)) {
            state.SkipWithError("producer refused");
            return;
        }
        sim::ConsumerSpec consumer;
        consumer.name = "worker-" + std::to_string(i);
        consumer.queue = queue;
        consumer.receive.maxMessages = 10;
        consumer.receive.waitTimeSeconds = 0;
        consumer.receive.idle = 1;
        consumer.processing = sim::Duration{sim::Duration::Kind::Fixed, 0, 0};
        if (!simulation.addActor(consumer)) {
            state.SkipWithError("consumer refused");
            return;
        }
    }
    const auto processed = [&] {
        std::int64_t total = 0;
        for (const sim::ActorInfo& actor : simulation.actors())
            total += actor.figures.processed;
        return total;
    };
    // Warm up to the steady state (queues at their working size).
    simulation.runUntil(clock, clock.now() + 100);
    const std::int64_t before = processed();
    for (auto _ : state)
        simulation.runUntil(clock, clock.now() + 10);
    const std::int64_t messages = processed() - before;
    state.counters["messages/s"]
        = benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
    state.counters["messages/iteration"] = static_cast<double>(messages)
        / static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
    std::int64_t sendErrors = 0, receiveErrors = 0, duplicates = 0;
    for (const sim::ActorInfo& actor : simulation.actors()) {
        sendErrors += actor.figures.sendErrors;
        receiveErrors += actor.figures.receiveErrors;
        duplicates += actor.figures.processedMoreThanOnce;
    }
    if (sendErrors + receiveErrors + duplicates != 0)
        state.SkipWithError("the actors saw errors or duplicates");
    benchmark::DoNotOptimize(events);
}
BENCHMARK(BM_SimulationTenProducersTenConsumers);

} // namespace

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    bench::RateReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    std::printf("\n");
    reporter.printRatio("simulation / engine", "BM_SimulationTenProducersTenConsumers",
                        "BM_EngineSendReceiveDeleteWithEvents", 25);
    benchmark::Shutdown();
    return 0;
}
