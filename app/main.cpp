#include "endpoint_adapter.h"
#include "server/http_server.h"
#include "session/session.h"
#include "ui/dialogs/endpoint_dialog.h"
#include "ui/main_window.h"
#include "workspace_session.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHostAddress>
#include <QIcon>
#include <QMessageBox>
#include <QSettings>
#include <QSocketNotifier>
#include <QStandardPaths>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

#include <sys/socket.h>
#include <unistd.h>

namespace {

constexpr quint16 kDefaultPort = 9324;

// Options answered without a window need no display: they run on a QCoreApplication.
bool needsWindow(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        for (const char* option : {"--version", "-v", "--help", "-h", "--help-all", "--headless"}) {
            if (std::strcmp(argv[i], option) == 0)
                return false;
        }
    }
    return true;
}

struct ListenAddress {
    QHostAddress host;
    quint16 port = kDefaultPort;
};

// "127.0.0.1:9324", "0.0.0.0:9324", "[::1]:9324" or a bare port ("9324", on 127.0.0.1).
std::optional<ListenAddress> parseListen(const QString& text)
{
    QString host = QStringLiteral("127.0.0.1");
    QString port = text;
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon >= 0) {
        host = text.left(colon);
        port = text.mid(colon + 1);
        if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
            host = host.mid(1, host.size() - 2);
    }
    bool ok = false;
    const uint number = port.toUInt(&ok);
    const QHostAddress address(host == QStringLiteral("localhost") ? QStringLiteral("127.0.0.1")
                                                                   : host);
    if (!ok || number > 65535 || address.isNull())
        return std::nullopt;
    return ListenAddress{address, static_cast<quint16>(number)};
}

// SIGINT/SIGTERM end the event loop through a socket pair: a signal handler may only write().
int g_signalFds[2] = {-1, -1};

void onSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(g_signalFds[0], &byte, 1);
}

void quitOnSignals(QCoreApplication& app)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalFds) != 0)
        return;
    auto* notifier = new QSocketNotifier(g_signalFds[1], QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, [notifier] {
        notifier->setEnabled(false);
        char byte = 0;
        [[maybe_unused]] const auto got = ::read(g_signalFds[1], &byte, 1);
        QCoreApplication::quit();
    });
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
}

// OCI Queue REST has no call that creates a queue (that is OCI's control plane), so clients of
// the headless endpoint get theirs from the command line: "NAME" or
// "NAME:deadLetterQueueDeliveryCount=2,visibilityInSeconds=10".
bool createOciQueues(inflight::session::Session& session, const QStringList& specs)
{
    for (const QString& spec : specs) {
        const qsizetype colon = spec.indexOf(QLatin1Char(':'));
        inflight::engine::CreateQueueRequest request;
        request.name = spec.left(colon).toStdString();
        request.oci = true;
        request.origin = "command line";
        if (colon >= 0) {
            for (const QString& pair :
                 spec.mid(colon + 1).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                const qsizetype equals = pair.indexOf(QLatin1Char('='));
                request.attributes[pair.left(equals).toStdString()]
                    = equals < 0 ? std::string() : pair.mid(equals + 1).toStdString();
            }
        }
        const auto created = session.broker().createQueue(request);
        if (!created) {
            std::fprintf(stderr, "inflight: --oci-queue %s: %s\n", qPrintable(spec),
                         created.error().message.c_str());
            return false;
        }
    }
    return true;
}

// The workspace the window opens: --workspace, else the last one, else (first launch) the default
// one in the user's data folder. Empty with --in-memory.
QString windowWorkspace(const QCommandLineParser& parser, const QCommandLineOption& workspace,
                        const QCommandLineOption& inMemory)
{
    if (parser.isSet(inMemory))
        return {};
    if (parser.isSet(workspace))
        return parser.value(workspace);
    const QString last = QSettings().value(QStringLiteral("workspace/last")).toString();
    if (!last.isEmpty() && QFileInfo::exists(last))
        return last;
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(folder);
    return folder + QStringLiteral("/default.inflight");
}

