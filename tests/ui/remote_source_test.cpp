// The pages over a place that is not the local engine: a fake remote source (no peek, polled
// counts, the wall clock, asks that answer after a round trip) drives the queue dock and the
// Messages page — the proof that a real AWS account or OCI tenancy can plug in behind them.
#include "fake_remote_source.h"
#include "ui/models/message_table_model.h"
#include "ui/models/queue_table_model.h"
#include "ui/pages/messages_page.h"
#include "ui/pages/queue_dock.h"
#include "ui/pages/window_actions.h"
#include "ui/widgets/notice_bar.h"

#include <QAction>
#include <QLabel>
#include <QMainWindow>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace inflight;
using namespace inflight::ui;
using namespace inflight::ui::test;

namespace {

// The dock and the page in a window, wired as MainWindow wires them.
struct Pages {
    FakeRemoteSource source;
    QMainWindow window;
    WindowActions actions;
    QueueDock* dock = nullptr;
    MessagesPage* page = nullptr;

    Pages()
    {
        for (QAction** a :
             {&actions.newQueue, &actions.editQueue, &actions.deleteQueue, &actions.purgeQueue,
              &actions.redrive, &actions.send, &actions.sendGenerated, &actions.receive,
              &actions.receiveOne, &actions.extend, &actions.changeVisibility, &actions.release,
              &actions.deleteMessage, &actions.find})
            *a = new QAction(&window);
        source.addQueue("orders");
        source.addQueue("orders-dlq");
        for (const char* body : {"one", "two", "three"})
            source.put("orders", body);
        dock = new QueueDock(source, actions, &window);
        page = new MessagesPage(source, actions, nullptr, &window);
        window.addDockWidget(Qt::LeftDockWidgetArea, dock);
        window.setCentralWidget(page);
        QObject::connect(dock, &QueueDock::queueSelected, page, &MessagesPage::setQueue);
        window.resize(1280, 800);
        window.show();
    }

    // The dock's count in `column` for `queue`, as shown.
    QString count(const QString& queue, int column) const
    {
        const int row = dock->model()->rowOf(queue);
        return row < 0 ? QString() : dock->model()->index(row, column).data().toString();
    }
    QString countText() const
    {
        return page->findChild<QLabel*>(QStringLiteral("messageCountLabel"))->text();
    }
};

} // namespace

class RemoteSourceTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theDockListsPolledQueuesAndCounts()
    {
        Pages p;
        // Nothing until the first poll: the dock never reads the place itself.
        QCOMPARE(p.dock->model()->rowCount(), 0);
        QTRY_COMPARE(p.dock->model()->rowCount(), 2);
        QCOMPARE(p.dock->model()->queueName(0), QStringLiteral("orders"));
        QTRY_COMPARE(p.count(QStringLiteral("orders"), QueueTableModel::AvailableColumn),
                     QStringLiteral("3"));
        // Another client of the account takes one: the next poll shows it.
        p.source.put("orders", "four");
        QTRY_COMPARE(p.count(QStringLiteral("orders"), QueueTableModel::AvailableColumn),
                     QStringLiteral("4"));
    }

    void theMessagesPageSaysWhatItCannotShowAndListsWhatItHolds()
    {
        Pages p;
        QTRY_COMPARE(p.dock->model()->rowCount(), 2);
        QVERIFY(p.dock->selectQueue(QStringLiteral("orders")));
        QCOMPARE(p.page->queue(), QStringLiteral("orders"));
        // No peek: no rows that look like "no messages", but the reason, and no inspector.
        QCOMPARE(p.page->model()->rowCount(), 0);
        QVERIFY(p.page->notice()->isVisible());
        QVERIFY2(p.page->notice()->text().contains(QStringLiteral("cannot show messages without "
                                                                  "receiving them")),
                 qPrintable(p.page->notice()->text()));
        QCOMPARE(p.countText(), QStringLiteral("none held"));
        QVERIFY(p.page->inspector() == nullptr);
        QVERIFY(p.source.asked.empty()); // looking received nothing

        // Receive 1: a real receive, answered after the round trip; the row is the held message.
        QSignalSpy status(p.page, &MessagesPage::statusMessage);
        p.page->receiveOne();
        QCOMPARE(p.page->model()->rowCount(), 0); // not before the place answered
        QTRY_COMPARE(p.page->model()->rowCount(), 1);
        QCOMPARE(p.source.asked.front(), std::string("receive orders"));
        const MessageTableModel::Row& row = p.page->model()->row(0);
        QCOMPARE(row.messageId, QStringLiteral("m-1"));
        QCOMPARE(row.state, engine::MessageState::InFlight);
        QCOMPARE(row.receiveCount, 1u);
        QVERIFY(row.deadline > p.source.now()); // a countdown on the wall clock
        QCOMPARE(p.page->selectedMessageIds(), QStringList{QStringLiteral("m-1")});
        QVERIFY(p.page->hasInFlightSelection());
        QCOMPARE(p.countText(), QStringLiteral("1 message held"));
        QVERIFY(!status.isEmpty());
        QVERIFY(status.last().at(0).toString().startsWith(QStringLiteral("Received m-1")));
        // The next poll counts it in flight.
        QTRY_COMPARE(p.count(QStringLiteral("orders"), QueueTableModel::InFlightColumn),
                     QStringLiteral("1"));
        QCOMPARE(p.count(QStringLiteral("orders"), QueueTableModel::AvailableColumn),
                 QStringLiteral("2"));

        // Extend +30 s asks the place with the receipt the receive gave.
        p.page->extend30();
        QTRY_VERIFY(p.page->notice()->text().startsWith(QStringLiteral("Extended 1 message")));
        const std::string& extend = p.source.asked.back();
        QVERIFY2(extend.starts_with("changeVisibility orders r-1 "), extend.c_str());
        const int seconds = std::stoi(extend.substr(extend.rfind(' ') + 1));
        QVERIFY2(seconds >= 58 && seconds <= 60, extend.c_str()); // ~30 left + 30
        QVERIFY(p.page->model()->row(0).deadline > p.source.now() + 55 * engine::kSecond);

        // Delete: with that receipt; the row goes, the next poll counts it gone.
        p.page->deleteSelected();
        QTRY_COMPARE(p.page->model()->rowCount(), 0);
        QCOMPARE(p.source.asked.back(), std::string("deleteMessage orders r-1"));
        QCOMPARE(p.source.place("orders").messages.size(), std::size_t(2));
        QTRY_COMPARE(p.count(QStringLiteral("orders"), QueueTableModel::InFlightColumn),
                     QStringLiteral("0"));
        QCOMPARE(p.countText(), QStringLiteral("none held"));
    }

    void anotherQueueDropsWhatWasHeldHere()
    {
        Pages p;
        QTRY_COMPARE(p.dock->model()->rowCount(), 2);
        p.dock->selectQueue(QStringLiteral("orders"));
        p.page->receiveOne();
        QTRY_COMPARE(p.page->model()->rowCount(), 1);
        p.dock->selectQueue(QStringLiteral("orders-dlq"));
        QCOMPARE(p.page->queue(), QStringLiteral("orders-dlq"));
        QCOMPARE(p.page->model()->rowCount(), 0);
        // A receive from an empty queue says so, and lists nothing.
        QSignalSpy status(p.page, &MessagesPage::statusMessage);
        p.page->receiveOne();
        QTRY_COMPARE(status.size(), 1);
        QVERIFY(status.last().at(0).toString().contains(QStringLiteral("nothing to receive")));
        QCOMPARE(p.page->model()->rowCount(), 0);
    }
};

QTEST_MAIN(RemoteSourceTest)
#include "remote_source_test.moc"
