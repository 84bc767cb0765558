// MessageTableModel and MessageFilterModel driven by a real Session: rows follow the event stream,
// the countdown follows the presentation tick, and browsing never changes a message.
#include "ui/models/message_filter_model.h"
#include "ui/models/message_table_model.h"
#include "ui/source/local_source.h"

#include "ui/model_test_support.h"

#include <QSignalSpy>

using namespace inflight;
using namespace inflight::ui;
using namespace inflight::ui::test;
using Model = MessageTableModel;

class MessageTableModelTest : public QObject {
    Q_OBJECT

private:
    struct Setup {
        SessionFixture f;
        LocalSource source{f.session};
        Model model{source};
        std::unique_ptr<QAbstractItemModelTester> tester = watch(&model);
    };

    static int rowOfId(const Model& model, const std::string& id)
    {
        return model.rowOfMessageId(QString::fromStdString(id));
    }

private Q_SLOTS:
    void loadsMessagesOfTheSelectedQueueInSendOrder()
    {
        Setup s;
        s.f.createQueue("q");
        s.f.createQueue("other");
        const std::string a = s.f.send("q", "first");
        const std::string b = s.f.send("q", "second\nline two");
        s.f.send("other", "elsewhere");
        s.model.setQueue(QStringLiteral("q"));
        QCOMPARE(s.model.rowCount(), 2);
        QCOMPARE(s.model.messageId(0), QString::fromStdString(a));
        QCOMPARE(text(s.model, 0, Model::StateColumn), QStringLiteral("Available"));
        QCOMPARE(text(s.model, 0, Model::MessageIdColumn), QString::fromStdString(a.substr(0, 8)));
        QCOMPARE(text(s.model, 0, Model::MessageIdColumn, Model::MessageIdRole),
                 QString::fromStdString(a));
        QCOMPARE(text(s.model, 1, Model::BodyColumn), QStringLiteral("second\u2026"));
        QCOMPARE(text(s.model, 0, Model::ReceivesColumn), QStringLiteral("0"));
        QCOMPARE(text(s.model, 0, Model::VisibilityColumn), QString());
    }

