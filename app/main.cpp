#include "control/control_api.h"
#include "endpoint_adapter.h"
#include "endpoint_options.h"
#include "protocol/sqs_codec.h"
#include "run_setup.h"
#include "server/http_server.h"
#include "session/session.h"
#include "store/queue_transfer.h"
#include "traffic/traffic_file.h"
#include "traffic/traffic_log.h"
#include "ui/dialogs/endpoint_dialog.h"
#include "ui/main_window.h"
#include "ui/models/client_directory.h"
#include "ui/workspace/workspace_controller.h"
#include "workspace_session.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QIcon>
#include <QMessageBox>
#include <QProcess>
#include <QSaveFile>
#include <QSettings>
#include <QSocketNotifier>
#include <QStandardPaths>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <variant>

#include <sys/socket.h>
#include <unistd.h>

namespace {

constexpr quint16 kDefaultPort = 9324;

// Options answered without a window need no display: they run on a QCoreApplication.
bool needsWindow(int argc, char* argv[])
{
    if (argc > 1 && (std::strcmp(argv[1], "export") == 0 || std::strcmp(argv[1], "import") == 0))
        return false;
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

// The engine's options for this run: its seed, from --seed or the system's entropy; the
// in-flight limit of --in-flight-limit.
inflight::engine::BrokerOptions brokerOptions(const inflight::app::RunOptions& run)
{
    inflight::engine::BrokerOptions options;
    options.seed = run.seed;
    if (run.inFlightLimit)
        options.inFlightLimitStandard = options.inFlightLimitFifo = *run.inFlightLimit;
    return options;
}

// The control API for a session, unless --control off; it reads `traffic` (may be null).
std::unique_ptr<inflight::control::ControlApi> controlApi(
    inflight::session::Session& session, const inflight::app::RunOptions& run,
    const inflight::traffic::TrafficLog* traffic)
{
    if (!run.control)
        return nullptr;
    return std::make_unique<inflight::control::ControlApi>(
        session,
        inflight::control::ControlOptions{.version = QCoreApplication::applicationVersion(),
                                          .token = run.controlToken,
                                          .traffic = traffic});
}

// The traffic log of a run (on unless --traffic-log off) and its file (--traffic-log FILE).
struct Traffic {
    std::unique_ptr<inflight::traffic::TrafficLog> log;
    std::unique_ptr<inflight::traffic::TrafficFile> file;
};

// The run's traffic log; empty with the reason when its file cannot be opened.
std::variant<Traffic, QString> trafficLog(const inflight::app::RunOptions& run)
{
    Traffic traffic;
    if (!run.trafficLog)
        return traffic;
    traffic.log = std::make_unique<inflight::traffic::TrafficLog>();
    if (!run.trafficLogPath.isEmpty()) {
        traffic.file = std::make_unique<inflight::traffic::TrafficFile>(*traffic.log);
        if (!traffic.file->open(run.trafficLogPath))
            return QStringLiteral("--traffic-log %1: %2")
                .arg(run.trafficLogPath, traffic.file->errorString());
    }
    return traffic;
}

int runHeadless(QCoreApplication& app, const ListenAddress& listen, const QStringList& ociQueues,
                const QString& workspacePath, inflight::server::SocketThreading threading,
                const inflight::app::EndpointOptions& endpointOptions,
                const inflight::app::RunOptions& run)
{
    quitOnSignals(app);
    QString error;
    auto workspace = inflight::app::WorkspaceSession::open(
        workspacePath, inflight::store::OpenMode::OpenOrCreate, &error, {}, brokerOptions(run),
        run.start, run.frozen);
    if (!workspace) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(error));
        return 3;
    }
    inflight::session::Session& session = workspace->session();
    if (!createOciQueues(session, ociQueues))
        return 2;
    if (const QString failed = inflight::app::applyRunOptions(session, run, /*playLesson=*/false);
        !failed.isEmpty()) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(failed));
        return 2;
    }
    auto traffic = trafficLog(run);
    if (const auto* failed = std::get_if<QString>(&traffic)) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(*failed));
        return 2;
    }
    const Traffic& log = std::get<Traffic>(traffic);
    const auto control = controlApi(session, run, log.log.get());
    inflight::server::HttpServer server(session, threading);
    server.setLimits(endpointOptions.limits);
    server.setAccessPolicy(endpointOptions.access);
    server.setAdvertisedUrl(run.advertisedUrl);
    server.setControlApi(control.get());
    server.setTrafficLog(log.log.get());
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

