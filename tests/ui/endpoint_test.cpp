// The SQS endpoint in the window: its address (or why there is none) in the status bar, the
// Endpoint settings dialog that moves it or turns it off and remembers the choice, and the real
// HTTP server behind the window: a client's CreateQueue shows up like the user's own actions, with
// the client's address as its origin.

#include "endpoint_adapter.h"
#include "server/http_server.h"
#include "ui/dialogs/endpoint_dialog.h"
#include "ui/models/event_log_model.h"
#include "ui/widgets/endpoint_control.h"
#include "ui/widgets/endpoint_status.h"
#include "ui/widgets/event_log_view.h"
#include "ui/widgets/palette_colors.h"
#include "window_test_support.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSpinBox>
#include <QStatusBar>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>

#include <utility>
#include <vector>

using namespace inflight;
using namespace inflight::ui::test;

namespace {

// An endpoint that does what the test says: listens where asked unless told to fail.
class FakeEndpoint : public ui::EndpointControl {
public:
    bool isListening() const override { return m_listening; }
    QString address() const override { return m_listening ? m_address : QString(); }
    QString errorString() const override { return m_error; }
    bool listen(const QString& host, quint16 port) override
    {
        calls.emplace_back(host, port);
        if (!failWith.isEmpty()) {
            m_error = failWith; // as the real one: where it was, serving
        } else {
            m_listening = true;
            m_address = QStringLiteral("%1:%2").arg(host).arg(port);
            m_error.clear();
        }
        Q_EMIT changed();
        return failWith.isEmpty();
    }
    void close() override
    {
        ++closes;
        m_listening = false;
        m_error.clear();
        Q_EMIT changed();
    }
    QString checkSignaturesWith(const QString& file) override
    {
        m_credentials = file;
        return {};
    }
    QString credentialsFile() const override { return m_credentials; }

    std::vector<std::pair<QString, quint16>> calls;
    int closes = 0;
    QString failWith;

private:
    bool m_listening = false;
    QString m_address;
    QString m_error;
    QString m_credentials;
};

ui::EndpointStatus* statusOf(ui::MainWindow& window)
{
    return child<ui::EndpointStatus>(window.statusBar(), QStringLiteral("endpointStatus"));
}

QPointer<ui::EndpointDialog> openSettings(ui::MainWindow& window)
{
    QAction* action = window.action(QStringLiteral("endpointSettingsAction"));
    if (!action) {
        QTest::qFail("no endpointSettingsAction", __FILE__, __LINE__);
        return nullptr;
    }
    action->trigger();
    return openedDialog<ui::EndpointDialog>(&window);
}

} // namespace

class EndpointTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    void withoutEndpointTheWindowShowsNone()
    {
        WindowFixture f;
        f.createQueue("a");
        ui::MainWindow& w = f.open();
        QVERIFY(!w.statusBar()->findChild<ui::EndpointStatus*>());
        QVERIFY(!w.action(QStringLiteral("endpointSettingsAction")));
        auto* menu = w.menuBar()->findChild<QMenu*>(QStringLiteral("endpointMenu"));
        QVERIFY(menu && !menu->menuAction()->isVisible());
    }

    void statusShowsTheAddressOffAndFailed()
    {
        WindowFixture f;
        f.createQueue("a");
        ui::MainWindow& w = f.open();
        FakeEndpoint endpoint;
        QVERIFY(endpoint.listen(QStringLiteral("127.0.0.1"), 9324));
        w.setEndpoint(&endpoint);
        flush();

        ui::EndpointStatus* status = statusOf(w);
        QVERIFY(status->isVisible());
        QCOMPARE(status->text(), QStringLiteral("SQS endpoint: http://127.0.0.1:9324"));
        QVERIFY(status->toolTip().contains(
            QStringLiteral("aws --endpoint-url http://127.0.0.1:9324 sqs list-queues")));
        QVERIFY(!status->isWarning());
        auto* label = child<QLabel>(status, QStringLiteral("endpointLabel"));
        QVERIFY(label->palette().color(QPalette::WindowText) != ui::warningColor(label->palette()));
        // The whole address is visible, not cut off by the status bar.
        QVERIFY(label->width() >= label->sizeHint().width());
        QVERIFY(child<QWidget>(status, QStringLiteral("endpointCopyButton"))->isVisible());
        child<QAction>(status, QStringLiteral("copyEndpointAction"))->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("http://127.0.0.1:9324"));
        auto* menu = w.menuBar()->findChild<QMenu*>(QStringLiteral("endpointMenu"));
        QVERIFY(menu && menu->menuAction()->isVisible());
        QVERIFY(menu->actions().contains(w.action(QStringLiteral("endpointSettingsAction"))));

        endpoint.close();
        QCOMPARE(status->text(), QStringLiteral("Endpoint off"));
        QVERIFY(status->isWarning());
        QCOMPARE(label->palette().color(QPalette::WindowText), ui::warningColor(label->palette()));
        QVERIFY(!child<QWidget>(status, QStringLiteral("endpointCopyButton"))->isVisible());

        endpoint.failWith = QStringLiteral("The bound address is already in use");
        QVERIFY(!endpoint.listen(QStringLiteral("127.0.0.1"), 9324));
        QCOMPARE(status->text(),
                 QStringLiteral("Endpoint failed: The bound address is already in use"));
        QVERIFY(status->isWarning());
    }

    void dialogMovesTheEndpointAndRemembersIt()
    {
        WindowFixture f;
        f.createQueue("a");
        ui::MainWindow& w = f.open();
        FakeEndpoint endpoint;
        endpoint.listen(QStringLiteral("127.0.0.1"), 9324);
        endpoint.calls.clear();
        w.setEndpoint(&endpoint);

        QPointer<ui::EndpointDialog> dialog = openSettings(w);
        QVERIFY(dialog);
        QVERIFY(child<QCheckBox>(dialog, QStringLiteral("enabledCheck"))->isChecked());
        QCOMPARE(child<QComboBox>(dialog, QStringLiteral("hostCombo"))->currentText(),
                 QStringLiteral("127.0.0.1"));
        QCOMPARE(child<QSpinBox>(dialog, QStringLiteral("portSpin"))->value(), 9324);
        QVERIFY(!child<QLabel>(dialog, QStringLiteral("hostNoteLabel"))->isVisible());
        child<QSpinBox>(dialog, QStringLiteral("portSpin"))->setValue(9400);
        click(dialog, QStringLiteral("okButton"));

        QCOMPARE(endpoint.calls.size(), 1u);
        QCOMPARE(endpoint.calls[0].first, QStringLiteral("127.0.0.1"));
        QCOMPARE(endpoint.calls[0].second, quint16(9400));
        QVERIFY(!dialog || !dialog->isVisible());
        QCOMPARE(statusOf(w)->text(), QStringLiteral("SQS endpoint: http://127.0.0.1:9400"));
        QSettings settings;
        QCOMPARE(settings.value(QStringLiteral("endpoint/port")).toInt(), 9400);
        QCOMPARE(settings.value(QStringLiteral("endpoint/enabled")).toBool(), true);
        QCOMPARE(settings.value(QStringLiteral("endpoint/host")).toString(),
                 QStringLiteral("127.0.0.1"));
        const ui::EndpointSettings loaded = ui::EndpointSettings::load();
        QVERIFY(loaded.enabled);
        QCOMPARE(loaded.port, quint16(9400));
    }

    void allInterfacesComeWithANote()
    {
        WindowFixture f;
        f.createQueue("a");
        ui::MainWindow& w = f.open();
        FakeEndpoint endpoint;
        w.setEndpoint(&endpoint);
        QPointer<ui::EndpointDialog> dialog = openSettings(w);
        QVERIFY(dialog);
        child<QCheckBox>(dialog, QStringLiteral("enabledCheck"))->setChecked(true);
        child<QComboBox>(dialog, QStringLiteral("hostCombo"))
            ->setCurrentText(QStringLiteral("0.0.0.0"));
        QVERIFY(child<QLabel>(dialog, QStringLiteral("hostNoteLabel"))->isVisible());
        QVERIFY(child<QLabel>(dialog, QStringLiteral("hostNoteLabel"))
                    ->text()
                    .contains(QStringLiteral("Other machines can connect")));
        click(dialog, QStringLiteral("okButton"));
        QCOMPARE(endpoint.calls.back().first, QStringLiteral("0.0.0.0"));
        QCOMPARE(QSettings().value(QStringLiteral("endpoint/host")).toString(),
                 QStringLiteral("0.0.0.0"));
    }

    void aFailedApplyIsShownInlineAndKeepsTheDialogOpen()
    {
        WindowFixture f;
        f.createQueue("a");
        ui::MainWindow& w = f.open();
        FakeEndpoint endpoint;
        endpoint.listen(QStringLiteral("127.0.0.1"), 9324);
        w.setEndpoint(&endpoint);
        QPointer<ui::EndpointDialog> dialog = openSettings(w);
        QVERIFY(dialog);
        endpoint.failWith = QStringLiteral("The bound address is already in use");
        child<QSpinBox>(dialog, QStringLiteral("portSpin"))->setValue(80);
        click(dialog, QStringLiteral("okButton"));

        QVERIFY(dialog && dialog->isVisible());
        QVERIFY2(dialog->errorText().contains(QStringLiteral("already in use")),
                 qPrintable(dialog->errorText()));
        QVERIFY(dialog->errorText().contains(QStringLiteral("127.0.0.1:80")));
        QVERIFY(child<QLabel>(dialog, QStringLiteral("errorLabel"))->isVisible());
        // Still serving where it was.
        QCOMPARE(statusOf(w)->text(), QStringLiteral("SQS endpoint: http://127.0.0.1:9324"));
        QVERIFY(!QSettings().contains(QStringLiteral("endpoint/port"))); // not remembered

        // Another port works: the error goes, the dialog closes.
        endpoint.failWith.clear();
        child<QSpinBox>(dialog, QStringLiteral("portSpin"))->setValue(9500);
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(!dialog || !dialog->isVisible());
        QCOMPARE(statusOf(w)->text(), QStringLiteral("SQS endpoint: http://127.0.0.1:9500"));
    }

    void turningItOffIsRemembered()
    {
        WindowFixture f;
        f.createQueue("a");
        ui::MainWindow& w = f.open();
        FakeEndpoint endpoint;
        endpoint.listen(QStringLiteral("127.0.0.1"), 9324);
        w.setEndpoint(&endpoint);
        QPointer<ui::EndpointDialog> dialog = openSettings(w);
        QVERIFY(dialog);
        child<QCheckBox>(dialog, QStringLiteral("enabledCheck"))->setChecked(false);
        QVERIFY(!child<QSpinBox>(dialog, QStringLiteral("portSpin"))->isEnabled());
        click(dialog, QStringLiteral("okButton"));
        QCOMPARE(endpoint.closes, 1);
        QCOMPARE(statusOf(w)->text(), QStringLiteral("Endpoint off"));
        QCOMPARE(QSettings().value(QStringLiteral("endpoint/enabled")).toBool(), false);
        QVERIFY(!ui::EndpointSettings::load().enabled);

        // Reopened: off, the remembered port ready to turn it on again.
        dialog = openSettings(w);
        QVERIFY(dialog);
        QVERIFY(!child<QCheckBox>(dialog, QStringLiteral("enabledCheck"))->isChecked());
        QCOMPARE(child<QSpinBox>(dialog, QStringLiteral("portSpin"))->value(), 9324);
        dialog->reject();
    }

    // A credentials file in Endpoint settings makes the real server check every SQS signature; a
    // file it cannot use is shown in the dialog, which stays open, and nothing changes.
    void aCredentialsFileMakesTheEndpointCheckSignatures()
    {
        WindowFixture f;
        f.createQueue("a");
        ui::MainWindow& w = f.open();
        server::HttpServer server(f.session);
        app::EndpointAdapter endpoint(server);
        QVERIFY2(endpoint.listen(QStringLiteral("127.0.0.1"), 0),
                 qPrintable(endpoint.errorString()));
        w.setEndpoint(&endpoint);
        const QString address = QStringLiteral("127.0.0.1:%1").arg(server.serverPort());
        const auto listQueues = [&] {
            QTcpSocket client;
            client.connectToHost(QHostAddress::LocalHost, server.serverPort());
            const QByteArray body = "Action=ListQueues&Version=2012-11-05";
            client.write("POST / HTTP/1.1\r\nHost: " + address.toLatin1()
                         + "\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                           "Content-Length: "
                         + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n"
                         + body);
            QByteArray response;
            QDeadlineTimer deadline(10000);
            while (!response.contains("Response>") && !deadline.hasExpired()) {
                QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
                client.waitForReadyRead(50);
                response += client.readAll();
            }
            return response;
        };
        QVERIFY(listQueues().startsWith("HTTP/1.1 200")); // any signature, or none

        QTemporaryDir folder;
        const QString bad = folder.filePath(QStringLiteral("bad.ini"));
        QFile badFile(bad);
        QVERIFY(badFile.open(QIODevice::WriteOnly));
        badFile.write("[default]\naws_access_key_id = AKIDONLY\n");
        badFile.close();
        QPointer<ui::EndpointDialog> dialog = openSettings(w);
        QVERIFY(dialog);
        child<QLineEdit>(dialog, QStringLiteral("credentialsEdit"))->setText(bad);
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY2(dialog->errorText().contains(QStringLiteral("aws_secret_access_key")),
                 qPrintable(dialog->errorText()));
        QVERIFY(listQueues().startsWith("HTTP/1.1 200")); // nothing changed

        const QString good = folder.filePath(QStringLiteral("credentials"));
        QFile goodFile(good);
        QVERIFY(goodFile.open(QIODevice::WriteOnly));
        goodFile.write("[default]\naws_access_key_id = AKIDWINDOW\naws_secret_access_key = s\n");
        goodFile.close();
        child<QLineEdit>(dialog, QStringLiteral("credentialsEdit"))->setText(good);
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(!dialog || !dialog->isVisible());
        QCOMPARE(endpoint.credentialsFile(), good);
        QCOMPARE(ui::EndpointSettings::load().credentialsFile, good);
        const QByteArray refused = listQueues();
        QVERIFY2(refused.startsWith("HTTP/1.1 403")
                     && refused.contains("<Code>MissingAuthenticationToken</Code>"),
                 refused.constData());

        // Reopened, the dialog shows the file; emptied, any signature is accepted again.
        dialog = openSettings(w);
        QVERIFY(dialog);
        QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("credentialsEdit"))->text(), good);
        child<QLineEdit>(dialog, QStringLiteral("credentialsEdit"))->clear();
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(endpoint.credentialsFile().isEmpty());
        QVERIFY(listQueues().startsWith("HTTP/1.1 200"));
        endpoint.close();
    }

    void settingsDefaultToLoopback9324()
    {
        const ui::EndpointSettings defaults = ui::EndpointSettings::load();
        QVERIFY(defaults.enabled);
        QCOMPARE(defaults.host, QStringLiteral("127.0.0.1"));
        QCOMPARE(defaults.port, quint16(9324));
    }

    // The real server behind the window: a client's CreateQueue over HTTP lands in the queue
    // list and in the event log with the client's address as its origin.
    // Issue 37: a port in use, chosen in Endpoint settings, must not stop the running endpoint;
    // neither must Cancel afterwards. A client reaches it on its old port all along.
    void aTakenPortInSettingsLeavesTheEndpointServing()
    {
        WindowFixture f;
        f.createQueue("a");
        ui::MainWindow& w = f.open();
        server::HttpServer server(f.session);
        app::EndpointAdapter endpoint(server);
        QVERIFY(endpoint.listen(QStringLiteral("127.0.0.1"), 0));
        w.setEndpoint(&endpoint);
        const quint16 port = server.serverPort();
        const QString address = QStringLiteral("127.0.0.1:%1").arg(port);
        const auto reachable = [port, address] {
            QTcpSocket client;
            client.connectToHost(QHostAddress::LocalHost, port);
            if (!client.waitForConnected(5000))
                return false;
            const QByteArray body = "Action=ListQueues&Version=2012-11-05";
            client.write("POST / HTTP/1.1\r\nHost: " + address.toLatin1()
                         + "\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                           "Content-Length: "
                         + QByteArray::number(body.size()) + "\r\n\r\n" + body);
            QByteArray response;
            for (int i = 0; i < 100 && !response.contains("</ListQueuesResponse>"); ++i) {
                QTest::qWait(20);
                response += client.readAll();
            }
            return response.startsWith("HTTP/1.1 200");
        };
        QVERIFY(reachable());

        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost, 0));
        QPointer<ui::EndpointDialog> dialog = openSettings(w);
        QVERIFY(dialog);
        child<QSpinBox>(dialog, QStringLiteral("portSpin"))->setValue(taken.serverPort());
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(dialog && dialog->isVisible()); // the reason, inline
        QVERIFY2(!dialog->errorText().isEmpty(), "no reason shown");
        QVERIFY(server.isListening());
        QCOMPARE(server.serverPort(), port);
        QCOMPARE(statusOf(w)->text(), QStringLiteral("SQS endpoint: http://") + address);
        QVERIFY(reachable());

        click(dialog, QStringLiteral("cancelButton"));
        QVERIFY(!dialog || !dialog->isVisible());
        QCOMPARE(server.serverPort(), port);
        QCOMPARE(statusOf(w)->text(), QStringLiteral("SQS endpoint: http://") + address);
        QVERIFY(reachable());
    }

    void clientTrafficShowsInTheWindowWithItsOrigin()
    {
        WindowFixture f;
        f.createQueue("a");
        ui::MainWindow& w = f.open();
        server::HttpServer server(f.session);
        app::EndpointAdapter endpoint(server);
        QVERIFY2(endpoint.listen(QStringLiteral("127.0.0.1"), 0),
                 qPrintable(endpoint.errorString()));
        w.setEndpoint(&endpoint);
        flush();
        const quint16 port = server.serverPort();
        QVERIFY(port != 0);
        const QString address = QStringLiteral("127.0.0.1:%1").arg(port);
        QCOMPARE(endpoint.address(), address);
        QCOMPARE(statusOf(w)->text(), QStringLiteral("SQS endpoint: http://") + address);

        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, port);
        QVERIFY(client.waitForConnected(5000));
        const QByteArray body = "Action=CreateQueue&QueueName=from-client&Version=2012-11-05";
        client.write("POST / HTTP/1.1\r\nHost: " + address.toLatin1()
                     + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                     + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QByteArray response;
        QTRY_VERIFY_WITH_TIMEOUT((response += client.readAll()).contains("</CreateQueueResponse>"),
                                 10000);
        QVERIFY2(response.startsWith("HTTP/1.1 200"), response.constData());
        const QString clientOrigin = QStringLiteral("127.0.0.1:%1").arg(client.localPort());

        QTRY_VERIFY(shownQueues(w).contains(QStringLiteral("from-client")));
        const QAbstractItemModel* log = w.eventLog()->model();
        QString origin;
        QTRY_VERIFY([&] {
            for (int row = 0; row < log->rowCount(); ++row) {
                if (log->index(row, ui::EventLogModel::QueueColumn).data().toString()
                    == QStringLiteral("from-client")) {
                    origin = log->index(row, ui::EventLogModel::OriginColumn).data().toString();
                    return true;
                }
            }
            return false;
        }());
        QCOMPARE(origin, clientOrigin);

        // A move to a taken port, or to no address, fails and says why; the endpoint stays.
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost, 0));
        QVERIFY(!endpoint.listen(QStringLiteral("127.0.0.1"), taken.serverPort()));
        QVERIFY(!endpoint.errorString().isEmpty());
        QCOMPARE(statusOf(w)->text(), QStringLiteral("SQS endpoint: http://") + address);
        QVERIFY(!endpoint.listen(QStringLiteral("not-an-address"), 1234));
        QVERIFY(endpoint.errorString().contains(QStringLiteral("not an IP address")));
        QCOMPARE(statusOf(w)->text(), QStringLiteral("SQS endpoint: http://") + address);
        endpoint.close();
        QCOMPARE(statusOf(w)->text(), QStringLiteral("Endpoint off"));
        client.abort();
    }
};

QTEST_MAIN(EndpointTest)
#include "endpoint_test.moc"
