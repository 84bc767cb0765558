// ThroughputSeries driven by a real Session: rates per engine second from counter deltas, levels,
// per queue and for all queues, over a window of engine time.
#include "ui/models/throughput_series.h"

#include "ui/model_test_support.h"

#include <QSignalSpy>

using namespace inflight;
using namespace inflight::ui;
using namespace inflight::ui::test;
using Metric = ThroughputSeries::Metric;

class ThroughputSeriesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tenSendsInOneEngineSecondAreTenPerSecond()
    {
        SessionFixture f;
        f.createQueue("a");
        f.createQueue("b");
        ThroughputSeries series(f.session);
        QSignalSpy sampled(&series, &ThroughputSeries::sampled);
        for (int i = 0; i < 10; ++i)
            f.send("a", "m");
        f.send("b", "m");
        f.step(1'000);
        QVERIFY(series.sample(f.session.now()));
        QCOMPARE(sampled.count(), 1);
        const auto sent = series.points(QStringLiteral("a"), Metric::Sent);
        QCOMPARE(sent.size(), 1);
        QCOMPARE(sent.last().x(), double(kStart + 1'000));
        QCOMPARE(sent.last().y(), 10.0);
        QCOMPARE(series.points({}, Metric::Sent).last().y(), 11.0);
        QCOMPARE(series.points(QStringLiteral("a"), Metric::Available).last().y(), 10.0);

        // 5 receives over the next 2 s: 2.5/s; levels follow.
        f.receive("a", 5, 60);
        f.step(2'000);
        QVERIFY(series.sample(f.session.now()));
        QCOMPARE(series.points(QStringLiteral("a"), Metric::Received).last().y(), 2.5);
        QCOMPARE(series.points(QStringLiteral("a"), Metric::Sent).last().y(), 0.0);
        QCOMPARE(series.points(QStringLiteral("a"), Metric::InFlight).last().y(), 5.0);
        QCOMPARE(series.points({}, Metric::Available).last().y(), 6.0);
    }

    void samplesOncePerEngineSecond()
    {
        SessionFixture f;
        f.createQueue("a");
        ThroughputSeries series(f.session);
        f.step(500);
        QVERIFY(!series.sample(f.session.now()));
        f.step(500);
        QVERIFY(series.sample(f.session.now()));
        QVERIFY(!series.sample(f.session.now()));
        QCOMPARE(series.points(QStringLiteral("a"), Metric::Sent).size(), 1);
    }

    void expiriesDeletesAndDeadLetterMoves()
    {
        SessionFixture f;
        f.createQueueWithDeadLetters("orders", "dlq", 1);
        f.send("orders", "a");
        f.send("orders", "b");
        ThroughputSeries series(f.session);
        const auto got = f.receive("orders", 2, 1);
        QVERIFY(f.broker().deleteMessage("orders", got.at(0).receiptHandle).ok());
        f.step(1'000);       // b expires
        f.receive("orders"); // moves b
        f.step(1'000);
        QVERIFY(series.sample(f.session.now()));
        const QString orders = QStringLiteral("orders");
        QCOMPARE(series.points(orders, Metric::Deleted).last().y(), 0.5);
        QCOMPARE(series.points(orders, Metric::VisibilityExpired).last().y(), 0.5);
        QCOMPARE(series.points(orders, Metric::MovedToDeadLetter).last().y(), 0.5);
        QCOMPARE(series.points(QStringLiteral("dlq"), Metric::Available).last().y(), 1.0);
    }

    void keepsTheLastWindowOfEngineTime()
    {
        SessionFixture f;
        f.createQueue("a");
        ThroughputSeries series(f.session, nullptr, 10'000);
        for (int i = 0; i < 30; ++i) {
            f.step(1'000);
            series.sample(f.session.now());
        }
        const auto points = series.points(QStringLiteral("a"), Metric::Sent);
        QCOMPARE(points.size(), 11);
        QCOMPARE(points.first().x(), double(kStart + 20'000));
        QCOMPARE(points.last().x(), double(kStart + 30'000));
    }

    void followsCreatedAndDeletedQueues()
    {
        SessionFixture f;
        ThroughputSeries series(f.session);
        f.createQueue("new");
        f.flush();
        f.send("new", "m");
        f.send("new", "m");
        f.step(1'000);
        series.sample(f.session.now());
        QCOMPARE(series.points(QStringLiteral("new"), Metric::Sent).last().y(), 2.0);
        QCOMPARE(series.queues(), QStringList{QStringLiteral("new")});
        QVERIFY(f.broker().deleteQueue("new").ok());
        f.flush();
        QVERIFY(series.queues().isEmpty());
        QVERIFY(series.points(QStringLiteral("new"), Metric::Sent).isEmpty());
        QVERIFY(ThroughputSeries::isRate(Metric::Sent));
        QVERIFY(!ThroughputSeries::isRate(Metric::InFlight));
    }
};

QTEST_GUILESS_MAIN(ThroughputSeriesTest)
#include "throughput_series_model_test.moc"
