// What the window remembers (QSettings: layout, tab, filter, queue, charts), its keyboard
// shortcuts, and its readability in light and dark palettes.

#include "ui/charts/throughput_chart_view.h"
#include "ui/dialogs/queue_dialog.h"
#include "ui/dialogs/receive_dialog.h"
#include "ui/dialogs/send_dialog.h"
#include "ui/widgets/palette_colors.h"
#include "window_test_support.h"

#include <QComboBox>
#include <QLineEdit>
#include <QMenuBar>
#include <QScreen>
#include <QStyleFactory>
#include <QTabWidget>

using namespace inflight;
using namespace inflight::ui::test;

namespace {

// WCAG relative luminance and contrast ratio.
double luminance(const QColor& c)
{
    const auto channel = [](double v) {
        v /= 255.0;
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue());
}

double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// A dark palette as desktop themes set it: every role dark or light as it should be.
QPalette darkPalette()
{
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6);
    QPalette p(text, window, QColor(0x45, 0x47, 0x4b), QColor(0x18, 0x19, 0x1b),
               QColor(0x5a, 0x5c, 0x60), text, Qt::white, base, window);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x27, 0x2a));
    p.setColor(QPalette::Button, QColor(0x3a, 0x3c, 0x40));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xd6));
    p.setColor(QPalette::PlaceholderText, QColor(0x8c, 0x8c, 0x8c));
    return p;
}

} // namespace

class SettingsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    void layoutAndChoicesAreRememberedAcrossWindows()
    {
        WindowFixture f;
        f.createQueue("a");
        f.createQueue("b");
        {
            ui::MainWindow& w = f.open();
            w.resize(1270, 777); // under a 1280-wide screen: the window must fit it
            QVERIFY(w.selectQueue(QStringLiteral("b")));
            child<QComboBox>(&w, QStringLiteral("stateFilterCombo"))->setCurrentIndex(2);
            w.charts()->setAllQueues(true);
            w.charts()->setWindowMinutes(10);
            w.tabs()->setCurrentIndex(3);
            w.close(); // saves
        }
        f.window.reset();
        ui::MainWindow& again = f.open();
        // As it was, unless that is larger than this screen (the offscreen one is 800 wide).
        const QSize room = again.screen()->availableGeometry().size();
        QCOMPARE(again.size(),
                 QSize(1270, 777).boundedTo(room).expandedTo(again.minimumSizeHint()));
        QCOMPARE(again.currentQueue(), QStringLiteral("b"));
        QCOMPARE(child<QComboBox>(&again, QStringLiteral("stateFilterCombo"))->currentIndex(), 2);
        QCOMPARE(again.tabs()->currentIndex(), 3);
        QVERIFY(again.charts()->showsAllQueues());
        QCOMPARE(again.charts()->windowMinutes(), 10);
    }

    void everyActionHasAShortcutShownInItsMenu()
    {
        WindowFixture f;
        f.createQueue("a");
        ui::MainWindow& w = f.open();
        for (const char* name :
             {"newQueueAction", "editQueueAction", "deleteQueueAction", "purgeQueueAction",
              "redriveAction", "sendAction", "sendGeneratedAction", "receiveAction", "extendAction",
              "changeVisibilityAction", "releaseAction", "deleteMessageAction", "pauseAction",
              "speed1Action", "speed10Action", "speed60Action", "step1sAction", "step30sAction",
              "step5minAction"}) {
            QAction* action = w.action(QString::fromLatin1(name));
            QVERIFY2(action, name);
            QVERIFY2(!action->shortcut().isEmpty(), name);
            bool inMenu = false;
            for (QAction* menu : w.menuBar()->actions())
                if (menu->menu() && menu->menu()->actions().contains(action))
                    inMenu = true;
            QVERIFY2(inMenu, name);
        }
    }

    void shortcutsOpenTheDialogs()
    {
        WindowFixture f;
        f.createQueue("a");
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("a")));
        w.activateWindow();
        w.queueView()->setFocus();

        QTest::keyClick(&w, Qt::Key_R, Qt::ControlModifier);
        flush();
        QVERIFY(w.receiveDialog() && w.receiveDialog()->isVisible());
        w.receiveDialog()->close();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));

        QTest::keyClick(&w, Qt::Key_M, Qt::ControlModifier);
        auto send = openedDialog<ui::SendDialog>(&w);
        QVERIFY(send);
        send->close();
        flush();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));

        QTest::keyClick(&w, Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
        auto create = openedDialog<ui::QueueDialog>(&w);
        QVERIFY(create && !create->isEditing());
        create->close();
        flush();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));

        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(QApplication::focusWidget(),
                 static_cast<QWidget*>(child<QLineEdit>(&w, QStringLiteral("textFilterEdit"))));
    }

    void theWarningColourContrastsInLightAndDarkPalettes()
    {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        const QPalette light = QApplication::style()->standardPalette();
        QVERIFY(!ui::isDarkPalette(light));
        QVERIFY(contrast(ui::warningColor(light), light.color(QPalette::Base)) >= 4.5);
        const QPalette dark = darkPalette();
        QVERIFY(ui::isDarkPalette(dark));
        QVERIFY(contrast(ui::warningColor(dark), dark.color(QPalette::Base)) >= 4.5);
    }

    void theWindowFollowsADarkPalette()
    {
        QApplication::setPalette(darkPalette());
        WindowFixture f;
        ui::MainWindow& w = f.open(); // the default workspace, every view filled
        for (int tab = 0; tab < w.tabs()->count(); ++tab) {
            w.tabs()->setCurrentIndex(tab);
            flush();
            const QImage image = w.grab().toImage();
            QVERIFY(!image.isNull());
            // Mostly dark: nothing paints a light background of its own.
            qint64 dark = 0;
            for (int y = 0; y < image.height(); y += 7)
                for (int x = 0; x < image.width(); x += 7)
                    dark += image.pixelColor(x, y).lightness() < 128 ? 1 : 0;
            const qint64 samples = qint64(image.height() / 7 + 1) * (image.width() / 7 + 1);
            QVERIFY2(dark * 10 > samples * 8, qPrintable(QStringLiteral("tab %1").arg(tab)));
        }
        QApplication::setPalette(QApplication::style()->standardPalette());
    }
};

QTEST_MAIN(SettingsTest)
#include "settings_test.moc"
