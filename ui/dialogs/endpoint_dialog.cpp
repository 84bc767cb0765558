#include "ui/dialogs/endpoint_dialog.h"

#include "ui/dialogs/error_label.h"
#include "ui/widgets/endpoint_control.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace inflight::ui {

namespace {

bool isLoopback(const QString& host)
{
    return host == QStringLiteral("127.0.0.1") || host == QStringLiteral("::1")
        || host == QStringLiteral("localhost") || host.startsWith(QStringLiteral("127."));
}

} // namespace

EndpointSettings EndpointSettings::load()
{
    QSettings settings;
    EndpointSettings loaded;
    loaded.enabled = settings.value(QStringLiteral("endpoint/enabled"), loaded.enabled).toBool();
    const QString host = settings.value(QStringLiteral("endpoint/host")).toString().trimmed();
    if (!host.isEmpty())
        loaded.host = host;
    bool ok = false;
    const uint port = settings.value(QStringLiteral("endpoint/port"), loaded.port).toUInt(&ok);
    if (ok && port <= 65535)
        loaded.port = quint16(port);
    loaded.credentialsFile = settings.value(QStringLiteral("endpoint/credentials")).toString();
    return loaded;
}

void EndpointSettings::save() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("endpoint/enabled"), enabled);
    settings.setValue(QStringLiteral("endpoint/host"), host);
    settings.setValue(QStringLiteral("endpoint/port"), port);
    settings.setValue(QStringLiteral("endpoint/credentials"), credentialsFile);
}

EndpointDialog::EndpointDialog(EndpointControl& endpoint, QWidget* parent)
    : QDialog(parent), m_endpoint(endpoint)
{
    setObjectName(QStringLiteral("endpointDialog"));
    setWindowTitle(tr("Endpoint settings"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("SDKs and the AWS CLI talk to Inflight over this endpoint (SQS "
                                "JSON and Query, OCI Queue REST); their traffic shows in the "
                                "window with the client's address as its origin."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    m_enabled = new QCheckBox(tr("&Serve the endpoint"), this);
    m_enabled->setObjectName(QStringLiteral("enabledCheck"));
    layout->addWidget(m_enabled);

    auto* form = new QFormLayout;
    m_host = new QComboBox(this);
    m_host->setObjectName(QStringLiteral("hostCombo"));
    m_host->setEditable(true);
    m_host->addItem(QStringLiteral("127.0.0.1"));
    m_host->addItem(QStringLiteral("0.0.0.0"));
    m_host->setToolTip(tr("127.0.0.1: this machine only. 0.0.0.0: every network interface."));
    form->addRow(tr("&Host:"), m_host);
    m_port = new QSpinBox(this);
    m_port->setObjectName(QStringLiteral("portSpin"));
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("any free port"));
    form->addRow(tr("&Port:"), m_port);
    m_credentials = new QLineEdit(this);
    m_credentials->setObjectName(QStringLiteral("credentialsEdit"));
    m_credentials->setPlaceholderText(tr("none: any signature is accepted"));
    m_credentials->setToolTip(
        tr("A file in the format of ~/.aws/credentials. With one, every SQS request must be "
           "signed (AWS Signature Version 4) by one of its keys, or it gets AWS's error: "
           "SignatureDoesNotMatch, InvalidClientTokenId, MissingAuthenticationToken."));
    auto* browse = new QPushButton(tr("&Browse…"), this);
    browse->setObjectName(QStringLiteral("credentialsBrowseButton"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Check signatures against"), QDir::homePath() + QStringLiteral("/.aws"));
        if (!file.isEmpty())
            m_credentials->setText(file);
    });
    auto* credentialsRow = new QHBoxLayout;
    credentialsRow->addWidget(m_credentials, 1);
    credentialsRow->addWidget(browse);
    auto* credentialsLabel = new QLabel(tr("&Signatures:"), this);
    credentialsLabel->setBuddy(m_credentials); // a row of a layout gets no buddy by itself
    form->addRow(credentialsLabel, credentialsRow);
    layout->addLayout(form);

    m_hostNote = new QLabel(tr("Other machines can connect to this endpoint, and it asks for no "
                               "credentials unless you name a credentials file."),
                            this);
    m_hostNote->setObjectName(QStringLiteral("hostNoteLabel"));
    m_hostNote->setWordWrap(true);
    layout->addWidget(m_hostNote);

    m_error = new ErrorLabel(this);
    layout->addWidget(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("okButton"));
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Apply"));
    buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));
    connect(buttons, &QDialogButtonBox::accepted, this, &EndpointDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &EndpointDialog::reject);
    layout->addWidget(buttons);

    connect(m_enabled, &QCheckBox::toggled, this, &EndpointDialog::refresh);
    connect(m_host, &QComboBox::currentTextChanged, this, &EndpointDialog::refresh);

    EndpointSettings initial = EndpointSettings::load();
    if (!endpoint.credentialsFile().isEmpty()) // --credentials, or the remembered file
        initial.credentialsFile = endpoint.credentialsFile();
    const QString address = endpoint.address();
    const qsizetype colon = address.lastIndexOf(QLatin1Char(':'));
    if (endpoint.isListening() && colon > 0) {
        initial.enabled = true;
        bool ok = false;
        const uint port = address.mid(colon + 1).toUInt(&ok);
        if (ok && port <= 65535)
            initial.port = quint16(port);
    } else if (!endpoint.isListening() && endpoint.errorString().isEmpty()) {
        initial.enabled = false;
    }
    setChoice(initial);
    if (!endpoint.isListening() && !endpoint.errorString().isEmpty())
        m_error->showError(endpoint.errorString());
    setMinimumWidth(420);
}

EndpointSettings EndpointDialog::choice() const
{
    EndpointSettings chosen;
    chosen.enabled = m_enabled->isChecked();
    chosen.host = m_host->currentText().trimmed();
    chosen.port = quint16(m_port->value());
    chosen.credentialsFile = m_credentials->text().trimmed();
    return chosen;
}

void EndpointDialog::setChoice(const EndpointSettings& choice)
{
    m_enabled->setChecked(choice.enabled);
    m_host->setCurrentText(choice.host);
    m_port->setValue(choice.port);
    m_credentials->setText(choice.credentialsFile);
    refresh();
}

QString EndpointDialog::errorText() const
{
    return m_error->errorText();
}

void EndpointDialog::accept()
{
    const EndpointSettings chosen = choice();
    if (chosen.enabled) {
        if (chosen.host.isEmpty()) {
            m_error->showError(tr("Give a host: 127.0.0.1 for this machine only."));
            return;
        }
        if (!m_endpoint.listen(chosen.host, chosen.port)) {
            const QString why = m_endpoint.errorString();
            m_error->showError(tr("Cannot listen on %1:%2: %3")
                                   .arg(chosen.host)
                                   .arg(chosen.port)
                                   .arg(why.isEmpty() ? tr("unknown error") : why));
            return;
        }
    } else {
        m_endpoint.close();
    }
    if (chosen.credentialsFile != m_endpoint.credentialsFile()) {
        const QString why = m_endpoint.checkSignaturesWith(chosen.credentialsFile);
        if (!why.isEmpty()) {
            m_error->showError(why);
            return;
        }
    }
    m_error->clearError();
    chosen.save();
    QDialog::accept();
}

void EndpointDialog::refresh()
{
    const bool enabled = m_enabled->isChecked();
    m_host->setEnabled(enabled);
    m_port->setEnabled(enabled);
    m_hostNote->setVisible(enabled && !isLoopback(m_host->currentText().trimmed()));
}

} // namespace inflight::ui
