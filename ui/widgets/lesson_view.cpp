#include "ui/widgets/lesson_view.h"

#include "sim/lesson_step.h"

#include "session/session.h"
#include "sim/lesson.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace inflight::ui {

namespace {

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

QString firstLine(const std::string& text)
{
    const QString all = qs(text);
    const QString line = all.section(QLatin1Char('\n'), 0, 0);
    return line.size() > 70 ? line.left(68) + QStringLiteral("…") : line;
}

} // namespace

LessonView::LessonView(session::Session& session, QWidget* parent)
    : QWidget(parent), m_session(session)
{
    setObjectName(QStringLiteral("lessonView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);

    auto* open = new QHBoxLayout;
    m_chooser = new QComboBox(this);
    m_chooser->setObjectName(QStringLiteral("lessonCombo"));
    m_chooser->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_chooser->setMinimumContentsLength(10); // the dock stays narrow; the list shows titles whole
    open->addWidget(m_chooser, 1);
    auto* openButton = new QPushButton(tr("Open"), this);
    openButton->setObjectName(QStringLiteral("openLessonButton"));
    openButton->setToolTip(tr("Load the lesson's scenario (replacing the actors) and start it"));
    open->addWidget(openButton);
    layout->addLayout(open);
    connect(openButton, &QPushButton::clicked, this, [this] {
        if (m_chooser->currentIndex() >= 0)
            Q_EMIT openLessonRequested(m_chooser->currentData().toString());
    });

    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("lessonTitle"));
    m_title->setWordWrap(true);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    layout->addWidget(m_title);

    m_steps = new QListWidget(this);
    m_steps->setObjectName(QStringLiteral("lessonSteps"));
    m_steps->setSelectionMode(QAbstractItemView::NoSelection);
    m_steps->setFocusPolicy(Qt::NoFocus);
    m_steps->setMaximumHeight(130);
    layout->addWidget(m_steps);

    m_counter = new QLabel(this);
    m_counter->setObjectName(QStringLiteral("lessonStepCounter"));
    layout->addWidget(m_counter);
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("lessonStepText"));
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_text->setFrameShape(QFrame::StyledPanel);
    m_text->setMargin(6);
    m_text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_text);
    m_check = new QLabel(this);
    m_check->setObjectName(QStringLiteral("lessonCheckLabel"));
    m_check->setWordWrap(true);
    m_check->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_check);
    // What "Do it" does, in a line that wraps: a button labelled with the whole sentence made the
    // dock, and the window, as wide as the sentence (1,989 px at one step).
    m_doText = new QLabel(this);
    m_doText->setObjectName(QStringLiteral("lessonDoText"));
    m_doText->setWordWrap(true);
    m_doText->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_doText);

    auto* buttons = new QHBoxLayout;
    m_doIt = new QPushButton(tr("Do it"), this);
    m_doIt->setObjectName(QStringLiteral("lessonDoItButton"));
    m_next = new QPushButton(tr("Next"), this);
    m_next->setObjectName(QStringLiteral("lessonNextButton"));
    m_next->setToolTip(tr("Go on to the next step, met or not"));
    m_restart = new QPushButton(tr("Restart"), this);
    m_restart->setObjectName(QStringLiteral("lessonRestartButton"));
    m_restart->setToolTip(tr("The lesson's system again from its first step (engine time goes "
                             "on)"));
    buttons->addWidget(m_doIt, 1);
    buttons->addWidget(m_next);
    buttons->addWidget(m_restart);
    layout->addLayout(buttons);

    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("lessonNote"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_note->hide();
    layout->addWidget(m_note);
    layout->addStretch(1);

    connect(m_doIt, &QPushButton::clicked, this, &LessonView::doIt);
    connect(m_next, &QPushButton::clicked, this, &LessonView::next);
    connect(m_restart, &QPushButton::clicked, this, &LessonView::restart);
    connect(&session, &session::Session::lessonChanged, this, &LessonView::refresh);
    // The check's figures as they stand (presentation only: ticks come from the session).
    m_tick = new QTimer(this);
    m_tick->setInterval(250);
    connect(m_tick, &QTimer::timeout, this, [this] {
        if (m_session.lessonRun() && !m_session.lessonRun()->finished())
            refresh();
    });
    m_tick->start();
    refresh();
}

QString LessonView::displayText(const std::string& text)
{
    // A file's lines are its own layout (about 90 characters): joined, the label wraps them to
    // the dock's width; an empty line is a paragraph break.
    QStringList paragraphs = qs(text).split(QStringLiteral("\n\n"));
    for (QString& paragraph : paragraphs)
        paragraph.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return paragraphs.join(QStringLiteral("\n\n"));
}

void LessonView::setCurrentLesson(const QString& path)
{
    const int index = m_chooser->findData(path);
    if (index >= 0)
        m_chooser->setCurrentIndex(index);
}

void LessonView::setLessons(const QStringList& titles, const QStringList& paths)
{
    m_chooser->clear();
    for (qsizetype i = 0; i < titles.size() && i < paths.size(); ++i)
        m_chooser->addItem(titles[i], paths[i]);
}

void LessonView::showNote(const QString& text, bool error)
{
    m_note->setText(text);
    m_note->setStyleSheet(error ? QStringLiteral("color: palette(link);") : QString());
    if (error)
        m_note->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_note->setVisible(!text.isEmpty());
}

