// The `inflight` executable: reads the command line and hands it to the run it asks for — the
// window (window_app.h), `--headless` (headless.h) or `export` / `import` (transfer_command.h).
#include "endpoint_options.h"
#include "headless.h"
#include "listen_address.h"
#include "protocol/sqs_codec.h"
#include "run_options.h"
#include "run_setup.h"
#include "server/http_server.h"
#include "transfer_command.h"
#include "window_app.h"
#include "workspace/recent_workspaces.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QIcon>
#include <QMessageBox>
#include <QStandardPaths>

#include <cstdio>
#include <cstring>
#include <memory>

namespace {

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

// The workspace the window opens: --workspace, else the last one, else (first launch) the default
// one in the user's data folder. Empty with --in-memory.
QString windowWorkspace(const QCommandLineParser& parser, const QCommandLineOption& workspace,
                        const QCommandLineOption& inMemory)
{
    if (parser.isSet(inMemory))
        return {};
    if (parser.isSet(workspace))
        return parser.value(workspace);
    if (const QString last = inflight::workspace::lastWorkspace(); !last.isEmpty())
        return last;
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(folder);
    return folder + QStringLiteral("/default.inflight");
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
        return inflight::app::runTransfer(*app, QString::fromLatin1(argv[1]));

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
        QStringLiteral("address:port"),
        QStringLiteral("127.0.0.1:%1").arg(inflight::app::kDefaultPort));
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
    if (!endpointOptions) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(endpointOptions.error()));
        return 2;
    }
    const auto& endpointSettings = *endpointOptions;
    auto runOptions = runOptionParser.options(parser);
    if (!runOptions) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(runOptions.error()));
        return 2;
    }
    // A bad --scenario file starts nothing; a good one sets what the command line leaves open.
    if (const auto read = inflight::app::readScenario(*runOptions); !read) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(read.error()));
        return 2;
    }
    const auto& run = *runOptions;
    if (run.seeded) {
        inflight::protocol::seedRequestIds(run.seed);
        std::fprintf(stderr,
                     "inflight: --seed %llu: ids are reproducible, and repeat across runs "
                     "with this seed\n",
                     static_cast<unsigned long long>(run.seed));
    }

    const auto address = inflight::app::parseListen(parser.value(listen));
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
        return inflight::app::runHeadless(
            *app,
            inflight::app::HeadlessOptions{
                .listen = *address,
                .ociQueues = parser.values(ociQueue),
                .workspacePath = parser.isSet(workspace) ? parser.value(workspace) : QString(),
                .threading = parser.isSet(socketThread)
                    ? inflight::server::SocketThreading::OwnThread
                    : inflight::server::SocketThreading::SessionThread,
                .endpoint = endpointSettings,
                .run = run});

    QApplication::setDesktopFileName(QStringLiteral("inflight"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/inflight.svg")));
    inflight::app::WindowApp window(
        inflight::app::WindowOptions{.workspacePath = windowWorkspace(parser, workspace, inMemory),
                                     .examples = !parser.isSet(empty),
                                     .ociQueues = parser.values(ociQueue),
                                     .listen = parser.isSet(listen) ? address : std::nullopt,
                                     .endpoint = endpointSettings,
                                     .run = run});
    if (auto started = window.start(); !started) {
        QMessageBox::warning(nullptr, QStringLiteral("Inflight"), started.error());
        return 2;
    }
    return app->exec();
}
