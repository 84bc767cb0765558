// ThroughputSeries driven by a real Session: rates per engine second from counter deltas, levels,
// per queue and for all queues, over a window of engine time.
#include "ui/models/throughput_series.h"

#include "sim/actor_spec.h"
#include "sim/simulation.h"

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

    // The simulation's consumers: processed and processed-again per second, by queue.
    void actorsProcessedAndDuplicatesPerSecond()
    {
        SessionFixture f;
        f.createQueue("q", {{"VisibilityTimeout", "2"}});
        ThroughputSeries series(f.session);
        sim::ProducerSpec producer;
        producer.name = "feed";
        producer.queue = "q";
        producer.rate = 1.0;
        sim::ConsumerSpec consumer;
        consumer.name = "slow";
        consumer.queue = "q";
        consumer.workers = 2; // the other worker takes a message back while the first holds it
        consumer.processing = {sim::Duration::Kind::Fixed, 5'000, 0}; // longer than 2 s
        QVERIFY(f.session.addActor(producer).ok());
        QVERIFY(f.session.addActor(consumer).ok());
        double processed = 0;
        double again = 0;
        for (int second = 0; second < 60; ++second) {
            f.step(1'000);
            QVERIFY(series.sample(f.session.now()));
            processed += series.points(QStringLiteral("q"), Metric::Processed).last().y();
            again += series.points(QStringLiteral("q"), Metric::ProcessedMoreThanOnce).last().y();
        }
        const auto figures = f.session.simulation()->actors().back().figures;
        QVERIFY(figures.processed > 0);
        QVERIFY(figures.processedMoreThanOnce > 0);
        QCOMPARE(processed, double(figures.processed)); // 1 s samples: rates sum to the counts
        QCOMPARE(again, double(figures.processedMoreThanOnce));
        QCOMPARE(series.points({}, Metric::Processed).size(), 60);
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
        QVERIFY(f.broker().deleteMessage("orders", got.at(0).receiptHandle, "test").ok());
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
        QVERIFY(f.broker().deleteQueue("new", "test").ok());
        f.flush();
        QVERIFY(series.queues().isEmpty());
        QVERIFY(series.points(QStringLiteral("new"), Metric::Sent).isEmpty());
        QVERIFY(ThroughputSeries::isRate(Metric::Sent));
        QVERIFY(!ThroughputSeries::isRate(Metric::InFlight));
        QVERIFY(ThroughputSeries::isRate(Metric::EmptyReceives));
        QVERIFY(!ThroughputSeries::isRate(Metric::OldestAge));
    }

    // Receives that found nothing, per second: the consumer that polls an empty queue.
    void emptyReceivesPerSecond()
    {
        SessionFixture f;
        f.createQueue("a");
        f.createQueue("b");
        ThroughputSeries series(f.session);
        for (int i = 0; i < 4; ++i)
            QVERIFY(f.receive("a").empty());
        f.send("b", "m");
        QCOMPARE(f.receive("b").size(), std::size_t(1)); // not empty
        f.step(2'000);
        QVERIFY(series.sample(f.session.now()));
        QCOMPARE(series.points(QStringLiteral("a"), Metric::EmptyReceives).last().y(), 2.0);
        QCOMPARE(series.points(QStringLiteral("b"), Metric::EmptyReceives).last().y(), 0.0);
        QCOMPARE(series.points({}, Metric::EmptyReceives).last().y(), 2.0);
    }

    // The age of the oldest message in seconds; all queues together: the oldest of all, not a sum.
    void oldestMessageAgeInSeconds()
    {
        SessionFixture f;
        f.createQueue("a");
        f.createQueue("b");
        ThroughputSeries series(f.session);
        f.send("a", "old");
        f.step(10'000);
        f.send("b", "new");
        f.step(4'000);
        QVERIFY(series.sample(f.session.now()));
        QCOMPARE(series.points(QStringLiteral("a"), Metric::OldestAge).last().y(), 14.0);
        QCOMPARE(series.points(QStringLiteral("b"), Metric::OldestAge).last().y(), 4.0);
        QCOMPARE(series.points({}, Metric::OldestAge).last().y(), 14.0);
        const auto got = f.receive("a");
        QVERIFY(f.broker().deleteMessage("a", got.at(0).receiptHandle, "test").ok());
        f.step(1'000);
        QVERIFY(series.sample(f.session.now()));
        QCOMPARE(series.points(QStringLiteral("a"), Metric::OldestAge).last().y(), 0.0);
        QCOMPARE(series.points({}, Metric::OldestAge).last().y(), 5.0);
    }

    // Each sample keeps the wall-clock time it was taken at: at 60x, a minute of engine time is
    // a second of the wall clock, and the wall-clock view shows them a second apart.
    void samplesKeepTheirWallClockTime()
    {
        SessionFixture f;
        f.createQueue("a");
        ThroughputSeries series(f.session);
        const qint64 wall = 1'800'000'000'000;
        for (int i = 1; i <= 3; ++i) {
            f.step(60'000);
            QVERIFY(series.sample(f.session.now(), wall + i * 1'000));
        }
        const auto engine = series.points(QStringLiteral("a"), Metric::Sent);
        const auto clock
            = series.points(QStringLiteral("a"), Metric::Sent, ThroughputSeries::Clock::Wall);
        QCOMPARE(engine.size(), 3);
        QCOMPARE(clock.size(), 3);
        QCOMPARE(engine.last().x() - engine.first().x(), 120'000.0);
        QCOMPARE(clock.first().x(), double(wall + 1'000));
        QCOMPARE(clock.last().x(), double(wall + 3'000));
        QCOMPARE(series.lastSampleWallTime(), wall + 3'000);
        QCOMPARE(series.points({}, Metric::Sent, ThroughputSeries::Clock::Wall).size(), 3);
    }
};

QTEST_GUILESS_MAIN(ThroughputSeriesTest)
#include "throughput_series_model_test.moc"
