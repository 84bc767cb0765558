// The File menu's workspace actions: New, Open, Save As, recent workspaces, export and import of a
// queue, driven through the real window with the file dialogs replaced by chosen paths, over the
// app's real WorkspaceAccess (workspace/workspace_files.h).

#include "store/workspace_store.h"
#include "ui/workspace/workspace_controller.h"
#include "window_test_support.h"
#include "workspace/recent_workspaces.h"
#include "workspace_access_adapter.h"

#include <QFile>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace inflight;
using namespace inflight::ui::test;
using Choice = ui::WorkspaceController::Choice;

class WorkspaceMenuTest : public QObject {
    Q_OBJECT

    struct Menu {
        WindowFixture f;
        std::unique_ptr<app::WorkspaceAccessAdapter> access;
        ui::WorkspaceController* files = nullptr;
        QString chosen;
        QList<Choice> asked;

        explicit Menu(const QString& workspace = QString())
        {
            f.createQueue("a");
            for (const char* body : {"one", "two", "three"})
                f.send("a", body);
            f.createQueue("b");
            f.open();
            access = std::make_unique<app::WorkspaceAccessAdapter>(f.session, workspace);
            files = new ui::WorkspaceController(*access, f.session, f.window.get());
            files->setSelection([this] { return f.window->currentQueue(); },
                                [this] { return f.window->selectedMessageIds(); });
            files->setPathChooser([this](Choice choice, const QString&) {
                asked << choice;
                return chosen;
            });
        }
    };

private Q_SLOTS:
    void init() { isolateSettings(); }

