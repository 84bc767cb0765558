#include "ui/workspace/default_workspace.h"

#include "session/session.h"

#include <array>
#include <cstdio>
#include <string>

namespace inflight::ui {

namespace {

using engine::Broker;

const engine::Origin kOrigin{"workspace"};

engine::MessageAttributeValue stringAttribute(std::string value)
{
    return engine::MessageAttributeValue{.dataType = "String", .stringValue = std::move(value)};
}

engine::MessageAttributeValue numberAttribute(std::int64_t value)
{
    return engine::MessageAttributeValue{.dataType = "Number",
                                         .stringValue = std::to_string(value)};
}

void createQueue(Broker& broker, std::string name, engine::StringMap attributes, bool oci = false)
{
    auto created
        = broker.createQueue(engine::CreateQueueRequest{.name = std::move(name),
                                                        .attributes = std::move(attributes),
                                                        .oci = oci,
                                                        .origin = kOrigin});
    (void)created; // the example data is fixed; a failure only means less to look at
}

std::string redrivePolicy(Broker& broker, const std::string& target, int maxReceiveCount)
{
    return "{\"deadLetterTargetArn\":\"" + broker.arnForName(target)
        + "\",\"maxReceiveCount\":" + std::to_string(maxReceiveCount) + "}";
}

void send(Broker& broker, engine::SendMessageRequest request)
{
    request.origin = kOrigin;
    auto sent = broker.sendMessage(request);
    (void)sent;
}

void receive(Broker& broker, const std::string& queue, std::int64_t visibility,
             std::optional<std::string> channel = std::nullopt)
{
    auto received
        = broker.receiveMessage(engine::ReceiveRequest{.queue = queue,
                                                       .maxMessages = 1,
                                                       .visibilityTimeout = visibility,
                                                       .waitTimeSeconds = 0,
                                                       .channelFilter = std::move(channel),
                                                       .origin = kOrigin});
    (void)received;
}

void loadOrders(Broker& broker)
{
    createQueue(broker, "orders-dlq", {{"MessageRetentionPeriod", "1209600"}});
    createQueue(
        broker, "orders",
        {{"VisibilityTimeout", "30"}, {"RedrivePolicy", redrivePolicy(broker, "orders-dlq", 3)}});

    static constexpr std::array<const char*, 6> kCustomers{"ada",      "grace", "linus",
                                                           "margaret", "ken",   "barbara"};
    static constexpr std::array<const char*, 5> kItems{"keyboard", "monitor", "cable", "dock",
                                                       "headset"};
    for (int i = 0; i < 20; ++i) {
        const int number = 1001 + i;
        std::string body;
        if (i < 2) {
            // The two orders that keep failing: they end up in the DLQ.
            body = "{\"order\": " + std::to_string(number) + ", \"customer\": \""
                + kCustomers[i % kCustomers.size()] + "\", \"items\": [], \"total\": null}";
        } else {
            char total[32];
            std::snprintf(total, sizeof total, "%d.%02d", 19 + (i * 37) % 400, (i * 13) % 100);
            body = "{\"order\": " + std::to_string(number) + ", \"customer\": \""
                + kCustomers[i % kCustomers.size()] + "\", \"items\": [{\"sku\": \""
                + kItems[i % kItems.size()] + "\", \"quantity\": " + std::to_string(1 + i % 3)
                + "}], \"total\": " + total + ", \"currency\": \"EUR\"}";
        }
        send(broker,
             engine::SendMessageRequest{
                 .queue = "orders",
                 .body = body,
                 .delaySeconds
                 = i >= 17 ? std::optional<std::int64_t>(20 + 15 * (i - 17)) : std::nullopt,
                 .attributes = {{"customer", stringAttribute(kCustomers[i % 6])},
                                {"priority", numberAttribute(1 + i % 3)}}});
    }
    // Orders 1001 and 1002 fail three times each; their fourth receive moves them to orders-dlq
    // (and delivers the next order instead, which fails too).
    for (int i = 0; i < 8; ++i)
        receive(broker, "orders", 0);
    // Order 1003 has been received three times and is in flight: its next receive moves it.
    receive(broker, "orders", 90);
    // Workers holding orders with different countdowns.
    for (const std::int64_t visibility : {12, 25, 45, 120, 600})
        receive(broker, "orders", visibility);
}

void loadPayments(Broker& broker)
{
    createQueue(broker, "payments-dlq.fifo", {{"FifoQueue", "true"}});
    createQueue(broker, "payments.fifo",
                {{"FifoQueue", "true"},
                 {"ContentBasedDeduplication", "true"},
                 {"VisibilityTimeout", "60"},
                 {"RedrivePolicy", redrivePolicy(broker, "payments-dlq.fifo", 5)}});
    static constexpr std::array<const char*, 4> kGroups{"customer-17", "customer-42", "customer-58",
                                                        "customer-99"};
    static constexpr std::array<const char*, 4> kSteps{"authorize", "capture", "refund", "settle"};
    for (int round = 0; round < 4; ++round) {
        for (std::size_t g = 0; g < kGroups.size(); ++g) {
            if (g == 3 && round > 1)
                continue;
            const std::string body = "{\"payment\": \"" + std::string(kGroups[g]) + "-"
                + std::to_string(round + 1) + "\", \"step\": \"" + kSteps[round]
                + "\", \"amount\": " + std::to_string(25 * (int(g) + 1) + round) + "}";
            send(
                broker,
                engine::SendMessageRequest{.queue = "payments.fifo",
                                           .body = body,
                                           .attributes = {{"step", stringAttribute(kSteps[round])}},
                                           .groupId = std::string(kGroups[g])});
        }
    }
    // customer-17's head is in flight: the whole group waits behind it.
    receive(broker, "payments.fifo", 240);
}

void loadTelemetry(Broker& broker)
{
    createQueue(broker, "telemetry",
                {{"visibilityInSeconds", "20"},
                 {"deadLetterQueueDeliveryCount", "5"},
                 {"timeoutInSeconds", "10"}},
                true);
    static constexpr std::array<const char*, 2> kChannels{"eu", "us"};
    for (int i = 0; i < 12; ++i) {
        const char* channel = kChannels[i % 2];
        const std::string body = "{\"sensor\": \"" + std::string(channel) + "-"
            + std::to_string(100 + i) + "\", \"temperature\": " + std::to_string(18 + i % 7)
            + ".5, \"battery\": " + std::to_string(95 - i * 3) + "}";
        send(broker,
             engine::SendMessageRequest{
                 .queue = "telemetry", .body = body, .channelId = std::string(channel)});
    }
    receive(broker, "telemetry", 35, "eu");
    receive(broker, "telemetry", 15, "us");
}

} // namespace

void loadDefaultWorkspace(session::Session& session)
{
    Broker& broker = session.broker();
    if (!broker.queues().empty())
        return;
    loadOrders(broker);
    loadPayments(broker);
    loadTelemetry(broker);
    session.advanceNow();
}

} // namespace inflight::ui
