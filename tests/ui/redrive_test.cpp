// DLQ redrive from the window: start a move task back to the origin or to a chosen queue at a
// chosen rate (engine time), watch its progress, cancel it.

#include "ui/dialogs/redrive_dialog.h"
#include "ui/models/timeline_model.h"
#include "ui/widgets/message_inspector.h"
#include "window_test_support.h"

#include <QCheckBox>
#include <QComboBox>
#include <QProgressBar>
#include <QRadioButton>
#include <QSpinBox>
#include <QTreeWidget>

using namespace inflight;
using namespace inflight::ui::test;

namespace {

// orders → orders-dlq with maxReceiveCount 1 and `count` messages moved there by receives.
void fillDeadLetters(WindowFixture& f, int count)
{
    f.createQueue("orders-dlq");
    f.createQueue("orders", {{"RedrivePolicy", f.redrivePolicy("orders-dlq", 1)}});
    f.createQueue("elsewhere");
    for (int i = 0; i < count; ++i)
        f.send("orders", "m" + std::to_string(i));
    f.receive("orders", 10, 0); // each once, visible again at once
    f.receive("orders", 10, 0); // each moved to the DLQ instead
    QCOMPARE(f.stats("orders-dlq").available, count);
}

} // namespace

class RedriveTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    void redriveActionIsForDeadLetterQueuesOnly()
    {
        WindowFixture f;
        fillDeadLetters(f, 2);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("orders")));
        QVERIFY(!w.action(QStringLiteral("redriveAction"))->isEnabled());
        QVERIFY(w.selectQueue(QStringLiteral("orders-dlq")));
        QVERIFY(w.action(QStringLiteral("redriveAction"))->isEnabled());
    }

    void moveBackToTheOriginAtAChosenRateAndWatchTheProgress()
    {
        WindowFixture f;
        fillDeadLetters(f, 6);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("orders-dlq")));
        click(&w, QStringLiteral("redriveButton"));
        ui::RedriveDialog* dialog = w.redriveDialog();
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY(child<QRadioButton>(dialog, QStringLiteral("originRadio"))->isChecked());
        child<QCheckBox>(dialog, QStringLiteral("rateCheck"))->setChecked(true);
        child<QSpinBox>(dialog, QStringLiteral("rateSpin"))->setValue(2);
        click(dialog, QStringLiteral("startButton"));
        QVERIFY2(dialog->errorText().isEmpty(), qPrintable(dialog->errorText()));
        QVERIFY(dialog->hasRunningTask());
        auto* progress = child<QProgressBar>(dialog, QStringLiteral("moveProgress"));
        QCOMPARE(progress->maximum(), 6);

        f.step(1'000); // 2 per second of engine time (the first at once)
        const int movedAfterOneSecond = f.stats("orders").available;
        QVERIFY(movedAfterOneSecond >= 2 && movedAfterOneSecond <= 3);
        QTRY_COMPARE(progress->value(), movedAfterOneSecond);
        f.step(5'000);
        QCOMPARE(f.stats("orders").available, 6);
        QCOMPARE(f.stats("orders-dlq").available, 0);
        QTRY_VERIFY(!dialog->hasRunningTask());
        QCOMPARE(progress->value(), 6);
        QVERIFY(dialog->progressText().contains(QStringLiteral("COMPLETED")));
        auto* tasks = child<QTreeWidget>(dialog, QStringLiteral("tasksTree"));
        QCOMPARE(tasks->topLevelItem(0)->text(2), QStringLiteral("origin"));
        QCOMPARE(tasks->topLevelItem(0)->text(3), QStringLiteral("2/s"));
        // The window shows the messages back in orders.
        QVERIFY(w.selectQueue(QStringLiteral("orders")));
        QCOMPARE(shownMessageIds(w).size(), 6);
    }

    // The open destination follows the task's moves as they happen (each move event carries the
    // message's key there), and a moved message's timeline starts with where it came from.
    void theOpenDestinationFollowsTheMovesAndTheirTimelines()
    {
        WindowFixture f;
        fillDeadLetters(f, 3);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("orders")));
        QCOMPARE(shownMessageIds(w).size(), 0);
        auto task = f.broker().startMessageMoveTask(
            {.sourceArn = f.broker().arnForName("orders-dlq"), .origin = "window"});
        QVERIFY(task.ok());
        f.step(1'000);
        QTRY_COMPARE(shownMessageIds(w).size(), 3); // without selecting the queue again
        const QString moved = shownMessageIds(w).front();
        clickMessage(w, moved.toStdString());
        const QAbstractItemModel* timeline = w.inspector()->timelineModel();
        QTRY_VERIFY(timeline->rowCount() >= 1);
        QCOMPARE(timeline->index(0, ui::TimelineModel::KindColumn).data().toString(),
                 QStringLiteral("sent"));
        QCOMPARE(timeline->index(0, ui::TimelineModel::QueueColumn).data().toString(),
                 QStringLiteral("orders"));
        QCOMPARE(timeline->index(0, ui::TimelineModel::DetailColumn).data().toString(),
                 QStringLiteral("moved from orders-dlq"));
    }

    void moveToAChosenQueueAndCancel()
    {
        WindowFixture f;
        fillDeadLetters(f, 8);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("orders-dlq")));
        w.action(QStringLiteral("redriveAction"))->trigger();
        ui::RedriveDialog* dialog = w.redriveDialog();
        QVERIFY(dialog);
        child<QRadioButton>(dialog, QStringLiteral("queueRadio"))->setChecked(true);
        child<QComboBox>(dialog, QStringLiteral("destinationCombo"))
            ->setCurrentText(QStringLiteral("elsewhere"));
        dialog->setRate(1);
        click(dialog, QStringLiteral("startButton"));
        f.step(2'000);
        const int moved = f.stats("elsewhere").available;
        QVERIFY(moved >= 2 && moved < 8);
        click(dialog, QStringLiteral("cancelTaskButton"));
        QVERIFY(!dialog->hasRunningTask());
        f.step(10'000);
        QCOMPARE(f.stats("elsewhere").available, moved);
        QCOMPARE(f.stats("orders-dlq").available, 8 - moved);
        QCOMPARE(child<QTreeWidget>(dialog, QStringLiteral("tasksTree"))->topLevelItem(0)->text(0),
                 QStringLiteral("CANCELLED"));
        QCOMPARE(f.stats("orders").available, 0);
    }

    void aRefusedTaskShowsTheServiceError()
    {
        WindowFixture f;
        f.createQueue("plain");
        ui::RedriveDialog dialog(f.session, QStringLiteral("plain"));
        dialog.show();
        click(&dialog, QStringLiteral("startButton"));
        QVERIFY2(!dialog.errorText().isEmpty(), "a queue that is no DLQ cannot be redriven");
        QVERIFY(dialog.errorText().contains(QLatin1Char(':')));
    }
};

QTEST_MAIN(RedriveTest)
#include "redrive_test.moc"