    // The user guide (Help) names shortcuts: each is one an action of the window has, and says
    // what the clock does as it starts (issue 37: "starts paused", Ctrl+Shift+S that did nothing).
    void theGuideNamesOnlyShortcutsTheWindowHas()
    {
        Menu m;
        QFile file(QStringLiteral(":/help/guide.md"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString guide = QString::fromUtf8(file.readAll());
        QSet<QString> shortcuts;
        for (QAction* action : m.f.window->findChildren<QAction*>())
            for (const QKeySequence& key : action->shortcuts())
                shortcuts.insert(key.toString(QKeySequence::PortableText));
        static const QRegularExpression named(QStringLiteral(
            R"(\b(?:(?:Ctrl|Alt|Shift)\+)+(?:[A-Z0-9=-]|F\d+|Del|Delete)\b|\bF\d+\b)"));
        int checked = 0;
        for (auto it = named.globalMatch(guide); it.hasNext();) {
            const QString key = it.next().captured(0);
            QVERIFY2(
                shortcuts.contains(QKeySequence(key).toString(QKeySequence::PortableText)),
                qPrintable(QStringLiteral("the guide names %1, which no action has").arg(key)));
            ++checked;
        }
        QVERIFY(checked >= 10);
        QCOMPARE(m.files->action(QStringLiteral("saveWorkspaceAsAction"))->shortcut(),
                 QKeySequence(QStringLiteral("Ctrl+Shift+S")));
        // A new session's clock runs at 1x: the guide must not say it starts paused.
        session::Session fresh;
        QVERIFY(!fresh.isPaused());
        QVERIFY2(!guide.contains(QStringLiteral("starts paused")),
                 "the guide says it starts paused");
    }

    void everyActionIsNamedAndInTheFileMenu()
    {
        Menu m;
        QMenu* file = nullptr;
        for (QAction* a : m.f.window->menuBar()->actions())
            if (a->text().remove(QLatin1Char('&')) == QStringLiteral("File"))
                file = a->menu();
        QVERIFY(file);
        for (const char* name :
             {"newWorkspaceAction", "newExamplesWorkspaceAction", "openWorkspaceAction",
              "saveWorkspaceAsAction", "exportQueueAction", "importMessagesAction"}) {
            QAction* a = m.files->action(QString::fromLatin1(name));
            QVERIFY2(a, name);
            QVERIFY2(file->actions().contains(a), name);
        }
        QVERIFY(file->actions().contains(m.files->recentMenu()->menuAction()));
        QCOMPARE(m.files->recentMenu()->objectName(), QStringLiteral("recentWorkspacesMenu"));
    }

    // Save As asks the app for a copy to switch to (tests/app makes the app do it); the copy
    // itself holds everything.
    void saveAsAsksForACopyThatHoldsEverything()
    {
        QTemporaryDir dir;
        Menu m;
        m.chosen = dir.filePath(QStringLiteral("copy.inflight"));
        QSignalSpy asked(m.files, &ui::WorkspaceController::saveAsRequested);
        m.files->action(QStringLiteral("saveWorkspaceAsAction"))->trigger();
        QCOMPARE(m.asked, QList<Choice>{Choice::SaveWorkspaceAs});
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.at(0).at(0).toString(), m.chosen);
        QVERIFY(m.files->saveCopy(m.chosen).ok());

        auto reopened
            = store::WorkspaceStore::open(m.chosen.toStdString(), store::OpenMode::OpenExisting);
        QVERIFY(reopened);
        engine::ManualClock clock(kStart);
        engine::Broker broker(clock);
        QVERIFY((*reopened)->restore(broker));
        QCOMPARE(int(broker.peekMessages("a").value().size()), 3);
        QVERIFY(broker.getQueue("b").ok());
    }

    void newCreatesAnEmptyWorkspaceAndOpenSwitchesToOne()
    {
        QTemporaryDir dir;
        Menu m(dir.filePath(QStringLiteral("current.inflight")));
        QSignalSpy switched(m.files, &ui::WorkspaceController::switchRequested);
        m.chosen = dir.filePath(QStringLiteral("fresh")); // the extension is added
        m.files->action(QStringLiteral("newWorkspaceAction"))->trigger();
        QCOMPARE(switched.size(), 1);
        const QString fresh = dir.filePath(QStringLiteral("fresh.inflight"));
        QCOMPARE(switched.at(0).at(0).toString(), fresh);
        QCOMPARE(switched.at(0).at(1).toBool(), false); // empty
        m.chosen = dir.filePath(QStringLiteral("demo.inflight"));
        m.files->action(QStringLiteral("newExamplesWorkspaceAction"))->trigger();
        QCOMPARE(switched.size(), 2);
        QCOMPARE(switched.at(1).at(1).toBool(), true); // with the examples
        switched.clear();
        auto created
            = store::WorkspaceStore::open(fresh.toStdString(), store::OpenMode::OpenExisting);
        QVERIFY(created);
        (*created).reset();

        m.chosen = fresh;
        m.files->action(QStringLiteral("openWorkspaceAction"))->trigger();
        QCOMPARE(switched.size(), 1);
        QCOMPARE(switched.at(0).at(0).toString(), fresh);
        QCOMPARE(switched.at(0).at(1).toBool(), false);

        // Cancelling the dialog does nothing.
        m.chosen.clear();
        m.files->action(QStringLiteral("openWorkspaceAction"))->trigger();
        QCOMPARE(switched.size(), 1);
    }

    void recentWorkspacesListsOthersNewestFirst()
    {
        QTemporaryDir dir;
        QStringList paths;
        for (const char* name : {"x.inflight", "y.inflight", "current.inflight"}) {
            paths << dir.filePath(QString::fromLatin1(name));
            QFile touch(paths.last());
            QVERIFY(touch.open(QIODevice::WriteOnly));
            workspace::rememberWorkspace(paths.last());
        }
        Menu m(paths.last());
        QSignalSpy switched(m.files, &ui::WorkspaceController::switchRequested);
        Q_EMIT m.files->recentMenu()->aboutToShow();
        const QList<QAction*> recent = m.files->recentMenu()->actions();
        QCOMPARE(recent.size(), 2); // not the open one
        QCOMPARE(recent.at(0)->data().toString(), paths.at(1));
        QCOMPARE(recent.at(1)->data().toString(), paths.at(0));
        recent.at(1)->trigger();
        QCOMPARE(switched.size(), 1);
        QCOMPARE(switched.at(0).at(0).toString(), paths.at(0));
    }

    void exportThenImportIntoAnotherQueue()
    {
        QTemporaryDir dir;
        Menu m;
        QVERIFY(m.f.window->selectQueue(QStringLiteral("a")));
        m.chosen = dir.filePath(QStringLiteral("a.json"));
        QSignalSpy finished(m.files, &ui::WorkspaceController::finished);
        m.files->action(QStringLiteral("exportQueueAction"))->trigger();
        QCOMPARE(finished.size(), 1);
        QVERIFY2(finished.at(0).at(1).toBool(), qPrintable(finished.at(0).at(0).toString()));
        QFile exported(m.chosen);
        QVERIFY(exported.open(QIODevice::ReadOnly));
        const QByteArray text = exported.readAll();
        QVERIFY(text.contains("\"two\""));

        QVERIFY(m.f.window->selectQueue(QStringLiteral("b")));
        m.files->action(QStringLiteral("importMessagesAction"))->trigger();
        QTRY_COMPARE(finished.size(), 2);
        QVERIFY2(finished.at(1).at(1).toBool(), qPrintable(finished.at(1).at(0).toString()));
        QCOMPARE(int(m.f.peek("b").size()), 3);
        QCOMPARE(int(m.f.peek("a").size()), 3);
    }

    void exportOfASelectionHasOnlyThoseMessages()
    {
        QTemporaryDir dir;
        Menu m;
        const auto messages = m.f.peek("a");
        const QString file = dir.filePath(QStringLiteral("some.json"));
        QVERIFY(m.files
                    ->exportQueue(QStringLiteral("a"),
                                  {QString::fromStdString(messages.at(0).messageId)}, file)
                    .ok());
        QFile exported(file);
        QVERIFY(exported.open(QIODevice::ReadOnly));
        const QByteArray text = exported.readAll();
        QCOMPARE(text.count("\"messageId\""), 1);
    }

    void aFailedSaveIsShownUntilSavingWorksAgain()
    {
        Menu m;
        bool full = true;
        m.f.session.setPersistence([&full](std::span<const engine::Event>) {
            return full ? session::Session::Stored(std::string("disk full"))
                        : session::Session::Stored(engine::Done{});
        });
        m.f.send("a", "four");
        QTRY_VERIFY(
            m.f.window->statusBar()->currentMessage().contains(QStringLiteral("disk full")));
        QVERIFY(!m.f.session.isDurable());
        full = false;
        QTRY_VERIFY_WITH_TIMEOUT(m.f.session.isDurable(), 5000);
        QTRY_VERIFY(m.f.window->statusBar()->currentMessage().contains(QStringLiteral("again")));
        m.f.session.setPersistence({});
    }

    void badJsonNamesTheLineAndImportsNothing()
    {
        QTemporaryDir dir;
        Menu m;
        const QString file = dir.filePath(QStringLiteral("bad.json"));
        QFile bad(file);
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"format\": \"inflight-queues\", \"version\": 1, \"queues\": [\n"
                  "{\"name\": \"a\", \"messages\": [\n"
                  "  {\"body\": \"fine\"},\n"
                  "  {\"body\": oops}\n"
                  "]}]}\n");
        bad.close();
        const auto imported = m.files->importFile(file, QStringLiteral("b"), false);
        QVERIFY(!imported);
        QVERIFY2(imported.error().startsWith(file + QStringLiteral(": line 4, column")),
                 qPrintable(imported.error()));
        QCOMPARE(int(m.f.peek("b").size()), 0);
    }
};

QTEST_MAIN(WorkspaceMenuTest)
#include "workspace_menu_test.moc"
