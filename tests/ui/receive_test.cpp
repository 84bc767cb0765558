// Receiving through the real window: a real receive that counts toward maxReceiveCount and says
// so; long polls that show they wait, can be cancelled, are answered by a send, and never block
// the event loop.

#include "ui/dialogs/receive_dialog.h"
#include "ui/dialogs/send_dialog.h"
#include "window_test_support.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>

using namespace inflight;
using namespace inflight::ui::test;

namespace {

QStringList resultColumn(ui::ReceiveDialog* dialog, int column)
{
    QStringList values;
    auto* tree = dialog->findChild<QTreeWidget*>(QStringLiteral("resultsTree"));
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        values << tree->topLevelItem(i)->text(column);
    return values;
}

} // namespace

class ReceiveTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    void receiveCountsTowardMaxReceiveCountAndSaysSo()
    {
        WindowFixture f;
        f.createQueue("orders-dlq");
        f.createQueue("orders", {{"RedrivePolicy", f.redrivePolicy("orders-dlq", 2)}});
        const std::string id = f.send("orders", "{\"order\": 1}");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("orders")));

        click(&w, QStringLiteral("receiveButton"));
        ui::ReceiveDialog* dialog = w.receiveDialog();
        QVERIFY(dialog && dialog->isVisible());
        const QString note = child<QLabel>(dialog, QStringLiteral("countNoteLabel"))->text();
        QVERIFY2(note.contains(QStringLiteral("maxReceiveCount")), qPrintable(note));
        QVERIFY(note.contains(QStringLiteral("orders-dlq")));
        QVERIFY(note.contains(QStringLiteral("received 2 times")));

        // Visibility 0: the message is visible again at once, so each click receives it again.
        child<QSpinBox>(dialog, QStringLiteral("visibilitySpin"))->setValue(0);
        click(dialog, QStringLiteral("receiveButton"));
        QCOMPARE(f.peekId("orders", id).receiveCount, 1u);
        QCOMPARE(dialog->receivedIds(), QStringList{QString::fromStdString(id)});
        QCOMPARE(resultColumn(dialog, 1), QStringList{QStringLiteral("1")});
        QVERIFY(!resultColumn(dialog, 3).front().isEmpty()); // the receipt handle

        click(dialog, QStringLiteral("receiveButton"));
        QCOMPARE(f.peekId("orders", id).receiveCount, 2u);

        // The third receive moves it to the DLQ instead, and the dialog shows that.
        click(dialog, QStringLiteral("receiveButton"));
        flush();
        QCOMPARE(f.stats("orders").available, 0);
        QCOMPARE(f.stats("orders-dlq").available, 1);
        QVERIFY(dialog->receivedIds().isEmpty());
        QCOMPARE(resultColumn(dialog, 0), QStringList{QString::fromStdString(id)});
        QCOMPARE(resultColumn(dialog, 2), QStringList{QStringLiteral("moved to orders-dlq")});
        QVERIFY(shownMessageIds(w).isEmpty());
    }

    void receivedMessagesShowInFlightWithTheirReceiptAndAreSelected()
    {
        WindowFixture f;
        f.createQueue("q");
        const std::string a = f.send("q", "a");
        const std::string b = f.send("q", "b");
        f.send("q", "c");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        w.action(QStringLiteral("receiveAction"))->trigger();
        ui::ReceiveDialog* dialog = w.receiveDialog();
        QVERIFY(dialog);
        dialog->setMaxMessages(2);
        dialog->setVisibilityTimeout(45);
        click(dialog, QStringLiteral("receiveButton"));
        flush();
        const engine::MessageView va = f.peekId("q", a);
        QCOMPARE(va.state, engine::MessageState::InFlight);
        QCOMPARE(va.visibleAt, kStart + 45'000);
        QCOMPARE(resultColumn(dialog, 3).front(), QString::fromStdString(va.receiptHandle));
        QCOMPARE(shownState(w, a), QStringLiteral("In flight"));
        QCOMPARE(shownState(w, b), QStringLiteral("In flight"));
        QCOMPARE(w.selectedMessageIds(),
                 (QStringList{QString::fromStdString(a), QString::fromStdString(b)}));
    }

    void longPollShowsWaitingKeepsTheEventLoopRunningAndCanBeCancelled()
    {
        WindowFixture f;
        f.createQueue("empty");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("empty")));
        click(&w, QStringLiteral("receiveButton"));
        ui::ReceiveDialog* dialog = w.receiveDialog();
        QVERIFY(dialog);
        dialog->setWaitTime(20);
        f.session.resume(); // real engine time: the wait would end by itself after 20 s
        click(dialog, QStringLiteral("receiveButton"));

        QVERIFY(dialog->isWaiting());
        QCOMPARE(f.broker().pendingWaits(), std::size_t(1));
        QVERIFY(dialog->statusText().startsWith(QStringLiteral("Waiting for a message")));
        QVERIFY(child<QPushButton>(dialog, QStringLiteral("cancelReceiveButton"))->isEnabled());
        QVERIFY(!child<QPushButton>(dialog, QStringLiteral("receiveButton"))->isEnabled());
        QVERIFY(child<QLabel>(&w, QStringLiteral("waitStatusLabel"))->isVisible());
        QVERIFY(child<QProgressBar>(&w, QStringLiteral("waitStatusProgress"))->isVisible());

        // The window is not blocked: timers fire and the progress moves while it waits.
        int ticks = 0;
        QTimer timer;
        connect(&timer, &QTimer::timeout, [&ticks] { ++ticks; });
        timer.start(5);
        auto* progress = child<QProgressBar>(dialog, QStringLiteral("waitProgress"));
        QTRY_VERIFY_WITH_TIMEOUT(progress->value() > 0, 2000);
        QTRY_VERIFY(ticks >= 5);
        QVERIFY(dialog->isWaiting());

        click(dialog, QStringLiteral("cancelReceiveButton"));
        QTRY_VERIFY(!dialog->isWaiting());
        QVERIFY(dialog->statusText().startsWith(QStringLiteral("Cancelled")));
        QCOMPARE(f.broker().pendingWaits(), std::size_t(0));
        QVERIFY(!child<QLabel>(&w, QStringLiteral("waitStatusLabel"))->isVisible());
        QVERIFY(dialog->receivedIds().isEmpty());
    }

    void aSendFromTheWindowAnswersAWaitingReceive()
    {
        WindowFixture f;
        f.createQueue("jobs");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("jobs")));
        click(&w, QStringLiteral("receiveButton"));
        ui::ReceiveDialog* dialog = w.receiveDialog();
        dialog->setWaitTime(20);
        click(dialog, QStringLiteral("receiveButton"));
        QVERIFY(dialog->isWaiting());

        // The dialog is not modal: the window's own Send answers the wait.
        click(&w, QStringLiteral("sendButton"));
        auto send = openedDialog<ui::SendDialog>(&w);
        QVERIFY(send);
        child<QPlainTextEdit>(send, QStringLiteral("bodyEdit"))->setPlainText(QStringLiteral("hi"));
        click(send, QStringLiteral("sendButton"));
        QTRY_VERIFY(!dialog->isWaiting());
        QCOMPARE(dialog->receivedIds().size(), 1);
        const std::string id = dialog->receivedIds().front().toStdString();
        QCOMPARE(f.peekId("jobs", id).receiveCount, 1u);
        QCOMPARE(f.peekId("jobs", id).state, engine::MessageState::InFlight);
        flush();
        QCOMPARE(shownState(w, id), QStringLiteral("In flight"));
        QVERIFY(dialog->statusText().startsWith(QStringLiteral("Received 1 message")));
    }

    void aWaitEndsEmptyAtItsDeadlineInEngineTime()
    {
        WindowFixture f;
        f.createQueue("quiet");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("quiet")));
        w.action(QStringLiteral("receiveAction"))->trigger();
        ui::ReceiveDialog* dialog = w.receiveDialog();
        dialog->setWaitTime(5);
        click(dialog, QStringLiteral("receiveButton"));
        QVERIFY(dialog->isWaiting());
        f.step(4'000);
        QVERIFY(dialog->isWaiting()); // paused engine time: only the steps count
        f.step(1'000);
        QTRY_VERIFY(!dialog->isWaiting());
        QVERIFY(dialog->statusText().startsWith(QStringLiteral("No message")));
    }

    void closingTheDialogCancelsItsWait()
    {
        WindowFixture f;
        f.createQueue("quiet");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("quiet")));
        w.action(QStringLiteral("receiveAction"))->trigger();
        ui::ReceiveDialog* dialog = w.receiveDialog();
        dialog->setWaitTime(20);
        click(dialog, QStringLiteral("receiveButton"));
        QCOMPARE(f.broker().pendingWaits(), std::size_t(1));
        click(dialog, QStringLiteral("closeButton"));
        QTRY_COMPARE(f.broker().pendingWaits(), std::size_t(0));
        QVERIFY(!dialog || !dialog->isVisible());
        // A message sent now stays available: nobody is waiting for it any more.
        f.send("quiet", "late");
        flush();
        QCOMPARE(f.stats("quiet").available, 1);
    }

    void destroyingTheDialogWhileWaitingIsSafe()
    {
        WindowFixture f;
        f.createQueue("quiet");
        auto* dialog = new ui::ReceiveDialog(f.session, QStringLiteral("quiet"));
        dialog->setWaitTime(20);
        dialog->startReceive();
        QVERIFY(dialog->isWaiting());
        delete dialog;
        flush();
        QCOMPARE(f.broker().pendingWaits(), std::size_t(0));
        f.send("quiet", "x");
        flush();
        QCOMPARE(f.stats("quiet").available, 1);
    }

    void anEngineErrorShowsInTheDialog()
    {
        WindowFixture f;
        f.createQueue("gone");
        ui::ReceiveDialog dialog(f.session, QStringLiteral("gone"));
        dialog.show();
        QVERIFY(f.broker().deleteQueue("gone", "test").ok());
        click(&dialog, QStringLiteral("receiveButton"));
        QVERIFY2(dialog.errorText().startsWith(QStringLiteral("QueueDoesNotExist: ")),
                 qPrintable(dialog.errorText()));
    }
};

QTEST_MAIN(ReceiveTest)
#include "receive_test.moc"
