// WorkspaceHost: the workspace the app runs on, and switching to another in the running app. The
// new one opens first (one that cannot be opened leaves the current as it was); listeners let go
// of the old session between sessionChanging() and sessionChanged(); the old one is saved and
// closed; recent workspaces follow.
#include "workspace/recent_workspaces.h"
#include "workspace/workspace_files.h"
#include "workspace/workspace_host.h"

#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace inflight;

class WorkspaceHostTest : public QObject {
    Q_OBJECT

    static bool hasQueue(session::Session& session, const std::string& name)
    {
        return session.broker().getQueue(name).ok();
    }
    static void createQueue(session::Session& session, const std::string& name)
    {
        QVERIFY(session.broker().createQueue({.name = name, .origin = "test"}).ok());
        session.advanceNow();
        QTRY_VERIFY(session.isDurable());
    }

private Q_SLOTS:
    void switchesToAnotherWorkspaceAndBack()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.inflight"));
        const QString b = dir.filePath(QStringLiteral("b.inflight"));
        workspace::WorkspaceHost host;
        QVERIFY(host.open(a).ok());
        QVERIFY(host.isNew());
        createQueue(host.session(), "alpha");

        QStringList order;
        session::Session* during = nullptr;
        connect(&host, &workspace::WorkspaceHost::sessionChanging, this, [&] {
            order << QStringLiteral("changing");
            during = &host.session(); // still the old one, for listeners to let go of
        });
        connect(&host, &workspace::WorkspaceHost::sessionChanged, this,
                [&] { order << QStringLiteral("changed"); });
        session::Session* old = &host.session();
        QVERIFY(host.switchTo(b).ok());
        QCOMPARE(order, (QStringList{QStringLiteral("changing"), QStringLiteral("changed")}));
        QCOMPARE(during, old);
        QCOMPARE(host.path(), b);
        QVERIFY(host.isNew());
        QVERIFY(!hasQueue(host.session(), "alpha"));
        createQueue(host.session(), "beta");
        QCOMPARE(workspace::recentWorkspaces().value(0), b);
        QCOMPARE(workspace::lastWorkspace(), b);

        // Back: a kept its queue, and is no longer new.
        QVERIFY(host.switchTo(a).ok());
        QVERIFY(!host.isNew());
        QVERIFY(hasQueue(host.session(), "alpha"));
        QVERIFY(!hasQueue(host.session(), "beta"));
        QCOMPARE(workspace::recentWorkspaces().mid(0, 2), (QStringList{a, b}));
    }

    void aWorkspaceThatCannotBeOpenedLeavesTheCurrentOne()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.inflight"));
        const QString junk = dir.filePath(QStringLiteral("junk.inflight"));
        QFile file(junk);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a workspace at all, just text that is long enough to be read as a header");
        file.close();
        workspace::WorkspaceHost host;
        QVERIFY(host.open(a).ok());
        createQueue(host.session(), "alpha");
        session::Session* before = &host.session();
        QSignalSpy changing(&host, &workspace::WorkspaceHost::sessionChanging);
        const auto refused = host.switchTo(junk);
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind, store::StoreErrorKind::NotAWorkspace);
        QCOMPARE(changing.size(), 0);
        QCOMPARE(&host.session(), before);
        QCOMPARE(host.path(), a);
        QVERIFY(hasQueue(host.session(), "alpha"));

        // The open workspace itself: refused, nothing changes.
        const auto same = host.switchTo(a);
        QVERIFY(!same);
        QVERIFY(QString::fromStdString(same.error().message).contains(QStringLiteral("open")));
        QCOMPARE(&host.session(), before);
    }

    // A change made just before the switch (not committed yet: no event-loop turn) is in the old
    // workspace when it closes.
    void theOldWorkspaceKeepsWhatWasDoneJustBeforeTheSwitch()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.inflight"));
        workspace::WorkspaceHost host;
        QVERIFY(host.open(a).ok());
        QVERIFY(host.session().broker().createQueue({.name = "late", .origin = "test"}).ok());
        QVERIFY(host.switchTo(dir.filePath(QStringLiteral("b.inflight"))).ok());
        auto reopened = workspace::WorkspaceSession::open(a, store::OpenMode::OpenExisting);
        QVERIFY(reopened.ok());
        QVERIFY(hasQueue((*reopened)->session(), "late"));
    }

    void aCopyAndAnEmptyWorkspaceCanBeSwitchedTo()
    {
        QTemporaryDir dir;
        workspace::WorkspaceHost host;
        QVERIFY(host.open(QString()).ok()); // in memory
        createQueue(host.session(), "alpha");
        const QString copy = dir.filePath(QStringLiteral("copy.inflight"));
        QVERIFY(workspace::saveCopy(host.session(), copy).ok());
        const QString empty = dir.filePath(QStringLiteral("empty.inflight"));
        QVERIFY(workspace::createEmpty(empty).ok());
        QVERIFY(host.switchTo(copy).ok());
        QVERIFY(hasQueue(host.session(), "alpha"));
        QVERIFY(!host.isNew());
        QVERIFY(host.switchTo(empty).ok());
        QVERIFY(!hasQueue(host.session(), "alpha"));
    }

    // The sync mode is the workspace's: saved in it, kept by Save As, and under "normal" what was
    // committed reaches the workspace file itself (a checkpoint, which flushes the WAL to the disk
    // first) within a second, long before SQLite's own checkpoint at 1,000 pages of WAL.
    void theSyncModeIsKeptInTheWorkspaceAndNormalSyncsWithinASecond()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.inflight"));
        workspace::WorkspaceHost host;
        QVERIFY(host.open(a).ok());
        QCOMPARE(host.syncMode(), store::kDefaultSyncMode);
        QCOMPARE(store::kDefaultSyncMode, store::SyncMode::Normal);
        createQueue(host.session(), "alpha");
        QTest::qWait(1200); // the queue's own checkpoint
        const auto before = QFileInfo(a).size();
        for (int i = 0; i < 100; ++i)
            QVERIFY(host.session()
                        .broker()
                        .sendMessage(
                            {.queue = "alpha", .body = std::string(1000, 'x'), .origin = "test"})
                        .ok());
        host.session().advanceNow();
        QTRY_VERIFY(host.session().isDurable());
        QCOMPARE(QFileInfo(a).size(), before); // in the WAL only, for now
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(a).size() >= before + 100'000, 3000);

        QVERIFY(host.setSyncMode(store::SyncMode::Full).ok());
        const QString copy = dir.filePath(QStringLiteral("copy.inflight"));
        QVERIFY(host.switchToCopy(copy).ok());
        QCOMPARE(host.syncMode(), store::SyncMode::Full);
        QVERIFY(host.switchTo(a).ok());
        QCOMPARE(host.syncMode(), store::SyncMode::Full);
        QVERIFY(host.setSyncMode(store::SyncMode::Normal).ok());
        QVERIFY(host.switchTo(copy).ok());
        QVERIFY(host.switchTo(a).ok());
        QCOMPARE(host.syncMode(), store::SyncMode::Normal);
    }
};

QTEST_GUILESS_MAIN(WorkspaceHostTest)
#include "workspace_host_test.moc"
