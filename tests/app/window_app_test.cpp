// The window's run (app/window_app.h): File ▸ New and Open switch workspaces inside the running
// app. The endpoint keeps its port and its connections and answers from the new workspace; a long
// poll waiting in the old one ends empty; a new window shows the new workspace.
#include "control/control_api.h"
#include "listen_address.h"
#include "ui/main_window.h"
#include "ui/workspace/lessons.h"
#include "ui/workspace/workspace_controller.h"
#include "window_app.h"

#include "support/source_dir.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>

using namespace inflight;

class WindowAppTest : public QObject {
    Q_OBJECT

    // Sends one Query request on `client` (kept alive between requests).
    static void post(QTcpSocket& client, quint16 port, const QByteArray& body)
    {
        client.write("POST / HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port)
                     + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                     + QByteArray::number(body.size()) + "\r\n\r\n" + body);
    }
    // Sends one Query request and waits for the answer, which ends with `end`.
    static QByteArray call(QTcpSocket& client, quint16 port, const QByteArray& body,
                           const QByteArray& end)
    {
        post(client, port, body);
        QByteArray response;
        if (!QTest::qWaitFor([&] { return (response += client.readAll()).contains(end); }, 10000))
            qWarning("no answer to %s: %s", body.constData(), response.constData());
        return response;
    }
    static QByteArray listQueues(QTcpSocket& client, quint16 port)
    {
        return call(client, port, "Action=ListQueues&Version=2012-11-05", "</ListQueuesResponse>");
    }
    static ui::WorkspaceController* filesOf(app::WindowApp& run, const QString& chosen)
    {
        auto* files = run.window()->findChild<ui::WorkspaceController*>();
        if (files)
            files->setPathChooser(
                [chosen](ui::WorkspaceController::Choice, const QString&) { return chosen; });
        return files;
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void switchingTwiceKeepsThePortAndAnswersFromTheNewWorkspace()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.inflight"));
        const QString b = dir.filePath(QStringLiteral("b.inflight"));
        app::WindowOptions options;
        options.workspacePath = a;
        options.examples = false;
        options.listen = app::ListenAddress{QHostAddress(QHostAddress::LocalHost), 0};
        app::WindowApp run(options);
        QVERIFY(run.start().ok());
        QVERIFY(run.window() && run.window()->isVisible());
        const quint16 port = run.server().serverPort();
        QVERIFY(port != 0);

        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, port);
        QVERIFY(client.waitForConnected(5000));
        QVERIFY(call(client, port, "Action=CreateQueue&QueueName=alpha&Version=2012-11-05",
                     "</CreateQueueResponse>")
                    .startsWith("HTTP/1.1 200"));
        QVERIFY(listQueues(client, port).contains("/alpha<"));
        // A consumer waiting on alpha in workspace a.
        QTcpSocket waiting;
        waiting.connectToHost(QHostAddress::LocalHost, port);
        QVERIFY(waiting.waitForConnected(5000));
        post(waiting, port,
             "Action=ReceiveMessage&Version=2012-11-05&WaitTimeSeconds=20&QueueUrl="
                 + QUrl::toPercentEncoding(
                     QStringLiteral("http://127.0.0.1:%1/000000000000/alpha").arg(port)));
        QTest::qWait(200);
        QVERIFY(waiting.bytesAvailable() == 0); // still waiting

        // File ▸ New Empty Workspace… b: in place.
        QSignalSpy replaced(&run, &app::WindowApp::windowReplaced);
        ui::WorkspaceController* files = filesOf(run, b);
        QVERIFY(files);
        files->action(QStringLiteral("newWorkspaceAction"))->trigger();
        QTRY_COMPARE(replaced.size(), 1);
        QCOMPARE(run.host().path(), b);
        QVERIFY(run.window()->isVisible());
        QVERIFY(run.window()->windowTitle().startsWith(QStringLiteral("b ")));
        QCOMPARE(run.server().serverPort(), port);
        QVERIFY(run.server().isListening());
        // The long poll of workspace a ended, empty, well before its 20 s.
        QByteArray ended;
        QTRY_VERIFY_WITH_TIMEOUT((ended += waiting.readAll()).contains("</ReceiveMessageResponse>"),
                                 5000);
        QVERIFY2(ended.startsWith("HTTP/1.1 200"), ended.constData());
        QVERIFY(!ended.contains("<Message>"));
        // The same connection, now answered from b.
        QVERIFY(!listQueues(client, port).contains("alpha"));
        QVERIFY(call(client, port, "Action=CreateQueue&QueueName=beta&Version=2012-11-05",
                     "</CreateQueueResponse>")
                    .startsWith("HTTP/1.1 200"));
        QTRY_VERIFY(run.window()->currentQueue() == QStringLiteral("beta")
                    || run.host().session().broker().getQueue("beta").ok());