int runHeadless(QCoreApplication& app, const ListenAddress& listen, const QStringList& ociQueues,
                const QString& workspacePath)
{
    quitOnSignals(app);
    QString error;
    auto workspace = inflight::app::WorkspaceSession::open(
        workspacePath, inflight::store::OpenMode::OpenOrCreate, &error);
    if (!workspace) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(error));
        return 3;
    }
    inflight::session::Session& session = workspace->session();
    if (!createOciQueues(session, ociQueues))
        return 2;
    inflight::server::HttpServer server(session);
    if (!server.listen(listen.host, listen.port)) {
        std::fprintf(stderr, "inflight: cannot listen on %s:%u: %s\n",
                     qPrintable(listen.host.toString()), listen.port,
                     qPrintable(server.errorString()));
        return 1;
    }
    std::printf("Inflight endpoint listening on %s\n", qPrintable(server.baseUrl()));
    std::fflush(stdout);
    return app.exec();
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication::setApplicationName(QStringLiteral(INFLIGHT_APP_NAME));
    QCoreApplication::setApplicationVersion(QStringLiteral(INFLIGHT_VERSION));
    QCoreApplication::setOrganizationName(QStringLiteral("Inflight"));

    std::unique_ptr<QCoreApplication> app;
    if (needsWindow(argc, argv))
        app = std::make_unique<QApplication>(argc, argv);
    else
        app = std::make_unique<QCoreApplication>(argc, argv);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("A desktop workbench for Amazon SQS and OCI Queue semantics."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption headless(
        QStringLiteral("headless"),
        QStringLiteral("Serve the SQS and OCI Queue endpoint without a window (for test suites "
                       "and CI). Stops on SIGINT or SIGTERM."));
    const QCommandLineOption listen(
        QStringLiteral("listen"),
        QStringLiteral("Address and port of the endpoint (default 127.0.0.1:9324; use "
                       "0.0.0.0:PORT to accept other machines, port 0 for any free port)."),
        QStringLiteral("address:port"), QStringLiteral("127.0.0.1:%1").arg(kDefaultPort));
    const QCommandLineOption ociQueue(
        QStringLiteral("oci-queue"),
        QStringLiteral("Create an OCI Queue at start (repeatable): NAME, or "
                       "NAME:option=value,... with OCI options such as "
                       "deadLetterQueueDeliveryCount=2."),
        QStringLiteral("name[:options]"));
    const QCommandLineOption workspace(
        QStringLiteral("workspace"),
        QStringLiteral("The workspace file to open (created if missing). Everything the engine "
                       "holds is kept there; an acknowledged change is on disk. Default: the "
                       "window opens the last one; --headless runs in memory."),
        QStringLiteral("file"));
    const QCommandLineOption inMemory(QStringLiteral("in-memory"),
                                      QStringLiteral("Run without a workspace: nothing is kept."));
    parser.addOption(headless);
    parser.addOption(listen);
    parser.addOption(ociQueue);
    parser.addOption(workspace);
    parser.addOption(inMemory);
    parser.process(*app); // --help, --version and unknown options end here

    const std::optional<ListenAddress> address = parseListen(parser.value(listen));
    if (!address) {
        std::fprintf(stderr, "inflight: --listen wants ADDRESS:PORT, e.g. 127.0.0.1:9324, not %s\n",
                     qPrintable(parser.value(listen)));
        return 2;
    }
    if (parser.isSet(workspace) && parser.isSet(inMemory)) {
        std::fprintf(stderr, "inflight: --workspace and --in-memory exclude each other\n");
        return 2;
    }
    if (parser.isSet(headless))
        return runHeadless(*app, *address, parser.values(ociQueue),
                           parser.isSet(workspace) ? parser.value(workspace) : QString());

    QApplication::setDesktopFileName(QStringLiteral("inflight"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/inflight.svg")));

    QString workspacePath = windowWorkspace(parser, workspace, inMemory);
    QString error;
    auto opened = inflight::app::WorkspaceSession::open(
        workspacePath, inflight::store::OpenMode::OpenOrCreate, &error);
    if (!opened) {
        QMessageBox::warning(nullptr, QStringLiteral("Inflight"),
                             error
                                 + QStringLiteral("\n\nInflight starts without a workspace "
                                                  "(nothing is kept)."));
        opened = inflight::app::WorkspaceSession::open(
            QString(), inflight::store::OpenMode::OpenOrCreate, nullptr);
    } else if (!workspacePath.isEmpty()) {
        QSettings().setValue(QStringLiteral("workspace/last"), workspacePath);
    }
    inflight::session::Session& session = opened->session();
    if (!createOciQueues(session, parser.values(ociQueue)))
        return 2;
    inflight::server::HttpServer server(session);
    inflight::app::EndpointAdapter endpoint(server);
    // --listen wins over what the user last chose in Endpoint settings (on 127.0.0.1:9324 by
    // default). A taken port does not stop the window: its status bar says why.
    if (parser.isSet(listen)) {
        server.listen(address->host, address->port);
    } else {
        const auto chosen = inflight::ui::EndpointSettings::load();
        if (chosen.enabled)
            endpoint.listen(chosen.host, chosen.port);
    }
    inflight::ui::MainWindow window(session);
    window.setEndpoint(&endpoint);
    if (!opened->path().isEmpty())
        window.setWindowTitle(QFileInfo(opened->path()).completeBaseName()
                              + QStringLiteral(" — Inflight"));
    window.show();
    return app->exec();
}
