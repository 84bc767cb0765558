#pragma once

#include "ui/widgets/endpoint_control.h"

namespace inflight::server {
class HttpServer;
}

namespace inflight::app {

// The window's view of the HTTP endpoint: ui::EndpointControl over server::HttpServer, so that the
// UI never includes server code. The server must outlive the adapter.
class EndpointAdapter : public ui::EndpointControl {
    Q_OBJECT
public:
    explicit EndpointAdapter(server::HttpServer& server, QObject* parent = nullptr);

    bool isListening() const override;
    QString address() const override;
    QString errorString() const override;
    bool listen(const QString& host, quint16 port) override;
    void close() override;
    // Loads the file (protocol::loadCredentialsFile) and puts its keys into the server's access
    // policy, keeping the rest of the policy as it is.
    QString checkSignaturesWith(const QString& credentialsFile) override;
    QString credentialsFile() const override { return m_credentialsFile; }
    // What --credentials FILE already put into the server's policy.
    void setCredentialsFileShown(const QString& file) { m_credentialsFile = file; }

private:
    server::HttpServer& m_server;
    QString m_credentialsFile;
    QString m_invalidHost; // why the last listen() did not reach the server
    QString m_listenError; // why the server refused the last listen() (it may serve elsewhere)
    bool m_off = false;    // turned off by close(): no error to show
};

} // namespace inflight::app
