// inflight_load: a small HTTP load generator for SQS-compatible endpoints (Inflight, fauxqs, ...).
// 32 keep-alive connections by default, 100-byte message bodies, JSON or Query protocol, one
// thread with epoll. Modes:
//   send     SendMessage as fast as the server answers; reports requests/s.
//   receive  fills a queue with SendMessageBatch first (not measured), then each connection loops
//            ReceiveMessage(10) + DeleteMessageBatch of what it got; reports messages/s. Ends
//            early when the queue runs dry. --fill-seconds 0 skips the fill (a queue filled by an
//            earlier run, named with --queue).
//   fill     only the fill; reports the messages sent per second.
// --queue NAME uses that queue (CreateQueue of an existing name gives its URL) instead of a new
// one, so that runs one after the other can share it: fill once, then measure in short slices
// interleaved with another server's (store_endpoint_compare.sh).
// Both report p50/p99 latency of the measured requests. See compare.sh for the side-by-side run.
#include "http_load_client.h"
#include "sqs_requests.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace inflight::load;

namespace {

struct Options {
    std::string host = "127.0.0.1";
    std::uint16_t port = 9324;
    std::string mode = "send";
    Protocol protocol = Protocol::Json;
    int connections = 32;
    double seconds = 10;
    double warmup = 1;
    int bodyBytes = 100;
    double fillSeconds = 10;
    long fillMessages = 2'000'000;
    std::string label;
    std::string queue; // empty: a new queue per run
};

[[noreturn]] void usage(const char* error)
{
    if (error)
        std::fprintf(stderr, "inflight_load: %s\n", error);
    std::fputs("usage: inflight_load --url http://127.0.0.1:9324 [--mode send|receive|fill]\n"
               "         [--protocol json|query] [--connections 32] [--seconds 10] [--warmup 1]\n"
               "         [--body-bytes 100] [--fill-seconds 10] [--fill-messages 2000000] [--label "
               "NAME]\n"
               "         [--queue NAME]\n",
               stderr);
    std::exit(2);
}

Options parse(int argc, char* argv[])
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h")
            usage(nullptr);
        if (i + 1 >= argc)
            usage(("missing value for " + arg).c_str());
        const std::string value = argv[++i];
        if (arg == "--url") {
            const std::string prefix = "http://";
            if (value.rfind(prefix, 0) != 0)
                usage("--url must start with http://");
            const std::string rest = value.substr(prefix.size());
            const std::size_t colon = rest.find(':');
            o.host = rest.substr(0, colon);
            o.port = colon == std::string::npos
                ? 80
                : std::uint16_t(std::atoi(rest.c_str() + colon + 1));
        } else if (arg == "--mode") {
            if (value != "send" && value != "receive" && value != "fill")
                usage("--mode is send, receive or fill");
            o.mode = value;
        } else if (arg == "--protocol") {
            if (value != "json" && value != "query")
                usage("--protocol is json or query");
            o.protocol = value == "json" ? Protocol::Json : Protocol::Query;
        } else if (arg == "--connections") {
            o.connections = std::max(1, std::atoi(value.c_str()));
        } else if (arg == "--seconds") {
            o.seconds = std::atof(value.c_str());
        } else if (arg == "--warmup") {
            o.warmup = std::atof(value.c_str());
        } else if (arg == "--body-bytes") {
            o.bodyBytes = std::max(1, std::atoi(value.c_str()));
        } else if (arg == "--fill-seconds") {
            o.fillSeconds = std::atof(value.c_str());
        } else if (arg == "--fill-messages") {
            o.fillMessages = std::atol(value.c_str());
        } else if (arg == "--label") {
            o.label = value;
        } else if (arg == "--queue") {
            o.queue = value;
        } else {
            usage(("unknown option " + arg).c_str());
        }
    }
    return o;
}

