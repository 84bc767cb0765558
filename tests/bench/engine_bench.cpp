// Engine throughput, deadline processing and memory figures for docs/PERFORMANCE.md.
// Run: build-bench/tests/bench/engine_bench --benchmark_counters_tabular=true
#include "engine/broker.h"
#include "rate_reporter.h"

#include <benchmark/benchmark.h>

#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

using namespace inflight::engine;

// ---- live heap bytes, for the memory figure --------------------------------------------------

namespace {
std::int64_t g_liveBytes = 0;
bool g_counting = false;
} // namespace

void* operator new(std::size_t size)
{
    void* p = std::malloc(size ? size : 1);
    if (!p)
        throw std::bad_alloc();
    if (g_counting)
        g_liveBytes += static_cast<std::int64_t>(malloc_usable_size(p));
    return p;
}

// GCC cannot see that this operator new allocates with malloc.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept
{
    if (p && g_counting)
        g_liveBytes -= static_cast<std::int64_t>(malloc_usable_size(p));
    std::free(p);
}
#pragma GCC diagnostic pop

void operator delete(void* p, std::size_t) noexcept
{
    operator delete(p);
}

namespace {

const std::string kBody256(256, 'x');

// send 10 → receive(10) → delete 10, one thread, standard queue, 256-byte bodies.
void BM_StandardSendReceiveDelete(benchmark::State& state)
{
    ManualClock clock;
    Broker broker(clock);
    (void)broker.createQueue({.name = "bench"});
    SendMessageRequest send{.queue = "bench", .body = kBody256};
    ReceiveRequest receive{.queue = "bench", .maxMessages = 10};
    std::int64_t messages = 0;
    for (auto _ : state) {
        for (int i = 0; i < 10; ++i)
            benchmark::DoNotOptimize(broker.sendMessage(send));
        auto received = broker.receiveMessage(receive);
        for (const ReceivedMessage& m : received->messages)
            benchmark::DoNotOptimize(broker.deleteMessage("bench", m.receiptHandle, "test"));
        messages += static_cast<std::int64_t>(received->messages.size());
        clock.advance(1);
    }
    state.counters["messages/s"]
        = benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_StandardSendReceiveDelete);

// The same with an event sink attached, as in the app (every change leaves as an event).
void BM_StandardSendReceiveDeleteWithEvents(benchmark::State& state)
{
    ManualClock clock;
    Broker broker(clock);
    std::int64_t events = 0;
    broker.setEventSink(
        [&](std::span<const Event> batch) { events += static_cast<std::int64_t>(batch.size()); });
    (void)broker.createQueue({.name = "bench"});
    SendMessageRequest send{.queue = "bench", .body = kBody256};
    ReceiveRequest receive{.queue = "bench", .maxMessages = 10};
    std::int64_t messages = 0;
    for (auto _ : state) {
        for (int i = 0; i < 10; ++i)
            benchmark::DoNotOptimize(broker.sendMessage(send));
        auto received = broker.receiveMessage(receive);
        for (const ReceivedMessage& m : received->messages)
            benchmark::DoNotOptimize(broker.deleteMessage("bench", m.receiptHandle, "test"));
        messages += static_cast<std::int64_t>(received->messages.size());
        clock.advance(1);
    }
    state.counters["messages/s"]
        = benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
    benchmark::DoNotOptimize(events);
}
BENCHMARK(BM_StandardSendReceiveDeleteWithEvents);

// The same cycle on plain standard containers, as a first version of a queue would be written:
// no validation, no events, no deadlines beyond a visible-at per message, no limits. A message
// id of the engine's length (36 characters), its body copied in and out, a receipt per receive,
// an id-keyed map and an ordered list of what is available. What the engine's own work costs is
// its figure against this one (issue 15: with an event sink, at least 75% of it).
class NaiveQueue {
public:
    struct Received {
        std::string id;
        std::string body;
        std::string receipt;
    };

    std::string send(const std::string& body)
    {
        char id[37];
        const std::uint64_t n = ++m_next;
        std::snprintf(id, sizeof id, "%08llx-0000-4000-8000-%012llx",
                      static_cast<unsigned long long>(n >> 32),
                      static_cast<unsigned long long>(n & 0xffffffffffffull));
        auto [it, inserted] = m_messages.try_emplace(id, Message{body, {}, 0, 0});
        m_available.push_back(it->first);
        return it->first;
    }

