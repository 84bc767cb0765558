#pragma once

// Shared by the item-model tests: a paused Session at a fixed engine time, and short ways to act
// on its broker as the window, a client or the engine would.
#include "session/session.h"

#include <QAbstractItemModel>
#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QTest>

#include <memory>
#include <string>
#include <vector>

namespace inflight::ui::test {

inline constexpr engine::Millis kStart = 1'700'000'000'000;

class SessionFixture {
public:
    // Paused from the first instant: engine time is kStart exactly and moves only by step().
    SessionFixture() : session(engine::BrokerOptions{}, kStart, true) {}

    engine::Broker& broker() { return session.broker(); }

    // Delivers the session's batched events (and any the models' peeks caused) to the models.
    static void flush()
    {
        for (int i = 0; i < 3; ++i)
            QCoreApplication::processEvents();
    }

    void step(engine::Millis delta)
    {
        session.step(delta);
        flush();
    }

    void createQueue(const std::string& name, engine::StringMap attributes = {}, bool oci = false)
    {
        auto r = broker().createQueue(
            {.name = name, .attributes = std::move(attributes), .oci = oci, .origin = "window"});
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    }

    std::string redrivePolicy(const std::string& dlq, int maxReceiveCount)
    {
        return "{\"deadLetterTargetArn\":\"" + broker().arnForName(dlq)
            + "\",\"maxReceiveCount\":" + std::to_string(maxReceiveCount) + "}";
    }

    // A standard queue `name` whose dead letters go to a new standard queue `dlq`.
    void createQueueWithDeadLetters(const std::string& name, const std::string& dlq,
                                    int maxReceiveCount)
    {
        createQueue(dlq);
        createQueue(name, {{"RedrivePolicy", redrivePolicy(dlq, maxReceiveCount)}});
    }

    std::string send(const std::string& queue, const std::string& body,
                     std::optional<std::string> group = std::nullopt,
                     std::optional<std::int64_t> delaySeconds = std::nullopt)
    {
        engine::SendMessageRequest request{
            .queue = queue, .body = body, .delaySeconds = delaySeconds};
        if (group) {
            request.groupId = group;
            request.deduplicationId = body;
        }
        request.origin = "window";
        auto r = broker().sendMessage(request);
        if (!r.ok()) {
            QTest::qFail(r.error().message.c_str(), __FILE__, __LINE__);
            return {};
        }
        return r->messageId;
    }

    std::vector<engine::ReceivedMessage> receive(const std::string& queue, int max = 1,
                                                 std::int64_t visibility = 30)
    {
        auto r = broker().receiveMessage({.queue = queue,
                                          .maxMessages = max,
                                          .visibilityTimeout = visibility,
                                          .origin = "window"});
        if (!r.ok()) {
            QTest::qFail(r.error().message.c_str(), __FILE__, __LINE__);
            return {};
        }
        return r->messages;
    }

    engine::QueueStats stats(const std::string& queue)
    {
        return broker().queueStats(queue).value();
    }

    session::Session session;
};

// Every model under test runs under QAbstractItemModelTester, which fails the test on any
// inconsistency between its signals and its data.
inline std::unique_ptr<QAbstractItemModelTester> watch(QAbstractItemModel* model)
{
    return std::make_unique<QAbstractItemModelTester>(
        model, QAbstractItemModelTester::FailureReportingMode::QtTest);
}

inline QString text(const QAbstractItemModel& model, int row, int column,
                    int role = Qt::DisplayRole)
{
    return model.index(row, column).data(role).toString();
}

} // namespace inflight::ui::test
