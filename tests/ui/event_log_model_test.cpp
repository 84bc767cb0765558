// EventLogModel and EventLogFilterModel driven by a real Session: every event of every queue,
// appended per batch, capped, filterable.
#include "ui/models/event_log_model.h"

#include "ui/model_test_support.h"

#include <QSignalSpy>

using namespace inflight;
using namespace inflight::ui;
using namespace inflight::ui::test;
using Model = EventLogModel;

class EventLogModelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void appendsEveryEventOfEveryQueueOncePerBatch()
    {
        SessionFixture f;
        Model model(f.session);
        auto tester = watch(&model);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        f.createQueue("a");
        f.createQueue("b");
        const std::string id = f.send("a", "m");
        f.send("b", "n");
        const auto received = f.receive("a", 1, 30);
        f.flush();
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(text(model, 0, Model::KindColumn), QStringLiteral("queue created"));
        QCOMPARE(text(model, 2, Model::KindColumn), QStringLiteral("sent"));
        QCOMPARE(text(model, 2, Model::QueueColumn), QStringLiteral("a"));
        QCOMPARE(text(model, 2, Model::MessageColumn), QString::fromStdString(id.substr(0, 8)));
        QCOMPARE(text(model, 2, Model::OriginColumn), QStringLiteral("window"));
        QCOMPARE(text(model, 4, Model::KindColumn), QStringLiteral("received"));
        QCOMPARE(text(model, 4, Model::ReceiptColumn),
                 QString::fromStdString(received.at(0).receiptHandle.str().substr(
                     received.at(0).receiptHandle.size() - 8)));
        QCOMPARE(text(model, 4, Model::ReceiptColumn, Model::ReceiptRole),
                 QString::fromStdString(received.at(0).receiptHandle));
        QVERIFY(text(model, 4, Model::DetailColumn)
                    .startsWith(QStringLiteral("receive #1, visible at ")));
        QCOMPARE(model.index(4, 0).data(Model::TimeRole).toLongLong(), kStart);

        f.step(30'000);
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(text(model, 5, Model::KindColumn), QStringLiteral("visibility expired"));
        QCOMPARE(text(model, 5, Model::OriginColumn), QStringLiteral("engine"));
        QCOMPARE(model.index(5, 0).data(Model::TimeRole).toLongLong(), kStart + 30'000);
    }

    void dropsTheOldestRowsInBlocksPastTheCap()
    {
        SessionFixture f;
        f.createQueue("q");
        f.flush();
        Model model(f.session);
        auto tester = watch(&model);
        model.setCapacity(100);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        for (int i = 0; i < 250; ++i) {
            f.send("q", "m" + std::to_string(i));
            f.flush(); // one batch per send
        }
        QVERIFY(model.rowCount() <= 100);
        QVERIFY(model.rowCount() >= 90);
        QVERIFY(removed.count() <= 16); // blocks of a tenth, not one per batch
        const QString lastId
            = model.index(model.rowCount() - 1, 0).data(Model::MessageIdRole).toString();
        QVERIFY(!lastId.isEmpty());
        const auto views = f.broker().peekMessages("q");
        QCOMPARE(lastId, QString::fromStdString(views->back().messageId));

        // A batch larger than the cap keeps its newest events.
        for (int i = 0; i < 150; ++i)
            f.send("q", "bulk" + std::to_string(i));
        f.flush();
        QCOMPARE(model.rowCount(), 100);
        QCOMPARE(model.index(99, 0).data(Model::MessageIdRole).toString(),
                 QString::fromStdString(f.broker().peekMessages("q")->back().messageId));

        model.setCapacity(10);
        QCOMPARE(model.rowCount(), 10);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void filterByQueueKindAndText()
    {
        SessionFixture f;
        Model model(f.session);
        EventLogFilterModel proxy;
        auto tester = watch(&proxy);
        proxy.setSourceModel(&model);
        f.createQueue("a");
        f.createQueue("b");
        const std::string id = f.send("a", "m");
        f.send("b", "n");
        f.receive("a");
        f.receive("b");
        f.flush();
        QCOMPARE(proxy.rowCount(), 6);
        proxy.setQueueFilter(QStringLiteral("a"));
        QCOMPARE(proxy.rowCount(), 3);
        proxy.setKindMask(0);
        QCOMPARE(proxy.rowCount(), 0);
        proxy.setKindEnabled(engine::EventKind::MessageReceived, true);
        QVERIFY(proxy.isKindEnabled(engine::EventKind::MessageReceived));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setQueueFilter({});
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setKindMask(EventLogFilterModel::allKinds());
        proxy.setTextFilter(QString::fromStdString(id.substr(2, 6)).toUpper());
        QCOMPARE(proxy.rowCount(), 2); // sent and received
        proxy.setTextFilter({});
        // New events are filtered as they arrive.
        proxy.setKindMask(1u << int(engine::EventKind::MessageSent));
        f.send("b", "later");
        f.flush();
        QCOMPARE(proxy.rowCount(), 3);
    }
};

QTEST_GUILESS_MAIN(EventLogModelTest)
#include "event_log_model_test.moc"
