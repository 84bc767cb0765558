#include "ui/widgets/time_controls.h"

#include "session/session.h"
#include "ui/widgets/engine_text.h"

#include <QAction>
#include <QActionGroup>
#include <QDateTime>
#include <QFontDatabase>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>

#include <cmath>

namespace inflight::ui {

TimeControls::TimeControls(session::Session& session, QWidget* parent)
    : QObject(parent), m_session(session)
{
    m_label = new QLabel(parent);
    m_label->setObjectName(QStringLiteral("engineTimeLabel"));
    m_label->setToolTip(tr("Engine time: every countdown, delay, long poll, move task and chart "
                           "follows it"));
    m_label->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_label->setContentsMargins(6, 0, 6, 0);
    // Fixed widths: the buttons after the clock never move as its text changes.
    m_label->setFixedWidth(
        m_label->fontMetrics().horizontalAdvance(QStringLiteral("0000-00-00 00:00:00")) + 12);
    m_offset = new QLabel(parent);
    m_offset->setObjectName(QStringLiteral("engineOffsetLabel"));
    m_offset->setToolTip(tr("How far engine time is from the wall clock (after a step, a speed-up "
                            "or a pause), or what is left of a Run"));
    m_offset->setFixedWidth(
        m_offset->fontMetrics().horizontalAdvance(QStringLiteral("000 d 00 h behind")) + 8);
    m_clockGroup = new QLabel(tr("Clock"), parent);
    m_clockGroup->setObjectName(QStringLiteral("clockGroupLabel"));
    m_clockGroup->setToolTip(tr("Move engine time forward at once"));
    m_clockGroup->setContentsMargins(4, 0, 2, 0);

    m_pause = makeAction(QStringLiteral("pauseAction"), tr("Pause"),
                         tr("Stop engine time (countdowns, delays and long polls wait)"),
                         QKeySequence(Qt::CTRL | Qt::Key_P));
    m_pause->setCheckable(true);
    connect(m_pause, &QAction::toggled, this, [this](bool paused) {
        if (paused == m_session.isPaused())
            return;
        if (paused)
            m_session.pause();
        else
            m_session.resume();
    });

    m_speeds = new QActionGroup(this);
    const auto speed = [this](const QString& name, const QString& text, double factor, int key) {
        QAction* action = makeAction(name, text, tr("Run engine time at %1").arg(text),
                                     QKeySequence(Qt::CTRL | key));
        action->setCheckable(true);
        m_speeds->addAction(action);
        connect(action, &QAction::triggered, this, [this, factor] {
            m_session.setSpeed(factor);
            if (m_session.isPaused())
                m_session.resume();
        });
        return action;
    };
    m_speed1 = speed(QStringLiteral("speed1Action"), QStringLiteral("1×"), 1.0, Qt::Key_1);
    m_speed10 = speed(QStringLiteral("speed10Action"), QStringLiteral("10×"), 10.0, Qt::Key_2);
    m_speed60 = speed(QStringLiteral("speed60Action"), QStringLiteral("60×"), 60.0, Qt::Key_3);
    // For demos: a 12-hour visibility timeout in about a minute at 600×, 12 s at 3600×.
    m_speed600 = speed(QStringLiteral("speed600Action"), QStringLiteral("600×"), 600.0, Qt::Key_4);
    m_speed3600
        = speed(QStringLiteral("speed3600Action"), QStringLiteral("3600×"), 3600.0, Qt::Key_5);

    m_runForSeconds = new QSpinBox(parent);
    m_runForSeconds->setObjectName(QStringLiteral("runForSeconds"));
    m_runForSeconds->setRange(1, 7 * 24 * 3600);
    m_runForSeconds->setValue(30);
    m_runForSeconds->setSuffix(tr(" s"));
    m_runForSeconds->setToolTip(tr("Engine seconds that \"Run\" runs before it pauses"));
    m_runFor = makeAction(QStringLiteral("runForAction"), tr("Run"),
                          tr("Run engine time for the seconds given at the current speed, then "
                             "pause"),
                          QKeySequence(Qt::Key_F9));
    connect(m_runFor, &QAction::triggered, this, [this] {
        m_session.runFor(engine::Millis(m_runForSeconds->value()) * engine::kSecond);
    });
    m_nextEvent = makeAction(QStringLiteral("nextEventAction"), tr("Next event"),
                             tr("Move engine time to the next moment something happens (an "
                                "event or an actor action)"),
                             QKeySequence(Qt::Key_F10));
    connect(m_nextEvent, &QAction::triggered, this, [this] { m_session.runToNextEvent(); });

    const auto step = [this](const QString& name, const QString& text, engine::Millis delta,
                             Qt::Key key) {
        QAction* action
            = makeAction(name, text, tr("Move engine time forward by %1 at once").arg(text.mid(1)),
                         QKeySequence(key));
        connect(action, &QAction::triggered, this, [this, delta] { m_session.step(delta); });
        return action;
    };
    m_step1s = step(QStringLiteral("step1sAction"), tr("+1 s"), engine::kSecond, Qt::Key_F6);
    m_step30s
        = step(QStringLiteral("step30sAction"), tr("+30 s"), 30 * engine::kSecond, Qt::Key_F7);
    m_step5min
        = step(QStringLiteral("step5minAction"), tr("+5 min"), 300 * engine::kSecond, Qt::Key_F8);
    // In menus "Clock +30 s", apart from a message's "Extend +30 s"; on the toolbar the steps
    // follow their "Clock" label.
    for (QAction* action : {m_step1s, m_step30s, m_step5min}) {
        action->setIconText(action->text());
        action->setText(tr("Clock %1").arg(action->iconText()));
    }

    connect(&m_session, &session::Session::clockChanged, this, [this] {
        syncActions();
        refresh();
    });
    // Presentation only: the label shows engine time; no engine rule runs on this timer.
    m_tick = new QTimer(this);
    m_tick->setInterval(200);
    connect(m_tick, &QTimer::timeout, this, &TimeControls::refresh);
    m_tick->start();
    syncActions();
    refresh();
}

QAction* TimeControls::makeAction(const QString& objectName, const QString& text,
                                  const QString& toolTip, const QKeySequence& shortcut)
{
    auto* action = new QAction(text, this);
    action->setObjectName(objectName);
    action->setShortcut(shortcut);
    action->setShortcutContext(Qt::WindowShortcut);
    action->setToolTip(
        QStringLiteral("%1 (%2)").arg(toolTip, shortcut.toString(QKeySequence::NativeText)));
    action->setStatusTip(toolTip);
    return action;
}

QAction* TimeControls::speedAction(int speed) const
{
    switch (speed) {
    case 1: return m_speed1;
    case 10: return m_speed10;
    case 60: return m_speed60;
    case 600: return m_speed600;
    case 3600: return m_speed3600;
    default: return nullptr;
    }
}

QAction* TimeControls::stepAction(engine::Millis delta) const
{
    if (delta == engine::kSecond)
        return m_step1s;
    if (delta == 30 * engine::kSecond)
        return m_step30s;
    if (delta == 300 * engine::kSecond)
        return m_step5min;
    return nullptr;
}

void TimeControls::populate(QToolBar* toolBar)
{
    toolBar->addWidget(m_label);
    toolBar->addWidget(m_offset);
    for (QAction* action : {m_pause, m_speed1, m_speed10, m_speed60, m_speed600, m_speed3600,
                            m_step1s, m_step30s, m_step5min, m_runFor, m_nextEvent}) {
        if (action == m_speed1)
            toolBar->addSeparator();
        if (action == m_step1s) {
            toolBar->addSeparator();
            toolBar->addWidget(m_clockGroup);
        }
        if (action == m_runFor) {
            toolBar->addSeparator();
            toolBar->addWidget(m_runForSeconds);
        }
        toolBar->addAction(action);
        if (QWidget* button = toolBar->widgetForAction(action))
            button->setObjectName(
                action->objectName().replace(QStringLiteral("Action"), QStringLiteral("Button")));
    }
    // Pause and Resume take the same room.
    if (auto* pause = qobject_cast<QToolButton*>(toolBar->widgetForAction(m_pause))) {
        const QString text = m_pause->text();
        int widest = 0;
        for (const QString& label : {tr("Pause"), tr("Resume")}) {
            pause->setText(label);
            widest = std::max(widest, pause->sizeHint().width());
        }
        pause->setText(text);
        pause->setMinimumWidth(widest);
    }
}

void TimeControls::populate(QMenu* menu)
{
    menu->addAction(m_pause);
    menu->addSeparator();
    menu->addActions({m_speed1, m_speed10, m_speed60, m_speed600, m_speed3600});
    menu->addSeparator();
    menu->addActions({m_step1s, m_step30s, m_step5min});
    menu->addSeparator();
    menu->addActions({m_runFor, m_nextEvent});
}

void TimeControls::syncActions()
{
    const QSignalBlocker blocker(m_pause);
    m_pause->setChecked(m_session.isPaused());
    m_pause->setText(m_session.isPaused() ? tr("Resume") : tr("Pause"));
    const double speed = m_session.speed();
    for (QAction* action : m_speeds->actions())
        action->setChecked(false);
    if (QAction* current = presetFor(speed))
        current->setChecked(true);
}

QAction* TimeControls::presetFor(double speed) const
{
    return std::abs(speed - std::round(speed)) < 1e-9 ? speedAction(int(std::lround(speed)))
                                                      : nullptr;
}

QString TimeControls::offsetText(engine::Millis engineMinusWall)
{
    const engine::Millis distance = std::abs(engineMinusWall);
    if (distance < engine::kSecond)
        return {};
    const qint64 seconds = distance / engine::kSecond;
    const QString amount = seconds >= 86'400
        ? tr("%1 d %2 h").arg(seconds / 86'400).arg(seconds / 3600 % 24)
        : seconds >= 3600
        ? QStringLiteral("%1:%2:%3")
              .arg(seconds / 3600)
              .arg(seconds / 60 % 60, 2, 10, QLatin1Char('0'))
              .arg(seconds % 60, 2, 10, QLatin1Char('0'))
        : QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
    return engineMinusWall > 0 ? tr("%1 ahead").arg(amount) : tr("%1 behind").arg(amount);
}

void TimeControls::refresh()
{
    // The speed is the checked speed button (shown once); a speed no button has, the label says.
    const double speed = m_session.speed();
    const QString text = formatEngineDateTime(m_session.displayTime());
    if (text != m_label->text())
        m_label->setText(text);
    QString offset;
    if (const auto target = m_session.runTarget(); target && !m_session.isPaused())
        offset = tr("%1 s left").arg((*target - m_session.displayTime() + 999) / engine::kSecond);
    else if (!presetFor(speed))
        offset = tr("at %1×").arg(speed, 0, 'g', 4);
    else
        offset = offsetText(m_session.displayTime() - QDateTime::currentMSecsSinceEpoch());
    if (offset != m_offset->text())
        m_offset->setText(offset);
}

} // namespace inflight::ui
