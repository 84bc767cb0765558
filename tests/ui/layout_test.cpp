// The window read at a glance (issue 14): the table keeps its room at 1280×800 whatever the
// inspector shows, every shortcut is unique, the toolbar does not move, clock and message actions
// are labelled apart, and one click receives one message.
#include "window_test_support.h"

#include "ui/models/queue_table_model.h"
#include "ui/widgets/elided_field.h"
#include "ui/widgets/message_inspector.h"
#include "ui/widgets/time_controls.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMap>
#include <QScreen>
#include <QSplitter>
#include <QStatusBar>
#include <QTest>
#include <QToolBar>

using namespace inflight;
using namespace inflight::ui::test;

class LayoutTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    void aLongDeduplicationIdLeavesTheTableHalfTheWindowAt1280x800()
    {
        WindowFixture f;
        f.createQueue("payments.fifo", {{"FifoQueue", "true"}});
        const std::string dedup(64, 'd');
        engine::SendMessageRequest request{.queue = "payments.fifo", .body = R"({"amount": 12})"};
        request.groupId = "customer-1";
        request.deduplicationId = dedup;
        request.origin = "window";
        const std::string id = f.broker().sendMessage(request)->messageId;
        ui::MainWindow& w = f.open();
        w.resize(1280, 800);
        flush();
        QVERIFY(w.selectQueue(QStringLiteral("payments.fifo")));
        flush();
        clickMessage(w, id);
        QTRY_COMPARE(w.inspector()->detail(QStringLiteral("Deduplication id")),
                     QString::fromStdString(dedup));
        flush();

        QTableView* table = w.messageView();
        QVERIFY2(table->width() >= w.width() / 2,
                 qPrintable(QStringLiteral("table %1 of %2").arg(table->width()).arg(w.width())));
        // The deduplication id is elided in the inspector, whole behind its copy button.
        for (auto* field : w.inspector()->findChildren<ui::ElidedField*>())
            if (field->text() == QString::fromStdString(dedup)) {
                QVERIFY(field->shownText() != field->text());
                QVERIFY(field->shownText().contains(QChar(0x2026)));
                auto* copy = field->findChild<QToolButton*>(QStringLiteral("copyFieldButton"));
                QVERIFY(copy && copy->isVisible());
            }
        // State, Receives and Body are on screen, in that order, without scrolling.
        const QHeaderView* header = table->horizontalHeader();
        int previous = -1;
        for (int column :
             {ui::MessageTableModel::StateColumn, ui::MessageTableModel::ReceivesColumn,
              ui::MessageTableModel::BodyColumn}) {
            QVERIFY(!table->isColumnHidden(column));
            const int x = header->sectionViewportPosition(column);
            QVERIFY2(x > previous && x < table->viewport()->width(),
                     qPrintable(QStringLiteral("column %1 at %2").arg(column).arg(x)));
            previous = x;
        }
        // Dragging the splitter back and forth, and resizing, keeps the table first.
        auto* splitter = child<QSplitter>(&w, QStringLiteral("messageSplitter"));
        splitter->setSizes({600, 600});
        flush();
        w.resize(1600, 1000);
        flush();
        w.resize(1280, 800);
        flush();
        QVERIFY(splitter->sizes().at(0) > 0);
        clickMessage(w, id); // the same message again: the inspector does not grow
        QVERIFY(w.inspector()->width() <= splitter->width() / 2 + 8);
    }

    void theWindowOpensWithinTheScreen()
    {
        WindowFixture f;
        f.createQueue("q");
        ui::MainWindow& w = f.open();
        const QRect screen = w.screen()->availableGeometry();
        // No page or dock asks for more than a 1280-wide screen has.
        QVERIFY2(w.minimumSizeHint().width() <= 1100,
                 qPrintable(QString::number(w.minimumSizeHint().width())));
        // Within the screen, or as small as the window can be on a screen smaller than 1280×800
        // (the tests' offscreen one is 800 wide).
        const QSize smallest = w.minimumSizeHint();
        QVERIFY2(w.width() <= std::max(screen.width(), smallest.width())
                     && w.height() <= std::max(screen.height(), smallest.height()),
                 qPrintable(QStringLiteral("%1×%2 on %3×%4")
                                .arg(w.width())
                                .arg(w.height())
                                .arg(screen.width())
                                .arg(screen.height())));
    }

    void everyShortcutIsUnique()
    {
        WindowFixture f;
        f.createQueue("q");
        ui::MainWindow& w = f.open();
        QMap<QString, QString> owners; // shortcut → the action's name
        QStringList clashes;
        QList<QAction*> actions = w.findChildren<QAction*>();
        for (QObject* other : w.findChildren<QObject*>())
            if (!other->isWidgetType())
                for (QAction* action : other->findChildren<QAction*>())
                    if (!actions.contains(action))
                        actions << action;
        int seen = 0;
        for (QAction* action : actions)
            for (const QKeySequence& key : action->shortcuts()) {
                if (key.isEmpty())
                    continue;
                ++seen;
                const QString text = key.toString(QKeySequence::PortableText);
                const QString name
                    = action->objectName().isEmpty() ? action->text() : action->objectName();
                if (owners.contains(text) && owners.value(text) != name)
                    clashes << QStringLiteral("%1: %2 and %3").arg(text, owners.value(text), name);
                owners.insert(text, name);
            }
        QVERIFY2(seen > 20, qPrintable(QString::number(seen)));
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QStringLiteral("; "))));
        QCOMPARE(w.action(QStringLiteral("newQueueAction"))->shortcut(),
                 QKeySequence(QStringLiteral("Ctrl+Shift+N")));
    }

    void clockAndMessageActionsAreLabelledApart()
    {
        WindowFixture f;
        f.createQueue("q");
        ui::MainWindow& w = f.open();
        QCOMPARE(w.action(QStringLiteral("step30sAction"))->text(), QStringLiteral("Clock +30 s"));
        QCOMPARE(w.action(QStringLiteral("extendAction"))->iconText(),
                 QStringLiteral("Extend +30 s"));
        auto* clockGroup = child<QLabel>(&w, QStringLiteral("clockGroupLabel"));
        QCOMPARE(clockGroup->text(), QStringLiteral("Clock"));
        auto* step = child<QToolButton>(&w, QStringLiteral("step30sButton"));
        QCOMPARE(step->text(), QStringLiteral("+30 s"));
        QVERIFY(clockGroup->x() < step->x()); // the label leads its steps
    }

    void theToolbarDoesNotMoveWhenPauseBecomesResumeOrTimeRuns()
    {
        WindowFixture f;
        f.createQueue("q");
        ui::MainWindow& w = f.open();
        auto* speed = child<QToolButton>(&w, QStringLiteral("speed1Button"));
        auto* run = child<QToolButton>(&w, QStringLiteral("runForButton"));
        const int speedX = speed->mapTo(&w, QPoint()).x();
        const int runX = run->mapTo(&w, QPoint()).x();
        QCOMPARE(w.action(QStringLiteral("pauseAction"))->text(), QStringLiteral("Resume"));
        click(&w, QStringLiteral("pauseButton"));
        QCOMPARE(w.action(QStringLiteral("pauseAction"))->text(), QStringLiteral("Pause"));
        click(&w, QStringLiteral("step5minButton")); // the clock's text changes, and its offset
        w.timeControls()->refresh();
        flush();
        QCOMPARE(speed->mapTo(&w, QPoint()).x(), speedX);
        QCOMPARE(run->mapTo(&w, QPoint()).x(), runX);
    }

    void theOffsetFromTheWallClockIsShownWhenItIsNotZero()
    {
        QCOMPARE(ui::TimeControls::offsetText(400), QString());
        QCOMPARE(ui::TimeControls::offsetText(150'000), QStringLiteral("2:30 ahead"));
        QCOMPARE(ui::TimeControls::offsetText(-3'605'000), QStringLiteral("1:00:05 behind"));
        QCOMPARE(ui::TimeControls::offsetText(3 * 86'400'000LL + 7'200'000),
                 QStringLiteral("3 d 2 h ahead"));
        WindowFixture f; // its engine time is fixed in 2023: far behind the wall clock
        f.createQueue("q");
        ui::MainWindow& w = f.open();
        w.timeControls()->refresh();
        QVERIFY2(w.timeControls()->offsetLabel()->text().endsWith(QStringLiteral("behind")),
                 qPrintable(w.timeControls()->offsetLabel()->text()));
    }

    void receiveOneReceivesOneMessageAndSelectsIt()
    {
        WindowFixture f;
        f.createQueue("orders", {{"VisibilityTimeout", "45"}});
        const std::string first = f.send("orders", "one");
        f.send("orders", "two");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("orders")));
        flush();
        QVERIFY2(child<QLabel>(&w, QStringLiteral("queueDetailsLabel"))
                     ->text()
                     .contains(QStringLiteral("visibility 45 s")),
                 qPrintable(child<QLabel>(&w, QStringLiteral("queueDetailsLabel"))->text()));
        click(&w, QStringLiteral("receiveOneButton"));
        QTRY_COMPARE(f.stats("orders").inFlight, 1);
        QCOMPARE(f.stats("orders").available, 1);
        const auto views = f.peek("orders");
        const auto held = std::find_if(views.begin(), views.end(), [](const auto& view) {
            return view.state == engine::MessageState::InFlight;
        });
        QVERIFY(held != views.end());
        QCOMPARE(held->visibleAt - f.session.now(), 45'000); // the queue's own timeout
        QTRY_COMPARE(w.inspector()->messageId(), QString::fromStdString(held->messageId));
        QVERIFY(w.statusBar()->currentMessage().startsWith(QStringLiteral("Received")));
        // Nothing left to receive: the status bar says why.
        click(&w, QStringLiteral("receiveOneButton"));
        click(&w, QStringLiteral("receiveOneButton"));
        QTRY_VERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("nothing to receive")),
                     qPrintable(w.statusBar()->currentMessage()));
        Q_UNUSED(first);
    }
};

QTEST_MAIN(LayoutTest)
#include "layout_test.moc"
