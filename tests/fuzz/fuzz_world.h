#pragma once

// What the endpoint fuzz targets share: a small, deterministic broker world that every input
// starts from, and one way to run a request through protocol::Endpoint the way the server does.
#include "engine/broker.h"
#include "engine/clock.h"
#include "protocol/endpoint.h"
#include "protocol/http_types.h"

#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <string>

namespace inflight::fuzz {

// Inputs above this are ignored: the server refuses bodies over protocol::kMaxRequestBody.
// (Fuzzing itself stays far below with -max_len, scripts/fuzz.sh; large inputs are crashers
// replayed from the corpus.)
inline constexpr std::size_t kMaxInput = protocol::kMaxRequestBody + 4096;

// A broker on a manual clock with queues of every kind, each holding messages, one of them in
// flight (so its receipt is valid):
//   q       SQS standard, RedrivePolicy to dlq after 2 receives
//   dlq     SQS standard
//   q.fifo  SQS FIFO, content-based deduplication
//   oq      OCI
// Every input starts from this same state, so a crash replays from its input alone: the same seed
// and clock give the same ids and receipts each time. Building it costs more than most inputs
// (each queue's first message slots), so fresh() keeps it while nothing has changed it: a request
// that changes state emits an engine event, and only then is the world built anew.
class World {
public:
    // The world in its initial state.
    static World& fresh();
    // Builds it anew now if the input changed it, so that what the input allocated is freed before
    // the input ends (libFuzzer looks for leaks, at some cost, in inputs that free less than they
    // allocate). Every target calls it last.
    static void restore();

    World();
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // Replaces the placeholders @R, @F and @O in `bytes` with the receipt of the in-flight message
    // of q, q.fifo and oq, so that inputs reach the paths behind a valid receipt.
    QByteArray expand(QByteArray bytes) const;

    // Handles the request; a deferred receive (long poll) is answered as the server's session
    // would: with a receive after the wait. If that changed anything, lets engine time pass so
    // that visibility timeouts, delays and move tasks run.
    protocol::HttpResponse run(const protocol::HttpRequest& request);

    engine::ManualClock clock;
    engine::Broker broker;
    protocol::Endpoint endpoint;

private:
    std::string receiptOf(const std::string& queue);

    std::string m_standardReceipt;
    std::string m_fifoReceipt;
    std::string m_ociReceipt;
    bool m_changed = false; // an event since the initial state
};

// A request as an SDK sends it, without body: Host, origin and the given headers.
protocol::HttpRequest baseRequest(const QByteArray& method, const QByteArray& path);

inline void addHeader(protocol::HttpRequest& request, const QByteArray& name,
                      const QByteArray& value)
{
    request.headers.append(qMakePair(name, value));
}

// Touches every byte of a response, so that a bad size or pointer in it is found here.
void consume(const protocol::HttpResponse& response);

} // namespace inflight::fuzz
