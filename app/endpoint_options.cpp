#include "endpoint_options.h"

#include "protocol/credentials.h"

#include <chrono>
#include <memory>

namespace inflight::app {

namespace {

// A whole number of seconds within [1, 86,400] for a timeout option.
Result<std::chrono::milliseconds> seconds(const QCommandLineParser& parser,
                                          const QCommandLineOption& option,
                                          std::chrono::milliseconds fallback)
{
    if (!parser.isSet(option))
        return fallback;
    bool ok = false;
    const int value = parser.value(option).toInt(&ok);
    if (!ok || value < 1 || value > 86'400)
        return QStringLiteral("--%1 wants a whole number of seconds from 1 to 86400, not %2")
            .arg(option.names().constFirst(), parser.value(option));
    return std::chrono::milliseconds(std::chrono::seconds(value));
}

} // namespace

EndpointOptionParser::EndpointOptionParser(QCommandLineParser& parser)
    : m_allowOrigin(QStringLiteral("allow-origin"),
                    QStringLiteral("Let web pages of this origin (e.g. http://localhost:3000, "
                                   "or * for any) call the endpoint from a browser, with CORS "
                                   "headers (repeatable). By default pages are refused."),
                    QStringLiteral("origin")),
      m_allowHost(QStringLiteral("allow-host"),
                  QStringLiteral("Accept requests whose Host header names this host (a proxy, a "
                                 "tunnel or a container name; * for any) besides loopback, "
                                 "localhost and the listen address (repeatable)."),
                  QStringLiteral("host")),
      m_credentials(QStringLiteral("credentials"),
                    QStringLiteral("Check AWS Signature Version 4 on every SQS request against "
                                   "the access keys of this file (the format of "
                                   "~/.aws/credentials). By default any signature is accepted."),
                    QStringLiteral("file")),
      m_maxConnections(QStringLiteral("max-connections"),
                       QStringLiteral("Client connections kept open at most (default 4096, and "
                                      "never more than the open-file limit allows); beyond it the "
                                      "connection idle longest is closed."),
                       QStringLiteral("n")),
      m_idleTimeout(QStringLiteral("idle-timeout"),
                    QStringLiteral("Close a connection that moves no byte for this long (default "
                                   "60; never while a long poll waits)."),
                    QStringLiteral("seconds")),
      m_headerTimeout(QStringLiteral("header-timeout"),
                      QStringLiteral("A request's headers must arrive within this long of its "
                                     "first byte (default 10)."),
                      QStringLiteral("seconds"))
{
    parser.addOption(m_allowOrigin);
    parser.addOption(m_allowHost);
    parser.addOption(m_credentials);
    parser.addOption(m_maxConnections);
    parser.addOption(m_idleTimeout);
    parser.addOption(m_headerTimeout);
}

Result<EndpointOptions> EndpointOptionParser::options(const QCommandLineParser& parser) const
{
    EndpointOptions options;
    options.access.allowedOrigins = parser.values(m_allowOrigin);
    options.access.allowedHosts = parser.values(m_allowHost);
    for (QString& host : options.access.allowedHosts)
        host = host.trimmed().toLower();
    if (parser.isSet(m_credentials)) {
        auto keys = protocol::loadCredentialsFile(parser.value(m_credentials));
        if (!keys)
            return QStringLiteral("--credentials: %1")
                .arg(QString::fromStdString(keys.error().message));
        options.access.credentials
            = std::make_shared<const protocol::CredentialStore>(std::move(*keys));
        options.credentialsFile = parser.value(m_credentials);
    }
    if (parser.isSet(m_maxConnections)) {
        bool ok = false;
        const int value = parser.value(m_maxConnections).toInt(&ok);
        if (!ok || value < 1)
            return QStringLiteral("--max-connections wants a whole number from 1 up, not %1")
                .arg(parser.value(m_maxConnections));
        options.limits.maxConnections = value;
    }
    const auto idle = seconds(parser, m_idleTimeout, options.limits.idleTimeout);
    if (!idle)
        return idle.error();
    options.limits.idleTimeout = *idle;
    const auto header = seconds(parser, m_headerTimeout, options.limits.headerTimeout);
    if (!header)
        return header.error();
    options.limits.headerTimeout = *header;
    return options;
}

} // namespace inflight::app
