#include "ui/widgets/body_view.h"

#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMimeData>
#include <QPushButton>
#include <QVBoxLayout>

namespace inflight::ui {

// The text edit, with pastes past the limit taken as the body instead of laid out.
class BodyView::Editor : public QPlainTextEdit {
public:
    explicit Editor(BodyView* owner) : QPlainTextEdit(owner), m_owner(owner) {}

protected:
    void insertFromMimeData(const QMimeData* source) override
    {
        if (source->hasText()) {
            const QString text = source->text();
            if (text.size() + document()->characterCount() > BodyView::kShownChars) {
                m_owner->setBody(text); // a body this large is pasted whole
                return;
            }
        }
        QPlainTextEdit::insertFromMimeData(source);
    }

private:
    BodyView* m_owner;
};

BodyView::BodyView(const QString& editorName, bool readOnly, QWidget* parent)
    : QWidget(parent), m_readOnly(readOnly)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_bar = new QWidget(this);
    m_bar->setObjectName(QStringLiteral("largeBodyBar"));
    auto* bar = new QHBoxLayout(m_bar);
    bar->setContentsMargins(0, 0, 0, 0);
    m_note = new QLabel(m_bar);
    m_note->setObjectName(QStringLiteral("largeBodyNote"));
    m_note->setWordWrap(true);
    m_showAll = new QPushButton(tr("Show all"), m_bar);
    m_showAll->setObjectName(QStringLiteral("showAllBodyButton"));
    m_showAll->setAutoDefault(false);
    auto* save = new QPushButton(tr("Save…"), m_bar);
    save->setObjectName(QStringLiteral("saveBodyButton"));
    save->setAutoDefault(false);
    m_clear = new QPushButton(tr("Clear"), m_bar);
    m_clear->setObjectName(QStringLiteral("clearBodyButton"));
    m_clear->setAutoDefault(false);
    m_clear->setVisible(!readOnly);
    bar->addWidget(m_note, 1);
    bar->addWidget(m_showAll);
    bar->addWidget(save);
    bar->addWidget(m_clear);
    m_bar->hide();
    layout->addWidget(m_bar);

    m_edit = new Editor(this);
    m_edit->setObjectName(editorName);
    m_edit->setReadOnly(readOnly);
    m_edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(m_edit, 1);
    setFocusProxy(m_edit);

    connect(m_showAll, &QPushButton::clicked, this, &BodyView::showAll);
    connect(save, &QPushButton::clicked, this, &BodyView::save);
    connect(m_clear, &QPushButton::clicked, this, [this] {
        setBody({});
        m_edit->setFocus();
    });
    connect(m_edit, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_large)
            Q_EMIT bodyChanged();
    });
}

void BodyView::setBody(const QString& body)
{
    m_showingAll = false;
    if (body.size() <= kShownChars) {
        m_large = false;
        m_full.clear();
        m_bar->hide();
        m_edit->setReadOnly(m_readOnly);
        if (body != m_edit->toPlainText())
            m_edit->setPlainText(body);
        Q_EMIT bodyChanged();
        return;
    }
    m_large = true;
    m_full = body;
    showLarge();
    Q_EMIT bodyChanged();
}

QString BodyView::body() const
{
    return m_large ? m_full : m_edit->toPlainText();
}

void BodyView::showLarge()
{
    const QLocale locale;
    const QString size = locale.formattedDataSize(m_full.toUtf8().size());
    m_note->setText(tr("A %1 body: its first %2 characters are shown.")
                        .arg(size, locale.toString(kShownChars / 4)));
    m_showAll->setVisible(true);
    m_bar->show();
    // Read-only while large: what is shown is not the whole body.
    m_edit->setReadOnly(true);
    const QSignalBlocker quiet(m_edit);
    m_edit->setPlainText(m_full.left(kShownChars / 4) + QStringLiteral("\n…"));
}

void BodyView::showAll()
{
    if (!m_large)
        return;
    m_showingAll = true;
    // A paragraph is laid out whole: lines of kLineChars are laid out one at a time, as they
    // come into view.
    QString lines;
    lines.reserve(m_full.size() + m_full.size() / kLineChars + 1);
    for (qsizetype at = 0; at < m_full.size(); at += kLineChars) {
        if (at > 0)
            lines += QLatin1Char('\n');
        lines += QStringView(m_full).mid(at, kLineChars);
    }
    const QSignalBlocker quiet(m_edit);
    m_edit->setPlainText(lines);
    m_showAll->setVisible(false);
    m_note->setText(tr("The whole %1 body, in lines of %2 characters (the lines are not in it).")
                        .arg(QLocale().formattedDataSize(m_full.toUtf8().size()),
                             QLocale().toString(kLineChars)));
}

void BodyView::save()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the body"));
    if (path.isEmpty())
        return;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(body().toUtf8()) < 0)
        m_note->setText(tr("Cannot write %1: %2").arg(path, file.errorString()));
    else
        m_note->setText(tr("Saved the body to %1.").arg(path));
}

} // namespace inflight::ui