Clock::duration seconds(double s)
{
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

double millis(Clock::duration d)
{
    return std::chrono::duration<double, std::milli>(d).count();
}

// Latencies of the measured requests, and what they achieved.
struct Measurement {
    std::vector<Clock::duration> latencies;
    long requests = 0;
    long messages = 0;
    long errors = 0;
    Clock::time_point start;
    std::optional<Clock::time_point> end; // set when the run ended early (queue dry)

    bool measuring(Clock::time_point now) const { return now >= start; }
};

std::string messageBody(int bytes)
{
    std::string body;
    body.reserve(std::size_t(bytes));
    for (int i = 0; i < bytes; ++i)
        body += char('a' + i % 26);
    return body;
}

// Counts failed entries of a batch reply ("Code" in JSON Failed entries, <Code> in XML).
long failedEntries(const std::string& body)
{
    long count = 0;
    for (std::size_t at = 0; (at = body.find("Code", at)) != std::string::npos; at += 4)
        ++count;
    return count / (body.find("<Code>") != std::string::npos ? 2 : 1); // XML: open + close tag
}

std::string createQueue(HttpLoadClient& client, SqsRequests& sqs, const std::string& name)
{
    const HttpReply reply = client.call(sqs.createQueue(name));
    const std::string url = sqs.queueUrlOf(reply.body);
    if (reply.status != 200 || url.empty())
        throw std::runtime_error("CreateQueue failed (" + std::to_string(reply.status)
                                 + "): " + reply.body);
    return url;
}

struct Filled {
    long sent = 0;
    long errors = 0;
    double seconds = 0;
};

// Sends SendMessageBatch(10) for --fill-seconds or until --fill-messages are in.
Filled fill(HttpLoadClient& client, SqsRequests& sqs, const Options& o, const std::string& body)
{
    if (o.fillSeconds <= 0)
        return {};
    long sent = 0;
    long errors = 0;
    const auto start = Clock::now();
    const std::string batch = sqs.sendMessageBatch(body, 10);
    client.run(
        o.connections, start + seconds(o.fillSeconds),
        [&](int) { return sent >= o.fillMessages ? std::string() : batch; },
        [&](int, const HttpReply& reply, Clock::duration) {
            if (reply.status == 200)
                sent += 10 - failedEntries(reply.body);
            else
                ++errors;
        });
    const double took = std::chrono::duration<double>(Clock::now() - start).count();
    std::fprintf(stderr, "inflight_load: filled %ld messages in %.1f s (%ld errors)\n", sent, took,
                 errors);
    return {sent, errors, took};
}

Measurement runSend(HttpLoadClient& client, SqsRequests& sqs, const Options& o,
                    const std::string& body)
{
    Measurement m;
    const auto begin = Clock::now();
    m.start = begin + seconds(o.warmup);
    const std::string request = sqs.sendMessage(body);
    client.run(
        o.connections, m.start + seconds(o.seconds), [&](int) { return request; },
        [&](int, const HttpReply& reply, Clock::duration latency) {
            if (!m.measuring(Clock::now()))
                return;
            ++m.requests;
            m.latencies.push_back(latency);
            if (reply.status == 200)
                ++m.messages;
            else
                ++m.errors;
        });
    return m;
}

Measurement runReceive(HttpLoadClient& client, SqsRequests& sqs, const Options& o)
{
    Measurement m;
    const auto begin = Clock::now();
    m.start = begin + seconds(o.warmup);
    std::vector<std::vector<std::string>> handles(static_cast<std::size_t>(o.connections));
    std::vector<char> deleting(static_cast<std::size_t>(o.connections), 0);
    bool dry = false;
    const std::string receive = sqs.receiveMessage(10);
    client.run(
        o.connections, m.start + seconds(o.seconds),
        [&](int i) {
            auto& mine = handles[std::size_t(i)];
            if (!mine.empty()) {
                deleting[std::size_t(i)] = 1;
                return sqs.deleteMessageBatch(mine);
            }
            deleting[std::size_t(i)] = 0;
            return dry ? std::string() : receive;
        },
        [&](int i, const HttpReply& reply, Clock::duration latency) {
            const auto now = Clock::now();
            const bool measured = m.measuring(now) && !dry;
            if (measured) {
                ++m.requests;
                m.latencies.push_back(latency);
            }
            auto& mine = handles[std::size_t(i)];
            if (reply.status != 200) {
                mine.clear();
                if (measured)
                    ++m.errors;
                return;
            }
            if (deleting[std::size_t(i)]) {
                if (measured)
                    m.messages += long(mine.size()) - failedEntries(reply.body);
                mine.clear();
                return;
            }
            mine = sqs.receiptHandlesOf(reply.body);
            if (mine.empty() && !dry) {
                dry = true; // the queue ran out: stop the clock here
                m.end = now;
            }
        });
    return m;
}

} // namespace

int main(int argc, char* argv[])
{
    const Options o = parse(argc, argv);
    const std::string host = o.host + ":" + std::to_string(o.port);
    const std::string protocol = o.protocol == Protocol::Json ? "json" : "query";
    try {
        HttpLoadClient client(o.host, o.port);
        SqsRequests sqs(o.protocol, host);
        const std::string body = messageBody(o.bodyBytes);
        const std::string queue = !o.queue.empty()
            ? o.queue
            : "load-" + o.mode + "-" + protocol + "-" + std::to_string(::getpid());
        sqs.setQueueUrl(createQueue(client, sqs, queue));

        if (o.mode == "fill") {
            const Filled f = fill(client, sqs, o, body);
            std::printf("result label=%s mode=fill protocol=%s connections=%d seconds=%.2f "
                        "messages=%ld errors=%ld rate=%.0f unit=msg/s\n",
                        o.label.empty() ? "-" : o.label.c_str(), protocol.c_str(), o.connections,
                        f.seconds, f.sent, f.errors,
                        f.seconds > 0 ? double(f.sent) / f.seconds : 0.0);
            return f.errors > 0 ? 1 : 0;
        }
        Measurement m;
        if (o.mode == "send") {
            m = runSend(client, sqs, o, body);
        } else {
            fill(client, sqs, o, body);
            m = runReceive(client, sqs, o);
        }
        const auto end = m.end.value_or(m.start + seconds(o.seconds));
        const double measured = std::chrono::duration<double>(end - m.start).count();
        std::sort(m.latencies.begin(), m.latencies.end());
        const auto percentile = [&](double p) {
            if (m.latencies.empty())
                return 0.0;
            const auto index = std::size_t(p * double(m.latencies.size() - 1) + 0.5);
            return millis(m.latencies[index]);
        };
        const bool send = o.mode == "send";
        const double rate = measured > 0 ? double(send ? m.requests : m.messages) / measured : 0;
        std::printf("result label=%s mode=%s protocol=%s connections=%d seconds=%.2f requests=%ld "
                    "messages=%ld errors=%ld rate=%.0f unit=%s p50_ms=%.3f p99_ms=%.3f\n",
                    o.label.empty() ? "-" : o.label.c_str(), o.mode.c_str(), protocol.c_str(),
                    o.connections, measured, m.requests, m.messages, m.errors, rate,
                    send ? "req/s" : "msg/s", percentile(0.50), percentile(0.99));
        if (measured < 0.5 * o.seconds)
            std::fprintf(stderr,
                         "inflight_load: the queue ran dry after %.1f s; raise --fill-seconds\n",
                         measured);
        return m.errors > 0 ? 1 : 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "inflight_load: %s\n", error.what());
        return 1;
    }
}