    std::vector<Received> receive(std::size_t max, Millis now, Millis visibility)
    {
        std::vector<Received> out;
        while (out.size() < max && !m_available.empty()) {
            const std::string id = std::move(m_available.front());
            m_available.pop_front();
            auto it = m_messages.find(id);
            if (it == m_messages.end())
                continue;
            Message& m = it->second;
            ++m.receives;
            m.visibleAt = now + visibility;
            m.receipt = id + ':' + std::to_string(m.receives);
            m_byReceipt[m.receipt] = id;
            out.push_back({id, m.body, m.receipt});
        }
        return out;
    }

    bool remove(const std::string& receipt)
    {
        auto r = m_byReceipt.find(receipt);
        if (r == m_byReceipt.end())
            return false;
        m_messages.erase(r->second);
        m_byReceipt.erase(r);
        return true;
    }

private:
    struct Message {
        std::string body;
        std::string receipt;
        Millis visibleAt;
        int receives;
    };
    std::unordered_map<std::string, Message> m_messages;
    std::deque<std::string> m_available;
    std::unordered_map<std::string, std::string> m_byReceipt;
    std::uint64_t m_next = 0;
};

void BM_NaiveSendReceiveDelete(benchmark::State& state)
{
    NaiveQueue queue;
    Millis now = 0;
    std::int64_t messages = 0;
    for (auto _ : state) {
        for (int i = 0; i < 10; ++i)
            benchmark::DoNotOptimize(queue.send(kBody256));
        auto received = queue.receive(10, now, 30'000);
        for (const NaiveQueue::Received& m : received)
            benchmark::DoNotOptimize(queue.remove(m.receipt));
        messages += static_cast<std::int64_t>(received.size());
        ++now;
    }
    state.counters["messages/s"]
        = benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_NaiveSendReceiveDelete);

// FIFO queue, 1,000 groups: send one message to each of 10 groups in turn, receive(10), delete.
// The argument is a backlog sent first (not measured), spread over the same groups: the cycle
// should cost the same with 1,000,000 messages waiting (issue 15: flat).
void BM_FifoSendReceiveDelete1000Groups(benchmark::State& state)
{
    ManualClock clock;
    Broker broker(clock);
    std::int64_t events = 0;
    broker.setEventSink(
        [&](std::span<const Event> batch) { events += static_cast<std::int64_t>(batch.size()); });
    (void)broker.createQueue({.name = "bench.fifo", .attributes = {{"FifoQueue", "true"}}});
    std::vector<std::string> groups;
    for (int g = 0; g < 1000; ++g)
        groups.push_back("group-" + std::to_string(g));
    SendMessageRequest send{.queue = "bench.fifo", .body = kBody256};
    ReceiveRequest receive{.queue = "bench.fifo", .maxMessages = 10};
    std::int64_t messages = 0;
    std::uint64_t n = 0;
    for (std::int64_t b = 0; b < state.range(0); ++b, ++n) {
        send.groupId = groups[n % groups.size()];
        send.deduplicationId = std::to_string(n);
        (void)broker.sendMessage(send);
        // The deduplication window would refuse nothing here; its records expire as time passes.
        if (n % 10'000 == 9'999)
            clock.advance(1);
    }
    for (auto _ : state) {
        for (int i = 0; i < 10; ++i, ++n) {
            send.groupId = groups[n % groups.size()];
            send.deduplicationId = std::to_string(n);
            benchmark::DoNotOptimize(broker.sendMessage(send));
        }
        auto received = broker.receiveMessage(receive);
        for (const ReceivedMessage& m : received->messages)
            benchmark::DoNotOptimize(broker.deleteMessage("bench.fifo", m.receiptHandle, "test"));
        messages += static_cast<std::int64_t>(received->messages.size());
        clock.advance(1);
    }
    state.counters["messages/s"]
        = benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
    benchmark::DoNotOptimize(events);
}
BENCHMARK(BM_FifoSendReceiveDelete1000Groups)->Arg(0)->Arg(1'000'000);

// 120,000 messages in flight whose visibility ends at the same instant: one advance() returns
// them all to available (with an event sink attached, as in the app).
void BM_Advance120kExpiries(benchmark::State& state)
{
    for (auto _ : state) {
        state.PauseTiming();
        ManualClock clock;
        BrokerOptions options;
        options.inFlightLimitStandard = 200'000;
        Broker broker(clock, options);
        std::int64_t events = 0;
        broker.setEventSink([&](std::span<const Event> batch) {
            events += static_cast<std::int64_t>(batch.size());
        });
        (void)broker.createQueue({.name = "bench"});
        std::vector<BatchSendEntry> batch(10);
        for (int i = 0; i < 10; ++i)
            batch[i] = BatchSendEntry{std::to_string(i), SendMessageRequest{.body = kBody256}};
        for (int i = 0; i < 12'000; ++i)
            (void)broker.sendMessageBatch("bench", batch, "test");
        for (int i = 0; i < 12'000; ++i)
            (void)broker.receiveMessage(
                {.queue = "bench", .maxMessages = 10, .visibilityTimeout = 30});
        clock.advance(30'000);
        state.ResumeTiming();
        broker.advance();
        state.PauseTiming();
        auto stats = broker.queueStats("bench");
        if (stats->available != 120'000 || stats->inFlight != 0)
            state.SkipWithError("not all expired");
        state.ResumeTiming();
    }
}
BENCHMARK(BM_Advance120kExpiries)->Unit(benchmark::kMillisecond)->Iterations(5);

// A receive (and the delete and send that keep the queue steady) with 0 or 120,000 other
// messages in flight: the cost must not depend on the in-flight count.
void BM_ReceiveWithInFlight(benchmark::State& state)
{
    ManualClock clock;
    BrokerOptions options;
    options.inFlightLimitStandard = 200'000;
    Broker broker(clock, options);
    (void)broker.createQueue({.name = "bench"});
    const auto inFlight = state.range(0);
    std::vector<BatchSendEntry> batch(10);
    for (int i = 0; i < 10; ++i)
        batch[i] = BatchSendEntry{std::to_string(i), SendMessageRequest{.body = kBody256}};
    for (std::int64_t i = 0; i < inFlight / 10; ++i)
        (void)broker.sendMessageBatch("bench", batch, "test");
    for (std::int64_t i = 0; i < inFlight / 10; ++i)
        (void)broker.receiveMessage(
            {.queue = "bench", .maxMessages = 10, .visibilityTimeout = 43'200});
    for (int i = 0; i < 1000; ++i)
        (void)broker.sendMessage({.queue = "bench", .body = kBody256});
    ReceiveRequest receive{.queue = "bench", .maxMessages = 1, .visibilityTimeout = 43'200};
    SendMessageRequest send{.queue = "bench", .body = kBody256};
    for (auto _ : state) {
        auto received = broker.receiveMessage(receive);
        benchmark::DoNotOptimize(received);
        state.PauseTiming();
        (void)broker.deleteMessage("bench", received->messages.at(0).receiptHandle, "test");
        (void)broker.sendMessage(send);
        state.ResumeTiming();
    }
    state.counters["inFlight"] = static_cast<double>(broker.queueStats("bench")->inFlight);
}
BENCHMARK(BM_ReceiveWithInFlight)->Arg(0)->Arg(120'000);

// Engine heap per stored message beyond its body: 1,000,000 messages with 256-byte bodies and no
// attributes; heap bytes (as the allocator hands them out) minus the bodies' own allocations.
void BM_MemoryPerMessage(benchmark::State& state)
{
    for (auto _ : state) {
        ManualClock clock;
        g_liveBytes = 0;
        g_counting = true;
        {
            Broker broker(clock);
            (void)broker.createQueue({.name = "bench"});
            std::vector<BatchSendEntry> batch(10);
            for (int i = 0; i < 10; ++i)
                batch[i] = BatchSendEntry{std::to_string(i), SendMessageRequest{.body = kBody256}};
            g_counting = false;
            const std::int64_t before = g_liveBytes;
            g_counting = true;
            for (int i = 0; i < 100'000; ++i)
                (void)broker.sendMessageBatch("bench", batch, "test");
            g_counting = false;
            // One body: a 256-byte std::string allocates 257 bytes; count what malloc gives it.
            void* probe = std::malloc(257);
            const auto bodyBytes = static_cast<std::int64_t>(malloc_usable_size(probe));
            std::free(probe);
            const double total = static_cast<double>(g_liveBytes - before);
            state.counters["bytes/message total"] = total / 1e6;
            state.counters["bytes/message overhead"]
                = (total - 1e6 * static_cast<double>(bodyBytes)) / 1e6;
            state.counters["stored"] = static_cast<double>(broker.queueStats("bench")->available);
        }
        g_counting = false;
    }
}
BENCHMARK(BM_MemoryPerMessage)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    inflight::bench::RateReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    std::printf("\n");
    reporter.printRatio("engine with events / naive", "BM_StandardSendReceiveDeleteWithEvents",
                        "BM_NaiveSendReceiveDelete", 75);
    reporter.printRatio("FIFO, 1,000 groups / naive", "BM_FifoSendReceiveDelete1000Groups/0",
                        "BM_NaiveSendReceiveDelete", 50);
    reporter.printRatio("FIFO with 1,000,000 waiting / naive",
                        "BM_FifoSendReceiveDelete1000Groups/1000000", "BM_NaiveSendReceiveDelete",
                        50);
    benchmark::Shutdown();
    return 0;
}
