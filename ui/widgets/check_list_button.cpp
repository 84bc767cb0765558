#include "ui/widgets/check_list_button.h"

#include <QAction>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QStringList>

#include <algorithm>

namespace inflight::ui {

namespace {

// A menu that stays open when one of its entries is clicked or toggled with Space, so that
// several items can be checked in one go. Only a press that began on the menu triggers on
// release (as in QMenu), so the release of the click that opened it does nothing.
class StayOpenMenu : public QMenu {
public:
    using QMenu::QMenu;

protected:
    void mousePressEvent(QMouseEvent* event) override
    {
        m_pressed = rect().contains(event->position().toPoint())
            ? actionAt(event->position().toPoint())
            : nullptr;
        QMenu::mousePressEvent(event);
    }

    void mouseReleaseEvent(QMouseEvent* event) override
    {
        QAction* action = actionAt(event->position().toPoint());
        const bool ours = action && action == m_pressed;
        m_pressed = nullptr;
        if (ours && event->button() == Qt::LeftButton && isEntry(action)) {
            action->trigger();
            return;
        }
        QMenu::mouseReleaseEvent(event);
    }

    void keyPressEvent(QKeyEvent* event) override
    {
        if (event->key() == Qt::Key_Space && isEntry(activeAction())) {
            activeAction()->trigger();
            return;
        }
        QMenu::keyPressEvent(event);
    }

private:
    static bool isEntry(const QAction* action)
    {
        return action && action->isEnabled() && !action->isSeparator() && !action->menu();
    }

    QAction* m_pressed = nullptr;
};

} // namespace

CheckListButton::CheckListButton(QWidget* parent) : QPushButton(parent)
{
    auto* menu = new StayOpenMenu(this);
    setMenu(menu);
    m_all = menu->addAction(tr("&All"));
    m_all->setObjectName(QStringLiteral("allAction"));
    m_none = menu->addAction(tr("&None"));
    m_none->setObjectName(QStringLiteral("noneAction"));
    menu->addSeparator();
    connect(m_all, &QAction::triggered, this, [this] { setAllChecked(true); });
    connect(m_none, &QAction::triggered, this, [this] { setAllChecked(false); });
    m_allText = tr("All");
    m_noneText = tr("None");
    m_countText = tr("%1 of %2");
    updateSummary();
}

void CheckListButton::setSummaryTexts(const QString& allText, const QString& noneText,
                                      const QString& countText)
{
    m_allText = allText;
    m_noneText = noneText;
    m_countText = countText;
    updateSummary();
    updateMinimumWidth();
}

void CheckListButton::updateMinimumWidth()
{
    // Wide enough for the all, none and count texts, so that the common choices do not make the
    // button (and what follows it in a row) jump.
    const QFontMetrics metrics = fontMetrics();
    int widest = 0;
    for (const QString& text :
         {m_allText, m_noneText, m_countText.arg(itemCount()).arg(itemCount())})
        widest = std::max(widest, metrics.horizontalAdvance(text));
    setMinimumWidth(sizeHint().width() - metrics.horizontalAdvance(text()) + widest);
}

void CheckListButton::addItem(const QString& text, const QVariant& value, bool checked)
{
    QAction* action = menu()->addAction(text);
    action->setObjectName(QStringLiteral("itemAction"));
    action->setCheckable(true);
    action->setChecked(checked);
    action->setData(value);
    connect(action, &QAction::toggled, this, &CheckListButton::onItemToggled);
    m_items.push_back(action);
    updateSummary();
    updateMinimumWidth();
}

void CheckListButton::addSeparator()
{
    menu()->addSeparator();
}

int CheckListButton::checkedCount() const
{
    int checked = 0;
    for (const QAction* item : m_items)
        checked += item->isChecked() ? 1 : 0;
    return checked;
}

QVariantList CheckListButton::checkedValues() const
{
    QVariantList values;
    for (const QAction* item : m_items)
        if (item->isChecked())
            values.append(item->data());
    return values;
}

bool CheckListButton::isItemChecked(const QVariant& value) const
{
    const QAction* item = itemAction(value);
    return item && item->isChecked();
}

QAction* CheckListButton::itemAction(const QVariant& value) const
{
    for (QAction* item : m_items)
        if (item->data() == value)
            return item;
    return nullptr;
}

void CheckListButton::setItemChecked(const QVariant& value, bool checked)
{
    if (QAction* item = itemAction(value))
        item->setChecked(checked); // toggled → onItemToggled, only if it changed
}

void CheckListButton::setCheckedValues(const QVariantList& values)
{
    changeAll([&values](QAction* item) { item->setChecked(values.contains(item->data())); });
}

void CheckListButton::setAllChecked(bool checked)
{
    changeAll([checked](QAction* item) { item->setChecked(checked); });
}

template <class Change>
void CheckListButton::changeAll(Change&& change)
{
    const QVariantList before = checkedValues();
    m_changing = true;
    for (QAction* item : m_items)
        change(item);
    m_changing = false;
    if (checkedValues() == before)
        return;
    updateSummary();
    Q_EMIT selectionChanged();
}

void CheckListButton::onItemToggled()
{
    if (m_changing)
        return;
    updateSummary();
    Q_EMIT selectionChanged();
}

void CheckListButton::updateSummary()
{
    QStringList checked;
    for (const QAction* item : m_items)
        if (item->isChecked())
            checked.append(item->text());
    const int count = static_cast<int>(checked.size());
    if (count == itemCount())
        setText(m_allText);
    else if (count == 0)
        setText(m_noneText);
    else if (count <= 2)
        setText(checked.join(QStringLiteral(", ")));
    else
        setText(m_countText.arg(count).arg(itemCount()));
    setToolTip(count == 0 || count == itemCount() ? text() : checked.join(QLatin1Char('\n')));
    m_all->setEnabled(count < itemCount());
    m_none->setEnabled(count > 0);
}

} // namespace inflight::ui
