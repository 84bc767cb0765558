// The live visibility countdown of the message table: it runs down with engine time, turns to the
// warning colour near zero, marks the message whose next receive moves it to the DLQ, and when it
// reaches zero the message shows as available again.

#include "ui/widgets/countdown_delegate.h"
#include "ui/widgets/palette_colors.h"
#include "window_test_support.h"

#include <QImage>
#include <QPixmap>

using namespace inflight;
using namespace inflight::ui::test;

namespace {

QModelIndex cellOf(ui::MainWindow& w, const std::string& id, int column)
{
    const QAbstractItemModel* model = w.messageView()->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, column);
        if (index.data(ui::MessageTableModel::MessageIdRole).toString().toStdString() == id)
            return index;
    }
    return {};
}

// How many pixels of the drawn cell are (close to) the warning colour.
int warningPixels(ui::MainWindow& w, const std::string& id)
{
    QTableView* view = w.messageView();
    const QModelIndex index = cellOf(w, id, ui::MessageTableModel::VisibilityColumn);
    view->scrollTo(index);
    const QRect rect = view->visualRect(index);
    const QImage image = view->viewport()->grab(rect).toImage();
    const QColor warning = ui::warningColor(view->palette());
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.red() - warning.red()) < 12 && std::abs(c.green() - warning.green()) < 12
                && std::abs(c.blue() - warning.blue()) < 12)
                ++count;
        }
    return count;
}

} // namespace

class CountdownTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    void countdownReachesZeroAndTheMessageIsAvailableAgain()
    {
        WindowFixture f;
        f.createQueue("q");
        const std::string id = f.send("q", "a");
        f.receive("q", 1, 10);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        const int column = ui::MessageTableModel::VisibilityColumn;
        QCOMPARE(shownState(w, id), QStringLiteral("In flight"));
        QTRY_COMPARE(shownCell(w, QString::fromStdString(id), column), QStringLiteral("10.0 s"));
        QCOMPARE(
            shownCell(w, QString::fromStdString(id), column, ui::MessageTableModel::CountdownRole)
                .toDouble(),
            1.0);

        f.step(6'500);
        QTRY_COMPARE(shownCell(w, QString::fromStdString(id), column), QStringLiteral("3.5 s"));
        QVERIFY(cellOf(w, id, column).data(ui::MessageTableModel::WarningRole).toBool());
        QCOMPARE(f.peekId("q", id).state, engine::MessageState::InFlight);

        f.step(3'500); // exactly at the deadline: visible again
        QCOMPARE(f.peekId("q", id).state, engine::MessageState::Available);
        QTRY_COMPARE(shownState(w, id), QStringLiteral("Available"));
        QVERIFY(!cellOf(w, id, column).data(ui::MessageTableModel::CountdownRole).isValid());
        QVERIFY(shownCell(w, QString::fromStdString(id), column).isEmpty());
        QCOMPARE(f.peekId("q", id).receiveCount, 1u);
    }

    void theBarTurnsToTheWarningColourNearZero()
    {
        WindowFixture f;
        f.createQueue("q");
        const std::string calm = f.send("q", "calm");
        const std::string close = f.send("q", "close");
        f.receive("q", 1, 600);
        f.receive("q", 1, 20);
        ui::MainWindow& w = f.open();
        w.resize(1400, 800);
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        f.step(18'000);
        QTRY_VERIFY(cellOf(w, close, ui::MessageTableModel::VisibilityColumn)
                        .data(ui::MessageTableModel::WarningRole)
                        .toBool());
        QTRY_VERIFY(warningPixels(w, close) > 10);
        QCOMPARE(warningPixels(w, calm), 0);
    }

    void theMessageWhoseNextReceiveMovesItToTheDlqIsMarked()
    {
        WindowFixture f;
        f.createQueue("dlq");
        f.createQueue("q", {{"RedrivePolicy", f.redrivePolicy("dlq", 2)}});
        const std::string doomed = f.send("q", "doomed");
        const std::string fine = f.send("q", "fine");
        f.receive("q", 1, 0);   // doomed, count 1, visible at once
        f.receive("q", 1, 300); // doomed, count 2: its next receive moves it
        f.receive("q", 1, 300); // fine, count 1
        QCOMPARE(f.peekId("q", doomed).receiveCount, 2u);
        ui::MainWindow& w = f.open();
        w.resize(1400, 800);
        QVERIFY(w.selectQueue(QStringLiteral("q")));
        const int column = ui::MessageTableModel::VisibilityColumn;
        QVERIFY(cellOf(w, doomed, column).data(ui::MessageTableModel::DlqNextRole).toBool());
        QVERIFY(!cellOf(w, fine, column).data(ui::MessageTableModel::DlqNextRole).toBool());
        // The marker is drawn in the warning colour though plenty of time is left.
        QVERIFY(warningPixels(w, doomed) > 10);
        QCOMPARE(warningPixels(w, fine), 0);
    }

    void theDelegateDrawsOnlyThroughTheStyleAndPalette()
    {
        // A row without a countdown is drawn as plain text; its size hint leaves room for the
        // bar, the seconds and the marker.
        ui::CountdownDelegate delegate;
        QStyleOptionViewItem option;
        option.font = QApplication::font();
        const QSize hint = delegate.sizeHint(option, QModelIndex());
        QVERIFY(
            hint.width()
            > QFontMetrics(option.font).horizontalAdvance(ui::CountdownDelegate::dlqMarkerText()));
    }
};

QTEST_MAIN(CountdownTest)
#include "countdown_test.moc"