// Waits until what the session has done is on disk; false if it could not be stored.
bool waitDurable(inflight::session::Session& session)
{
    bool stored = false;
    QEventLoop loop;
    session.whenDurable(&loop, [&](bool ok) {
        stored = ok;
        loop.quit();
    });
    if (!session.isDurable())
        loop.exec();
    else
        stored = true;
    return stored;
}

// `inflight export --workspace FILE [--queue NAME]... [--selection ID]... [--output F]` and
// `inflight import --workspace FILE [--queue NAME] [--regenerate-ids] F`.
int runTransfer(QCoreApplication& app, const QString& command)
{
    QCommandLineParser parser;
    const bool isExport = command == QStringLiteral("export");
    parser.setApplicationDescription(
        isExport ? QStringLiteral("Export queues and their messages from a workspace to JSON.")
                 : QStringLiteral("Import queues and messages from JSON into a workspace. Bad "
                                  "JSON imports nothing and names the line."));
    parser.addHelpOption();
    parser.addPositionalArgument(command, QStringLiteral("The command."));
    const QCommandLineOption workspace(QStringLiteral("workspace"),
                                       QStringLiteral("The workspace file (required)."),
                                       QStringLiteral("file"));
    const QCommandLineOption queue(
        QStringLiteral("queue"),
        isExport ? QStringLiteral("A queue to export (repeatable; default: every queue).")
                 : QStringLiteral("Import every message into this queue, which must exist "
                                  "(default: each queue of the file into its own, created when "
                                  "missing)."),
        QStringLiteral("name"));
    const QCommandLineOption output(
        QStringLiteral("output"), QStringLiteral("Write to this file (default: standard output)."),
        QStringLiteral("file"));
    const QCommandLineOption message(QStringLiteral("message"),
                                     QStringLiteral("Export only this message id (repeatable)."),
                                     QStringLiteral("id"));
    const QCommandLineOption regenerate(
        QStringLiteral("regenerate-ids"),
        QStringLiteral("New FIFO deduplication ids (and group \"imported\" where none)."));
    parser.addOption(workspace);
    parser.addOption(queue);
    if (isExport) {
        parser.addOption(output);
        parser.addOption(message);
    } else {
        parser.addOption(regenerate);
        parser.addPositionalArgument(
            QStringLiteral("file"),
            QStringLiteral("The JSON file to import (- for standard input)."));
    }
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    if (!parser.isSet(workspace) || (!isExport && args.size() != 2)
        || (isExport && args.size() != 1)) {
        std::fprintf(stderr, "inflight: usage: %s\n",
                     isExport
                         ? "inflight export --workspace FILE [--queue NAME]... [--output F]"
                         : "inflight import --workspace FILE [--queue NAME] [--regenerate-ids] "
                           "FILE.json");
        return 2;
    }
    QString error;
    auto opened
        = inflight::app::WorkspaceSession::open(parser.value(workspace),
                                                isExport ? inflight::store::OpenMode::OpenExisting
                                                         : inflight::store::OpenMode::OpenOrCreate,
                                                &error);
    if (!opened) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(error));
        return 3;
    }
    inflight::session::Session& session = opened->session();
    if (isExport) {
        inflight::store::ExportRequest request;
        for (const QString& name : parser.values(queue))
            request.queues.push_back(name.toStdString());
        for (const QString& id : parser.values(message))
            request.messageIds.push_back(id.toStdString());
        const auto text = inflight::store::exportQueues(session.broker(), request);
        if (!text) {
            std::fprintf(stderr, "inflight: %s\n", text.error().message.c_str());
            return 1;
        }
        if (!parser.isSet(output)) {
            std::fwrite(text->data(), 1, text->size(), stdout);
            return std::fflush(stdout) == 0 ? 0 : 1;
        }
        QSaveFile out(parser.value(output));
        if (!out.open(QIODevice::WriteOnly)
            || out.write(text->data(), static_cast<qint64>(text->size()))
                != static_cast<qint64>(text->size())
            || !out.commit()) {
            std::fprintf(stderr, "inflight: cannot write %s: %s\n",
                         qPrintable(parser.value(output)), qPrintable(out.errorString()));
            return 1;
        }
        return 0;
    }
    QFile in;
    const QString path = args.at(1);
    const bool opened_ = path == QStringLiteral("-")
        ? in.open(stdin, QIODevice::ReadOnly)
        : (in.setFileName(path), in.open(QIODevice::ReadOnly));
    if (!opened_) {
        std::fprintf(stderr, "inflight: cannot read %s: %s\n", qPrintable(path),
                     qPrintable(in.errorString()));
        return 1;
    }
    const QByteArray text = in.readAll();
    inflight::store::ImportRequest request;
    request.intoQueue = parser.value(queue).toStdString();
    request.regenerateIds = parser.isSet(regenerate);
    request.origin = "command line";
    const auto result = inflight::store::importQueues(
        session.broker(), std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
        request);
    if (!result.ok) {
        std::fprintf(stderr, "inflight: %s: %s\n", qPrintable(path), result.error.c_str());
        return 1;
    }
    session.advanceNow();
    if (!waitDurable(session)) {
        std::fprintf(stderr, "inflight: not stored: %s\n", qPrintable(session.persistenceError()));
        return 3;
    }
    for (const std::string& rejected : result.rejected)
        std::fprintf(stderr, "inflight: refused: %s\n", rejected.c_str());
    std::printf("Imported %lld messages (%lld queues created)\n",
                static_cast<long long>(result.messagesImported),
                static_cast<long long>(result.queuesCreated));
    return result.rejected.empty() ? 0 : 1;
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

    if (argc > 1 && (std::strcmp(argv[1], "export") == 0 || std::strcmp(argv[1], "import") == 0))
        return runTransfer(*app, QString::fromLatin1(argv[1]));

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
    const QCommandLineOption empty(
        QStringLiteral("empty"),
        QStringLiteral("Start a new workspace (or an in-memory run) without the example queues. "
                       "An existing workspace always opens as it is."));
    const QCommandLineOption socketThread(
        QStringLiteral("socket-thread"),
        QStringLiteral("With --headless: serve the endpoint's sockets on a thread of their own, as "
                       "the window does, instead of on the engine's thread (the headless default: "
                       "no hand-over between threads per request)."));
    parser.addOption(headless);
    parser.addOption(listen);
    parser.addOption(ociQueue);
    parser.addOption(workspace);
    parser.addOption(inMemory);
    parser.addOption(empty);
    parser.addOption(socketThread);
    const inflight::app::EndpointOptionParser endpointOptionParser(parser);
    const inflight::app::RunOptionParser runOptionParser(parser);
    parser.process(*app); // --help, --version and unknown options end here

    // A desktop's soft limit is often 1,024 files; the endpoint's connection limit decides.
    inflight::server::raiseOpenFileLimit();
    const auto endpointOptions = endpointOptionParser.options(parser);
    if (const auto* error = std::get_if<QString>(&endpointOptions)) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(*error));
        return 2;
    }
    const auto& endpointSettings = std::get<inflight::app::EndpointOptions>(endpointOptions);
    auto runOptions = runOptionParser.options(parser);
    if (const auto* error = std::get_if<QString>(&runOptions)) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(*error));
        return 2;
    }
    // A bad --scenario file starts nothing; a good one sets what the command line leaves open.
    if (const QString error
        = inflight::app::readScenario(std::get<inflight::app::RunOptions>(runOptions));
        !error.isEmpty()) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(error));
        return 2;
    }
    const auto& run = std::get<inflight::app::RunOptions>(runOptions);
    if (run.seeded) {
        inflight::protocol::seedRequestIds(run.seed);
        std::fprintf(stderr,
                     "inflight: --seed %llu: ids are reproducible, and repeat across runs "
                     "with this seed\n",
                     static_cast<unsigned long long>(run.seed));
    }

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
                           parser.isSet(workspace) ? parser.value(workspace) : QString(),
                           parser.isSet(socketThread)
                               ? inflight::server::SocketThreading::OwnThread
                               : inflight::server::SocketThreading::SessionThread,
                           endpointSettings, run);

    QApplication::setDesktopFileName(QStringLiteral("inflight"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/inflight.svg")));

    QString workspacePath = windowWorkspace(parser, workspace, inMemory);
    QString relaunch; // File > New, Open, Save As: start again on that workspace
    bool relaunchWithExamples = false;
    int status = 0;
    {
        QString error;
        auto opened = inflight::app::WorkspaceSession::open(
            workspacePath, inflight::store::OpenMode::OpenOrCreate, &error, {}, brokerOptions(run),
            run.start, run.frozen);
        if (!opened) {
            QMessageBox::warning(nullptr, QStringLiteral("Inflight"),
                                 error
                                     + QStringLiteral("\n\nInflight starts without a workspace "
                                                      "(nothing is kept)."));
            opened = inflight::app::WorkspaceSession::open(
                QString(), inflight::store::OpenMode::OpenOrCreate, nullptr, {}, brokerOptions(run),
                run.start, run.frozen);
        } else if (!workspacePath.isEmpty()) {
            inflight::ui::WorkspaceController::rememberWorkspace(workspacePath);
        }
        inflight::session::Session& session = opened->session();
        if (!createOciQueues(session, parser.values(ociQueue)))
            return 2;
        if (const QString failed = inflight::app::applyRunOptions(session, run);
            !failed.isEmpty()) {
            QMessageBox::warning(nullptr, QStringLiteral("Inflight"), failed);
            return 2;
        }
        auto traffic = trafficLog(run);
        if (const auto* failed = std::get_if<QString>(&traffic)) {
            QMessageBox::warning(nullptr, QStringLiteral("Inflight"), *failed);
            return 2;
        }
        const Traffic& log = std::get<Traffic>(traffic);
        const auto control = controlApi(session, run, log.log.get());
        // The window's thread stays free of socket work (see SocketThreading).
        inflight::server::HttpServer server(session, inflight::server::SocketThreading::OwnThread);
        server.setLimits(endpointSettings.limits);
        server.setAccessPolicy(endpointSettings.access);
        server.setAdvertisedUrl(run.advertisedUrl);
        server.setControlApi(control.get());
        server.setTrafficLog(log.log.get());
        inflight::app::EndpointAdapter endpoint(server);
        // --credentials wins over the file last chosen in Endpoint settings, as --listen does.
        if (!endpointSettings.credentialsFile.isEmpty()) {
            endpoint.setCredentialsFileShown(endpointSettings.credentialsFile);
        } else if (const QString remembered
                   = inflight::ui::EndpointSettings::load().credentialsFile;
                   !remembered.isEmpty()) {
            if (const QString failed = endpoint.checkSignaturesWith(remembered); !failed.isEmpty())
                std::fprintf(stderr, "inflight: the endpoint accepts any signature: %s\n",
                             qPrintable(failed));
        }
        // --listen wins over what the user last chose in Endpoint settings (on 127.0.0.1:9324 by
        // default). A taken port does not stop the window: its status bar says why.
        if (parser.isSet(listen)) {
            server.listen(address->host, address->port);
        } else {
            const auto chosen = inflight::ui::EndpointSettings::load();
            if (chosen.enabled)
                endpoint.listen(chosen.host, chosen.port);
        }
        // The examples go into a new workspace (or an in-memory run) only: one the user emptied
        // stays empty.
        inflight::ui::MainWindow window(session, nullptr, opened->isNew() && !parser.isSet(empty));
        window.setEndpoint(&endpoint);
        window.clientDirectory()->setWorkspace(opened->path());
        if (log.log)
            window.setTrafficLog(*log.log);
        auto* files = new inflight::ui::WorkspaceController(session, opened->path(), &window);
        files->setSelection([&window] { return window.currentQueue(); },
                            [&window] { return window.selectedMessageIds(); });
        QObject::connect(
            files, &inflight::ui::WorkspaceController::switchRequested, &window,
            [&relaunch, &relaunchWithExamples, &window](const QString& path, bool withExamples) {
                relaunch = path;
                relaunchWithExamples = withExamples;
                window.close();
                QCoreApplication::quit();
            });
        if (!opened->path().isEmpty())
            window.setWindowTitle(QFileInfo(opened->path()).completeBaseName()
                                  + QStringLiteral(" — Inflight"));
        window.show();
        status = app->exec();
    } // the workspace is saved and closed, the port released: the next process may take them
    if (!relaunch.isEmpty()) {
        QStringList arguments = QCoreApplication::arguments().mid(1);
        for (const QString& option :
             {QStringLiteral("--workspace"), QStringLiteral("-workspace")}) {
            const qsizetype at = arguments.indexOf(option);
            if (at >= 0)
                arguments.remove(at, std::min<qsizetype>(2, arguments.size() - at));
        }
        arguments.removeIf([](const QString& a) {
            return a.startsWith(QStringLiteral("--workspace="))
                || a == QStringLiteral("--in-memory") || a == QStringLiteral("--empty");
        });
        arguments << QStringLiteral("--workspace") << relaunch;
        if (!relaunchWithExamples)
            arguments << QStringLiteral("--empty"); // a new workspace starts empty

        if (!QProcess::startDetached(QCoreApplication::applicationFilePath(), arguments))
            std::fprintf(stderr, "inflight: cannot start again on %s\n", qPrintable(relaunch));
    }
    return status;
}
