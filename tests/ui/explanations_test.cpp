// The reason behind what the window shows: a FIFO message behind its group's in-flight head reads
// "Blocked" with the head named, the inspector says why a message is where it is (the receive whose
// visibility ran out, the receives left before the DLQ), the window's own empty receive says why,
// and an OCI queue reads with OCI's names and numeric ids.

#include "engine/oci_ids.h"
#include "ui/dialogs/receive_dialog.h"
#include "ui/models/message_filter_model.h"
#include "ui/models/message_table_model.h"
#include "ui/models/timeline_model.h"
#include "ui/widgets/groups_view.h"
#include "ui/widgets/message_inspector.h"
#include "window_test_support.h"

#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QTabWidget>

using namespace inflight;
using namespace inflight::ui::test;

class ExplanationsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { isolateSettings(); }

    void fifoMessagesBehindAHeldHeadReadBlocked()
    {
        WindowFixture f;
        f.createQueue("jobs.fifo", {{"FifoQueue", "true"}});
        const std::string head = f.send("jobs.fifo", "first", "g1");
        const std::string behind = f.send("jobs.fifo", "second", "g1");
        const std::string free = f.send("jobs.fifo", "other", "g2");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("jobs.fifo")));
        QCOMPARE(shownState(w, behind), QStringLiteral("Available"));
        f.receive("jobs.fifo", 1); // the head of g1
        flush();
        w.messageModel()->updateBlocked(); // what the 4 Hz refresh does
        QCOMPARE(shownState(w, head), QStringLiteral("In flight"));
        QCOMPARE(shownState(w, behind), QStringLiteral("Blocked"));
        QCOMPARE(shownState(w, free), QStringLiteral("Available"));
        ui::MessageTableModel* model = w.messageModel();
        const int row = model->rowOfMessageId(QString::fromStdString(behind));
        const QString why = model->index(row, ui::MessageTableModel::StateColumn)
                                .data(Qt::ToolTipRole)
                                .toString();
        QVERIFY2(why.contains(QString::fromStdString(head).left(8)), qPrintable(why));
        // The head deleted: the group moves on.
        const auto view = f.peekId("jobs.fifo", head);
        QVERIFY(f.broker().deleteMessage("jobs.fifo", view.receiptHandle, "window").ok());
        flush();
        model->updateBlocked();
        QCOMPARE(shownState(w, behind), QStringLiteral("Available"));
    }

    void theInspectorSaysWhyAMessageIsWhereItIs()
    {
        WindowFixture f;
        f.createQueueWithDeadLetters("orders", "orders-dlq", 2);
        const std::string id = f.send("orders", "order 1");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("orders")));
        f.receive("orders", 1, 30);
        f.step(31'000); // its visibility timeout runs out
        clickMessage(w, id);
        auto* why = child<QLabel>(w.inspector(), QStringLiteral("explanationLabel"));
        QVERIFY(why->isVisibleTo(w.inspector()));
        QVERIFY2(why->text().contains(QStringLiteral("receive #1")), qPrintable(why->text()));
        QVERIFY2(why->text().contains(QStringLiteral("orders-dlq")), qPrintable(why->text()));

        // Issue 37: said once, names in quotes (not backticks), a far deadline with its date.
        f.receive("orders", 1, 30);
        flush();
        w.inspector()->refresh();
        auto* state = child<QLabel>(w.inspector(), QStringLiteral("stateLabel"));
        QCOMPARE(state->text(), QStringLiteral("In flight"));
        QVERIFY2(why->text().startsWith(QStringLiteral("In flight until ")),
                 qPrintable(why->text()));
        QVERIFY2(!why->text().contains(QLatin1Char('`')), qPrintable(why->text()));
        QVERIFY2(why->text().contains(QStringLiteral("“orders-dlq”")), qPrintable(why->text()));
        QVERIFY2(why->text().contains(QRegularExpression(
                     QStringLiteral(R"(retained until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})"))),
                 qPrintable(why->text()));
    }

    void theWindowsEmptyReceiveSaysWhy()
    {
        WindowFixture f;
        f.createQueue("work");
        f.send("work", "busy");
        f.receive("work", 1, 30);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("work")));
        w.action(QStringLiteral("receiveAction"))->trigger();
        QPointer<ui::ReceiveDialog> dialog = w.receiveDialog();
        QVERIFY(dialog);
        click(dialog, QStringLiteral("receiveButton"));
        QTRY_VERIFY(child<QLabel>(dialog, QStringLiteral("statusLabel"))
                        ->text()
                        .contains(QStringLiteral("in flight")));
    }

    void ociQueuesReadAsOci()
    {
        WindowFixture f;
        f.createQueue("telemetry", {}, true);
        const std::string id = f.send("telemetry", "reading");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("telemetry")));
        ui::MessageTableModel* model = w.messageModel();
        QCOMPARE(
            model->headerData(ui::MessageTableModel::ReceivesColumn, Qt::Horizontal).toString(),
            QStringLiteral("deliveryCount"));
        QCOMPARE(model->headerData(ui::MessageTableModel::GroupColumn, Qt::Horizontal).toString(),
                 QStringLiteral("channel"));
        const QString number = QString::number(engine::ociMessageNumber(id));
        QCOMPARE(model->index(0, ui::MessageTableModel::MessageIdColumn).data().toString(), number);
        // The numeric id finds it.
        auto* filter = child<QLineEdit>(&w, QStringLiteral("textFilterEdit"));
        filter->setText(number.left(6));
        QCOMPARE(w.messageFilter()->rowCount(), 1);
        filter->clear();
        clickMessage(w, id);
        QVERIFY(child<QLabel>(w.inspector(), QStringLiteral("inspectorTitle"))
                    ->text()
                    .startsWith(QStringLiteral("id ") + number));
        QVERIFY(!w.inspector()->detail(QStringLiteral("deliveryCount")).isEmpty());
        QCOMPARE(w.tabs()->tabText(w.tabs()->indexOf(w.groups())), QStringLiteral("Channels"));
    }
};

QTEST_MAIN(ExplanationsTest)
#include "explanations_test.moc"
