// The first launch: an empty broker opens on the example workspace, with something to see in
// every view at once.

#include "ui/workspace/default_workspace.h"
#include "window_test_support.h"

#include <set>

using namespace inflight;
using namespace inflight::ui::test;

class DefaultWorkspaceTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    void ordersHasADeadLetterQueueMessagesInFlightAndOneDueForTheDlq()
    {
        WindowFixture f;
        ui::loadDefaultWorkspace(f.session);
        auto orders = f.broker().queueView("orders");
        QVERIFY(orders.ok());
        QCOMPARE(orders->deadLetterTarget, std::string("orders-dlq"));
        QCOMPARE(orders->maxReceiveCount, 3);
        const std::vector<engine::MessageView> messages = f.peek("orders");
        QCOMPARE(int(messages.size()), 18); // 20 sent, 2 already in the DLQ
        std::set<engine::Millis> deadlines;
        int dlqNext = 0;
        int delayed = 0;
        for (const engine::MessageView& m : messages) {
            if (m.state == engine::MessageState::InFlight)
                deadlines.insert(m.visibleAt);
            if (m.state == engine::MessageState::Delayed)
                ++delayed;
            if (m.movesToDeadLetterOnNextReceive) {
                ++dlqNext;
                QCOMPARE(m.receiveCount, 3u);
                QCOMPARE(m.state, engine::MessageState::InFlight);
            }
            QCOMPARE(m.body.front(), '{'); // JSON bodies
        }
        QCOMPARE(dlqNext, 1);
        QVERIFY(deadlines.size() >= 5); // different countdowns
        QVERIFY(delayed >= 1);
        QCOMPARE(f.stats("orders-dlq").available, 2);
    }

    void paymentsHasSeveralGroupsOneBlockedByItsInFlightHead()
    {
        WindowFixture f;
        ui::loadDefaultWorkspace(f.session);
        QCOMPARE(f.broker().queueView("payments.fifo")->kind, engine::QueueKind::Fifo);
        const std::vector<engine::GroupView> groups
            = f.broker().peekGroups("payments.fifo").value();
        QVERIFY(groups.size() >= 3);
        int blocked = 0;
        for (const engine::GroupView& g : groups)
            if (g.blocked) {
                ++blocked;
                QVERIFY(!g.blockingMessageId.empty());
                QVERIFY(g.waiting > 0);
            }
        QCOMPARE(blocked, 1);
    }

    void telemetryIsAnOciQueueWithTwoChannelsAndADeliveryCountDlq()
    {
        WindowFixture f;
        ui::loadDefaultWorkspace(f.session);
        auto telemetry = f.broker().queueView("telemetry");
        QCOMPARE(telemetry->kind, engine::QueueKind::Oci);
        QCOMPARE(telemetry->attributes.at("deadLetterQueueDeliveryCount"), std::string("5"));
        QCOMPARE(f.broker().listChannels("telemetry", "").value(),
                 (std::vector<std::string>{"eu", "us"}));
        QVERIFY(f.stats("telemetry").inFlight >= 1);
    }

    void theWindowOpensOnItWhenTheBrokerIsEmpty()
    {
        WindowFixture f;
        ui::MainWindow& w = f.open();
        QVERIFY(shownQueues(w).contains(QStringLiteral("orders")));
        QVERIFY(shownQueues(w).contains(QStringLiteral("payments.fifo")));
        QVERIFY(shownQueues(w).contains(QStringLiteral("telemetry")));
        QVERIFY(!w.currentQueue().isEmpty());
        QVERIFY(!shownMessageIds(w).isEmpty());
    }

    void theWindowLeavesExistingQueuesAlone()
    {
        WindowFixture f;
        f.createQueue("mine");
        ui::MainWindow& w = f.open();
        QCOMPARE(shownQueues(w), QStringList{QStringLiteral("mine")});
        ui::loadDefaultWorkspace(f.session); // does nothing on a broker with queues
        QCOMPARE(f.broker().queues().size(), std::size_t(1));
    }
};

QTEST_MAIN(DefaultWorkspaceTest)
#include "default_workspace_test.moc"
