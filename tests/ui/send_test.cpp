// Sending through the real window: one message with body, attributes, delay, group, dedup id or
// channel, and N generated messages; errors inline in the dialog.

#include "ui/dialogs/generate_dialog.h"
#include "ui/dialogs/send_dialog.h"
#include "ui/widgets/message_inspector.h"
#include "window_test_support.h"

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTableWidget>
#include <QTextBlock>

using namespace inflight;
using namespace inflight::ui::test;

class SendTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    // Issue 37, item 10 (and the stall of issue 36): a pasted 1 MB body is held, not laid out —
    // the editor keeps its start — and sent whole; the inspector shows a 1 MB body's start at
    // once, all of it on demand in lines laid out one at a time.
    void aOneMegabyteBodyIsPastedSentAndShownWithoutLayingItOut()
    {
        WindowFixture f;
        f.createQueue("orders", {{"MaximumMessageSize", "1048576"}});
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("orders")));
        click(&w, QStringLiteral("sendButton"));
        auto dialog = openedDialog<ui::SendDialog>(&w);
        QVERIFY(dialog);
        auto* editor = child<QPlainTextEdit>(dialog, QStringLiteral("bodyEdit"));
        const QString big
            = QStringLiteral("x").repeated(1024 * 1024 - 10) + QStringLiteral("0123456789");
        QApplication::clipboard()->setText(big);
        editor->setFocus();
        editor->selectAll();
        QTest::keyClick(editor, Qt::Key_V, Qt::ControlModifier);
        // Held whole, shown in part: the editor holds its start, not a 1 MB paragraph.
        QVERIFY(editor->document()->characterCount() < 20'000);
        QVERIFY(child<QWidget>(dialog, QStringLiteral("largeBodyBar"))->isVisible());
        QVERIFY2(child<QLabel>(dialog, QStringLiteral("largeBodyNote"))
                     ->text()
                     .startsWith(QStringLiteral("A 1")),
                 qPrintable(child<QLabel>(dialog, QStringLiteral("largeBodyNote"))->text()));
        click(dialog, QStringLiteral("sendButton"));
        QVERIFY2(dialog->errorText().isEmpty(), qPrintable(dialog->errorText()));
        const std::vector<engine::MessageView> messages = f.peek("orders");
        QCOMPARE(messages.size(), std::size_t(1));
        QCOMPARE(messages.front().body.size(), std::size_t(1024 * 1024));
        QVERIFY(messages.front().body.ends_with("0123456789"));
        dialog->close();

        // The inspector: its start at once, then all of it in lines of 4,096 characters.
        flush();
        QVERIFY(w.selectMessages({QString::fromStdString(messages.front().messageId)}) == 1);
        flush();
        auto* view = child<QPlainTextEdit>(w.inspector(), QStringLiteral("bodyView"));
        QVERIFY(view->document()->characterCount() < 20'000);
        QCOMPARE(w.inspector()->bodyText().size(), qsizetype(1024 * 1024));
        click(w.inspector(), QStringLiteral("showAllBodyButton"));
        QVERIFY(view->document()->blockCount() >= 256);
        for (QTextBlock b = view->document()->begin(); b.isValid(); b = b.next())
            QVERIFY(b.length() <= 4097);
    }

    void sendWithAttributesAndDelayShowsADelayedRow()
    {
        WindowFixture f;
        f.createQueue("orders");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("orders")));

        click(&w, QStringLiteral("sendButton"));
        auto dialog = openedDialog<ui::SendDialog>(&w);
        QVERIFY(dialog);
        auto* body = child<QPlainTextEdit>(dialog, QStringLiteral("bodyEdit"));
        body->setPlainText(QStringLiteral("{\"order\":42}"));
        click(dialog, QStringLiteral("addAttributeButton"));
        auto* table = child<QTableWidget>(dialog, QStringLiteral("attributesTable"));
        QCOMPARE(table->rowCount(), 1);
        table->item(0, 0)->setText(QStringLiteral("customer"));
        table->item(0, 2)->setText(QStringLiteral("ada"));
        dialog->addAttribute(QStringLiteral("priority"), QStringLiteral("Number"),
                             QStringLiteral("2"));
        child<QSpinBox>(dialog, QStringLiteral("delaySpin"))->setValue(20);
        click(dialog, QStringLiteral("sendButton"));
        QVERIFY2(dialog->errorText().isEmpty(), qPrintable(dialog->errorText()));
        QVERIFY(dialog->resultText().startsWith(QStringLiteral("Sent ")));
        QVERIFY(dialog->isVisible()); // stays open for the next send

        const std::vector<engine::MessageView> messages = f.peek("orders");
        QCOMPARE(messages.size(), std::size_t(1));
        const engine::MessageView& m = messages.front();
        QCOMPARE(m.body, std::string("{\"order\":42}"));
        QCOMPARE(m.state, engine::MessageState::Delayed);
        QCOMPARE(m.deliverAt, kStart + 20'000);
        QCOMPARE(m.attributes.at("customer").dataType, std::string("String"));
        QCOMPARE(m.attributes.at("customer").stringValue, std::string("ada"));
        QCOMPARE(m.attributes.at("priority").dataType, std::string("Number"));
        flush();
        QCOMPARE(shownMessageIds(w), QStringList{QString::fromStdString(m.messageId)});
        QCOMPARE(shownState(w, m.messageId), QStringLiteral("Delayed"));

        click(dialog, QStringLiteral("closeButton"));
        QVERIFY(!dialog || !dialog->isVisible());
    }

    void fifoSendNeedsAGroupAndADuplicateIsAcknowledgedNotEnqueued()
    {
        WindowFixture f;
        f.createQueue("pay.fifo", {{"FifoQueue", "true"}});
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("pay.fifo")));
        w.action(QStringLiteral("sendAction"))->trigger();
        auto dialog = openedDialog<ui::SendDialog>(&w);
        QVERIFY(dialog);
        QVERIFY(!child<QSpinBox>(dialog, QStringLiteral("delaySpin"))->isVisibleTo(dialog));
        child<QLineEdit>(dialog, QStringLiteral("dedupIdEdit"))->setText(QStringLiteral("d-1"));
        click(dialog, QStringLiteral("sendButton"));
        QVERIFY2(dialog->errorText().startsWith(QStringLiteral("MissingParameter: ")),
                 qPrintable(dialog->errorText()));
        QCOMPARE(f.stats("pay.fifo").available, 0);

        child<QLineEdit>(dialog, QStringLiteral("groupIdEdit"))->setText(QStringLiteral("g1"));
        click(dialog, QStringLiteral("sendButton"));
        QVERIFY(dialog->errorText().isEmpty());
        QCOMPARE(f.stats("pay.fifo").available, 1);
        click(dialog, QStringLiteral("sendButton"));
        QVERIFY(dialog->resultText().contains(QStringLiteral("not enqueued")));
        QCOMPARE(f.stats("pay.fifo").available, 1);
        const engine::MessageView m = f.peek("pay.fifo").front();
        QCOMPARE(m.groupId, std::string("g1"));
        QCOMPARE(m.deduplicationId, std::string("d-1"));
        flush();
        QCOMPARE(
            shownCell(w, QString::fromStdString(m.messageId), ui::MessageTableModel::GroupColumn),
            QStringLiteral("g1"));
    }

    void ociSendGoesToTheChosenChannel()
    {
        WindowFixture f;
        f.createQueue("telemetry", {}, true);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("telemetry")));
        w.action(QStringLiteral("sendAction"))->trigger();
        auto dialog = openedDialog<ui::SendDialog>(&w);
        QVERIFY(dialog);
        QVERIFY(!child<QLineEdit>(dialog, QStringLiteral("groupIdEdit"))->isVisibleTo(dialog));
        child<QLineEdit>(dialog, QStringLiteral("channelEdit"))->setText(QStringLiteral("eu"));
        click(dialog, QStringLiteral("sendButton"));
        QVERIFY2(dialog->errorText().isEmpty(), qPrintable(dialog->errorText()));
        QCOMPARE(f.peek("telemetry").front().channelId, std::string("eu"));
    }

    void formatJsonIndentsTheBodyAndRejectsWhatIsNotJson()
    {
        WindowFixture f;
        f.createQueue("q");
        ui::SendDialog dialog(f.session, QStringLiteral("q"));
        auto* body = child<QPlainTextEdit>(&dialog, QStringLiteral("bodyEdit"));
        body->setPlainText(QStringLiteral("{\"a\":1}"));
        click(&dialog, QStringLiteral("formatJsonButton"));
        QCOMPARE(body->toPlainText(), QStringLiteral("{\n    \"a\": 1\n}\n"));
        body->setPlainText(QStringLiteral("{oops"));
        click(&dialog, QStringLiteral("formatJsonButton"));
        QVERIFY(dialog.errorText().startsWith(QStringLiteral("Not JSON")));
    }

    void sendGeneratedSendsNMessagesOverGroups()
    {
        WindowFixture f;
        f.createQueue("load.fifo", {{"FifoQueue", "true"}});
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("load.fifo")));
        click(&w, QStringLiteral("sendGeneratedButton"));
        auto dialog = openedDialog<ui::GenerateDialog>(&w);
        QVERIFY(dialog);
        child<QSpinBox>(dialog, QStringLiteral("countSpin"))->setValue(30);
        child<QSpinBox>(dialog, QStringLiteral("groupCountSpin"))->setValue(3);
        click(dialog, QStringLiteral("okButton"));
        QCOMPARE(f.stats("load.fifo").available, 30);
        auto groups = f.broker().peekGroups("load.fifo");
        QCOMPARE(groups->size(), std::size_t(3));
        const engine::MessageView first = f.peek("load.fifo").front();
        QCOMPARE(first.body.substr(0, 8), std::string("{\"n\": 1,"));
        flush();
        QCOMPARE(shownMessageIds(w).size(), 30);
        QVERIFY(w.messageNotice()->text().contains(QStringLiteral("30")));
    }

    void sendGeneratedStopsAtTheFirstErrorAndSaysHowManyWereSent()
    {
        WindowFixture f;
        f.createQueue("small", {{"MaximumMessageSize", "1024"}});
        ui::GenerateDialog dialog(f.session, QStringLiteral("small"));
        dialog.setCount(5);
        child<QLineEdit>(&dialog, QStringLiteral("templateEdit"))
            ->setText(QStringLiteral("{n}") + QString(2000, QLatin1Char('x')));
        dialog.show();
        click(&dialog, QStringLiteral("okButton"));
        QVERIFY(dialog.isVisible());
        QVERIFY2(dialog.errorText().startsWith(QStringLiteral("Sent 0 of 5, then: ")),
                 qPrintable(dialog.errorText()));
        QCOMPARE(f.stats("small").available, 0);
    }
};

QTEST_MAIN(SendTest)
#include "send_test.moc"
