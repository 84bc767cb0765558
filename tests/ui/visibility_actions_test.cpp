// Acting on in-flight messages in the real window, one or several at a time, with the receipt
// from peek: extend +30 s, extend by any value, release, change to an exact value, delete; the
// engine's refusals (the 12-hour cap) shown where the user acted.

#include "ui/dialogs/visibility_dialog.h"
#include "window_test_support.h"

#include <QRadioButton>
#include <QSpinBox>

using namespace inflight;
using namespace inflight::ui::test;

class VisibilityActionsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    // Issue 37, item 6: a notice that appears moves nothing the user is about to click — not
    // the table's header, not its rows, not the queue list.
    void aNoticeMovesNoRowAndNoHeader()
    {
        WindowFixture f;
        f.createQueue("q");
        const std::string id = f.send("q", "a");
        f.send("q", "b");
        f.receive("q", 1, 40);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        clickMessage(w, id);
        flush();
        const auto where = [&w](QWidget* widget) { return widget->mapTo(&w, QPoint(0, 0)); };
        const QPoint header = where(w.messageView()->horizontalHeader());
        const QRect firstRow = w.messageView()->visualRect(w.messageView()->model()->index(0, 0));
        const QPoint queues = where(w.queueView());
        QVERIFY(!w.messageNotice()->isVisible());

        click(&w, QStringLiteral("extendButton"));
        flush();
        QVERIFY(w.messageNotice()->isVisible());
        QCOMPARE(where(w.messageView()->horizontalHeader()), header);
        QCOMPARE(w.messageView()->visualRect(w.messageView()->model()->index(0, 0)), firstRow);
        w.queueNotice()->showError(QStringLiteral("QueueDoesNotExist: a long reason"));
        flush();
        QCOMPARE(where(w.queueView()), queues);
    }

    void extendAddsThirtySecondsToWhatTheReceiptHolds()
    {
        WindowFixture f;
        f.createQueue("q");
        const std::string id = f.send("q", "a");
        f.receive("q", 1, 40);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        f.step(10'000); // 30 s left
        QVERIFY(!w.action(QStringLiteral("extendAction"))->isEnabled());
        clickMessage(w, id);
        QVERIFY(w.action(QStringLiteral("extendAction"))->isEnabled());

        click(&w, QStringLiteral("extendButton"));
        QCOMPARE(f.peekId("q", id).visibleAt, kStart + 10'000 + 60'000);
        QCOMPARE(w.messageNotice()->kind(), ui::NoticeBar::Kind::Info);
        QVERIFY(w.messageNotice()->text().startsWith(QStringLiteral("Extended 1 message")));
        flush();
        QCOMPARE(shownCell(w, QString::fromStdString(id), ui::MessageTableModel::VisibilityColumn,
                           ui::MessageTableModel::DeadlineRole)
                     .toLongLong(),
                 kStart + 70'000);
    }

    void releaseMakesSeveralSelectedMessagesAvailableAtOnce()
    {
        WindowFixture f;
        f.createQueue("q");
        const std::string a = f.send("q", "a");
        const std::string b = f.send("q", "b");
        const std::string c = f.send("q", "c");
        f.receive("q", 2, 300);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        clickMessage(w, a);
        clickMessage(w, b, Qt::ControlModifier);
        clickMessage(w, c, Qt::ControlModifier); // available: skipped, and said so
        QCOMPARE(w.selectedMessageIds().size(), 3);

        click(&w, QStringLiteral("releaseButton"));
        QCOMPARE(f.peekId("q", a).state, engine::MessageState::Available);
        QCOMPARE(f.peekId("q", b).state, engine::MessageState::Available);
        QCOMPARE(f.stats("q").inFlight, 0);
        QVERIFY(w.messageNotice()->text().contains(QStringLiteral("Released 2 messages")));
        QVERIFY(w.messageNotice()->text().contains(QStringLiteral("1 selected message not in "
                                                                  "flight: skipped")));
        flush();
        QCOMPARE(shownState(w, a), QStringLiteral("Available"));
        QCOMPARE(shownState(w, b), QStringLiteral("Available"));
        // Nothing in flight is selected any more: the actions are off.
        QVERIFY(!w.action(QStringLiteral("releaseAction"))->isEnabled());
    }

    void changeVisibilityToAnExactValueOrExtendByAnyValue()
    {
        WindowFixture f;
        f.createQueue("q");
        const std::string id = f.send("q", "a");
        f.receive("q", 1, 30);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        clickMessage(w, id);

        click(&w, QStringLiteral("changeVisibilityButton"));
        auto dialog = openedDialog<ui::VisibilityDialog>(&w);
        QVERIFY(dialog);
        child<QRadioButton>(dialog, QStringLiteral("setRadio"))->setChecked(true);
        child<QSpinBox>(dialog, QStringLiteral("secondsSpin"))->setValue(100);
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(!dialog || !dialog->isVisible());
        QCOMPARE(f.peekId("q", id).visibleAt, kStart + 100'000);

        f.step(40'000); // 60 s left; extend by 25 ⇒ 85 s from now
        clickMessage(w, id);
        click(&w, QStringLiteral("changeVisibilityButton"));
        dialog = openedDialog<ui::VisibilityDialog>(&w);
        child<QRadioButton>(dialog, QStringLiteral("extendRadio"))->setChecked(true);
        child<QSpinBox>(dialog, QStringLiteral("secondsSpin"))->setValue(25);
        click(dialog, QStringLiteral("okButton"));
        QCOMPARE(f.peekId("q", id).visibleAt, kStart + 40'000 + 85'000);

        // 43201 typed stays 43201 (not 4320) and is refused in words; nothing changes.
        clickMessage(w, id);
        click(&w, QStringLiteral("changeVisibilityButton"));
        dialog = openedDialog<ui::VisibilityDialog>(&w);
        child<QRadioButton>(dialog, QStringLiteral("setRadio"))->setChecked(true);
        auto* seconds = child<QSpinBox>(dialog, QStringLiteral("secondsSpin"));
        seconds->setFocus();
        seconds->selectAll();
        QTest::keyClicks(seconds, QStringLiteral("43201"));
        seconds->interpretText();
        QCOMPARE(seconds->value(), 43201);
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(
            dialog->errorText(),
            QStringLiteral("Visibility timeout: 0 s to 43,200 s (12 h); 43,201 is past that."));
        QCOMPARE(f.peekId("q", id).visibleAt, kStart + 40'000 + 85'000);
    }

    void beyondTwelveHoursTheServiceErrorShowsInTheDialog()
    {
        WindowFixture f;
        f.createQueue("q");
        const std::string id = f.send("q", "a");
        f.receive("q", 1, 60);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        f.step(3'600'000); // an hour after the receive (visible again; receive again to hold it)
        f.receive("q", 1, 60);
        f.step(60'000 - 1);
        clickMessage(w, id);
        click(&w, QStringLiteral("changeVisibilityButton"));
        auto dialog = openedDialog<ui::VisibilityDialog>(&w);
        QVERIFY(dialog);
        child<QRadioButton>(dialog, QStringLiteral("setRadio"))->setChecked(true);
        child<QSpinBox>(dialog, QStringLiteral("secondsSpin"))->setValue(43200);
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(dialog->isVisible());
        QVERIFY2(dialog->errorText().contains(QStringLiteral("InvalidParameterValue: ")),
                 qPrintable(dialog->errorText()));
        QVERIFY2(dialog->errorText().contains(QStringLiteral("beyond the limit [43200 seconds]")),
                 qPrintable(dialog->errorText()));
        // Nothing changed.
        QCOMPARE(f.peekId("q", id).visibleAt, kStart + 3'600'000 + 60'000);
    }

    void extendPastTheCapShowsTheErrorInTheNoticeNextToTheTable()
    {
        WindowFixture f;
        f.createQueue("q");
        const std::string id = f.send("q", "a");
        f.receive("q", 1, 43200);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        clickMessage(w, id);
        click(&w, QStringLiteral("extendButton"));
        QCOMPARE(w.messageNotice()->kind(), ui::NoticeBar::Kind::Error);
        QVERIFY2(w.messageNotice()->text().contains(QStringLiteral("InvalidParameterValue: ")),
                 qPrintable(w.messageNotice()->text()));
        QCOMPARE(f.peekId("q", id).visibleAt, kStart + 43'200'000);
    }

    void deleteRemovesTheSelectedInFlightMessagesByTheirPeekedReceipts()
    {
        WindowFixture f;
        f.createQueue("q");
        const std::string a = f.send("q", "a");
        const std::string b = f.send("q", "b");
        f.send("q", "c");
        f.receive("q", 2, 60);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        clickMessage(w, a);
        clickMessage(w, b, Qt::ShiftModifier);
        click(&w, QStringLiteral("deleteMessageButton"));
        QCOMPARE(f.stats("q").inFlight, 0);
        QCOMPARE(f.stats("q").available, 1);
        QCOMPARE(f.stats("q").deleted, 2);
        flush();
        QCOMPARE(shownMessageIds(w).size(), 1);
        QVERIFY(w.messageNotice()->text().startsWith(QStringLiteral("Deleted 2 messages")));
    }

    void theDeleteKeyDeletesWhenTheTableHasTheFocus()
    {
        WindowFixture f;
        f.createQueue("q");
        const std::string a = f.send("q", "a");
        f.receive("q", 1, 60);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        clickMessage(w, a);
        w.messageView()->setFocus();
        QTest::keyClick(w.messageView(), Qt::Key_Delete);
        flush();
        QCOMPARE(f.stats("q").deleted, 1);
    }
};

QTEST_MAIN(VisibilityActionsTest)
#include "visibility_actions_test.moc"