    void insertsRowsOnSendInOneBlockPerBatch()
    {
        Setup s;
        s.f.createQueue("q");
        s.model.setQueue(QStringLiteral("q"));
        QSignalSpy inserted(&s.model, &QAbstractItemModel::rowsInserted);
        for (int i = 0; i < 5; ++i)
            s.f.send("q", "m" + std::to_string(i));
        s.f.send("q", "m5");
        s.f.flush();
        QCOMPARE(s.model.rowCount(), 6);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.at(0).at(1).toInt(), 0);
        QCOMPARE(inserted.at(0).at(2).toInt(), 5);
        QCOMPARE(text(s.model, 5, Model::BodyColumn), QStringLiteral("m5"));
    }

    void ignoresOtherQueuesEvents()
    {
        Setup s;
        s.f.createQueue("q");
        s.f.createQueue("other");
        s.model.setQueue(QStringLiteral("q"));
        QSignalSpy inserted(&s.model, &QAbstractItemModel::rowsInserted);
        QSignalSpy changed(&s.model, &QAbstractItemModel::dataChanged);
        s.f.send("other", "x");
        s.f.receive("other");
        s.f.flush();
        QCOMPARE(s.model.rowCount(), 0);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(changed.count(), 0);
    }

    void updatesRowsOnReceiveWithOneDataChangedPerBatch()
    {
        Setup s;
        s.f.createQueue("q");
        for (int i = 0; i < 4; ++i)
            s.f.send("q", "m" + std::to_string(i));
        s.f.flush(); // the sends' events are not part of the batch under test
        s.model.setQueue(QStringLiteral("q"));
        QSignalSpy changed(&s.model, &QAbstractItemModel::dataChanged);
        const auto received = s.f.receive("q", 3, 30);
        QCOMPARE(received.size(), std::size_t(3));
        s.f.flush();
        QCOMPARE(changed.count(), 1);
        int first = s.model.rowCount();
        int last = -1;
        for (const auto& m : received) {
            first = std::min(first, rowOfId(s.model, m.messageId));
            last = std::max(last, rowOfId(s.model, m.messageId));
        }
        QCOMPARE(changed.at(0).at(0).toModelIndex().row(), first);
        QCOMPARE(changed.at(0).at(1).toModelIndex().row(), last);
        for (const auto& m : received) {
            const int row = rowOfId(s.model, m.messageId);
            QVERIFY(row >= 0);
            QCOMPARE(text(s.model, row, Model::StateColumn), QStringLiteral("In flight"));
            QCOMPARE(text(s.model, row, Model::ReceivesColumn), QStringLiteral("1"));
            QCOMPARE(text(s.model, row, Model::VisibilityColumn), QStringLiteral("30.0 s"));
            QCOMPARE(s.model.index(row, Model::VisibilityColumn).data(Qt::UserRole).toLongLong(),
                     kStart + 30'000);
            QCOMPARE(s.model.index(row, 0).data(Model::CountdownRole).toDouble(), 1.0);
        }
        QCOMPARE(s.model.timedRowCount(), 3);
    }

    void updatesRowOnVisibilityChangeAndRelease()
    {
        Setup s;
        s.f.createQueue("q");
        s.f.send("q", "m");
        s.model.setQueue(QStringLiteral("q"));
        const auto m = s.f.receive("q", 1, 30).at(0);
        QVERIFY(s.f.broker().changeMessageVisibility("q", m.receiptHandle, 90, "test").ok());
        s.f.flush();
        QCOMPARE(text(s.model, 0, Model::VisibilityColumn), QStringLiteral("1:30"));
        QVERIFY(s.f.broker().changeMessageVisibility("q", m.receiptHandle, 0, "test").ok());
        s.f.flush();
        QCOMPARE(text(s.model, 0, Model::StateColumn), QStringLiteral("Available"));
        QCOMPARE(s.model.timedRowCount(), 0);
    }

    void removesDeletedRowsInContiguousBlocks()
    {
        Setup s;
        s.f.createQueue("q");
        std::vector<std::string> ids;
        for (int i = 0; i < 8; ++i)
            ids.push_back(s.f.send("q", "m" + std::to_string(i)));
        s.model.setQueue(QStringLiteral("q"));
        const auto received = s.f.receive("q", 8, 30);
        QCOMPARE(received.size(), std::size_t(8));
        s.f.flush();
        QSignalSpy removed(&s.model, &QAbstractItemModel::rowsRemoved);
        // Rows 1, 2, 3 and 6: two blocks, the later first.
        for (int i : {1, 2, 3, 6})
            QVERIFY(s.f.broker().deleteMessage("q", received[i].receiptHandle, "test").ok());
        s.f.flush();
        QCOMPARE(s.model.rowCount(), 4);
        QCOMPARE(removed.count(), 2);
        QCOMPARE(removed.at(0).at(1).toInt(), 6);
        QCOMPARE(removed.at(1).at(1).toInt(), 1);
        QCOMPARE(removed.at(1).at(2).toInt(), 3);
        for (int i : {0, 4, 5, 7})
            QVERIFY(rowOfId(s.model, ids[i]) >= 0);
        QCOMPARE(s.model.timedRowCount(), 4);
    }

    void sendThenDeleteInOneBatchLeavesNoRow()
    {
        Setup s;
        s.f.createQueue("q");
        s.model.setQueue(QStringLiteral("q"));
        s.f.send("q", "short-lived");
        const auto m = s.f.receive("q").at(0);
        QVERIFY(s.f.broker().deleteMessage("q", m.receiptHandle, "test").ok());
        s.f.flush();
        QCOMPARE(s.model.rowCount(), 0);
    }

    void purgeResetsTheModel()
    {
        Setup s;
        s.f.createQueue("q");
        for (int i = 0; i < 3; ++i)
            s.f.send("q", "m");
        s.model.setQueue(QStringLiteral("q"));
        QSignalSpy reset(&s.model, &QAbstractItemModel::modelReset);
        QVERIFY(s.f.broker().purgeQueue("q", engine::PurgeTarget::Normal, "test").ok());
        s.f.flush();
        QCOMPARE(reset.count(), 1);
        QCOMPARE(s.model.rowCount(), 0);
        s.f.send("q", "after purge");
        s.f.flush();
        QCOMPARE(s.model.rowCount(), 1);
    }

    void deletedQueueEmptiesTheModel()
    {
        Setup s;
        s.f.createQueue("q");
        s.f.send("q", "m");
        s.model.setQueue(QStringLiteral("q"));
        QVERIFY(s.f.broker().deleteQueue("q", "test").ok());
        s.f.flush();
        QCOMPARE(s.model.rowCount(), 0);
    }

    void countdownTextDecreasesAfterSetNow()
    {
        Setup s;
        s.f.createQueue("q");
        s.f.send("q", "a");
        s.f.send("q", "b");
        s.f.send("q", "c");
        s.model.setQueue(QStringLiteral("q"));
        s.f.receive("q", 1, 30);
        s.f.flush();
        QSignalSpy changed(&s.model, &QAbstractItemModel::dataChanged);
        s.model.setNow(kStart + 2'500);
        QCOMPARE(changed.count(), 1);
        const QModelIndex top = changed.at(0).at(0).toModelIndex();
        const QModelIndex bottom = changed.at(0).at(1).toModelIndex();
        QCOMPARE(top.row(), 0);
        QCOMPARE(bottom.row(), 2);
        QCOMPARE(top.column(), int(Model::VisibilityColumn));
        QCOMPARE(bottom.column(), int(Model::VisibilityColumn));
        const auto roles = changed.at(0).at(2).value<QList<int>>();
        QCOMPARE(roles, (QList<int>{Qt::DisplayRole, Model::CountdownRole, Model::WarningRole}));
        QCOMPARE(text(s.model, 0, Model::VisibilityColumn), QStringLiteral("27.5 s"));
        QCOMPARE(s.model.index(0, 0).data(Model::WarningRole).toBool(), false);
        s.model.setNow(kStart + 26'000);
        QCOMPARE(text(s.model, 0, Model::VisibilityColumn), QStringLiteral("4.0 s"));
        QCOMPARE(s.model.index(0, 0).data(Model::WarningRole).toBool(), true);
        QVERIFY(qAbs(s.model.index(0, 0).data(Model::CountdownRole).toDouble() - 4.0 / 30.0)
                < 1e-9);
        // The sort key is the absolute deadline: time does not move it.
        QCOMPARE(s.model.index(0, Model::VisibilityColumn).data(Qt::UserRole).toLongLong(),
                 kStart + 30'000);
    }

    void warningAtTwentyPercentOfALongWindow()
    {
        Setup s;
        s.f.createQueue("q");
        s.f.send("q", "a");
        s.model.setQueue(QStringLiteral("q"));
        s.f.receive("q", 1, 100);
        s.f.flush();
        s.model.setNow(kStart + 79'000);
        QCOMPARE(s.model.index(0, 0).data(Model::WarningRole).toBool(), false);
        s.model.setNow(kStart + 81'000);
        QCOMPARE(s.model.index(0, 0).data(Model::WarningRole).toBool(), true);
    }

    void tickEmitsNothingWhenNoRowIsTimed()
    {
        Setup s;
        s.f.createQueue("q");
        s.f.send("q", "a");
        s.model.setQueue(QStringLiteral("q"));
        QSignalSpy changed(&s.model, &QAbstractItemModel::dataChanged);
        s.model.setNow(kStart + 1'000);
        QCOMPARE(changed.count(), 0);
    }

    void startTickingFollowsSessionTime()
    {
        Setup s;
        s.f.createQueue("q");
        s.f.send("q", "a");
        s.model.setQueue(QStringLiteral("q"));
        s.f.receive("q", 1, 30);
        s.f.flush();
        s.f.session.step(10'000);
        s.model.startTicking(50);
        QTRY_COMPARE(text(s.model, 0, Model::VisibilityColumn), QStringLiteral("20.0 s"));
        s.model.stopTicking();
    }

    void countdownReachesZeroAndRowShowsAvailableAfterStep()
    {
        Setup s;
        s.f.createQueue("q");
        s.f.send("q", "a");
        s.model.setQueue(QStringLiteral("q"));
        s.f.receive("q", 1, 5);
        s.f.flush();
        s.model.setNow(kStart + 5'000);
        QCOMPARE(text(s.model, 0, Model::VisibilityColumn), QStringLiteral("0.0 s"));
        // Time alone does not change the state shown: the engine's expiry event does.
        QCOMPARE(text(s.model, 0, Model::StateColumn), QStringLiteral("In flight"));
        s.f.step(5'000);
        QCOMPARE(text(s.model, 0, Model::StateColumn), QStringLiteral("Available"));
        QCOMPARE(text(s.model, 0, Model::VisibilityColumn), QString());
        QCOMPARE(text(s.model, 0, Model::ReceivesColumn), QStringLiteral("1"));
        QCOMPARE(s.model.index(0, Model::VisibilityColumn).data(Qt::UserRole).toLongLong(),
                 engine::kNoDeadline);
        QCOMPARE(s.model.timedRowCount(), 0);
    }

    void delayedMessageCountsDownAndBecomesAvailable()
    {
        Setup s;
        s.f.createQueue("q");
        s.model.setQueue(QStringLiteral("q"));
        s.f.send("q", "later", std::nullopt, 10);
        s.f.flush();
        QCOMPARE(text(s.model, 0, Model::StateColumn), QStringLiteral("Delayed"));
        QCOMPARE(text(s.model, 0, Model::VisibilityColumn), QStringLiteral("delayed 10.0 s"));
        s.model.setNow(kStart + 6'000);
        QCOMPARE(text(s.model, 0, Model::VisibilityColumn), QStringLiteral("delayed 4.0 s"));
        s.f.step(10'000);
        QCOMPARE(text(s.model, 0, Model::StateColumn), QStringLiteral("Available"));
    }

    void marksAMessageThatMovesToTheDeadLetterQueueOnItsNextReceive()
    {
        Setup s;
        s.f.createQueueWithDeadLetters("orders", "orders-dlq", 1);
        s.f.send("orders", "m");
        s.model.setQueue(QStringLiteral("orders"));
        s.f.receive("orders", 1, 5);
        s.f.step(5'000);
        QCOMPARE(text(s.model, 0, Model::ReceivesColumn), QStringLiteral("1 \u26a0"));
        QVERIFY(s.model.index(0, 0).data(Model::DlqNextRole).toBool());
    }

    void deadLetterQueueShowsMessagesMovedIntoIt()
    {
        Setup s;
        s.f.createQueueWithDeadLetters("orders", "orders-dlq", 1);
        const std::string id = s.f.send("orders", "poison");
        s.f.send("orders-dlq", "already there");
        Model source(s.source);
        auto sourceTester = watch(&source);
        source.setQueue(QStringLiteral("orders"));
        s.model.setQueue(QStringLiteral("orders-dlq"));
        s.f.receive("orders", 1, 5);
        s.f.step(5'000);
        QVERIFY(s.f.receive("orders").empty()); // moves it instead
        s.f.flush();
        QCOMPARE(source.rowCount(), 0);
        QCOMPARE(s.model.rowCount(), 2);
        QCOMPARE(s.model.messageId(1), QString::fromStdString(id)); // the id survives the move
        QCOMPARE(text(s.model, 1, Model::ReceivesColumn), QStringLiteral("1"));
    }

    void browsingNeverChangesAReceiveCount()
    {
        Setup s;
        s.f.createQueue("q");
        for (int i = 0; i < 20; ++i)
            s.f.send("q", "m" + std::to_string(i), std::nullopt, i % 4 == 0 ? 30 : 0);
        s.f.receive("q", 5, 60);
        const engine::QueueStats before = s.f.stats("q");
        auto peekCounts = [&] {
            std::vector<std::uint32_t> counts;
            const auto views = s.f.broker().peekMessages("q");
            for (const auto& v : views.value())
                counts.push_back(v.receiveCount);
            return counts;
        };
        const auto countsBefore = peekCounts();

        MessageFilterModel proxy;
        auto proxyTester = watch(&proxy);
        proxy.setSourceModel(&s.model);
        s.model.setQueue(QStringLiteral("other-then-back"));
        s.model.setQueue(QStringLiteral("q"));
        for (int column = 0; column < Model::ColumnCount; ++column) {
            proxy.sort(column, Qt::AscendingOrder);
            proxy.sort(column, Qt::DescendingOrder);
        }
        proxy.setStateFilter(MessageFilterModel::InFlight);
        proxy.setTextFilter(QStringLiteral("m1"));
        proxy.setStateFilter(MessageFilterModel::AllStates);
        proxy.setTextFilter({});
        s.model.setNow(kStart + 1'000);
        for (int row = 0; row < proxy.rowCount(); ++row) {
            for (int column = 0; column < proxy.columnCount(); ++column) {
                for (int role : {int(Qt::DisplayRole), int(Qt::UserRole), int(Qt::ToolTipRole),
                                 int(Model::CountdownRole), int(Model::DlqNextRole)})
                    proxy.index(row, column).data(role);
            }
        }
        s.f.flush();

        const engine::QueueStats after = s.f.stats("q");
        QCOMPARE(after.received, before.received);
        QCOMPARE(after.inFlight, before.inFlight);
        QCOMPARE(after.available, before.available);
        QCOMPARE(after.delayed, before.delayed);
        QCOMPARE(peekCounts(), countsBefore);
    }

    void filterByStateAndText()
    {
        Setup s;
        s.f.createQueue("q");
        for (int i = 0; i < 6; ++i)
            s.f.send("q",
                     i % 2 == 0 ? "order " + std::to_string(i) : "invoice " + std::to_string(i));
        s.f.send("q", "order later", std::nullopt, 60);
        s.model.setQueue(QStringLiteral("q"));
        MessageFilterModel proxy;
        auto proxyTester = watch(&proxy);
        proxy.setSourceModel(&s.model);
        s.f.receive("q", 2, 30); // order 0, invoice 1
        s.f.flush();
        QCOMPARE(proxy.rowCount(), 7);

        proxy.setStateFilter(MessageFilterModel::InFlight);
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setStateFilter(MessageFilterModel::Available | MessageFilterModel::Delayed);
        QCOMPARE(proxy.rowCount(), 5);
        proxy.setStateFilter(MessageFilterModel::Delayed);
        QCOMPARE(proxy.rowCount(), 1);

        proxy.setStateFilter(MessageFilterModel::AllStates);
        proxy.setTextFilter(QStringLiteral("ORDER"));
        QCOMPARE(proxy.rowCount(), 4);
        proxy.setTextFilter(s.model.messageId(5).mid(4, 10)); // part of an id
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setTextFilter({});

        // A row that stops matching leaves the proxy live.
        proxy.setStateFilter(MessageFilterModel::Available);
        QCOMPARE(proxy.rowCount(), 4);
        s.f.receive("q", 1, 30);
        s.f.flush();
        QCOMPARE(proxy.rowCount(), 3);
    }

    void groupFilterAndColumn()
    {
        Setup s;
        s.f.createQueue("f.fifo", {{"FifoQueue", "true"}});
        s.f.send("f.fifo", "a", std::string("alpha"));
        s.f.send("f.fifo", "b", std::string("beta"));
        s.model.setQueue(QStringLiteral("f.fifo"));
        QCOMPARE(text(s.model, 0, Model::GroupColumn), QStringLiteral("alpha"));
        QCOMPARE(text(s.model, 1, Model::DeduplicationColumn), QStringLiteral("b"));
        MessageFilterModel proxy;
        proxy.setSourceModel(&s.model);
        proxy.setTextFilter(QStringLiteral("bet"));
        QCOMPARE(proxy.rowCount(), 1);
    }

    void sortsByCountdownDeadlineAndTimeDoesNotReorder()
    {
        Setup s;
        s.f.createQueue("q");
        for (int i = 0; i < 4; ++i)
            s.f.send("q", "m" + std::to_string(i));
        s.model.setQueue(QStringLiteral("q"));
        MessageFilterModel proxy;
        auto proxyTester = watch(&proxy);
        proxy.setSourceModel(&s.model);
        proxy.sort(Model::VisibilityColumn, Qt::AscendingOrder);
        const std::string m0 = s.f.receive("q", 1, 50).at(0).messageId;
        const std::string m1 = s.f.receive("q", 1, 10).at(0).messageId;
        const std::string m2 = s.f.receive("q", 1, 30).at(0).messageId;
        s.f.flush();
        auto idAt = [&](int row) {
            return proxy.index(row, Model::MessageIdColumn).data(Model::MessageIdRole).toString();
        };
        QCOMPARE(idAt(0), QString::fromStdString(m1));
        QCOMPARE(idAt(1), QString::fromStdString(m2));
        QCOMPARE(idAt(2), QString::fromStdString(m0));
        QCOMPARE(proxy.index(3, Model::StateColumn).data().toString(), QStringLiteral("Available"));

        QSignalSpy layout(&proxy, &QAbstractItemModel::layoutChanged);
        QSignalSpy proxyChanged(&proxy, &QAbstractItemModel::dataChanged);
        s.model.setNow(kStart + 9'000);
        QCOMPARE(layout.count(), 0);
        // The tick crosses the proxy as one ranged dataChanged over the countdown column.
        QCOMPARE(proxyChanged.count(), 1);
        QCOMPARE(proxyChanged.at(0).at(0).toModelIndex(), proxy.index(0, Model::VisibilityColumn));
        QCOMPARE(proxyChanged.at(0).at(1).toModelIndex(), proxy.index(3, Model::VisibilityColumn));
        QCOMPARE(idAt(0), QString::fromStdString(m1));
        QCOMPARE(proxy.index(0, Model::VisibilityColumn).data().toString(),
                 QStringLiteral("1.0 s"));

        // An extension moves the row: its deadline changed.
        const auto& row = s.model.row(s.model.rowOfMessageId(QString::fromStdString(m1)));
        auto view = s.f.broker().peekMessage("q", row.key).value();
        QVERIFY(s.f.broker().changeMessageVisibility("q", view.receiptHandle, 100, "test").ok());
        s.f.flush();
        QCOMPARE(idAt(2), QString::fromStdString(m1));

        proxy.sort(Model::ReceivesColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, Model::ReceivesColumn).data().toString(), QStringLiteral("1"));
        proxy.sort(Model::BodyColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, Model::BodyColumn).data().toString(), QStringLiteral("m3"));
    }

    // A queue larger than the first block is listed a block per event-loop turn; what happens to
    // a message not listed yet shows when its block is listed, and new sends show at once.
    void listsALargeQueueABlockPerTurnAndFollowsItsEvents()
    {
        Setup s;
        s.f.createQueue("q");
        const std::size_t count = Model::kFirstRows + Model::kRowsPerTurn + 500;
        for (std::size_t i = 0; i < count; ++i)
            s.f.send("q", "m" + std::to_string(i));
        // The first block's messages in flight: the receives below take later ones.
        for (std::size_t i = 0; i < Model::kFirstRows / 10; ++i)
            QCOMPARE(s.f.receive("q", 10, 300).size(), std::size_t(10));
        s.f.flush();
        QSignalSpy loading(&s.model, &Model::loadingChanged);
        s.model.setQueue(QStringLiteral("q"));
        QCOMPARE(s.model.rowCount(), int(Model::kFirstRows));
        QVERIFY(s.model.isLoading());
        QCOMPARE(s.model.pendingCount(), count - Model::kFirstRows);
        QCOMPARE(s.model.timedRowCount(), int(Model::kFirstRows));

        // Meanwhile: ten messages not listed yet received, five of them deleted, three sent.
        const auto received = s.f.receive("q", 10, 300);
        QCOMPARE(received.size(), std::size_t(10));
        for (std::size_t i = 0; i < 5; ++i)
            QVERIFY(s.f.broker().deleteMessage("q", received[i].receiptHandle, "test").ok());
        std::vector<std::string> sent;
        for (int i = 0; i < 3; ++i)
            sent.push_back(s.f.send("q", "late" + std::to_string(i)));
        s.f.session.flushNow(); // the events now, before the next block's turn
        QVERIFY(s.model.isLoading());
        QCOMPARE(s.model.rowCount(), int(Model::kFirstRows) + 3);
        QCOMPARE(s.model.messageId(int(Model::kFirstRows) + 2), QString::fromStdString(sent[2]));
        QVERIFY(rowOfId(s.model, received[5].messageId) < 0); // not listed yet

        // Looking one up lists only as far as it: one block here.
        s.model.listUntilShown({QString::fromStdString(received[5].messageId)});
        QVERIFY(rowOfId(s.model, received[5].messageId) >= 0);
        QVERIFY(s.model.isLoading());
        QCOMPARE(s.model.pendingCount(), count - Model::kFirstRows - Model::kRowsPerTurn);

        QTRY_VERIFY(!s.model.isLoading());
        QVERIFY(loading.count() >= 3); // the reset, at least one block, the last
        QCOMPARE(s.model.rowCount(), int(count - 5 + 3));
        for (std::size_t i = 0; i < 5; ++i)
            QCOMPARE(rowOfId(s.model, received[i].messageId), -1);
        for (std::size_t i = 5; i < 10; ++i) {
            const int row = rowOfId(s.model, received[i].messageId);
            QVERIFY(row >= 0);
            QCOMPARE(text(s.model, row, Model::StateColumn), QStringLiteral("In flight"));
            QCOMPARE(text(s.model, row, Model::ReceivesColumn), QStringLiteral("1"));
        }
        QCOMPARE(s.model.timedRowCount(), int(Model::kFirstRows) + 5);
        for (int row = 1; row < s.model.rowCount(); ++row)
            QVERIFY(s.model.index(row - 1, 0).data(Model::SequenceRole).toULongLong()
                    < s.model.index(row, 0).data(Model::SequenceRole).toULongLong());
        QCOMPARE(s.model.messageId(s.model.rowCount() - 1), QString::fromStdString(sent[2]));
    }

    // A sort asked for while the queue is being listed waits for the last block (sorting each
    // block in would move the proxy's whole mapping per row); the header keeps what was asked.
    void aSortAskedForWhileListingIsAppliedOnceAllRowsAreIn()
    {
        Setup s;
        s.f.createQueue("q");
        const std::size_t count = Model::kFirstRows + 100;
        for (std::size_t i = 0; i < count; ++i)
            s.f.send("q", "m" + std::to_string(100000 + i));
        s.f.flush();
        MessageFilterModel proxy;
        auto proxyTester = watch(&proxy);
        proxy.setSourceModel(&s.model);
        proxy.sort(Model::BodyColumn, Qt::DescendingOrder);
        s.model.setQueue(QStringLiteral("q"));
        QVERIFY(s.model.isLoading());
        QCOMPARE(proxy.sortColumn(), -1);
        QCOMPARE(proxy.requestedSortColumn(), int(Model::BodyColumn));
        QCOMPARE(proxy.index(0, Model::BodyColumn).data().toString(), QStringLiteral("m100000"));
        QTRY_VERIFY(!s.model.isLoading());
        QCOMPARE(proxy.rowCount(), int(count));
        QCOMPARE(proxy.sortColumn(), int(Model::BodyColumn));
        QCOMPARE(proxy.index(0, Model::BodyColumn).data().toString(),
                 QString::fromStdString("m" + std::to_string(100000 + count - 1)));
        // Once listed, a sort applies at once.
        proxy.sort(Model::BodyColumn, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, Model::BodyColumn).data().toString(), QStringLiteral("m100000"));
    }

    void refreshMergesAfterAttributeChange()
    {
        Setup s;
        s.f.createQueueWithDeadLetters("orders", "orders-dlq", 5);
        s.f.send("orders", "m");
        s.model.setQueue(QStringLiteral("orders"));
        s.f.receive("orders", 1, 5);
        s.f.step(5'000);
        QVERIFY(!s.model.index(0, 0).data(Model::DlqNextRole).toBool());
        QSignalSpy reset(&s.model, &QAbstractItemModel::modelReset);
        const std::string policy = s.f.redrivePolicy("orders-dlq", 1);
        QVERIFY(
            s.f.broker().setQueueAttributes("orders", {{"RedrivePolicy", policy}}, "test").ok());
        s.f.flush();
        QCOMPARE(reset.count(), 0);
        QVERIFY(s.model.index(0, 0).data(Model::DlqNextRole).toBool());
    }
};

QTEST_GUILESS_MAIN(MessageTableModelTest)
#include "message_table_model_test.moc"