        // File ▸ Open Workspace… a: back, with its queue.
        files = filesOf(run, a);
        QVERIFY(files);
        files->action(QStringLiteral("openWorkspaceAction"))->trigger();
        QTRY_COMPARE(replaced.size(), 2);
        QCOMPARE(run.host().path(), a);
        QCOMPARE(run.server().serverPort(), port);
        const QByteArray queues = listQueues(client, port);
        QVERIFY2(queues.contains("/alpha<"), queues.constData());
        QVERIFY(!queues.contains("beta"));
        QVERIFY(client.state() == QAbstractSocket::ConnectedState); // one connection throughout

        // File ▸ Save Workspace As… c: a copy of a, with what was sent just before, switched to.
        QVERIFY(call(client, port, "Action=CreateQueue&QueueName=gamma&Version=2012-11-05",
                     "</CreateQueueResponse>")
                    .startsWith("HTTP/1.1 200"));
        const QString c = dir.filePath(QStringLiteral("c.inflight"));
        files = filesOf(run, c);
        QVERIFY(files);
        files->action(QStringLiteral("saveWorkspaceAsAction"))->trigger();
        QTRY_COMPARE(replaced.size(), 3);
        QCOMPARE(run.host().path(), c);
        const QByteArray copied = listQueues(client, port);
        QVERIFY2(copied.contains("/alpha<") && copied.contains("/gamma<"), copied.constData());
    }

    // Issue 37: opening a lesson over a workspace with queues can open it in a new workspace
    // instead: this one stays as it is, the lesson runs in the new one's window.
    void aLessonOpensInANewWorkspaceLeavingThisOneAsItIs()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.inflight"));
        const QString b = dir.filePath(QStringLiteral("b.inflight"));
        app::WindowOptions options;
        options.workspacePath = a;
        options.examples = false;
        options.listen = app::ListenAddress{QHostAddress(QHostAddress::LocalHost), 0};
        app::WindowApp run(options);
        QVERIFY(run.start().ok());
        QVERIFY(run.host().session().broker().createQueue({.name = "keep-me"}).ok());
        QSignalSpy replaced(&run, &app::WindowApp::windowReplaced);
        QVERIFY(filesOf(run, b));
        // The question's third answer.
        QTimer::singleShot(0, [] {
            QWidget* box = QApplication::activeModalWidget();
            auto* button = box
                ? box->findChild<QPushButton*>(QStringLiteral("newWorkspaceForLessonButton"))
                : nullptr;
            if (button)
                button->click();
            else if (box)
                box->close();
        });
        ui::setBuiltInLessonDirectory(
            QString::fromStdString((test::sourceDir() / "resources/scenarios").string()));
        QVERIFY(!ui::builtInLessons().isEmpty());
        const QString lesson = ui::builtInLessons().front().path;
        QVERIFY(!run.window()->openLesson(lesson)); // not here
        QTRY_COMPARE(replaced.size(), 1);
        QCOMPARE(run.host().path(), b);
        QTRY_VERIFY(run.host().session().lessonRun() != nullptr);
        QVERIFY(!run.host().session().broker().getQueue("keep-me").ok());
        QVERIFY(run.window()->lessonDock()->isVisible());
    }

    // The control API's event cursors go on across a switch: a cursor taken before it still
    // means "after what I saw".
    void theControlApiCursorsGoOnAcrossASwitch()
    {
        QTemporaryDir dir;
        app::WindowOptions options;
        options.workspacePath = dir.filePath(QStringLiteral("a.inflight"));
        options.examples = false;
        options.listen = app::ListenAddress{QHostAddress(QHostAddress::LocalHost), 0};
        app::WindowApp run(options);
        QVERIFY(run.start().ok());
        QVERIFY(run.host().session().broker().createQueue({.name = "one", .origin = "t"}).ok());
        run.host().session().flushNow();
        const control::ControlApi* before = run.server().controlApi();
        QVERIFY(before);
        const std::uint64_t seen = before->journal().newest();
        QVERIFY(seen >= 1);
        QVERIFY(run.switchWorkspace(dir.filePath(QStringLiteral("b.inflight")), false).ok());
        QVERIFY(run.host().session().broker().createQueue({.name = "two", .origin = "t"}).ok());
        run.host().session().flushNow();
        const control::ControlApi* after = run.server().controlApi();
        QVERIFY(after);
        QCOMPARE(after->journal().newest(), seen + 1); // "two", numbered after "one"
    }

    void aWorkspaceThatCannotBeOpenedLeavesTheWindowAsItWas()
    {
        QTemporaryDir dir;
        const QString junk = dir.filePath(QStringLiteral("junk.inflight"));
        QFile file(junk);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
        file.close();
        app::WindowOptions options;
        options.examples = false; // in memory
        options.listen = app::ListenAddress{QHostAddress(QHostAddress::LocalHost), 0};
        app::WindowApp run(options);
        QVERIFY(run.start().ok());
        ui::MainWindow* window = run.window();
        QVERIFY(run.switchWorkspace(junk, false).error().contains(QStringLiteral("junk")));
        QCOMPARE(run.window(), window);
        QVERIFY(run.host().path().isEmpty());
        QVERIFY(window->findChild<QWidget*>(QStringLiteral("switchFailedBox")));
    }
};

QTEST_MAIN(WindowAppTest)
#include "window_app_test.moc"