void LessonView::refresh()
{
    const sim::LessonRun* run = m_session.lessonRun();
    m_doIt->setVisible(run != nullptr);
    m_next->setVisible(run != nullptr);
    m_restart->setVisible(run != nullptr);
    m_steps->setVisible(run != nullptr);
    if (!run) {
        m_title->setText(tr("No lesson: choose one above, or from the Lessons menu."));
        m_counter->clear();
        m_text->hide();
        m_check->clear();
        m_doText->hide();
        return;
    }
    const auto& scenario = m_session.scenario();
    m_title->setText(scenario ? qs(scenario->title) : tr("Lesson"));
    const sim::LessonPlan& plan = run->plan();
    if (m_steps->count() != int(plan.steps.size())) {
        m_steps->clear();
        for (std::size_t i = 0; i < plan.steps.size(); ++i)
            m_steps->addItem(QString());
    }
    for (std::size_t i = 0; i < plan.steps.size(); ++i) {
        const bool met = run->metAt(i).has_value();
        const bool current = i == run->current();
        const QString mark = met ? QStringLiteral("✔")
            : current            ? QStringLiteral("▶")
                                 : QStringLiteral("○");
        QListWidgetItem* item = m_steps->item(int(i));
        item->setText(
            QStringLiteral("%1 %2. %3").arg(mark).arg(i + 1).arg(firstLine(plan.steps[i].text)));
        QFont font = item->font();
        font.setBold(current);
        item->setFont(font);
    }
    if (run->current() < std::size_t(m_steps->count()))
        m_steps->scrollToItem(m_steps->item(int(run->current())));
    m_restart->setEnabled(scenario && scenario->lesson);

    if (run->finished()) {
        m_counter->setText(tr("All %1 steps done").arg(run->size()));
        m_text->setText(tr("The lesson is done. Restart it, or open another."));
        m_text->show();
        m_check->setText(QStringLiteral("✔ ") + tr("Finished"));
        m_doIt->setEnabled(false);
        m_doText->clear();
        m_doText->hide();
        m_next->setEnabled(false);
        return;
    }
    const sim::LessonStep& step = *run->step();
    m_counter->setText(tr("Step %1 of %2").arg(run->current() + 1).arg(run->size()));
    m_text->setText(displayText(step.text));
    m_text->show();
    const bool hasAction = !step.actions.empty();
    m_doIt->setEnabled(hasAction && !run->performed());
    m_doText->setText(hasAction ? tr("Do it: %1").arg(qs(sim::doTextOf(step))) : QString());
    m_doText->setVisible(hasAction);
    m_doIt->setToolTip(hasAction ? qs(sim::describeActions(step.actions)) : QString());
    m_next->setText(step.check || hasAction ? tr("Skip") : tr("Next"));
    m_next->setEnabled(true);
    if (step.check) {
        const sim::CheckProgress progress = m_session.lessonProgress();
        m_check->setText(QStringLiteral("%1 %2 — %3")
                             .arg(progress.met ? QStringLiteral("✔") : QStringLiteral("○"),
                                  qs(sim::checkTextOf(step)), qs(progress.text)));
    } else {
        m_check->setText(hasAction ? tr("Met once done") : tr("Read, then Next"));
    }
}

void LessonView::doIt()
{
    // The queue a peek or receive of this step looks into (its DLQ with deadLetter).
    QString lookedInto;
    if (const sim::LessonRun* run = m_session.lessonRun(); run && run->step())
        for (const sim::LessonAction& action : run->step()->actions) {
            if (action.kind != sim::LessonAction::Kind::Peek
                && action.kind != sim::LessonAction::Kind::Receive)
                continue;
            std::string queue = action.queue;
            if (action.deadLetter)
                if (auto view = m_session.broker().queueView(queue))
                    queue = view->deadLetterTarget;
            lookedInto = qs(queue);
        }
    const auto effects = m_session.lessonDoIt();
    if (!effects) {
        showNote(QString::fromStdString(engine::describe(effects.error())), true);
        refresh();
        return;
    }
    QStringList shown;
    for (const engine::ReceivedMessage& message : effects->received)
        shown << tr("Received %1 (receive count %2): %3")
                     .arg(qs(message.messageId).left(8))
                     .arg(message.receiveCount)
                     .arg(qs(message.body).left(32));
    for (const engine::MessageView& message : effects->peeked)
        shown << tr("%1 (receive count %2): %3")
                     .arg(qs(message.messageId).left(8))
                     .arg(message.receiveCount)
                     .arg(qs(message.body).left(32));
    for (const std::string& task : effects->moveTasks)
        shown << tr("Move task started: %1").arg(qs(task).right(12));
    constexpr qsizetype kShown = 6;
    const qsizetype more = shown.size() - kShown;
    if (more > 0) {
        shown.resize(kShown);
        shown << tr("… and %1 more (the Messages tab has them all)").arg(more);
    }
    showNote(shown.join(QLatin1Char('\n')));
    refresh();
    // What it looked at is shown where messages are: selected in the Messages tab.
    QStringList ids;
    for (const engine::ReceivedMessage& message : effects->received)
        ids << qs(message.messageId);
    for (const engine::MessageView& message : effects->peeked)
        ids << qs(message.messageId);
    if (!lookedInto.isEmpty() && !ids.isEmpty())
        Q_EMIT showMessagesRequested(lookedInto, ids);
}

void LessonView::next()
{
    m_session.lessonNext();
    refresh();
}

void LessonView::restart()
{
    if (const engine::Status status = m_session.restartLesson(); !status) {
        showNote(QString::fromStdString(engine::describe(status.error())), true);
        return;
    }
    m_session.pause();
    showNote({});
    refresh();
}

} // namespace inflight::ui
