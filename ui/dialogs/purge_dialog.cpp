#include "ui/dialogs/purge_dialog.h"

#include "ui/widgets/engine_text.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QStyle>
#include <QVBoxLayout>

namespace inflight::ui {

PurgeDialog::PurgeDialog(const QString& queue, const QString& deadLetterQueue, qint64 queueMessages,
                         qint64 deadLetterMessages, QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("confirmPurgeQueue"));
    setWindowTitle(tr("Purge queue"));

    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    auto* icon = new QLabel(this);
    const int size = style()->pixelMetric(QStyle::PM_MessageBoxIconSize, nullptr, this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
    icon->setAlignment(Qt::AlignTop);
    top->addWidget(icon);
    auto* text = new QLabel(tr("Remove every message — available, delayed and in flight — from "
                               "%1, from its dead-letter queue %2, or from both?")
                                .arg(queue, deadLetterQueue),
                            this);
    text->setWordWrap(true);
    top->addWidget(text, 1);
    layout->addLayout(top);

    m_normal = new QRadioButton(tr("&Messages of %1 (%2)").arg(queue, messagesText(queueMessages)),
                                this);
    m_normal->setObjectName(QStringLiteral("purgeNormalRadio"));
    m_deadLetter = new QRadioButton(
        tr("&Dead-letter queue %1 (%2)").arg(deadLetterQueue, messagesText(deadLetterMessages)),
        this);
    m_deadLetter->setObjectName(QStringLiteral("purgeDeadLetterRadio"));
    m_both = new QRadioButton(
        tr("&Both (%1)").arg(messagesText(queueMessages + deadLetterMessages)), this);
    m_both->setObjectName(QStringLiteral("purgeBothRadio"));
    m_normal->setChecked(true);
    for (QRadioButton* radio : {m_normal, m_deadLetter, m_both})
        layout->addWidget(radio);

    auto* buttons = new QDialogButtonBox(this);
    QPushButton* purge = buttons->addButton(tr("&Purge"), QDialogButtonBox::AcceptRole);
    purge->setObjectName(QStringLiteral("yesButton"));
    purge->setAutoDefault(false);
    QPushButton* cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancelButton"));
    cancel->setDefault(true); // as the plain confirmation: Return does not purge
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

engine::PurgeTarget PurgeDialog::target() const
{
    if (m_deadLetter->isChecked())
        return engine::PurgeTarget::DeadLetter;
    if (m_both->isChecked())
        return engine::PurgeTarget::Both;
    return engine::PurgeTarget::Normal;
}

void PurgeDialog::setTarget(engine::PurgeTarget target)
{
    switch (target) {
    case engine::PurgeTarget::Normal: m_normal->setChecked(true); break;
    case engine::PurgeTarget::DeadLetter: m_deadLetter->setChecked(true); break;
    case engine::PurgeTarget::Both: m_both->setChecked(true); break;
    }
}

} // namespace inflight::ui
