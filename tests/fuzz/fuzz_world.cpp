#include "fuzz_world.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <variant>

namespace inflight::fuzz {

namespace {

// Where consumed bytes go, so that reading them is not optimised away.
volatile unsigned g_sink = 0;

constexpr engine::Millis kT0 = 1'700'000'000'000;

void require(bool ok, const char* what)
{
    if (!ok) {
        std::fprintf(stderr, "fuzz world: %s failed\n", what);
        std::abort();
    }
}

void createQueue(engine::Broker& broker, const std::string& name, engine::StringMap attributes,
                 bool oci = false)
{
    engine::CreateQueueRequest request;
    request.name = name;
    request.attributes = std::move(attributes);
    request.oci = oci;
    require(broker.createQueue(request).ok(), "createQueue");
}

void send(engine::Broker& broker, const std::string& queue, const std::string& body,
          std::optional<std::string> group = std::nullopt)
{
    engine::SendMessageRequest request;
    request.queue = queue;
    request.body = body;
    request.groupId = std::move(group);
    require(broker.sendMessage(request).ok(), "sendMessage");
}

} // namespace

World::World() : clock(kT0), broker(clock), endpoint(broker)
{
    createQueue(broker, "dlq", {});
    createQueue(broker, "q",
                {{"RedrivePolicy",
                  R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq",)"
                  R"("maxReceiveCount":"2"})"},
                 {"VisibilityTimeout", "30"}});
    createQueue(broker, "q.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}});
    createQueue(broker, "oq", {{"retentionInSeconds", "3600"}, {"visibilityInSeconds", "30"}},
                true);
    for (const char* body : {"first", "second"}) {
        send(broker, "q", body);
        send(broker, "q.fifo", body, "g1");
        send(broker, "oq", body);
    }
    send(broker, "dlq", "dead");
    m_standardReceipt = receiptOf("q");
    m_fifoReceipt = receiptOf("q.fifo");
    m_ociReceipt = receiptOf("oq");
    broker.setEventSink([this](std::span<engine::Event>) { m_changed = true; });
}

namespace {

std::unique_ptr<World>& theWorld()
{
    static std::unique_ptr<World> world;
    return world;
}

} // namespace

World& World::fresh()
{
    // INFLIGHT_FUZZ_FRESH_WORLD=1 builds it for every request (slower; to rule out that a request
    // changed state without an event).
    static const bool always = std::getenv("INFLIGHT_FUZZ_FRESH_WORLD") != nullptr;
    std::unique_ptr<World>& world = theWorld();
    if (!world || world->m_changed || always) {
        world.reset();
        world = std::make_unique<World>();
    }
    return *world;
}

void World::restore()
{
    std::unique_ptr<World>& world = theWorld();
    if (world && world->m_changed) {
        world.reset();
        world = std::make_unique<World>();
    }
}

std::string World::receiptOf(const std::string& queue)
{
    engine::ReceiveRequest request;
    request.queue = queue;
    request.maxMessages = 1;
    auto result = broker.receiveMessage(request);
    require(result.ok() && result->messages.size() == 1, "receiveMessage");
    return result->messages.front().receiptHandle;
}

QByteArray World::expand(QByteArray bytes) const
{
    if (!bytes.contains('@'))
        return bytes;
    bytes.replace("@R", QByteArray::fromStdString(m_standardReceipt));
    bytes.replace("@F", QByteArray::fromStdString(m_fifoReceipt));
    bytes.replace("@O", QByteArray::fromStdString(m_ociReceipt));
    return bytes;
}

protocol::HttpResponse World::run(const protocol::HttpRequest& request)
{
    protocol::Outcome outcome = endpoint.handle(request);
    protocol::HttpResponse response;
    if (auto* deferred = std::get_if<protocol::DeferredReceive>(&outcome)) {
        // The session waits on the engine's clock; here the wait ends at once, as it does when a
        // message arrives or the deadline passes.
        engine::ReceiveRequest receive = deferred->request;
        receive.waitTimeSeconds = 0;
        response = deferred->respond(broker.receiveMessage(receive));
    } else {
        response = std::get<protocol::HttpResponse>(std::move(outcome));
    }
    if (m_changed) {
        // Visibility timeouts, delays, retention and move-task steps after the request.
        clock.advance(45 * engine::kSecond);
        broker.advance();
    }
    return response;
}

protocol::HttpRequest baseRequest(const QByteArray& method, const QByteArray& path)
{
    protocol::HttpRequest request;
    request.method = method;
    request.path = path;
    request.headers = {{"Host", "127.0.0.1:9324"}};
    request.origin = QStringLiteral("127.0.0.1:53412");
    return request;
}

void consume(const protocol::HttpResponse& response)
{
    unsigned sum = static_cast<unsigned>(response.status);
    for (const char c : response.contentType)
        sum += static_cast<unsigned char>(c);
    for (const auto& [name, value] : response.headers) {
        for (const char c : name)
            sum += static_cast<unsigned char>(c);
        for (const char c : value)
            sum += static_cast<unsigned char>(c);
    }
    for (const char c : response.body)
        sum += static_cast<unsigned char>(c);
    g_sink = sum;
    // Every answer is a real HTTP status.
    if (response.status < 100 || response.status > 599)
        std::abort();
}

} // namespace inflight::fuzz
