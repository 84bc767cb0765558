#pragma once

#include "endpoint_options.h"
#include "listen_address.h"
#include "run_options.h"
#include "server/http_server.h"

#include <QString>
#include <QStringList>

class QCoreApplication;

namespace inflight::app {

// What `inflight --headless` serves, from the command line.
struct HeadlessOptions {
    ListenAddress listen;
    QStringList ociQueues; // --oci-queue
    QString workspacePath; // --workspace; empty: in memory
    server::SocketThreading threading = server::SocketThreading::SessionThread;
    EndpointOptions endpoint;
    RunOptions run;
};

// The endpoint without a window, until SIGINT or SIGTERM. Returns the exit status: 0 after a
// signal, 1 when it cannot listen, 2 for a bad option, 3 when the workspace is refused.
int runHeadless(QCoreApplication& app, const HeadlessOptions& options);

// SIGINT and SIGTERM end `app`'s event loop (through a socket pair: a handler may only write()).
void quitOnSignals(QCoreApplication& app);

} // namespace inflight::app
