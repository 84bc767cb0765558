#pragma once

#include <QDialog>
#include <QString>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace inflight::ui {

class EndpointControl;
class ErrorLabel;

// The endpoint the user chose, remembered in QSettings ("endpoint/enabled", "endpoint/host",
// "endpoint/port", "endpoint/credentials"): on 127.0.0.1:9324 by default, any signature accepted.
struct EndpointSettings {
    static constexpr quint16 kDefaultPort = 9324;

    bool enabled = true;
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = kDefaultPort;
    // Check SQS signatures against this credentials file; empty: any signature is accepted.
    QString credentialsFile;

    static EndpointSettings load();
    void save() const;
};

// Turns the endpoint on or off and moves it to another host or port. Apply calls the endpoint at
// once: a failure (port taken, not an address) is shown inline and the dialog stays open; a
// success is remembered (EndpointSettings) and closes it. A host other than loopback is allowed
// with a note that other machines can connect. A credentials file makes the endpoint check every
// SQS request's signature (a file it cannot use is shown inline, like a taken port). Widgets:
// enabledCheck, hostCombo, hostNoteLabel, portSpin, credentialsEdit, credentialsBrowseButton,
// errorLabel, okButton, cancelButton.
class EndpointDialog : public QDialog {
    Q_OBJECT
public:
    // Starts from the endpoint's address while it listens, else from the remembered settings.
    explicit EndpointDialog(EndpointControl& endpoint, QWidget* parent = nullptr);

    EndpointSettings choice() const;
    void setChoice(const EndpointSettings& choice);
    QString errorText() const;

    void accept() override;

private:
    void refresh();

    EndpointControl& m_endpoint;
    QCheckBox* m_enabled = nullptr;
    QComboBox* m_host = nullptr;
    QLabel* m_hostNote = nullptr;
    QSpinBox* m_port = nullptr;
    QLineEdit* m_credentials = nullptr;
    ErrorLabel* m_error = nullptr;
};

} // namespace inflight::ui
