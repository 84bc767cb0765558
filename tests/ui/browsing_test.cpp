// Looking is a peek: selecting queues and messages, opening the inspector, switching tabs,
// filtering and sorting never change a receive count or a visibility, and the engine emits no
// receive for them.

#include "ui/widgets/message_inspector.h"
#include "window_test_support.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QTabWidget>

using namespace inflight;
using namespace inflight::ui::test;

class BrowsingTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    void browsingNeverChangesAReceiveCount()
    {
        WindowFixture f; // the default workspace: every kind of queue and message
        ui::MainWindow& w = f.open();
        QVERIFY(!f.broker().queues().empty());

        // What the engine holds before browsing: each message's receive count and deadline.
        auto snapshot = [&f] {
            std::map<std::string, std::pair<std::uint32_t, engine::Millis>> state;
            for (const engine::QueueView& q : f.broker().queues())
                for (const engine::MessageView& m : f.peek(q.name))
                    state[q.name + "/" + m.messageId] = {m.receiveCount, m.visibleAt};
            return state;
        };
        const auto before = snapshot();
        std::vector<engine::EventKind> kinds;
        connect(&f.session, &session::Session::eventsReady, this,
                [&kinds](const std::vector<engine::Event>& events) {
                    for (const engine::Event& e : events)
                        kinds.push_back(e.kind);
                });

        for (const QString& queue : shownQueues(w)) {
            clickQueue(w, queue);
            QCOMPARE(w.currentQueue(), queue);
            for (const QString& id : shownMessageIds(w)) {
                clickMessage(w, id.toStdString());
                QCOMPARE(w.inspector()->messageId(), id);
            }
            for (int tab = 0; tab < w.tabs()->count(); ++tab) {
                w.tabs()->setCurrentIndex(tab);
                flush();
            }
            w.tabs()->setCurrentIndex(0);
            for (int column = 0; column < w.messageView()->model()->columnCount(); ++column)
                w.messageView()->sortByColumn(column, Qt::DescendingOrder);
            auto* filter = child<QComboBox>(&w, QStringLiteral("stateFilterCombo"));
            for (int i = 0; i < filter->count(); ++i)
                filter->setCurrentIndex(i);
            filter->setCurrentIndex(0);
            child<QLineEdit>(&w, QStringLiteral("textFilterEdit"))->setText(QStringLiteral("a"));
            child<QLineEdit>(&w, QStringLiteral("textFilterEdit"))->clear();
        }
        flush();
        QCOMPARE(snapshot(), before);
        for (engine::EventKind kind : kinds) {
            QVERIFY(kind != engine::EventKind::MessageReceived);
            QVERIFY(kind != engine::EventKind::VisibilityChanged);
        }
    }
};

QTEST_MAIN(BrowsingTest)
#include "browsing_test.moc"
