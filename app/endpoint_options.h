#pragma once

#include "app_result.h"

#include "protocol/request_guard.h"
#include "server/http_server.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

namespace inflight::app {

// Who may use the endpoint and what its sockets may hold, as the command line sets them (the
// window and `--headless` alike): --allow-origin, --allow-host, --credentials, --max-connections,
// --idle-timeout, --header-timeout.
struct EndpointOptions {
    protocol::AccessPolicy access;
    QString credentialsFile; // --credentials, whose keys are in access.credentials
    server::ConnectionLimits limits;
};

// Declares the options on `parser`; options(parser) reads them once it has processed the command
// line.
class EndpointOptionParser {
public:
    explicit EndpointOptionParser(QCommandLineParser& parser);

    // The options, or a sentence for the user naming the option that is wrong.
    Result<EndpointOptions> options(const QCommandLineParser& parser) const;

private:
    QCommandLineOption m_allowOrigin;
    QCommandLineOption m_allowHost;
    QCommandLineOption m_credentials;
    QCommandLineOption m_maxConnections;
    QCommandLineOption m_idleTimeout;
    QCommandLineOption m_headerTimeout;
};

} // namespace inflight::app
