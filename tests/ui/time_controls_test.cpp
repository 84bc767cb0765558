// The time controls in the toolbar: engine time shown, pause and resume, 1×/10×/60×, steps of
// +1 s, +30 s and +5 min — clicked, and through their shortcuts.

#include "ui/widgets/time_controls.h"
#include "window_test_support.h"

#include <QDateTime>
#include <QLabel>

using namespace inflight;
using namespace inflight::ui::test;

class TimeControlsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    void stepsMoveEngineTimeAndTheClockShowsIt()
    {
        WindowFixture f;
        f.createQueue("q");
        ui::MainWindow& w = f.open();
        auto* clock = child<QLabel>(&w, QStringLiteral("engineTimeLabel"));
        const QString start = QDateTime::fromMSecsSinceEpoch(kStart).toString(
            QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        QVERIFY2(clock->text().startsWith(start), qPrintable(clock->text()));
        QCOMPARE(w.action(QStringLiteral("pauseAction"))->text(), QStringLiteral("Resume"));

        click(&w, QStringLiteral("step1sButton"));
        QCOMPARE(f.session.now(), kStart + 1'000);
        click(&w, QStringLiteral("step30sButton"));
        QCOMPARE(f.session.now(), kStart + 31'000);
        click(&w, QStringLiteral("step5minButton"));
        QCOMPARE(f.session.now(), kStart + 331'000);
        const QString later = QDateTime::fromMSecsSinceEpoch(kStart + 331'000)
                                  .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        QVERIFY2(clock->text().startsWith(later), qPrintable(clock->text()));
        QVERIFY(f.session.isPaused()); // a step does not resume
    }

    void pauseResumeAndSpeeds()
    {
        WindowFixture f;
        f.createQueue("q");
        ui::MainWindow& w = f.open();
        QAction* pause = w.action(QStringLiteral("pauseAction"));
        QVERIFY(pause->isChecked());
        QCOMPARE(pause->text(), QStringLiteral("Resume"));

        click(&w, QStringLiteral("pauseButton"));
        QVERIFY(!f.session.isPaused());
        QCOMPARE(pause->text(), QStringLiteral("Pause"));
        click(&w, QStringLiteral("pauseButton"));
        QVERIFY(f.session.isPaused());

        click(&w, QStringLiteral("speed10Button"));
        QCOMPARE(f.session.speed(), 10.0);
        QVERIFY(!f.session.isPaused()); // choosing a speed runs time
        QVERIFY(w.action(QStringLiteral("speed10Action"))->isChecked());
        // The speed is shown once, by its checked button: the clock's label does not repeat it.
        QVERIFY(!child<QLabel>(&w, QStringLiteral("engineTimeLabel"))
                     ->text()
                     .contains(QStringLiteral("×")));
        click(&w, QStringLiteral("speed60Button"));
        QCOMPARE(f.session.speed(), 60.0);
        QVERIFY(!w.action(QStringLiteral("speed10Action"))->isChecked());
        click(&w, QStringLiteral("speed1Button"));
        QCOMPARE(f.session.speed(), 1.0);

        // Time runs at that speed: a little real time moves engine time.
        const engine::Millis before = f.session.now();
        QTRY_VERIFY(f.session.now() > before);
    }

    void shortcutsDriveTime()
    {
        WindowFixture f;
        f.createQueue("q");
        ui::MainWindow& w = f.open();
        w.activateWindow();
        QTest::keyClick(&w, Qt::Key_F7);
        QCOMPARE(f.session.now(), kStart + 30'000);
        QTest::keyClick(&w, Qt::Key_F6);
        QCOMPARE(f.session.now(), kStart + 31'000);
        QTest::keyClick(&w, Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(f.session.speed(), 10.0);
        QTest::keyClick(&w, Qt::Key_P, Qt::ControlModifier);
        QVERIFY(f.session.isPaused());
    }
};

QTEST_MAIN(TimeControlsTest)
#include "time_controls_test.moc"
