// MessageHistory and TimelineModel driven by a real Session: the life of one message, across
// queues, including what happened before it was selected.
#include "ui/models/message_history.h"
#include "ui/models/timeline_model.h"

#include "ui/model_test_support.h"

#include <QSignalSpy>

using namespace inflight;
using namespace inflight::ui;
using namespace inflight::ui::test;
using Model = TimelineModel;

class TimelineModelTest : public QObject {
    Q_OBJECT

private:
    static QStringList kinds(const Model& model)
    {
        QStringList result;
        for (int row = 0; row < model.rowCount(); ++row)
            result.append(text(model, row, Model::KindColumn));
        return result;
    }

private Q_SLOTS:
    void timelineOfAMessageThatWentToTheDeadLetterQueue()
    {
        SessionFixture f;
        MessageHistory history(f.session);
        f.createQueueWithDeadLetters("orders", "orders-dlq", 2);
        const std::string id = f.send("orders", "poison");
        f.send("orders", "bystander");
        std::vector<std::string> receipts;
        for (int i = 0; i < 2; ++i) {
            f.flush();
            const auto got = f.receive("orders", 1, 10);
            QCOMPARE(got.at(0).messageId, id);
            receipts.push_back(got.at(0).receiptHandle);
            f.step(10'000);
        }
        f.receive("orders", 1, 10); // moves it to the DLQ, delivers the bystander
        f.flush();

        Model model(history);
        auto tester = watch(&model);
        model.setMessage(QStringLiteral("orders"), QString::fromStdString(id));
        QCOMPARE(
            kinds(model),
            (QStringList{QStringLiteral("sent"), QStringLiteral("received"),
                         QStringLiteral("visibility expired"), QStringLiteral("received"),
                         QStringLiteral("visibility expired"), QStringLiteral("moved to DLQ")}));
        QCOMPARE(text(model, 1, Model::ReceiptColumn, Model::ReceiptRole),
                 QString::fromStdString(receipts[0]));
        QCOMPARE(text(model, 3, Model::ReceivesColumn), QStringLiteral("2"));
        QCOMPARE(model.index(1, 0).data(Model::DeadlineRole).toLongLong(), kStart + 10'000);
        QVERIFY(text(model, 1, Model::VisibilityColumn).startsWith(QStringLiteral("visible at ")));
        QCOMPARE(model.index(2, 0).data(Model::TimeRole).toLongLong(), kStart + 10'000);
        QCOMPARE(text(model, 2, Model::OriginColumn), QStringLiteral("engine"));
        QCOMPARE(text(model, 1, Model::OriginColumn), QStringLiteral("window"));
        QCOMPARE(text(model, 5, Model::DetailColumn),
                 QStringLiteral("\u2192 orders-dlq after 2 receives"));

        // The story goes on in the DLQ, live.
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        const auto inDlq = f.receive("orders-dlq", 1, 30);
        QCOMPARE(inDlq.at(0).messageId, id);
        QVERIFY(f.broker().deleteMessage("orders-dlq", inDlq.at(0).receiptHandle, "test").ok());
        f.flush();
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.rowCount(), 8);
        QCOMPARE(text(model, 6, Model::QueueColumn), QStringLiteral("orders-dlq"));
        QCOMPARE(text(model, 6, Model::ReceivesColumn), QStringLiteral("3"));
        QCOMPARE(text(model, 7, Model::KindColumn), QStringLiteral("deleted"));
    }

    void extensionsAndReleaseAreOnTheTimeline()
    {
        SessionFixture f;
        MessageHistory history(f.session);
        Model model(history);
        auto tester = watch(&model);
        f.createQueue("q");
        const std::string id = f.send("q", "m");
        model.setMessage(QStringLiteral("q"), QString::fromStdString(id));
        f.flush();
        QCOMPARE(model.rowCount(), 1);
        const auto m = f.receive("q", 1, 30).at(0);
        QVERIFY(f.broker().changeMessageVisibility("q", m.receiptHandle, 60, "test").ok());
        QVERIFY(f.broker().changeMessageVisibility("q", m.receiptHandle, 0, "test").ok());
        f.flush();
        QCOMPARE(kinds(model),
                 (QStringList{QStringLiteral("sent"), QStringLiteral("received"),
                              QStringLiteral("visibility changed"), QStringLiteral("released")}));
        QCOMPARE(model.index(2, 0).data(Model::DeadlineRole).toLongLong(), kStart + 60'000);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void historyForgetsTheOldestMessagesFirst()
    {
        SessionFixture f;
        MessageHistory history(f.session, nullptr, 6);
        f.createQueue("q");
        std::vector<std::string> ids;
        for (int i = 0; i < 4; ++i)
            ids.push_back(f.send("q", "m"));
        f.flush();
        Model model(history);
        auto tester = watch(&model);
        model.setMessage(QStringLiteral("q"), QString::fromStdString(ids[0]));
        QCOMPARE(model.rowCount(), 1);
        f.receive("q", 4, 30); // 8 events: over the cap of 6
        f.flush();
        QCOMPARE(history.entryCount(), std::size_t(6));
        QCOMPARE(history.events(QString::fromStdString(ids[0])).size(), std::size_t(0));
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(history.events(QString::fromStdString(ids[3])).size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TimelineModelTest)
#include "timeline_model_test.moc"
