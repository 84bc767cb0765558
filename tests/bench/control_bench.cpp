// Moving engine time through the control API against the engine's own advance, in one run:
// POST /_inflight/v1/clock {"advanceMs": 3600000} with 100,000 messages in flight (the session,
// its event batches, the control API's journal and the answer once everything settled) beside
// BM_Advance120kExpiries of engine_bench (one Broker::advance returning 120,000 messages). The
// target (issue "Inflight in a test suite"): the first at most twice the second.
// Run: build-bench/tests/bench/control_bench
#include "control/control_api.h"
#include "engine/broker.h"
#include "session/session.h"

#include <benchmark/benchmark.h>

#include <QCoreApplication>

#include <optional>
#include <string>
#include <vector>

using namespace inflight;

namespace {

const std::string kBody256(256, 'x');

// Sends `count` messages in batches of 10 and receives them all with a 30 s visibility timeout.
void fillInFlight(engine::Broker& broker, int count)
{
    (void)broker.createQueue({.name = "bench", .origin = "bench"});
    std::vector<engine::BatchSendEntry> batch(10);
    for (int i = 0; i < 10; ++i)
        batch[i] = engine::BatchSendEntry{std::to_string(i),
                                          engine::SendMessageRequest{.body = kBody256}};
    for (int i = 0; i < count / 10; ++i)
        (void)broker.sendMessageBatch("bench", batch, "bench");
    for (int i = 0; i < count / 10; ++i)
        (void)broker.receiveMessage(
            {.queue = "bench", .maxMessages = 10, .visibilityTimeout = 30, .origin = "bench"});
}

void BM_Advance120kExpiries(benchmark::State& state)
{
    for (auto _ : state) {
        state.PauseTiming();
        engine::ManualClock clock;
        engine::BrokerOptions options;
        options.inFlightLimitStandard = 200'000;
        engine::Broker broker(clock, options);
        std::int64_t events = 0;
        broker.setEventSink([&](std::span<const engine::Event> batch) {
            events += static_cast<std::int64_t>(batch.size());
        });
        fillInFlight(broker, 120'000);
        clock.advance(30'000);
        state.ResumeTiming();
        broker.advance();
        state.PauseTiming();
        if (broker.queueStats("bench")->inFlight != 0)
            state.SkipWithError("not all expired");
        state.ResumeTiming();
    }
}
BENCHMARK(BM_Advance120kExpiries)->Unit(benchmark::kMillisecond)->Iterations(5);

protocol::HttpRequest advanceRequest(engine::Millis ms)
{
    protocol::HttpRequest request;
    request.method = "POST";
    request.path = "/_inflight/v1/clock";
    request.headers = {{"Host", "127.0.0.1:9324"}};
    request.body = "{\"advanceMs\":" + QByteArray::number(ms) + "}";
    request.origin = QStringLiteral("127.0.0.1:40000");
    return request;
}

void BM_ControlAdvanceHour100kInFlight(benchmark::State& state)
{
    for (auto _ : state) {
        state.PauseTiming();
        engine::BrokerOptions options;
        options.inFlightLimitStandard = 200'000;
        session::Session session(options, 1'900'000'000'000);
        session.pause();
        control::ControlApi api(session, {.version = QStringLiteral("bench")});
        fillInFlight(session.broker(), 100'000);
        QCoreApplication::processEvents(); // the fill's events reach the journal
        std::optional<protocol::HttpResponse> answer;
        state.ResumeTiming();
        answer = api.handle(advanceRequest(3'600'000), 1,
                            [&](protocol::HttpResponse response) { answer = std::move(response); });
        while (!answer)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        state.PauseTiming();
        if (answer->status != 200 || session.broker().queueStats("bench")->inFlight != 0)
            state.SkipWithError("the advance did not settle");
        state.ResumeTiming();
    }
}
BENCHMARK(BM_ControlAdvanceHour100kInFlight)->Unit(benchmark::kMillisecond)->Iterations(5);

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
