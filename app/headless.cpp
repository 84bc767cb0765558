#include "headless.h"

#include "oci_queue_option.h"
#include "run_services.h"
#include "run_setup.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>

#include <sys/socket.h>
#include <unistd.h>

namespace inflight::app {

namespace {

int g_signalFds[2] = {-1, -1};

void onSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(g_signalFds[0], &byte, 1);
}

} // namespace

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

int runHeadless(QCoreApplication& app, const HeadlessOptions& options)
{
    quitOnSignals(app);
    const RunOptions& run = options.run;
    workspace::SessionSettings settings = sessionSettings(run);
    settings.store.sync = run.sync;
    auto workspace = workspace::WorkspaceSession::open(options.workspacePath,
                                                       store::OpenMode::OpenOrCreate, settings);
    if (!workspace) {
        std::fprintf(stderr, "inflight: %s\n", workspace.error().message.c_str());
        return 3;
    }
    session::Session& session = (*workspace)->session();
    if (auto created = createOciQueues(session, options.ociQueues); !created) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(created.error()));
        return 2;
    }
    if (const QString failed = applyRunOptions(session, run, /*playLesson=*/false);
        !failed.isEmpty()) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(failed));
        return 2;
    }
    auto traffic = trafficLog(run);
    if (!traffic) {
        std::fprintf(stderr, "inflight: %s\n", qPrintable(traffic.error()));
        return 2;
    }
    const auto control = controlApi(session, run, traffic->log.get());
    server::HttpServer server(session, options.threading);
    server.setLimits(options.endpoint.limits);
    server.setAccessPolicy(options.endpoint.access);
    server.setAdvertisedUrl(run.advertisedUrl);
    server.setControlApi(control.get());
    server.setTrafficLog(traffic->log.get());
    if (!server.listen(options.listen.host, options.listen.port)) {
        std::fprintf(stderr, "inflight: cannot listen on %s:%u: %s\n",
                     qPrintable(options.listen.host.toString()), options.listen.port,
                     qPrintable(server.errorString()));
        return 1;
    }
    std::printf("Inflight endpoint listening on %s\n", qPrintable(server.baseUrl()));
    if (!options.workspacePath.isEmpty())
        std::printf("Workspace %s, sync %s\n", qPrintable(options.workspacePath),
                    store::syncModeName((*workspace)->syncMode()));
    std::fflush(stdout);
    return app.exec();
}

} // namespace inflight::app
