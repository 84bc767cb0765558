// QueueTableModel driven by a real Session: every queue with its type, live counts and its
// dead-letter relation.
#include "ui/models/queue_table_model.h"
#include "ui/source/local_source.h"

#include "ui/model_test_support.h"

#include <QSignalSpy>

using namespace inflight;
using namespace inflight::ui;
using namespace inflight::ui::test;
using Model = QueueTableModel;

class QueueTableModelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void listsEveryQueueWithTypeAndDeadLetterRelation()
    {
        SessionFixture f;
        f.createQueueWithDeadLetters("orders", "orders-dlq", 3);
        f.createQueue("jobs.fifo", {{"FifoQueue", "true"}});
        f.createQueue("oq", {{"deadLetterQueueDeliveryCount", "5"}}, true);
        LocalSource source(f.session);
        Model model(source);
        auto tester = watch(&model);
        QCOMPARE(model.rowCount(), 5); // the OCI queue's built-in DLQ is listed too
        const int orders = model.rowOf(QStringLiteral("orders"));
        const int dlq = model.rowOf(QStringLiteral("orders-dlq"));
        const int fifo = model.rowOf(QStringLiteral("jobs.fifo"));
        const int oci = model.rowOf(QStringLiteral("oq"));
        const int builtIn = model.rowOf(QStringLiteral("oq.dlq"));
        QVERIFY(orders >= 0 && dlq >= 0 && fifo >= 0 && oci >= 0 && builtIn >= 0);
        QCOMPARE(model.rowOf(QStringLiteral("nope")), -1);
        QCOMPARE(model.queueName(orders), QStringLiteral("orders"));

        QCOMPARE(text(model, orders, Model::TypeColumn), QStringLiteral("standard"));
        QCOMPARE(text(model, fifo, Model::TypeColumn), QStringLiteral("FIFO"));
        QCOMPARE(text(model, oci, Model::TypeColumn), QStringLiteral("OCI"));
        QCOMPARE(text(model, builtIn, Model::TypeColumn), QStringLiteral("OCI"));

        QCOMPARE(text(model, orders, Model::DeadLetterColumn),
                 QStringLiteral("\u2192 orders-dlq (max 3)"));
        QCOMPARE(text(model, dlq, Model::DeadLetterColumn), QStringLiteral("\u2190 orders"));
        QCOMPARE(text(model, oci, Model::DeadLetterColumn),
                 QStringLiteral("\u2192 oq.dlq (max 5)"));
        QCOMPARE(text(model, builtIn, Model::DeadLetterColumn),
                 QStringLiteral("built-in DLQ of oq"));
        QCOMPARE(text(model, fifo, Model::DeadLetterColumn), QString());

        // Tooltips: the full relation first (the column may elide it), then what it means in
        // the queue's own terms.
        QCOMPARE(text(model, orders, Model::DeadLetterColumn, Qt::ToolTipRole),
                 QStringLiteral("\u2192 orders-dlq (max 3)\nA message received 3 times moves to "
                                "orders-dlq on its next receive"));
        QCOMPARE(text(model, oci, Model::DeadLetterColumn, Qt::ToolTipRole),
                 QStringLiteral("\u2192 oq.dlq (max 5)\nA message delivered 5 times moves to "
                                "oq.dlq instead of being delivered again"));
        QCOMPARE(text(model, dlq, Model::DeadLetterColumn, Qt::ToolTipRole),
                 QStringLiteral("\u2190 orders"));
        QCOMPARE(text(model, orders, Model::NameColumn, Qt::ToolTipRole), QStringLiteral("orders"));

        QCOMPARE(model.index(orders, 0).data(Model::DeadLetterTargetRole).toString(),
                 QStringLiteral("orders-dlq"));
        QCOMPARE(model.index(orders, 0).data(Model::MaxReceiveCountRole).toLongLong(), 3);
        QVERIFY(model.index(dlq, 0).data(Model::IsDeadLetterQueueRole).toBool());
        QVERIFY(model.index(builtIn, 0).data(Model::IsBuiltInDeadLetterRole).toBool());
        QCOMPARE(model.index(fifo, 0).data(Model::KindRole).toInt(), int(engine::QueueKind::Fifo));
    }

    void countsFollowEventsWithOneDataChangedPerBatch()
    {
        SessionFixture f;
        f.createQueue("a");
        f.createQueue("b");
        f.createQueue("c");
        f.flush();
        LocalSource source(f.session);
        Model model(source);
        auto tester = watch(&model);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        for (int i = 0; i < 5; ++i)
            f.send("a", "m");
        f.send("c", "m", std::nullopt, 10);
        f.receive("a", 2);
        f.flush();
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex().row(), model.rowOf(QStringLiteral("a")));
        QCOMPARE(changed.at(0).at(1).toModelIndex().row(), model.rowOf(QStringLiteral("c")));
        const int a = model.rowOf(QStringLiteral("a"));
        QCOMPARE(text(model, a, Model::AvailableColumn), QStringLiteral("3"));
        QCOMPARE(text(model, a, Model::InFlightColumn), QStringLiteral("2"));
        QCOMPARE(model.index(a, Model::InFlightColumn).data(Qt::UserRole).toLongLong(), 2);
        QCOMPARE(text(model, model.rowOf(QStringLiteral("c")), Model::DelayedColumn),
                 QStringLiteral("1"));

        f.step(30'000); // visibility expires
        QCOMPARE(text(model, a, Model::AvailableColumn), QStringLiteral("5"));
        QCOMPARE(text(model, a, Model::InFlightColumn), QStringLiteral("0"));
        QCOMPARE(text(model, model.rowOf(QStringLiteral("c")), Model::AvailableColumn),
                 QStringLiteral("1"));
    }

    void deadLetterMovesUpdateBothQueues()
    {
        SessionFixture f;
        f.createQueueWithDeadLetters("orders", "orders-dlq", 1);
        f.send("orders", "poison");
        LocalSource source(f.session);
        Model model(source);
        auto tester = watch(&model);
        f.receive("orders", 1, 5);
        f.step(5'000);
        QVERIFY(f.receive("orders").empty());
        f.flush();
        QCOMPARE(text(model, model.rowOf(QStringLiteral("orders")), Model::AvailableColumn),
                 QStringLiteral("0"));
        QCOMPARE(text(model, model.rowOf(QStringLiteral("orders-dlq")), Model::AvailableColumn),
                 QStringLiteral("1"));
    }

    void insertsCreatedAndRemovesDeletedQueues()
    {
        SessionFixture f;
        f.createQueue("m");
        LocalSource source(f.session);
        Model model(source);
        auto tester = watch(&model);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        f.createQueue("a");
        f.createQueue("z");
        f.flush();
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.queueName(0), QStringLiteral("a"));
        QCOMPARE(model.queueName(2), QStringLiteral("z"));
        QCOMPARE(inserted.count(), 2);
        QVERIFY(f.broker().deleteQueue("m", "test").ok());
        f.flush();
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(model.rowOf(QStringLiteral("m")), -1);
        QCOMPARE(model.rowOf(QStringLiteral("z")), 1);
    }

    void relationFollowsAttributeChanges()
    {
        SessionFixture f;
        f.createQueue("orders");
        f.createQueue("dlq");
        LocalSource source(f.session);
        Model model(source);
        auto tester = watch(&model);
        QVERIFY(f.broker()
                    .setQueueAttributes("orders", {{"RedrivePolicy", f.redrivePolicy("dlq", 4)}},
                                        "test")
                    .ok());
        f.flush();
        QCOMPARE(text(model, model.rowOf(QStringLiteral("orders")), Model::DeadLetterColumn),
                 QStringLiteral("\u2192 dlq (max 4)"));
        QCOMPARE(text(model, model.rowOf(QStringLiteral("dlq")), Model::DeadLetterColumn),
                 QStringLiteral("\u2190 orders"));
    }
};

QTEST_GUILESS_MAIN(QueueTableModelTest)
#include "queue_table_model_test.moc"
