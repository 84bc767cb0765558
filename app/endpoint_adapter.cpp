#include "endpoint_adapter.h"

#include "protocol/credentials.h"
#include "server/http_server.h"

#include <QHostAddress>

#include <memory>

namespace inflight::app {

EndpointAdapter::EndpointAdapter(server::HttpServer& server, QObject* parent)
    : ui::EndpointControl(parent), m_server(server)
{
    connect(&server, &server::HttpServer::listeningChanged, this, &EndpointControl::changed);
}

bool EndpointAdapter::isListening() const
{
    return m_server.isListening();
}

QString EndpointAdapter::address() const
{
    // The server's base URL names the host clients should use (the machine's name for 0.0.0.0).
    QString url = m_server.baseUrl();
    if (url.startsWith(QStringLiteral("http://")))
        url.remove(0, 7);
    return url;
}

QString EndpointAdapter::errorString() const
{
    if (m_off)
        return {};
    if (!m_invalidHost.isEmpty())
        return m_invalidHost;
    if (!m_listenError.isEmpty()) // a move that failed: the endpoint serves where it was
        return m_listenError;
    return m_server.isListening() ? QString() : m_server.errorString();
}

bool EndpointAdapter::listen(const QString& host, quint16 port)
{
    const QString trimmed = host.trimmed();
    QHostAddress address(trimmed == QStringLiteral("localhost") ? QStringLiteral("127.0.0.1")
                                                                : trimmed);
    bool ok = false;
    m_off = false;
    if (address.isNull()) { // the endpoint stays where it is
        m_invalidHost = tr("%1 is not an IP address (use 127.0.0.1 or 0.0.0.0)").arg(trimmed);
    } else {
        m_invalidHost.clear();
        ok = m_server.listen(address, port);
        m_listenError = ok ? QString() : m_server.errorString();
    }
    // A failed first listen() changes nothing the server signals, but the error is new.
    Q_EMIT changed();
    return ok;
}

QString EndpointAdapter::checkSignaturesWith(const QString& credentialsFile)
{
    protocol::AccessPolicy policy = m_server.accessPolicy();
    if (credentialsFile.isEmpty()) {
        policy.credentials.reset();
    } else {
        auto keys = protocol::loadCredentialsFile(credentialsFile);
        if (!keys)
            return QString::fromStdString(keys.error().message);
        policy.credentials = std::make_shared<const protocol::CredentialStore>(std::move(*keys));
    }
    m_server.setAccessPolicy(policy);
    m_credentialsFile = credentialsFile;
    Q_EMIT changed();
    return {};
}

void EndpointAdapter::close()
{
    m_invalidHost.clear();
    m_listenError.clear();
    m_off = true;
    m_server.close();
    Q_EMIT changed();
}

} // namespace inflight::app
