// Builds the real window on the default workspace, runs a few minutes of simulated traffic in
// engine time, and saves PNGs of the main views into a folder (docs/screenshots/ in the
// repository). Not a test: run it by hand after changing the window.
//
//   ui_screenshot_tool <output-dir> [--dark]
//
// Runs on any QPA platform (offscreen is enough): every picture comes from QWidget::grab().

#include "session/session.h"
#include "ui/charts/throughput_chart_view.h"
#include "ui/dialogs/queue_dialog.h"
#include "ui/dialogs/receive_attributes.h"
#include "ui/dialogs/receive_dialog.h"
#include "ui/dialogs/redrive_dialog.h"
#include "ui/main_window.h"
#include "ui/models/event_log_model.h"
#include "ui/models/message_table_model.h"
#include "ui/widgets/endpoint_control.h"
#include "ui/widgets/event_log_view.h"
#include "ui/widgets/message_inspector.h"
#include "ui/widgets/theme.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QEventLoop>
#include <QGroupBox>
#include <QLineEdit>
#include <QPalette>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>

#include <cstdio>
#include <deque>
#include <string>

using namespace inflight;

namespace {

const engine::Origin kSimulation{"simulation"};

void settle(int rounds = 4)
{
    for (int i = 0; i < rounds; ++i)
        QApplication::processEvents();
}

// Lets the presentation timers (countdowns, wait progress) run for `ms` of real time.
void wait(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

void save(QWidget* widget, const QString& dir, const QString& name)
{
    wait(250);
    const QString path = dir + QLatin1Char('/') + name;
    if (!widget->grab().save(path))
        std::fprintf(stderr, "could not write %s\n", qPrintable(path));
    else
        std::printf("%s\n", qPrintable(path));
}

// A producer and a few consumers, one engine second at a time: most messages are deleted a few
// seconds after their receive, some consumers "crash" (their message comes back when the
// visibility runs out), and orders without items fail until they reach the DLQ.
class Traffic {
public:
    explicit Traffic(session::Session& session) : m_session(session) {}

    void second(int t)
    {
        engine::Broker& broker = m_session.broker();
        for (int i = 0; i < 1 + (t % 3); ++i) {
            const int number = 2000 + m_sent++;
            const bool poison = number % 17 == 0;
            const std::string body = poison
                ? "{\"order\": " + std::to_string(number) + ", \"items\": [], \"total\": null}"
                : "{\"order\": " + std::to_string(number)
                    + ", \"items\": [{\"sku\": \"cable\", \"quantity\": "
                    + std::to_string(1 + t % 4)
                    + "}], \"total\": " + std::to_string(10 + number % 90) + ".50}";
            (void)broker.sendMessage({.queue = "orders", .body = body, .origin = kSimulation});
        }
        if (t % 2 == 0) {
            const std::string group = "customer-" + std::to_string(17 + (t / 2) % 4 * 25);
            (void)broker.sendMessage({.queue = "payments.fifo",
                                      .body = "{\"payment\": \"p-" + std::to_string(t) + "\"}",
                                      .groupId = group,
                                      .origin = kSimulation});
        }
        (void)broker.sendMessage({.queue = "telemetry",
                                  .body = "{\"t\": " + std::to_string(t) + "}",
                                  .channelId = std::string(t % 2 ? "eu" : "us"),
                                  .origin = kSimulation});

        consume("orders", t % 4 == 0 ? 3 : 2, 20 + (t % 5) * 10, t);
        if (t % 3 == 0)
            consume("payments.fifo", 1, 30, t);
        consume("telemetry", 1, 20, t);

        // Workers finish: delete what is due.
        for (auto it = m_work.begin(); it != m_work.end();) {
            if (it->doneAt <= t) {
                (void)broker.deleteMessage(it->queue, it->receipt, kSimulation);
                it = m_work.erase(it);
            } else {
                ++it;
            }
        }
    }

private:
    struct Work {
        std::string queue;
        std::string receipt;
        int doneAt;
    };

    void consume(const std::string& queue, int max, int visibility, int t)
    {
        auto received = m_session.broker().receiveMessage({.queue = queue,
                                                           .maxMessages = max,
                                                           .visibilityTimeout = visibility,
                                                           .waitTimeSeconds = 0,
                                                           .origin = kSimulation});
        if (!received)
            return;
        for (const engine::ReceivedMessage& m : received->messages) {
            ++m_received;
            const bool poison = m.body.find("\"total\": null") != std::string::npos;
            const bool crash = m_received % 9 == 0;
            if (!poison && !crash)
                m_work.push_back({queue, m.receiptHandle, t + 2 + int(m_received % 7)});
        }
    }

    session::Session& m_session;
    std::deque<Work> m_work;
    int m_sent = 0;
    long m_received = 0;
};

QString bestTimelineMessage(ui::MainWindow& window)
{
    // The message with the most receives that is still in the table: the richest timeline.
    ui::MessageTableModel* model = window.messageModel();
    int best = -1;
    std::uint32_t receives = 0;
    for (int row = 0; row < model->rowCount(); ++row) {
        const auto& r = model->row(row);
        if (r.state == engine::MessageState::InFlight && r.receiveCount >= receives) {
            receives = r.receiveCount;
            best = row;
        }
    }
    return best >= 0 ? model->messageId(best) : QString();
}

// The endpoint as the app shows it by default, without opening a port for the pictures.
class ShownEndpoint : public ui::EndpointControl {
public:
    bool isListening() const override { return true; }
    QString address() const override { return QStringLiteral("127.0.0.1:9324"); }
    QString errorString() const override { return {}; }
    bool listen(const QString&, quint16) override { return true; }
    void close() override {}
    QString checkSignaturesWith(const QString&) override { return {}; }
    QString credentialsFile() const override { return {}; }
};

} // namespace

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Inflight"));
    QCoreApplication::setApplicationName(QStringLiteral("inflight-screenshots"));
    QStandardPaths::setTestModeEnabled(true); // leave the user's settings alone
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: ui_screenshot_tool <output-dir> [--dark]\n");
        return 2;
    }
    const QString dir = args.at(1);
    const bool dark = args.contains(QStringLiteral("--dark"));
    QDir().mkpath(dir);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    if (dark)
        ui::applyTheme(ui::Theme::Dark);
    QFont font = QApplication::font();
    font.setPointSizeF(9.5);
    QApplication::setFont(font);

    // A Monday morning, engine time paused: every picture is taken at a known instant.
    const engine::Millis start = QDateTime(QDate(2025, 6, 2), QTime(9, 30, 0)).toMSecsSinceEpoch();
    session::Session session(engine::BrokerOptions{}, start);
    session.pause();

    ui::MainWindow window(session);
    ShownEndpoint endpoint;
    window.setEndpoint(&endpoint);
    window.resize(1600, 960);
    window.show();
    settle();

    Traffic traffic(session);
    for (int t = 0; t < 150; ++t) {
        traffic.second(t);
        session.step(engine::kSecond);
        settle(2);
        window.charts()->sampleNow();
    }
    const QString prefix = dark ? QStringLiteral("dark-") : QString();

    window.selectQueue(QStringLiteral("orders"));
    window.tabs()->setCurrentIndex(0);
    settle();
    window.selectMessages({bestTimelineMessage(window)});
    settle();
    save(&window, dir, prefix + QStringLiteral("overview.png"));
    save(window.inspector(), dir, prefix + QStringLiteral("inspector.png"));
    // The same at 1280×800 (the window within that screen): the table keeps its room.
    const QSize large = window.size();
    window.resize(1248, 752);
    settle();
    save(&window, dir, prefix + QStringLiteral("overview-1280.png"));
    window.resize(large);
    settle();
    if (dark)
        return 0;

    window.selectQueue(QStringLiteral("payments.fifo"));
    window.tabs()->setCurrentIndex(1);
    save(&window, dir, QStringLiteral("fifo-groups.png"));

    window.selectQueue(QStringLiteral("orders"));
    window.tabs()->setCurrentIndex(2);
    window.charts()->setAllQueues(true);
    window.charts()->setWindowMinutes(1);
    save(&window, dir, QStringLiteral("charts.png"));

    // What went wrong lately: the expiries and the moves to the DLQ, two kinds of the sixteen.
    window.tabs()->setCurrentIndex(3);
    window.eventLog()->setKindMask(1u << int(engine::EventKind::VisibilityExpired)
                                   | 1u << int(engine::EventKind::MovedToDeadLetterQueue));
    save(&window, dir, QStringLiteral("event-log.png"));
    window.eventLog()->setKindMask(ui::EventLogFilterModel::allKinds());
    window.tabs()->setCurrentIndex(0);

    {
        ui::QueueDialog dialog(session, &window);
        dialog.findChild<QLineEdit*>(QStringLiteral("nameEdit"))
            ->setText(QStringLiteral("invoices.fifo"));
        dialog.findChild<QComboBox*>(QStringLiteral("typeCombo"))->setCurrentIndex(1);
        dialog.findChild<QCheckBox*>(QStringLiteral("contentDedupCheck"))->setChecked(true);
        dialog.findChild<QGroupBox*>(QStringLiteral("dlqGroup"))->setChecked(true);
        dialog.show();
        dialog.adjustSize();
        save(&dialog, dir, QStringLiteral("create-queue.png"));
    }
    {
        // A long poll on an empty queue, 8 s into its 20 s wait.
        ui::ReceiveDialog dialog(session, QStringLiteral("payments-dlq.fifo"), &window);
        dialog.setWaitTime(20);
        dialog.show();
        dialog.startReceive();
        settle();
        session.step(8 * engine::kSecond);
        wait(300);
        save(&dialog, dir, QStringLiteral("receive-waiting.png"));
        dialog.cancelReceive();
        settle();
    }
    {
        ui::ReceiveDialog dialog(session, QStringLiteral("orders"), &window);
        dialog.setMaxMessages(5);
        ui::ReceiveAttributeChoice attributes;
        attributes.allSystem = false;
        attributes.systemNames
            = {QStringLiteral("ApproximateReceiveCount"), QStringLiteral("SentTimestamp")};
        attributes.messages = ui::ReceiveAttributeChoice::Messages::Names;
        attributes.messageNamesText = QStringLiteral("customer");
        dialog.setAttributeChoice(attributes);
        dialog.show();
        dialog.startReceive();
        settle();
        save(&dialog, dir, QStringLiteral("receive.png"));
    }
    {
        ui::RedriveDialog dialog(session, QStringLiteral("orders-dlq"), &window);
        dialog.setRate(2);
        dialog.show();
        dialog.startTask();
        for (int i = 0; i < 2; ++i) {
            session.step(engine::kSecond);
            settle();
        }
        save(&dialog, dir, QStringLiteral("redrive.png"));
    }
    return 0;
}
