#include "ui/dialogs/visibility_dialog.h"

#include "session/session.h"
#include "ui/dialogs/error_label.h"
#include "ui/dialogs/spin_units.h"
#include "ui/widgets/engine_text.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

namespace inflight::ui {

VisibilityDialog::VisibilityDialog(session::Session& session, const QString& queue,
                                   std::vector<InFlightMessage> messages, VisibilityChange initial,
                                   QWidget* parent)
    : QDialog(parent), m_session(session), m_queue(queue), m_messages(std::move(messages))
{
    setObjectName(QStringLiteral("visibilityDialog"));
    setWindowTitle(tr("Change visibility"));
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("summaryLabel"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);

    // SQS's ChangeMessageVisibility sets the timeout from now: that meaning first.
    m_set = new QRadioButton(tr("&Set to N s from now (SQS's meaning; 0 releases)"), this);
    m_set->setObjectName(QStringLiteral("setRadio"));
    m_extend
        = new QRadioButton(tr("&Extend by N s (added to the time each receipt still holds)"), this);
    m_extend->setObjectName(QStringLiteral("extendRadio"));
    layout->addWidget(m_set);
    layout->addWidget(m_extend);
    auto* form = new QFormLayout;
    m_seconds = new QSpinBox(this);
    m_seconds->setObjectName(QStringLiteral("secondsSpin"));
    m_seconds->setSuffix(tr(" s"));
    setLimits(m_seconds, 0, 43200, tr("Visibility timeout"));
    showSecondsInWords(m_seconds);
    form->addRow(tr("Visibility &timeout:"), m_seconds);
    layout->addLayout(form);
    m_error = new ErrorLabel(this);
    layout->addWidget(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("okButton"));
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Apply"));
    buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));
    connect(buttons, &QDialogButtonBox::accepted, this, &VisibilityDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &VisibilityDialog::reject);
    layout->addWidget(buttons);
    connect(m_extend, &QRadioButton::toggled, this, &VisibilityDialog::refreshSummary);
    connect(m_seconds, &QSpinBox::valueChanged, this, &VisibilityDialog::refreshSummary);
    setChange(initial);
    setMinimumWidth(460);
    // The countdown in the summary runs while the dialog is open.
    auto* tick = new QTimer(this);
    tick->setInterval(250);
    connect(tick, &QTimer::timeout, this, &VisibilityDialog::refreshSummary);
    tick->start();
}

VisibilityChange VisibilityDialog::change() const
{
    return VisibilityChange{m_extend->isChecked() ? VisibilityChange::Mode::ExtendBy
                                                  : VisibilityChange::Mode::SetTo,
                            m_seconds->value()};
}

void VisibilityDialog::setChange(VisibilityChange change)
{
    (change.mode == VisibilityChange::Mode::ExtendBy ? m_extend : m_set)->setChecked(true);
    m_seconds->setValue(int(change.seconds));
    refreshSummary();
}

QString VisibilityDialog::errorText() const
{
    return m_error->errorText();
}

void VisibilityDialog::refreshSummary()
{
    const engine::Millis now = m_session.displayTime();
    QString text;
    if (m_messages.size() == 1) {
        const InFlightMessage& m = m_messages.front();
        text = tr("%1 in %2 is visible again in %3.")
                   .arg(m.messageId, m_queue, formatTimeLeft(m.visibleAt - now));
        const VisibilityChange c = change();
        const engine::Millis after = c.mode == VisibilityChange::Mode::SetTo
            ? now + c.seconds * engine::kSecond
            : std::max(m.visibleAt, now) + c.seconds * engine::kSecond;
        text += QLatin1Char(' ') + tr("After this change: in %1.").arg(formatTimeLeft(after - now));
    } else {
        text = tr("%1 in flight in %2.").arg(messagesText(qint64(m_messages.size())), m_queue);
    }
    m_summary->setText(text);
}

void VisibilityDialog::accept()
{
    if (const auto past = valueOutOfLimits(this)) {
        m_error->showError(past->text);
        m_seconds->setFocus();
        m_seconds->selectAll();
        return;
    }
    m_error->clearError();
    const VisibilityChange c = change();
    const ActionOutcome outcome = changeVisibility(m_session, m_queue, m_messages, c);
    if (!outcome.ok()) {
        QString text = outcome.errors.join(QLatin1Char('\n'));
        if (outcome.succeeded > 0) {
            text.prepend(tr("%1 of %2 changed.\n").arg(outcome.succeeded).arg(m_messages.size()));
            // Only the failed ones are left to try again.
            std::erase_if(m_messages, [&outcome](const InFlightMessage& m) {
                return !outcome.failedIds.contains(m.messageId);
            });
            refreshSummary();
        }
        m_error->showError(text);
        return;
    }
    Q_EMIT applied(
        c.mode == VisibilityChange::Mode::ExtendBy
            ? tr("Extended %1 by %2 s.").arg(messagesText(outcome.succeeded)).arg(c.seconds)
            : tr("Set the visibility of %1 to %2 s.")
                  .arg(messagesText(outcome.succeeded))
                  .arg(c.seconds));
    QDialog::accept();
}

} // namespace inflight::ui
