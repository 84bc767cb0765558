#pragma once

#include <QPushButton>
#include <QString>
#include <QVariant>

#include <vector>

class QAction;

namespace inflight::ui {

// A button whose menu checks any number of items on and off: "All" and "None" at the top,
// then one checkable entry per item. The menu stays open while the user checks (Space or a click
// toggles; Return, Esc or a click outside closes it), and the button's text sums up the choice:
// the all-text ("All kinds"), the none-text ("No kinds"), the checked items when one or two are
// ("received, deleted"), else a count ("5 of 16 kinds"); the tooltip names every checked item.
// selectionChanged() comes once per change, All and None included. The menu's actions are
// children of the button named "allAction", "noneAction" and "itemAction" (itemAction(value)).
class CheckListButton : public QPushButton {
    Q_OBJECT
public:
    explicit CheckListButton(QWidget* parent = nullptr);

    // `allText` when every item is checked, `noneText` when none is, `countText` ("%1 of %2
    // kinds": checked, items) when more than two but not all are.
    void setSummaryTexts(const QString& allText, const QString& noneText, const QString& countText);
    // Adds a checkable item with `value` (unique among the items) at the end of the menu.
    void addItem(const QString& text, const QVariant& value, bool checked = true);
    void addSeparator();

    int itemCount() const { return static_cast<int>(m_items.size()); }
    int checkedCount() const;
    bool allChecked() const { return checkedCount() == itemCount(); }
    // The values of the checked items, in menu order.
    QVariantList checkedValues() const;
    bool isItemChecked(const QVariant& value) const;
    // Each emits selectionChanged() once if the choice changed. Unknown values are ignored.
    void setItemChecked(const QVariant& value, bool checked);
    void setCheckedValues(const QVariantList& values);
    void setAllChecked(bool checked);

    // The menu entries, for tests and keyboard users: nullptr for an unknown value.
    QAction* itemAction(const QVariant& value) const;
    QAction* allAction() const { return m_all; }
    QAction* noneAction() const { return m_none; }

Q_SIGNALS:
    void selectionChanged();

private:
    void onItemToggled();
    template <class Change>
    void changeAll(Change&& change);
    void updateSummary();
    void updateMinimumWidth();

    std::vector<QAction*> m_items;
    QAction* m_all = nullptr;
    QAction* m_none = nullptr;
    QString m_allText;
    QString m_noneText;
    QString m_countText;
    bool m_changing = false; // a bulk change emits once, at its end
};

} // namespace inflight::ui
