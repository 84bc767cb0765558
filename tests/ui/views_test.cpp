// The window's views beyond the message table: the inspector (pretty JSON body, attributes,
// receipt, timeline with origins), the FIFO groups tab, the charts tab and the event log tab with
// its queue and kind filters (any set of kinds, checked in the kind button's menu); the queue
// list's dead-letter column, readable however long the names in it.

#include "ui/charts/throughput_chart_view.h"
#include "ui/models/event_log_model.h"
#include "ui/models/group_table_model.h"
#include "ui/models/queue_table_model.h"
#include "ui/models/timeline_model.h"
#include "ui/widgets/check_list_button.h"
#include "ui/widgets/dead_letter_delegate.h"
#include "ui/widgets/event_log_view.h"
#include "ui/widgets/groups_view.h"
#include "ui/widgets/message_inspector.h"
#include "window_test_support.h"

#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTreeWidget>

using namespace inflight;
using namespace inflight::ui::test;

namespace {

QStringList column(const QAbstractItemModel* model, int column)
{
    QStringList values;
    for (int row = 0; row < model->rowCount(); ++row)
        values << model->index(row, column).data().toString();
    return values;
}

} // namespace

class ViewsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    void messageTableFiltersByStateAndTextAndSortsAnyColumn()
    {
        WindowFixture f;
        f.createQueue("q");
        const std::string apple = f.send("q", "apple pie");
        const std::string banana = f.send("q", "banana split");
        const std::string cherry = f.send("q", "cherry tart");
        f.receive("q", 1, 60); // apple in flight
        f.receive("q", 1, 0);  // banana received once, visible again
        f.receive("q", 1, 0);  // banana twice
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        const auto ids = [&w] {
            QStringList shown;
            for (const QString& id : shownMessageIds(w))
                shown << id;
            return shown;
        };
        const QString a = QString::fromStdString(apple), b = QString::fromStdString(banana),
                      c = QString::fromStdString(cherry);
        QCOMPARE(ids(), (QStringList{a, b, c}));

        auto* state = child<QComboBox>(&w, QStringLiteral("stateFilterCombo"));
        state->setCurrentIndex(2); // in flight
        QCOMPARE(ids(), QStringList{a});
        state->setCurrentIndex(1); // available
        QCOMPARE(ids(), (QStringList{b, c}));
        state->setCurrentIndex(0);
        auto* text = child<QLineEdit>(&w, QStringLiteral("textFilterEdit"));
        QTest::keyClicks(text, QStringLiteral("TART"));
        QCOMPARE(ids(), QStringList{c});
        QVERIFY(child<QLabel>(&w, QStringLiteral("messageCountLabel"))
                    ->text()
                    .startsWith(QStringLiteral("1 of 3")));
        text->clear();

        // Sort by the receive count, by clicking its header twice (descending).
        QHeaderView* header = w.messageView()->horizontalHeader();
        const int x = header->sectionViewportPosition(ui::MessageTableModel::ReceivesColumn)
            + header->sectionSize(ui::MessageTableModel::ReceivesColumn) / 2;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(x, 5));
        QCOMPARE(ids(), (QStringList{c, a, b}));
        QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(x, 5));
        QCOMPARE(ids(), (QStringList{b, a, c}));
        // Time passing does not reorder (sort keys are absolute).
        w.messageView()->sortByColumn(ui::MessageTableModel::VisibilityColumn, Qt::AscendingOrder);
        const QStringList before = ids();
        f.step(5'000);
        QTest::qWait(150);
        QCOMPARE(ids(), before);
    }

    void inspectorShowsBodyAttributesReceiptAndTimeline()
    {
        WindowFixture f;
        f.createQueue("q");
        ui::MainWindow& w = f.open();
        engine::SendMessageRequest request{.queue = "q",
                                           .body = "{\"order\":7,\"items\":[1,2]}",
                                           .attributes = {{"customer", {"String", "ada", {}}}},
                                           .origin = "window"};
        const std::string id = f.broker().sendMessage(request)->messageId;
        f.step(1'000);
        const auto received
            = f.broker()
                  .receiveMessage(
                      {.queue = "q", .maxMessages = 1, .visibilityTimeout = 60, .origin = "test"})
                  ->messages;
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        flush();
        clickMessage(w, id);
        ui::MessageInspector* inspector = w.inspector();
        QCOMPARE(inspector->messageId(), QString::fromStdString(id));
        QCOMPARE(inspector->bodyText(),
                 QStringLiteral("{\n    \"items\": [\n        1,\n        2\n"
                                "    ],\n    \"order\": 7\n}"));
        QCOMPARE(inspector->receiptHandle(),
                 QString::fromStdString(received.front().receiptHandle));
        auto* attributes = child<QTreeWidget>(inspector, QStringLiteral("attributesTree"));
        QTreeWidgetItem* message = attributes->topLevelItem(0);
        QCOMPARE(message->child(0)->text(0), QStringLiteral("customer"));
        QCOMPARE(message->child(0)->text(2), QStringLiteral("ada"));
        QTreeWidgetItem* system = attributes->topLevelItem(1);
        QStringList systemNames;
        for (int i = 0; i < system->childCount(); ++i)
            systemNames << system->child(i)->text(0);
        QVERIFY(systemNames.contains(QStringLiteral("ApproximateReceiveCount")));
        QVERIFY(systemNames.contains(QStringLiteral("SentTimestamp")));

        // Timeline: sent by the window, received by the test; then released from the window.
        const QAbstractItemModel* timeline = inspector->timelineModel();
        QCOMPARE(column(timeline, ui::TimelineModel::KindColumn),
                 (QStringList{QStringLiteral("sent"), QStringLiteral("received")}));
        QCOMPARE(column(timeline, ui::TimelineModel::OriginColumn),
                 (QStringList{QStringLiteral("window"), QStringLiteral("test")}));
        click(&w, QStringLiteral("releaseButton"));
        QCOMPARE(timeline->rowCount(), 3);
        QCOMPARE(timeline->index(2, ui::TimelineModel::OriginColumn).data().toString(),
                 QStringLiteral("window"));
        QVERIFY(inspector->receiptHandle().isEmpty()); // no receipt once available
        // Non-JSON bodies are shown as they are.
        QCOMPARE(ui::MessageInspector::prettyBody(QStringLiteral("plain {text")),
                 QStringLiteral("plain {text"));
    }

    void inspectorKeepsTheTimelineOfADeletedMessage()
    {
        WindowFixture f;
        f.createQueue("q");
        const std::string id = f.send("q", "x");
        f.receive("q", 1, 60);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        clickMessage(w, id);
        click(&w, QStringLiteral("deleteMessageButton"));
        QCOMPARE(w.inspector()->messageId(), QString::fromStdString(id));
        QVERIFY(child<QLabel>(w.inspector(), QStringLiteral("stateLabel"))
                    ->text()
                    .startsWith(QStringLiteral("No longer in q")));
        QCOMPARE(w.inspector()->timelineModel()->index(2, ui::TimelineModel::KindColumn).data(),
                 QVariant(QStringLiteral("deleted")));
    }

    void groupsTabShowsTheBlockedGroupAndWhatBlocksIt()
    {
        WindowFixture f;
        f.createQueue("p.fifo", {{"FifoQueue", "true"}});
        f.send("p.fifo", "a1", "a");
        f.send("p.fifo", "a2", "a");
        f.send("p.fifo", "b1", "b");
        const std::string head = f.receive("p.fifo", 1, 60).front().messageId;
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("p.fifo")));
        w.tabs()->setCurrentWidget(w.groups());
        flush();
        const QAbstractItemModel* groups = w.groups()->view()->model();
        QCOMPARE(groups->rowCount(), 2);
        QStringList states = column(groups, ui::GroupTableModel::StateColumn);
        QVERIFY2(states.join(QLatin1Char('|')).contains(QString::fromStdString(head).left(8)),
                 qPrintable(states.join(QLatin1Char('|'))));
        QVERIFY(child<QLabel>(w.groups(), QStringLiteral("groupsNoteLabel"))
                    ->text()
                    .contains(QStringLiteral("blocked")));

        // A standard queue has no groups; the tab says so.
        f.createQueue("plain");
        flush();
        QVERIFY(w.selectQueue(QStringLiteral("plain")));
        QCOMPARE(w.groups()->view()->model()->rowCount(), 0);
        QVERIFY(child<QLabel>(w.groups(), QStringLiteral("groupsNoteLabel"))
                    ->text()
                    .contains(QStringLiteral("standard queue")));
    }

    void chartsFollowEngineTimeForTheQueueAndForAll()
    {
        WindowFixture f;
        f.createQueue("a");
        f.createQueue("b");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("a")));
        w.tabs()->setCurrentWidget(w.charts());
        for (int second = 0; second < 5; ++second) {
            f.send("a", "x");
            f.send("a", "y");
            f.send("b", "z");
            f.step(1'000);
            w.charts()->sampleNow();
        }
        using Metric = ui::ThroughputSeries::Metric;
        const QList<QPointF> sent = w.charts()->shownPoints(Metric::Sent);
        QCOMPARE(sent.size(), 5);
        QCOMPARE(sent.last().y(), 2.0);
        QCOMPARE(qint64(sent.last().x()), f.session.now());
        QCOMPARE(w.charts()->shownPoints(Metric::Available).last().y(), 10.0);

        child<QComboBox>(w.charts(), QStringLiteral("chartScopeCombo"))->setCurrentIndex(1);
        QCOMPARE(w.charts()->shownPoints(Metric::Sent).last().y(), 3.0);
        QCOMPARE(w.charts()->shownPoints(Metric::Available).last().y(), 15.0);

        // Paused engine time: no new sample however long the window waits.
        QTest::qWait(300);
        QCOMPARE(w.charts()->shownPoints(Metric::Sent).size(), 5);
    }

    void eventLogShowsWindowActionsAndFiltersByQueueAndKind()
    {
        WindowFixture f;
        f.createQueue("a");
        f.createQueue("b");
        ui::MainWindow& w = f.open();
        f.send("a", "1");
        f.send("b", "2");
        f.receive("a", 1, 30);
        flush();
        QVERIFY(w.selectQueue(QStringLiteral("a")));
        clickMessage(w, f.peek("a").front().messageId);
        click(&w, QStringLiteral("releaseButton"));
        w.tabs()->setCurrentWidget(w.eventLog());
        flush();

        const QAbstractItemModel* log = w.eventLog()->view()->model();
        const int all = log->rowCount();
        QVERIFY(all >= 4);
        // The release came from the window, and the log says so.
        const QStringList kinds = column(log, ui::EventLogModel::KindColumn);
        const QStringList origins = column(log, ui::EventLogModel::OriginColumn);
        QCOMPARE(kinds.last(), QStringLiteral("released"));
        QCOMPARE(origins.last(), QStringLiteral("window"));

        auto* queue = child<QComboBox>(w.eventLog(), QStringLiteral("eventQueueCombo"));
        queue->setCurrentIndex(queue->findText(QStringLiteral("b")));
        QStringList queues = column(log, ui::EventLogModel::QueueColumn);
        QVERIFY(!queues.isEmpty());
        queues.removeDuplicates();
        QCOMPARE(queues, QStringList{QStringLiteral("b")});
        queue->setCurrentIndex(0);
        QCOMPARE(log->rowCount(), all);

        auto* kind = child<ui::CheckListButton>(w.eventLog(), QStringLiteral("eventKindButton"));
        clickInMenu(
            kind, {kind->noneAction(), kind->itemAction(int(engine::EventKind::MessageReceived))});
        QCOMPARE(column(log, ui::EventLogModel::KindColumn),
                 QStringList{QStringLiteral("received")});
        clickInMenu(kind, {kind->allAction()});
        QCOMPARE(log->rowCount(), all);
    }

    void eventLogKindFilterShowsExactlyTheCheckedKinds()
    {
        WindowFixture f;
        f.createQueue("orders-dlq");
        f.createQueue("orders", {{"RedrivePolicy", f.redrivePolicy("orders-dlq", 2)}});
        ui::MainWindow& w = f.open();
        f.send("orders", "kept");
        f.send("orders", "failing");
        f.receive("orders", 2, 0); // both received once, visible again at once
        const auto kept = f.receive("orders", 1, 30);
        QCOMPARE(kept.size(), std::size_t(1));
        QVERIFY(f.broker().deleteMessage("orders", kept.front().receiptHandle, "window").ok());
        f.receive("orders", 1, 0);  // failing: its second receive
        f.receive("orders", 1, 30); // and the third moves it to orders-dlq
        flush();
        w.tabs()->setCurrentWidget(w.eventLog());
        const QAbstractItemModel* log = w.eventLog()->view()->model();
        const int all = log->rowCount();
        const QStringList everyKind = column(log, ui::EventLogModel::KindColumn);
        QVERIFY2(everyKind.contains(QStringLiteral("moved to DLQ")),
                 qPrintable(everyKind.join(QLatin1Char('|'))));

        // Two kinds, checked one after the other in the open menu: exactly those events, in
        // their order.
        auto* kind = child<ui::CheckListButton>(w.eventLog(), QStringLiteral("eventKindButton"));
        QCOMPARE(kind->text(), QStringLiteral("All kinds"));
        QSignalSpy changes(kind, &ui::CheckListButton::selectionChanged);
        clickInMenu(kind,
                    {kind->noneAction(), kind->itemAction(int(engine::EventKind::MessageSent)),
                     kind->itemAction(int(engine::EventKind::MovedToDeadLetterQueue))});
        QStringList expected;
        for (const QString& k : everyKind)
            if (k == QStringLiteral("sent") || k == QStringLiteral("moved to DLQ"))
                expected << k;
        QCOMPARE(changes.count(), 3); // None is one change, not sixteen
        QCOMPARE(expected.size(), 3);
        QCOMPARE(column(log, ui::EventLogModel::KindColumn), expected);
        QCOMPARE(kind->text(), QStringLiteral("sent, moved to DLQ"));
        QVERIFY(child<QLabel>(w.eventLog(), QStringLiteral("eventCountLabel"))
                    ->text()
                    .startsWith(QStringLiteral("3 of %1").arg(all)));

        // A third kind: the button counts; unchecking one takes its events away again.
        clickInMenu(kind, {kind->itemAction(int(engine::EventKind::MessageDeleted))});
        QCOMPARE(kind->text(), QStringLiteral("3 of 16 kinds"));
        QCOMPARE(log->rowCount(), 4);
        clickInMenu(kind, {kind->itemAction(int(engine::EventKind::MessageSent))});
        QCOMPARE(column(log, ui::EventLogModel::KindColumn),
                 (QStringList{QStringLiteral("deleted"), QStringLiteral("moved to DLQ")}));

        // New events are filtered as they arrive; None shows nothing, All everything.
        f.send("orders", "later");
        f.receive("orders", 1, 30);
        flush();
        QCOMPARE(log->rowCount(), 2);
        clickInMenu(kind, {kind->noneAction()});
        QCOMPARE(kind->text(), QStringLiteral("No kinds"));
        QCOMPARE(log->rowCount(), 0);
        clickInMenu(kind, {kind->allAction()});
        QCOMPARE(log->rowCount(), all + 2);

        // The view's own API sets the same choice.
        w.eventLog()->setKindMask(1u << int(engine::EventKind::MessageReceived));
        QCOMPARE(kind->text(), QStringLiteral("received"));
        QCOMPARE(w.eventLog()->filterModel()->kindMask(),
                 1u << int(engine::EventKind::MessageReceived));
    }

    void queueListKeepsLongDeadLetterRelationsReadable()
    {
        const std::string dlq = "payments-processing-dead-letters-eu-west.fifo";
        const std::string source = "payments-processing-eu-west.fifo";
        WindowFixture f;
        f.createQueueWithDeadLetters("orders", "orders-dlq", 3);
        f.createQueue(dlq, {{"FifoQueue", "true"}});
        f.createQueue(source, {{"FifoQueue", "true"}, {"RedrivePolicy", f.redrivePolicy(dlq, 5)}});
        ui::MainWindow& w = f.open();
        QTreeView* view = w.queueView();
        const auto cell = [view](const QString& queue, int column) {
            const QAbstractItemModel* model = view->model();
            for (int row = 0; row < model->rowCount(); ++row)
                if (model->index(row, 0).data().toString() == queue)
                    return model->index(row, column);
            return QModelIndex();
        };
        constexpr int kRelation = ui::QueueTableModel::DeadLetterColumn;
        auto* delegate
            = qobject_cast<ui::DeadLetterDelegate*>(view->itemDelegateForColumn(kRelation));
        QVERIFY(delegate);
        const QFontMetrics metrics = view->fontMetrics();
        const QString name = QString::fromStdString(source);
        const QModelIndex relation = cell(name, kRelation);
        const QString full = QStringLiteral("\u2192 %1 (max 5)").arg(QString::fromStdString(dlq));
        QCOMPARE(relation.data().toString(), full);

        // The first layout: names and counts only, without a horizontal scroll bar; the type and
        // the relation are in the messages' header.
        QHeaderView* header = view->header();
        QVERIFY(view->isColumnHidden(kRelation));
        QVERIFY(view->isColumnHidden(ui::QueueTableModel::TypeColumn));
        QVERIFY(w.selectQueue(name));
        flush();
        const QString details = child<QLabel>(&w, QStringLiteral("queueDetailsLabel"))->text();
        QVERIFY2(
            details.contains(QStringLiteral("FIFO"))
                && details.contains(
                    QStringLiteral("DLQ %1 after 5 receives").arg(QString::fromStdString(dlq))),
            qPrintable(details));
        // Shown from the header's menu in a list made a little wider, the relation column takes
        // the rest; the long relation is shown with its DLQ's name elided in the middle and
        // "(max 5)" kept, the short one whole.
        view->setColumnHidden(kRelation, false);
        int others = 0;
        for (int column = 0; column < kRelation; ++column)
            if (!view->isColumnHidden(column))
                others += header->sectionSize(column);
        auto* dock = child<QDockWidget>(&w, QStringLiteral("queuesDock"));
        w.resize(1600, 1000);
        flush();
        w.resizeDocks({dock}, {dock->width() - view->viewport()->width() + others + 220},
                      Qt::Horizontal);
        flush();
        QVERIFY(!view->horizontalScrollBar()->isVisible());
        QCOMPARE(header->sectionSize(kRelation), view->viewport()->width() - others);
        const QString shown = delegate->shownText(relation);
        QVERIFY2(shown != full, qPrintable(shown));
        QVERIFY2(shown.startsWith(QStringLiteral("\u2192 pay")), qPrintable(shown));
        QVERIFY2(shown.endsWith(QStringLiteral("fo (max 5)")), qPrintable(shown));
        QVERIFY2(shown.contains(QChar(0x2026)), qPrintable(shown));
        QVERIFY(metrics.horizontalAdvance(shown) < header->sectionSize(kRelation));
        const QModelIndex shortRelation = cell(QStringLiteral("orders"), kRelation);
        QCOMPARE(delegate->shownText(shortRelation), QStringLiteral("\u2192 orders-dlq (max 3)"));
        const QString back = delegate->shownText(cell(QString::fromStdString(dlq), kRelation));
        QVERIFY2(back.startsWith(QStringLiteral("\u2190 pay"))
                     && back.endsWith(QStringLiteral("fo")),
                 qPrintable(back));

        // The tooltips keep the full texts; names elide in their middle too.
        QVERIFY2(relation.data(Qt::ToolTipRole)
                     .toString()
                     .startsWith(full + QStringLiteral("\nA message received 5 times moves to ")
                                 + QString::fromStdString(dlq)),
                 qPrintable(relation.data(Qt::ToolTipRole).toString()));
        QCOMPARE(cell(name, ui::QueueTableModel::NameColumn).data(Qt::ToolTipRole).toString(),
                 name);
        QCOMPARE(view->textElideMode(), Qt::ElideMiddle);
        for (int column : {ui::QueueTableModel::AvailableColumn,
                           ui::QueueTableModel::InFlightColumn, ui::QueueTableModel::DelayedColumn})
            QVERIFY(header->sectionSize(column) > header->fontMetrics().horizontalAdvance(
                        view->model()->headerData(column, Qt::Horizontal).toString()));

        // A wider list shows the whole relation.
        w.resize(2600, 900);
        flush();
        w.resizeDocks({child<QDockWidget>(&w, QStringLiteral("queuesDock"))}, {1100},
                      Qt::Horizontal);
        flush();
        QCOMPARE(delegate->shownText(relation), full);
    }

    void deadLetterTextElidesTheNamesAndKeepsTheRest_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QString>("fits");
        QTest::newRow("fits") << QStringLiteral("\u2192 dlq (max 3)")
                              << QStringList{QStringLiteral("dlq")}
                              << QStringLiteral("\u2192 dlq (max 3)");
        QTest::newRow("target") << QStringLiteral("\u2192 abcdefghijklmnopqrstuvwxyz (max 3)")
                                << QStringList{QStringLiteral("abcdefghijklmnopqrstuvwxyz")}
                                << QStringLiteral("\u2192 abcd\u2026wxyz (max 3)");
        QTest::newRow("sources") << QStringLiteral("\u2190 aaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbb")
                                 << QStringList{QStringLiteral("aaaaaaaaaaaaaaaa"),
                                                QStringLiteral("bbbbbbbbbbbbbbbb")}
                                 << QStringLiteral("\u2190 aaaa\u2026aaaa, bbbb\u2026bbbb");
    }

    void deadLetterTextElidesTheNamesAndKeepsTheRest()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, names);
        QFETCH(QString, fits);
        const QFontMetrics metrics(QApplication::font());
        const int width = metrics.horizontalAdvance(fits);
        const QString shown = ui::DeadLetterDelegate::fitText(text, names, metrics, width);
        QVERIFY2(metrics.horizontalAdvance(shown) <= width, qPrintable(shown));
        if (fits == text) {
            QCOMPARE(shown, text);
            return;
        }
        // Every name is cut in its middle (a start and an end of it kept), nothing else is.
        QStringList fixed;
        qsizetype at = 0;
        for (const QString& n : names) {
            const qsizetype found = text.indexOf(n, at);
            fixed << text.mid(at, found - at);
            at = found + n.size();
        }
        fixed << text.mid(at);
        qsizetype pos = 0;
        for (qsizetype i = 0; i < names.size(); ++i) {
            QVERIFY2(shown.mid(pos).startsWith(fixed[i]), qPrintable(shown));
            pos += fixed[i].size();
            const qsizetype ellipsis = shown.indexOf(QChar(0x2026), pos);
            QVERIFY2(ellipsis > pos && names[i].startsWith(shown.mid(pos, ellipsis - pos)),
                     qPrintable(shown));
            const qsizetype next = i + 1 < names.size() ? shown.indexOf(fixed[i + 1], ellipsis + 1)
                                                        : shown.size() - fixed.last().size();
            QVERIFY2(next > ellipsis + 1
                         && names[i].endsWith(shown.mid(ellipsis + 1, next - ellipsis - 1)),
                     qPrintable(shown));
            pos = next;
        }
        QCOMPARE(shown.mid(pos), fixed.last());
        // Too narrow for even that: the whole text, elided in its middle.
        const QString tiny = ui::DeadLetterDelegate::fitText(text, names, metrics, 30);
        QVERIFY(metrics.horizontalAdvance(tiny) <= 30);
    }
};

QTEST_MAIN(ViewsTest)
#include "views_test.moc"
