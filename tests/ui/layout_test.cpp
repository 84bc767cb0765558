// The window read at a glance (issue 14): the table keeps its room at 1280×800 whatever the
// inspector shows, every shortcut is unique, the toolbar does not move, clock and message actions
// are labelled apart, and one click receives one message.
#include "ui/widgets/zoom.h"
#include "window_test_support.h"

#include "ui/charts/throughput_chart_view.h"
#include "ui/dialogs/queue_dialog.h"
#include "ui/dialogs/receive_dialog.h"
#include "ui/dialogs/send_dialog.h"
#include "ui/dialogs/visibility_dialog.h"
#include "ui/models/queue_table_model.h"
#include "ui/widgets/elided_field.h"
#include "ui/widgets/help_window.h"
#include "ui/widgets/message_inspector.h"
#include "ui/widgets/palette_colors.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/time_controls.h"

#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QRadioButton>
#include <QTextBrowser>
#include <QValueAxis>

#include <QDockWidget>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMap>
#include <QScreen>
#include <QSettings>
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
        // Hiding and showing the queue list: the table keeps the larger share.
        splitter->setSizes({700, 300});
        auto* queues = child<QDockWidget>(&w, QStringLiteral("queuesDock"));
        queues->hide();
        flush();
        queues->show();
        flush();
        QVERIFY2(splitter->sizes().at(0) > splitter->sizes().at(1) * 2,
                 qPrintable(QStringLiteral("%1 : %2")
                                .arg(splitter->sizes().at(0))
                                .arg(splitter->sizes().at(1))));
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

    void aQueueDialogFollowsAFifoNameAndSuggestsTheQueuesOwnDeadLetterQueue()
    {
        WindowFixture f;
        f.createQueue("aaa-first"); // the first queue of the list is never just taken
        f.createQueue("orders-dlq");
        f.createQueue("jobs-dlq.fifo", {{"FifoQueue", "true"}});
        ui::MainWindow& w = f.open();
        click(&w, QStringLiteral("newQueueButton"));
        auto dialog = openedDialog<ui::QueueDialog>(&w);
        QVERIFY(dialog);
        auto* name = child<QLineEdit>(dialog, QStringLiteral("nameEdit"));
        auto* type = child<QComboBox>(dialog, QStringLiteral("typeCombo"));
        auto* target = child<QComboBox>(dialog, QStringLiteral("dlqTargetCombo"));
        QCOMPARE(target->currentIndex(), -1); // none
        name->setText(QStringLiteral("orders"));
        QCOMPARE(type->currentIndex(), int(ui::QueueDialog::Type::Standard));
        QCOMPARE(target->currentText(), QStringLiteral("orders-dlq"));
        name->setText(QStringLiteral("jobs.fifo"));
        QCOMPARE(type->currentIndex(), int(ui::QueueDialog::Type::Fifo));
        QCOMPARE(target->currentText(), QStringLiteral("jobs-dlq.fifo"));
        name->setText(QStringLiteral("other"));
        QCOMPARE(type->currentIndex(), int(ui::QueueDialog::Type::Standard));
        QCOMPARE(target->currentIndex(), -1);
        dialog->close();
        flush();

        // Editing: the name cannot change, and looks it.
        QVERIFY(w.selectQueue(QStringLiteral("orders-dlq")));
        click(&w, QStringLiteral("editQueueButton"));
        auto edit = openedDialog<ui::QueueDialog>(&w);
        QVERIFY(edit);
        auto* fixedName = child<QLineEdit>(edit, QStringLiteral("nameEdit"));
        QVERIFY(fixedName->isReadOnly());
        QCOMPARE(fixedName->palette().color(fixedName->backgroundRole()),
                 edit->palette().color(QPalette::Window));
        edit->close();
    }

    void changeVisibilityOffersSqsMeaningFirstAndItsFiguresRunLive()
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
        auto* set = child<QRadioButton>(dialog, QStringLiteral("setRadio"));
        auto* extend = child<QRadioButton>(dialog, QStringLiteral("extendRadio"));
        QVERIFY(set->isChecked());
        QVERIFY(set->y() < extend->y());
        auto* summary = child<QLabel>(dialog, QStringLiteral("summaryLabel"));
        QVERIFY2(summary->text().contains(QStringLiteral("visible again in 30")),
                 qPrintable(summary->text()));
        f.step(5'000);
        QTRY_VERIFY2(summary->text().contains(QStringLiteral("visible again in 25")),
                     qPrintable(summary->text()));
        dialog->close();
    }

    void theThemeIsChosenInTheViewMenuAndRemembered()
    {
        WindowFixture f;
        f.createQueue("q");
        {
            ui::MainWindow& w = f.open();
            QVERIFY(!ui::isDarkPalette(QApplication::palette()));
            w.action(QStringLiteral("themeDarkAction"))->trigger();
            flush();
            QVERIFY(ui::isDarkPalette(QApplication::palette()));
            QVERIFY(ui::isDarkPalette(w.messageView()->palette()));
            QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(),
                     QStringLiteral("dark"));
            ui::applyTheme(ui::Theme::System); // as a new run starts
            w.close();
        }
        f.window.reset();
        ui::MainWindow& again = f.open();
        QVERIFY(ui::isDarkPalette(QApplication::palette())); // remembered
        QVERIFY(again.action(QStringLiteral("themeDarkAction"))->isChecked());
        again.action(QStringLiteral("themeLightAction"))->trigger();
        QVERIFY(!ui::isDarkPalette(QApplication::palette()));
        again.action(QStringLiteral("themeSystemAction"))->trigger();
        QVERIFY(!ui::isDarkPalette(QApplication::palette()));
    }

    // Issue 37: View ▸ Zoom for a projector, by menu or keys, remembered for the next window.
    void zoomMakesTheWholeWindowLargerAndIsRemembered()
    {
        const double base = QApplication::font().pointSizeF();
        auto restore = qScopeGuard([] { ui::setZoomPercent(100); });
        {
            WindowFixture f;
            f.createQueue("q");
            ui::MainWindow& w = f.open();
            QAction* in = w.action(QStringLiteral("zoomInAction"));
            QVERIFY(in);
            QVERIFY(in->shortcuts().contains(QKeySequence(QStringLiteral("Ctrl+="))));
            QTest::keyClick(&w, Qt::Key_Equal, Qt::ControlModifier);
            in->trigger();
            QCOMPARE(ui::zoomPercent(), 120);
            QCOMPARE(QApplication::font().pointSizeF(), base * 1.2);
            // The tables follow the application's font.
            flush();
            QCOMPARE(w.messageView()->font().pointSizeF(), base * 1.2);
            QCOMPARE(w.messageView()->verticalHeader()->defaultSectionSize(),
                     w.messageView()->fontMetrics().height() + 8); // rows as tall as the text
            w.action(QStringLiteral("zoomOutAction"))->trigger();
            QCOMPARE(ui::zoomPercent(), 110);
        }
        ui::setZoomPercent(100);
        QSettings().setValue(QStringLiteral("view/zoom"), 130);
        WindowFixture f;
        f.createQueue("q");
        ui::MainWindow& w = f.open();
        QCOMPARE(ui::zoomPercent(), 130); // remembered
        w.action(QStringLiteral("zoomResetAction"))->trigger();
        QCOMPARE(ui::zoomPercent(), 100);
        QCOMPARE(QApplication::font().pointSizeF(), base);
    }

    void helpHasTheGuideTheShortcutsAndTheBehaviourChoices()
    {
        WindowFixture f;
        f.createQueue("q");
        ui::MainWindow& w = f.open();
        w.action(QStringLiteral("userGuideAction"))->trigger();
        flush();
        auto* help = w.findChild<ui::HelpWindow*>();
        QVERIFY(help && help->isVisible());
        const QString guide = help->browser(ui::HelpWindow::Guide)->toPlainText();
        QVERIFY2(guide.contains(QStringLiteral("Receive 1"))
                     && guide.contains(QStringLiteral("DLQ next")),
                 qPrintable(guide.left(200)));
        const QString keys = help->browser(ui::HelpWindow::Shortcuts)->toPlainText();
        for (const char* name :
             {"receiveOneAction", "newQueueAction", "pauseAction", "step30sAction"}) {
            QAction* action = w.action(QString::fromLatin1(name));
            QVERIFY2(keys.contains(action->shortcut().toString(QKeySequence::NativeText)), name);
        }
        const QString behaviour = help->browser(ui::HelpWindow::Behaviour)->toPlainText();
        QVERIFY2(behaviour.contains(QStringLiteral("UNCONFIRMED"), Qt::CaseInsensitive)
                     || behaviour.length() > 2000,
                 qPrintable(behaviour.left(200)));
        QVERIFY(!behaviour.contains(QStringLiteral("not in this build")));
        help->close();
    }

    void everyColumnHeaderAndToolbarButtonHasATooltip()
    {
        WindowFixture f;
        f.createQueue("q");
        ui::MainWindow& w = f.open();
        for (const QAbstractItemModel* model : {w.messageView()->model(), w.queueView()->model()})
            for (int column = 0; column < model->columnCount(); ++column)
                QVERIFY2(!model->headerData(column, Qt::Horizontal, Qt::ToolTipRole)
                              .toString()
                              .isEmpty(),
                         qPrintable(model->headerData(column, Qt::Horizontal).toString()));
        for (QToolBar* bar : w.findChildren<QToolBar*>())
            for (QAction* action : bar->actions())
                if (qobject_cast<QToolButton*>(bar->widgetForAction(action)))
                    QVERIFY2(!action->toolTip().isEmpty()
                                 && action->toolTip() != action->iconText(),
                             qPrintable(action->iconText()));
    }

    void aFilterBelongsToTheQueueItWasTypedFor()
    {
        WindowFixture f;
        f.createQueue("a");
        f.createQueue("b");
        f.send("a", "apple");
        f.send("a", "banana");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("a")));
        auto* filter = child<QLineEdit>(&w, QStringLiteral("textFilterEdit"));
        auto* count = child<QLabel>(&w, QStringLiteral("messageCountLabel"));
        filter->setText(QStringLiteral("apple"));
        QCOMPARE(count->text(), QStringLiteral("1 of 2 messages shown"));
        QVERIFY(w.selectQueue(QStringLiteral("b")));
        QCOMPARE(filter->text(), QString());
        QCOMPARE(count->text(), QStringLiteral("no messages"));
        QVERIFY(w.selectQueue(QStringLiteral("a")));
        QCOMPARE(filter->text(), QStringLiteral("apple"));
        QCOMPARE(w.messageFilter()->rowCount(), 1);
    }

    void theMessageMenuCopiesAndMovesAMessageToAnotherQueue()
    {
        WindowFixture f;
        f.createQueue("orders");
        f.createQueue("repaired");
        const std::string id
            = f.broker()
                  .sendMessage(
                      {.queue = "orders",
                       .body = std::string(R"({"order": 1})"),
                       .attributes = {{"kind", {.dataType = "String", .stringValue = "order"}}}})
                  ->messageId;
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("orders")));
        flush();
        const auto rowOf = [&w](const std::string& messageId) {
            const QAbstractItemModel* model = w.messageView()->model();
            for (int row = 0; row < model->rowCount(); ++row)
                if (model->index(row, 0).data(ui::MessageTableModel::MessageIdRole).toString()
                    == QString::fromStdString(messageId))
                    return model->index(row, ui::MessageTableModel::BodyColumn);
            return QModelIndex();
        };
        // Picks `entry` (an action's objectName, or "menu/queue" in a submenu) in the menu the
        // next right click opens.
        const auto pick = [&w, &rowOf, &id](const QString& entry) {
            QTimer::singleShot(50, [entry] {
                auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
                QVERIFY(menu);
                const QStringList path = entry.split(QLatin1Char('/'));
                QMenu* in = path.size() == 2 ? menu->findChild<QMenu*>(path[0]) : menu;
                QVERIFY(in);
                for (QAction* action : in->actions())
                    if (action->objectName() == path.last() || action->text() == path.last()) {
                        QVERIFY(action->isEnabled());
                        menu->close();
                        action->trigger();
                        return;
                    }
                QFAIL(qPrintable(QStringLiteral("no entry ") + entry));
            });
            const QRect cell = w.messageView()->visualRect(rowOf(id));
            w.showMessageMenu(cell.center());
            flush();
        };
        pick(QStringLiteral("copyIdAction"));
        QCOMPARE(QApplication::clipboard()->text(), QString::fromStdString(id));
        pick(QStringLiteral("copyBodyAction"));
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral(R"({"order": 1})"));
        // As JSON, as a receive gives it (issue 37).
        pick(QStringLiteral("copyJsonAction"));
        const QJsonObject copied
            = QJsonDocument::fromJson(QApplication::clipboard()->text().toUtf8()).object();
        QCOMPARE(copied.value(u"MessageId").toString(), QString::fromStdString(id));
        QCOMPARE(copied.value(u"Body").toString(), QStringLiteral(R"({"order": 1})"));
        QCOMPARE(copied.value(u"MessageAttributes")
                     .toObject()
                     .value(u"kind")
                     .toObject()
                     .value(u"StringValue")
                     .toString(),
                 QStringLiteral("order"));
        QCOMPARE(
            copied.value(u"Attributes").toObject().value(u"ApproximateReceiveCount").toString(),
            QStringLiteral("0"));

        // Moving needs the receipt: receive it first, then repair and resubmit to "repaired".
        f.receive("orders", 1, 60);
        flush();
        pick(QStringLiteral("moveToMenu/repaired"));
        auto send = openedDialog<ui::SendDialog>(&w);
        QVERIFY(send);
        QCOMPARE(send->queue(), QStringLiteral("repaired"));
        auto* body = child<QPlainTextEdit>(send, QStringLiteral("bodyEdit"));
        QCOMPARE(body->toPlainText(), QStringLiteral(R"({"order": 1})"));
        body->setPlainText(QStringLiteral(R"({"order": 1, "fixed": true})"));
        click(send, QStringLiteral("sendButton"));
        flush();
        QCOMPARE(f.stats("repaired").available, 1);
        QCOMPARE(f.peek("repaired").front().body, std::string(R"({"order": 1, "fixed": true})"));
        QCOMPARE(f.stats("orders").inFlight, 0); // the original went with its receipt
        QCOMPARE(f.stats("orders").available, 0);
    }

    void theChartsShareOneTimeAxisWithWholeNumberTicksStepsAndHoverValues()
    {
        using Chart = ui::ThroughputChartView;
        QCOMPARE(Chart::integerScale(0.0), (std::pair<double, double>{1, 1}));
        QCOMPARE(Chart::integerScale(0.8), (std::pair<double, double>{1, 1}));
        QCOMPARE(Chart::integerScale(7), (std::pair<double, double>{8, 2}));
        QCOMPARE(Chart::integerScale(23), (std::pair<double, double>{25, 5}));
        QCOMPARE(Chart::integerScale(1234), (std::pair<double, double>{1500, 500}));

        WindowFixture f;
        f.createQueue("a");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("a")));
        w.tabs()->setCurrentWidget(w.charts());
        for (int second = 0; second < 4; ++second) {
            for (int i = 0; i <= second; ++i)
                f.send("a", "x");
            f.step(1'000);
            w.charts()->sampleNow();
        }
        QCOMPARE(w.charts()->timeRange(0), w.charts()->timeRange(1));
        QTRY_VERIFY2(std::abs(w.charts()->plotLeft(0) - w.charts()->plotLeft(1)) <= 1.0,
                     qPrintable(QStringLiteral("%1 vs %2")
                                    .arg(w.charts()->plotLeft(0))
                                    .arg(w.charts()->plotLeft(1))));
        QCOMPARE(w.charts()->timeRange(0).second, f.session.now());
        auto* rates = child<QChartView>(w.charts(), QStringLiteral("rateChartView"));
        QLineSeries* sent = nullptr;
        for (QAbstractSeries* series : rates->chart()->series())
            if (series->name()
                == ui::ThroughputSeries::metricName(ui::ThroughputSeries::Metric::Sent))
                sent = qobject_cast<QLineSeries*>(series);
        QVERIFY(sent);
        QCOMPARE(w.charts()->shownPoints(ui::ThroughputSeries::Metric::Sent).size(), 4);
        QCOMPARE(sent->points().size(), 7);                           // 4 samples as steps
        QCOMPARE(sent->points().at(1).y(), sent->points().at(2).y()); // flat over its second
        auto* y = qobject_cast<QValueAxis*>(rates->chart()->axes(Qt::Vertical).front());
        QVERIFY(y);
        QCOMPARE(y->tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(y->tickInterval(), 1.0);
        QCOMPARE(y->max(), 4.0);
        QCOMPARE(
            Chart::hoverText(ui::ThroughputSeries::Metric::Sent,
                             QPointF(double(f.session.now()), 4.0)),
            QDateTime::fromMSecsSinceEpoch(f.session.now()).toString(QStringLiteral("HH:mm:ss"))
                + QStringLiteral("  sent/s 4"));

        // An hour of history, and a chart that stands still to be zoomed.
        w.charts()->setWindowMinutes(60);
        QCOMPARE(w.charts()->windowMinutes(), 60);
        QVERIFY(w.charts()->series().window() >= 60 * 60 * 1000);
        w.charts()->setLive(false);
        const auto frozen = w.charts()->timeRange(0);
        f.send("a", "y");
        f.step(1'000);
        w.charts()->sampleNow();
        QCOMPARE(w.charts()->timeRange(0), frozen);
        w.charts()->setLive(true);
        QCOMPARE(w.charts()->timeRange(0).second, f.session.now());
    }

    // The oldest message's age on an axis of its own (seconds, on the right), with both plots
    // still the same width; empty receives among the rates; a wall-clock view after a fast run.
    void theChartsShowTheOldestAgeEmptyReceivesAndAWallClockView()
    {
        using Metric = ui::ThroughputSeries::Metric;
        WindowFixture f;
        f.createQueue("a");
        ui::MainWindow& w = f.open();
        w.resize(1280, 800);
        QVERIFY(w.selectQueue(QStringLiteral("a")));
        w.tabs()->setCurrentWidget(w.charts());
        f.send("a", "waiting");
        for (int second = 0; second < 12; ++second) {
            f.receive("a", 1, 0); // visibility 0: received, still there
            f.step(1'000);
            w.charts()->sampleNow();
        }
        f.receive("a", 1, 30); // in flight now: the next receive is empty
        QVERIFY(f.receive("a").empty());
        f.step(1'000);
        w.charts()->sampleNow();
        const auto age = w.charts()->shownPoints(Metric::OldestAge);
        QVERIFY(!age.isEmpty());
        QCOMPARE(age.last().y(), 13.0);
        QCOMPARE(w.charts()->ageRange(), (std::pair<double, double>{0, 15})); // whole seconds
        QCOMPARE(w.charts()->shownPoints(Metric::EmptyReceives).last().y(), 1.0);
        QTRY_VERIFY2(std::abs(w.charts()->plotRight(0) - w.charts()->plotRight(1)) <= 1.0,
                     qPrintable(QStringLiteral("%1 vs %2")
                                    .arg(w.charts()->plotRight(0))
                                    .arg(w.charts()->plotRight(1))));
        QVERIFY(std::abs(w.charts()->plotLeft(0) - w.charts()->plotLeft(1)) <= 1.0);

        // Wall clock: the axis ends now on the wall clock, and the samples sit where they were
        // taken (this test's 13 engine seconds took well under a minute of wall time).
        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        w.charts()->setClock(ui::ThroughputSeries::Clock::Wall);
        QCOMPARE(w.charts()->clock(), ui::ThroughputSeries::Clock::Wall);
        const auto range = w.charts()->timeRange(0);
        QVERIFY(range.second >= before && range.second <= QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(range.second - range.first, qint64(w.charts()->windowMinutes()) * 60'000);
        const auto wall = w.charts()->shownPoints(Metric::OldestAge);
        QCOMPARE(wall.size(), age.size());
        QVERIFY(wall.last().x() - wall.first().x() < 60'000.0);
        QVERIFY(wall.last().x() <= double(range.second));
        QCOMPARE(wall.last().y(), 13.0);
        w.charts()->setClock(ui::ThroughputSeries::Clock::Engine);
        QCOMPARE(w.charts()->timeRange(0).second, f.session.now());
    }

    // A level that jumps from nothing to 100,000 (a large workspace reopened) rescales at once:
    // the axis never lays out a tick per old interval over the new range (100,000 ticks, which
    // hung the window with a million messages).
    void aLevelThatJumpsToAHundredThousandRescalesTheAxisAtOnce()
    {
        WindowFixture f;
        f.createQueue("big");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("big")));
        w.tabs()->setCurrentWidget(w.charts());
        f.step(1'000);
        w.charts()->sampleNow();
        for (int batch = 0; batch < 10'000; ++batch) {
            std::vector<engine::BatchSendEntry> entries;
            for (int i = 0; i < 10; ++i)
                entries.push_back({.id = "e" + std::to_string(i), .message = {.body = "x"}});
            QVERIFY(f.broker().sendMessageBatch("big", entries, "test").ok());
        }
        f.step(1'000);
        QElapsedTimer timer;
        timer.start();
        w.charts()->sampleNow();
        flush();
        auto* levels = child<QChartView>(w.charts(), QStringLiteral("levelChartView"));
        auto* y = qobject_cast<QValueAxis*>(levels->chart()->axes(Qt::Vertical).front());
        QVERIFY(y);
        QCOMPARE(y->max(), 100'000.0);
        QCOMPARE(y->tickInterval(), 20'000.0);
        QCOMPARE(y->tickType(), QValueAxis::TicksDynamic);
        qInfo("rescaled in %lld ms", static_cast<long long>(timer.elapsed()));
    }

    // Issue 37, item 9: labels that went stale. The Receive panel follows the queue selected
    // (unless it waits on its own); the message count of a queue emptied says so.
    void theReceivePanelAndTheCountFollowTheQueueShown()
    {
        WindowFixture f;
        f.createQueue("orders");
        f.createQueue("orders-dlq");
        f.send("orders", "only");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("orders")));
        auto* count = child<QLabel>(&w, QStringLiteral("messageCountLabel"));
        QCOMPARE(count->text(), QStringLiteral("1 message"));
        click(&w, QStringLiteral("receiveButton"));
        auto* dock = child<QDockWidget>(&w, QStringLiteral("receiveDock"));
        QVERIFY(dock->isVisible());
        QCOMPARE(dock->windowTitle(), QStringLiteral("Receive from orders"));

        QVERIFY(w.selectQueue(QStringLiteral("orders-dlq")));
        flush();
        QVERIFY(dock->isVisible());
        QCOMPARE(dock->windowTitle(), QStringLiteral("Receive from orders-dlq"));
        QCOMPARE(w.receiveDialog()->queue(), QStringLiteral("orders-dlq"));
        QCOMPARE(count->text(), QStringLiteral("no messages"));

        // Waiting on orders-dlq: selecting orders leaves that wait (and its title) alone.
        w.receiveDialog()->setWaitTime(20);
        w.receiveDialog()->startReceive();
        flush();
        QVERIFY(w.receiveDialog()->isWaiting());
        QVERIFY(w.selectQueue(QStringLiteral("orders")));
        flush();
        QCOMPARE(dock->windowTitle(), QStringLiteral("Receive from orders-dlq"));
        QVERIFY(w.receiveDialog()->isWaiting());
        dock->close();
        flush();

        // The only message deleted: "no messages", not "none of 1 message shown".
        QCOMPARE(count->text(), QStringLiteral("1 message"));
        const auto got = f.receive("orders");
        QCOMPARE(got.size(), std::size_t(1));
        flush();
        QVERIFY(w.selectMessages({QString::fromStdString(got.front().messageId.str())}) == 1);
        w.action(QStringLiteral("deleteMessageAction"))->trigger();
        flush();
        QCOMPARE(w.messageModel()->rowCount(), 0);
        QCOMPARE(count->text(), QStringLiteral("no messages"));
    }

    void theReceivePanelLeavesTheTableInViewAndClosingItEndsTheWait()
    {
        WindowFixture f;
        f.createQueue("q");
        f.send("q", "a");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        click(&w, QStringLiteral("receiveButton"));
        QPointer<ui::ReceiveDialog> dialog = w.receiveDialog();
        QVERIFY(dialog && dialog->isVisible());
        auto* dock = child<QDockWidget>(&w, QStringLiteral("receiveDock"));
        QVERIFY(dock->isVisible());
        QCOMPARE(dock->widget(), dialog.data());
        QVERIFY(!dialog->isWindow()); // a panel of the window, not a window over the table
        QVERIFY(w.messageView()->isVisible() && w.messageView()->height() > 100);
        QVERIFY(!dock->geometry().intersects(w.messageView()->geometry().translated(
            w.messageView()->mapTo(&w, QPoint()) - w.messageView()->pos())));
        f.receive("q"); // nothing left: the next receive waits
        dialog->setWaitTime(20);
        dialog->startReceive();
        flush();
        QVERIFY(dialog->isWaiting());
        dock->close();
        flush();
        QVERIFY(!dialog || !dialog->isWaiting());
    }
};

QTEST_MAIN(LayoutTest)
#include "layout_test.moc"
