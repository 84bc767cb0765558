#pragma once

#include <QObject>
#include <QString>

namespace inflight::ui {

// What the window knows of the SQS/OCI endpoint: whether it listens, where, and why it could not.
// The UI never reaches into protocol or server code; the app implements this over its server.
class EndpointControl : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    virtual bool isListening() const = 0;
    // "127.0.0.1:9324" while listening; empty otherwise.
    virtual QString address() const = 0;
    // Why the last listen() failed; empty after a successful one.
    virtual QString errorString() const = 0;
    // Starts (or moves) the endpoint. False on failure, with errorString() saying why. Emits
    // changed() when anything the window shows changed.
    virtual bool listen(const QString& host, quint16 port) = 0;
    // Stops the endpoint. Emits changed().
    virtual void close() = 0;
    // Checks AWS Signature Version 4 on every SQS request against the access keys of this file
    // (the format of ~/.aws/credentials) from now on; an empty path accepts any signature again.
    // Returns why the file cannot be used (nothing changes then), or an empty string.
    virtual QString checkSignaturesWith(const QString& credentialsFile) = 0;
    // The file signatures are checked against; empty when any signature is accepted.
    virtual QString credentialsFile() const = 0;

Q_SIGNALS:
    void changed();
};

} // namespace inflight::ui
