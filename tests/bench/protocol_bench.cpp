// The endpoint's per-request cost without sockets: one parsed HTTP request through
// protocol::Endpoint (decode, engine call, encode) and the response put on the wire, as the
// server's engine thread does it. Requests look like inflight_load's (tests/bench/load).
// Run: build-bench/tests/bench/protocol_bench
#include "engine/broker.h"
#include "protocol/endpoint.h"
#include "server/http_wire.h"

#include <benchmark/benchmark.h>

#include <QByteArray>
#include <QRegularExpression>
#include <QString>

#include <span>
#include <stdexcept>
#include <string>

using namespace inflight;

namespace {

const QString kBaseUrl = QStringLiteral("http://127.0.0.1:9324");
const QByteArray kQueueUrl = QByteArrayLiteral("http://127.0.0.1:9324/000000000000/bench");
const QByteArray kBody100(100, 'x');

protocol::HttpRequest post(bool json, const QByteArray& action, const QByteArray& body)
{
    protocol::HttpRequest request;
    request.method = QByteArrayLiteral("POST");
    request.path = QByteArrayLiteral("/");
    request.headers.append({QByteArrayLiteral("Host"), QByteArrayLiteral("127.0.0.1:9324")});
    if (json) {
        request.headers.append(
            {QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/x-amz-json-1.0")});
        request.headers.append({QByteArrayLiteral("X-Amz-Target"), "AmazonSQS." + action});
    } else {
        request.headers.append({QByteArrayLiteral("Content-Type"),
                                QByteArrayLiteral("application/x-www-form-urlencoded")});
    }
    request.headers.append({QByteArrayLiteral("Content-Length"), QByteArray::number(body.size())});
    request.body = body;
    request.origin = QStringLiteral("127.0.0.1:40000");
    return request;
}

protocol::HttpRequest sendMessage(bool json)
{
    if (json)
        return post(json, "SendMessage",
                    "{\"QueueUrl\":\"" + kQueueUrl + "\",\"MessageBody\":\"" + kBody100 + "\"}");
    return post(json, "SendMessage",
                "Action=SendMessage&Version=2012-11-05&QueueUrl=" + kQueueUrl.toPercentEncoding()
                    + "&MessageBody=" + kBody100);
}

protocol::HttpRequest receiveMessage(bool json)
{
    if (json)
        return post(json, "ReceiveMessage",
                    "{\"QueueUrl\":\"" + kQueueUrl
                        + "\",\"MaxNumberOfMessages\":10,\"WaitTimeSeconds\":0}");
    return post(json, "ReceiveMessage",
                "Action=ReceiveMessage&Version=2012-11-05&QueueUrl=" + kQueueUrl.toPercentEncoding()
                    + "&MaxNumberOfMessages=10&WaitTimeSeconds=0");
}

// The DeleteMessageBatch for the handles in a receive's answer.
protocol::HttpRequest deleteBatch(bool json, const QByteArray& receiveAnswer)
{
    static const QRegularExpression jsonHandle(QStringLiteral("\"ReceiptHandle\":\"([^\"]+)\""));
    static const QRegularExpression xmlHandle(QStringLiteral("<ReceiptHandle>([^<]+)<"));
    const QString text = QString::fromUtf8(receiveAnswer);
    QByteArray payload = json
        ? "{\"QueueUrl\":\"" + kQueueUrl + "\",\"Entries\":["
        : "Action=DeleteMessageBatch&Version=2012-11-05&QueueUrl=" + kQueueUrl.toPercentEncoding();
    int i = 0;
    auto it = (json ? jsonHandle : xmlHandle).globalMatch(text);
    while (it.hasNext()) {
        const QByteArray handle = it.next().captured(1).toUtf8();
        const QByteArray n = QByteArray::number(i + 1);
        if (json)
            payload += (i == 0 ? "{\"Id\":\"d" : ",{\"Id\":\"d") + n + "\",\"ReceiptHandle\":\""
                + handle + "\"}";
        else
            payload += "&DeleteMessageBatchRequestEntry." + n + ".Id=d" + n
                + "&DeleteMessageBatchRequestEntry." + n
                + ".ReceiptHandle=" + handle.toPercentEncoding();
        ++i;
    }
    if (json)
        payload += "]}";
    return post(json, "DeleteMessageBatch", payload);
}

struct Fixture {
    engine::ManualClock clock;
    engine::Broker broker{clock};
    protocol::Endpoint endpoint{broker, {kBaseUrl}};
    std::size_t events = 0;

    Fixture()
    {
        // The session drains the event stream after every batch; count them as it would.
        broker.setEventSink(
            [this](std::span<const engine::Event> batch) { events += batch.size(); });
        (void)broker.createQueue({.name = "bench"});
    }

    QByteArray answer(const protocol::HttpRequest& request)
    {
        protocol::Outcome outcome = endpoint.handle(request);
        const auto& response = std::get<protocol::HttpResponse>(outcome);
        if (response.status != 200)
            throw std::runtime_error("bench request failed: " + response.body.toStdString());
        return server::serializeResponse(response, true);
    }
};

void BM_SendMessage(benchmark::State& state)
{
    const bool json = state.range(0) == 0;
    state.SetLabel(json ? "json" : "query");
    Fixture fixture;
    const protocol::HttpRequest request = sendMessage(json);
    for (auto _ : state)
        benchmark::DoNotOptimize(fixture.answer(request));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SendMessage)->Arg(0)->Arg(1);

// The request guard alone (Host, Origin, browser checks; no credentials), which every request
// passes before the codecs: its share of BM_SendMessage is what the checks cost.
void BM_RequestGuard(benchmark::State& state)
{
    const bool json = state.range(0) == 0;
    state.SetLabel(json ? "json" : "query");
    const protocol::RequestGuard guard;
    const protocol::HttpRequest request = sendMessage(json);
    for (auto _ : state)
        benchmark::DoNotOptimize(guard.check(request));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RequestGuard)->Arg(0)->Arg(1);

// ReceiveMessage(10) + DeleteMessageBatch of what it got; items are messages.
void BM_ReceiveDeleteBatch(benchmark::State& state)
{
    const bool json = state.range(0) == 0;
    state.SetLabel(json ? "json" : "query");
    Fixture fixture;
    const protocol::HttpRequest send = sendMessage(json);
    const protocol::HttpRequest receive = receiveMessage(json);
    for (auto _ : state) {
        state.PauseTiming();
        for (int i = 0; i < 10; ++i)
            fixture.answer(send);
        state.ResumeTiming();
        const QByteArray received = fixture.answer(receive);
        state.PauseTiming();
        const protocol::HttpRequest remove
            = deleteBatch(json, received.mid(received.indexOf("\r\n\r\n") + 4));
        state.ResumeTiming();
        benchmark::DoNotOptimize(fixture.answer(remove));
    }
    state.SetItemsProcessed(state.iterations() * 10);
}
BENCHMARK(BM_ReceiveDeleteBatch)->Arg(0)->Arg(1);

} // namespace

BENCHMARK_MAIN();
