// The attributes a receive from the window asks for: system attributes from a checkable menu and
// message attributes by name (with "prefix.*"), passed to the engine's ReceiveRequest as a
// client's AttributeNames / MessageAttributeNames would be, shown with the results, remembered
// for the next receive; OCI receives ask for what GetMessages returns.

#include "ui/dialogs/receive_attributes.h"
#include "ui/dialogs/receive_dialog.h"
#include "ui/widgets/check_list_button.h"
#include "window_test_support.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTreeWidget>

#include <set>

using namespace inflight;
using namespace inflight::ui::test;

namespace {

constexpr int kAttributesColumn = 4;

std::set<std::string> names(const engine::MessageAttributes& attributes)
{
    std::set<std::string> out;
    for (const auto& [name, value] : attributes)
        out.insert(name);
    return out;
}

std::set<std::string> names(const engine::StringMap& attributes)
{
    std::set<std::string> out;
    for (const auto& [name, value] : attributes)
        out.insert(name);
    return out;
}

engine::MessageAttributeValue text(std::string value)
{
    return {.dataType = "String", .stringValue = std::move(value)};
}

// A message with five attributes in `queue`.
std::string sendWithAttributes(WindowFixture& f, const std::string& queue)
{
    auto sent = f.broker().sendMessage({.queue = queue,
                                        .body = "{\"order\": 7}",
                                        .attributes = {{"customer", text("ada")},
                                                       {"priority", {"Number", "2", {}}},
                                                       {"trace.id", text("t-1")},
                                                       {"trace.parent", text("t-0")},
                                                       {"other", text("x")}},
                                        .origin = "test"});
    if (!sent)
        QTest::qFail(sent.error().message.c_str(), __FILE__, __LINE__);
    return sent ? sent->messageId : std::string();
}

// The window's receive dialog on `queue`, opened from the toolbar, with visibility 0 so that
// every click receives the same message again.
ui::ReceiveDialog* openReceive(ui::MainWindow& w, const QString& queue)
{
    if (!w.selectQueue(queue))
        QTest::qFail("no such queue", __FILE__, __LINE__);
    w.action(QStringLiteral("receiveAction"))->trigger();
    flush();
    ui::ReceiveDialog* dialog = w.receiveDialog();
    if (dialog)
        child<QSpinBox>(dialog, QStringLiteral("visibilitySpin"))->setValue(0);
    return dialog;
}

ui::CheckListButton* systemButton(QWidget* dialog)
{
    return child<ui::CheckListButton>(dialog, QStringLiteral("systemAttributesButton"));
}

// Chooses the message attributes: "All", "None" or names typed into the edit.
void chooseMessageAttributes(QWidget* dialog, const QString& choice, const QString& names = {})
{
    auto* combo = child<QComboBox>(dialog, QStringLiteral("messageAttributesCombo"));
    combo->setCurrentIndex(combo->findText(choice));
    if (choice != QStringLiteral("Only these:"))
        return;
    auto* edit = child<QLineEdit>(dialog, QStringLiteral("messageAttributeNamesEdit"));
    QVERIFY(edit->isEnabled());
    edit->clear();
    QTest::keyClicks(edit, names);
}

QString shownAttributes(QWidget* dialog)
{
    auto* tree = child<QTreeWidget>(dialog, QStringLiteral("resultsTree"));
    return tree->topLevelItemCount() > 0 ? tree->topLevelItem(0)->text(kAttributesColumn)
                                         : QString();
}

} // namespace

class ReceiveAttributesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    void aReceiveReturnsOnlyTheAttributesChosen()
    {
        WindowFixture f;
        f.createQueue("orders");
        sendWithAttributes(f, "orders");
        ui::MainWindow& w = f.open();
        ui::ReceiveDialog* dialog = openReceive(w, QStringLiteral("orders"));
        QVERIFY(dialog);

        // The default asks for everything.
        QCOMPARE(systemButton(dialog)->text(), QStringLiteral("All"));
        click(dialog, QStringLiteral("receiveButton"));
        QCOMPARE(dialog->receivedMessages().size(), std::size_t(1));
        QCOMPARE(
            names(dialog->receivedMessages().front().attributes),
            (std::set<std::string>{"customer", "other", "priority", "trace.id", "trace.parent"}));
        QCOMPARE(names(dialog->receivedMessages().front().systemAttributes),
                 (std::set<std::string>{"ApproximateFirstReceiveTimestamp",
                                        "ApproximateReceiveCount", "SenderId", "SentTimestamp"}));

        // Two system attributes, and message attributes by name and by prefix.
        auto* system = systemButton(dialog);
        clickInMenu(system,
                    {system->noneAction(), system->itemAction(QStringLiteral("SentTimestamp")),
                     system->itemAction(QStringLiteral("ApproximateReceiveCount"))});
        QCOMPARE(system->text(), QStringLiteral("ApproximateReceiveCount, SentTimestamp"));
        chooseMessageAttributes(dialog, QStringLiteral("Only these:"),
                                QStringLiteral("customer, trace.*"));
        click(dialog, QStringLiteral("receiveButton"));
        QVERIFY2(dialog->errorText().isEmpty(), qPrintable(dialog->errorText()));
        QCOMPARE(dialog->receivedMessages().size(), std::size_t(1));
        const engine::ReceivedMessage& some = dialog->receivedMessages().front();
        QCOMPARE(names(some.attributes),
                 (std::set<std::string>{"customer", "trace.id", "trace.parent"}));
        QCOMPARE(some.attributes.at("customer").stringValue, std::string("ada"));
        QCOMPARE(names(some.systemAttributes),
                 (std::set<std::string>{"ApproximateReceiveCount", "SentTimestamp"}));
        QCOMPARE(some.systemAttributes.at("ApproximateReceiveCount"), std::string("2"));
        QCOMPARE(shownAttributes(dialog),
                 QStringLiteral("customer, trace.id, trace.parent \u00b7 ApproximateReceiveCount, "
                                "SentTimestamp"));
        auto* tree = child<QTreeWidget>(dialog, QStringLiteral("resultsTree"));
        QVERIFY(tree->topLevelItem(0)
                    ->toolTip(kAttributesColumn)
                    .contains(QStringLiteral("customer (String) = ada")));

        // None and None: the message comes back bare.
        clickInMenu(system, {system->noneAction()});
        QCOMPARE(system->text(), QStringLiteral("None"));
        chooseMessageAttributes(dialog, QStringLiteral("None"));
        QVERIFY(
            !child<QLineEdit>(dialog, QStringLiteral("messageAttributeNamesEdit"))->isEnabled());
        click(dialog, QStringLiteral("receiveButton"));
        QCOMPARE(dialog->receivedMessages().size(), std::size_t(1));
        QVERIFY(dialog->receivedMessages().front().attributes.empty());
        QVERIFY(dialog->receivedMessages().front().systemAttributes.empty());
        QCOMPARE(shownAttributes(dialog), QStringLiteral("none"));
        QCOMPARE(f.peek("orders").front().receiveCount, 3u);
    }

    void theRequestCarriesTheNamesAsAClientWould()
    {
        WindowFixture f;
        f.createQueue("orders");
        ui::MainWindow& w = f.open();
        ui::ReceiveDialog* dialog = openReceive(w, QStringLiteral("orders"));
        auto* system = systemButton(dialog);
        clickInMenu(system, {system->itemAction(QStringLiteral("SenderId"))});
        chooseMessageAttributes(dialog, QStringLiteral("Only these:"),
                                QStringLiteral("customer  trace.* Hel.*"));
        const auto request = dialog->request();
        QVERIFY(request);
        QCOMPARE(request->systemAttributeNames,
                 (std::vector<std::string>{
                     "ApproximateFirstReceiveTimestamp", "ApproximateReceiveCount", "SentTimestamp",
                     "AWSTraceHeader", "DeadLetterQueueSourceArn", "MessageGroupId"}));
        QCOMPARE(request->messageAttributeNames,
                 (std::vector<std::string>{"customer", "trace.*", "Hel.*"}));
        clickInMenu(system, {system->allAction()});
        chooseMessageAttributes(dialog, QStringLiteral("All"));
        QCOMPARE(dialog->request()->systemAttributeNames, std::vector<std::string>{"All"});
        QCOMPARE(dialog->request()->messageAttributeNames, std::vector<std::string>{"All"});
        chooseMessageAttributes(dialog, QStringLiteral("None"));
        QVERIFY(dialog->request()->messageAttributeNames.empty());
    }

    void aNameSqsWouldRefuseIsShownAndNothingIsReceived()
    {
        WindowFixture f;
        f.createQueue("orders");
        const std::string id = sendWithAttributes(f, "orders");
        ui::MainWindow& w = f.open();
        ui::ReceiveDialog* dialog = openReceive(w, QStringLiteral("orders"));
        chooseMessageAttributes(dialog, QStringLiteral("Only these:"),
                                QStringLiteral("customer, total$"));
        click(dialog, QStringLiteral("receiveButton"));
        QVERIFY2(dialog->errorText().contains(QStringLiteral("\u201ctotal$\u201d")),
                 qPrintable(dialog->errorText()));
        QCOMPARE(f.peekId("orders", id).receiveCount, 0u);

        chooseMessageAttributes(dialog, QStringLiteral("Only these:"), QString());
        click(dialog, QStringLiteral("receiveButton"));
        QVERIFY(dialog->errorText().startsWith(QStringLiteral("Name the message attributes")));
        QCOMPARE(f.peekId("orders", id).receiveCount, 0u);

        for (const char* bad : {".customer", "customer.", "a..b"}) {
            chooseMessageAttributes(dialog, QStringLiteral("Only these:"),
                                    QString::fromLatin1(bad));
            click(dialog, QStringLiteral("receiveButton"));
            QVERIFY2(!dialog->errorText().isEmpty(), bad);
        }
        QCOMPARE(f.peekId("orders", id).receiveCount, 0u);

        chooseMessageAttributes(dialog, QStringLiteral("Only these:"), QStringLiteral("customer"));
        click(dialog, QStringLiteral("receiveButton"));
        QVERIFY(dialog->errorText().isEmpty());
        QCOMPARE(f.peekId("orders", id).receiveCount, 1u);
        QCOMPARE(names(dialog->receivedMessages().front().attributes),
                 std::set<std::string>{"customer"});
    }

    void theChoiceIsRememberedForTheNextReceive()
    {
        WindowFixture f;
        f.createQueue("orders");
        f.createQueue("audit");
        sendWithAttributes(f, "audit");
        ui::MainWindow& w = f.open();
        ui::ReceiveDialog* dialog = openReceive(w, QStringLiteral("orders"));
        auto* system = systemButton(dialog);
        clickInMenu(system,
                    {system->noneAction(), system->itemAction(QStringLiteral("SentTimestamp"))});
        chooseMessageAttributes(dialog, QStringLiteral("Only these:"), QStringLiteral("trace.*"));
        click(dialog, QStringLiteral("receiveButton")); // empty queue: the choice counts anyway
        click(dialog, QStringLiteral("closeButton"));

        QSettings settings;
        QCOMPARE(settings.value(QStringLiteral("receive/systemAttributes")).toString(),
                 QStringLiteral("SentTimestamp"));
        QCOMPARE(settings.value(QStringLiteral("receive/messageAttributes")).toString(),
                 QStringLiteral("names"));
        QCOMPARE(settings.value(QStringLiteral("receive/messageAttributeNames")).toString(),
                 QStringLiteral("trace.*"));

        // Another queue's dialog starts from the same choice, and receives with it.
        ui::ReceiveDialog* next = openReceive(w, QStringLiteral("audit"));
        QVERIFY(next && next != dialog);
        QCOMPARE(systemButton(next)->text(), QStringLiteral("SentTimestamp"));
        QCOMPARE(child<QComboBox>(next, QStringLiteral("messageAttributesCombo"))->currentText(),
                 QStringLiteral("Only these:"));
        QCOMPARE(child<QLineEdit>(next, QStringLiteral("messageAttributeNamesEdit"))->text(),
                 QStringLiteral("trace.*"));
        click(next, QStringLiteral("receiveButton"));
        QCOMPARE(next->receivedMessages().size(), std::size_t(1));
        QCOMPARE(names(next->receivedMessages().front().attributes),
                 (std::set<std::string>{"trace.id", "trace.parent"}));
        QCOMPARE(names(next->receivedMessages().front().systemAttributes),
                 std::set<std::string>{"SentTimestamp"});

        // A choice that was never made reads as All and All.
        settings.clear();
        const ui::ReceiveAttributeChoice fresh = ui::ReceiveAttributeChoice::load();
        QVERIFY(fresh.allSystem);
        QCOMPARE(fresh.messages, ui::ReceiveAttributeChoice::Messages::All);
        // "None" is remembered as none, not as the default.
        ui::ReceiveAttributeChoice none;
        none.allSystem = false;
        none.messages = ui::ReceiveAttributeChoice::Messages::None;
        none.save();
        const ui::ReceiveAttributeChoice loaded = ui::ReceiveAttributeChoice::load();
        QVERIFY(!loaded.allSystem);
        QVERIFY(loaded.systemNames.isEmpty());
        QCOMPARE(loaded.messages, ui::ReceiveAttributeChoice::Messages::None);
    }

    void fifoQueuesOfferTheirSystemAttributesAndOciAsksForItsProperties()
    {
        WindowFixture f;
        f.createQueue("orders");
        f.createQueue("jobs.fifo", {{"FifoQueue", "true"}});
        f.createQueue("telemetry", {}, true);
        auto sent = f.broker().sendMessage({.queue = "telemetry",
                                            .body = "{}",
                                            .attributes = {{"sensor", text("eu-1")}},
                                            .origin = "test"});
        QVERIFY(sent.ok());
        ui::MainWindow& w = f.open();

        ui::ReceiveDialog* standard = openReceive(w, QStringLiteral("orders"));
        QVERIFY(!systemButton(standard)->itemAction(QStringLiteral("SequenceNumber")));
        QVERIFY(systemButton(standard)->itemAction(QStringLiteral("SentTimestamp")));
        ui::ReceiveDialog* fifo = openReceive(w, QStringLiteral("jobs.fifo"));
        QVERIFY(systemButton(fifo)->itemAction(QStringLiteral("SequenceNumber")));
        QVERIFY(systemButton(fifo)->itemAction(QStringLiteral("MessageDeduplicationId")));

        ui::ReceiveDialog* oci = openReceive(w, QStringLiteral("telemetry"));
        QVERIFY(!systemButton(oci)->isVisible());
        QVERIFY(!child<QComboBox>(oci, QStringLiteral("messageAttributesCombo"))->isVisible());
        QVERIFY(oci->request()->systemAttributeNames.empty());
        QCOMPARE(oci->request()->messageAttributeNames, std::vector<std::string>{"All"});
        click(oci, QStringLiteral("receiveButton"));
        QCOMPARE(oci->receivedMessages().size(), std::size_t(1));
        QCOMPARE(names(oci->receivedMessages().front().attributes),
                 std::set<std::string>{"sensor"});
        QVERIFY(oci->receivedMessages().front().systemAttributes.empty());
    }
};

QTEST_MAIN(ReceiveAttributesTest)
#include "receive_attributes_test.moc"
