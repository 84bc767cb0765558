// Queue actions through the real window: create (every attribute), edit, delete and purge
// (confirmed; OCI queues choose the queue, its DLQ or both), with the engine's errors shown where
// the user acted.

#include "ui/dialogs/queue_dialog.h"
#include "window_test_support.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QRadioButton>
#include <QSpinBox>

using namespace inflight;
using namespace inflight::ui::test;

class QueueActionsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { isolateSettings(); }

    void createFifoQueueWithEveryAttributeFromTheDialog()
    {
        WindowFixture f;
        f.createQueue("jobs-dlq.fifo", {{"FifoQueue", "true"}});
        ui::MainWindow& w = f.open();

        click(&w, QStringLiteral("newQueueButton"));
        auto dialog = openedDialog<ui::QueueDialog>(&w);
        QVERIFY(dialog);
        child<QLineEdit>(dialog, QStringLiteral("nameEdit"))->setText(QStringLiteral("jobs.fifo"));
        child<QComboBox>(dialog, QStringLiteral("typeCombo"))->setCurrentIndex(1);
        child<QSpinBox>(dialog, QStringLiteral("visibilitySpin"))->setValue(45);
        child<QSpinBox>(dialog, QStringLiteral("delaySpin"))->setValue(5);
        child<QSpinBox>(dialog, QStringLiteral("retentionSpin"))->setValue(3600);
        child<QSpinBox>(dialog, QStringLiteral("maxSizeSpin"))->setValue(2048);
        child<QSpinBox>(dialog, QStringLiteral("waitSpin"))->setValue(7);
        child<QCheckBox>(dialog, QStringLiteral("contentDedupCheck"))->setChecked(true);
        child<QComboBox>(dialog, QStringLiteral("dedupScopeCombo"))->setCurrentIndex(1);
        child<QComboBox>(dialog, QStringLiteral("throughputCombo"))->setCurrentIndex(1);
        child<QGroupBox>(dialog, QStringLiteral("dlqGroup"))->setChecked(true);
        auto* target = child<QComboBox>(dialog, QStringLiteral("dlqTargetCombo"));
        QCOMPARE(target->currentText(), QStringLiteral("jobs-dlq.fifo"));
        child<QSpinBox>(dialog, QStringLiteral("maxReceiveSpin"))->setValue(4);
        click(dialog, QStringLiteral("okButton"));

        auto view = f.broker().queueView("jobs.fifo");
        QVERIFY(view.ok());
        QCOMPARE(view->kind, engine::QueueKind::Fifo);
        const engine::StringMap& a = view->attributes;
        QCOMPARE(a.at("VisibilityTimeout"), std::string("45"));
        QCOMPARE(a.at("DelaySeconds"), std::string("5"));
        QCOMPARE(a.at("MessageRetentionPeriod"), std::string("3600"));
        QCOMPARE(a.at("MaximumMessageSize"), std::string("2048"));
        QCOMPARE(a.at("ReceiveMessageWaitTimeSeconds"), std::string("7"));
        QCOMPARE(a.at("ContentBasedDeduplication"), std::string("true"));
        QCOMPARE(a.at("DeduplicationScope"), std::string("messageGroup"));
        QCOMPARE(a.at("FifoThroughputLimit"), std::string("perMessageGroupId"));
        QCOMPARE(view->deadLetterTarget, std::string("jobs-dlq.fifo"));
        QCOMPARE(view->maxReceiveCount, 4);

        // Shown at once, and selected.
        QVERIFY(shownQueues(w).contains(QStringLiteral("jobs.fifo")));
        QCOMPARE(w.currentQueue(), QStringLiteral("jobs.fifo"));
        QVERIFY(!dialog || !dialog->isVisible());
    }

    void createOciQueueWithItsOptions()
    {
        WindowFixture f;
        f.createQueue("seed");
        ui::MainWindow& w = f.open();
        w.action(QStringLiteral("newQueueAction"))->trigger();
        auto dialog = openedDialog<ui::QueueDialog>(&w);
        QVERIFY(dialog);
        child<QLineEdit>(dialog, QStringLiteral("nameEdit"))->setText(QStringLiteral("sensors"));
        child<QComboBox>(dialog, QStringLiteral("typeCombo"))->setCurrentIndex(2);
        QVERIFY(!child<QGroupBox>(dialog, QStringLiteral("dlqGroup"))->isVisibleTo(dialog));
        child<QSpinBox>(dialog, QStringLiteral("deliveryCountSpin"))->setValue(4);
        child<QSpinBox>(dialog, QStringLiteral("channelLimitSpin"))->setValue(50);
        child<QSpinBox>(dialog, QStringLiteral("waitSpin"))->setValue(12);
        click(dialog, QStringLiteral("okButton"));

        auto view = f.broker().queueView("sensors");
        QVERIFY(view.ok());
        QCOMPARE(view->kind, engine::QueueKind::Oci);
        QCOMPARE(view->attributes.at("deadLetterQueueDeliveryCount"), std::string("4"));
        QCOMPARE(view->attributes.at("channelConsumptionLimit"), std::string("50"));
        QCOMPARE(view->attributes.at("timeoutInSeconds"), std::string("12"));
        QVERIFY(shownQueues(w).contains(QStringLiteral("sensors")));
        QVERIFY(shownQueues(w).contains(QStringLiteral("sensors.dlq")));
    }

    // Issue 37, item 7: what is typed stays as typed; a value past the service's limits is
    // refused in words, and the error line does not squeeze the fields above it.
    void numbersPastTheLimitsAreSaidNotEdited()
    {
        WindowFixture f;
        f.createQueue("seed");
        ui::MainWindow& w = f.open();
        click(&w, QStringLiteral("newQueueButton"));
        auto dialog = openedDialog<ui::QueueDialog>(&w);
        QVERIFY(dialog);
        child<QLineEdit>(dialog, QStringLiteral("nameEdit"))->setText(QStringLiteral("typed"));
        const auto type = [&](const char* spin, const char* text) {
            auto* box = child<QSpinBox>(dialog, QString::fromLatin1(spin));
            box->setFocus();
            box->selectAll();
            QTest::keyClicks(box, QString::fromLatin1(text));
            box->interpretText();
            return box;
        };
        auto* visibility = type("visibilitySpin", "50000");
        QCOMPARE(visibility->value(), 50000); // not 5000
        const int fieldHeight = visibility->height();
        const QPoint fieldAt = visibility->mapTo(dialog, QPoint());
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(dialog->isVisible());
        auto* error = child<QLabel>(dialog, QStringLiteral("errorLabel"));
        QVERIFY(error->isVisible());
        QCOMPARE(
            error->text(),
            QStringLiteral("Visibility timeout: 0 s to 43,200 s (12 h); 50,000 is past that."));
        QVERIFY(!f.broker().getQueue("typed").ok());
        flush();
        QCOMPARE(visibility->height(), fieldHeight);
        QCOMPARE(visibility->mapTo(dialog, QPoint()), fieldAt);
        QCOMPARE(visibility->value(), 50000);

        type("visibilitySpin", "40");
        child<QGroupBox>(dialog, QStringLiteral("dlqGroup"))->setChecked(true);
        auto* receives = type("maxReceiveSpin", "0");
        QCOMPARE(receives->value(), 0); // not back to 3
        click(dialog, QStringLiteral("okButton"));
        QCOMPARE(error->text(), QStringLiteral("Maximum receives: 1 to 1,000; 0 is past that."));
        type("maxReceiveSpin", "4");
        child<QGroupBox>(dialog, QStringLiteral("dlqGroup"))->setChecked(false);
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(f.broker().getQueue("typed").ok());
        QCOMPARE(f.broker().queueView("typed")->attributes.at("VisibilityTimeout"),
                 std::string("40"));
    }

    void createShowsTheEngineErrorInlineAndStaysOpen()
    {
        WindowFixture f;
        f.createQueue("seed");
        ui::MainWindow& w = f.open();
        click(&w, QStringLiteral("newQueueButton"));
        auto dialog = openedDialog<ui::QueueDialog>(&w);
        QVERIFY(dialog);
        // A FIFO queue whose name lacks the .fifo suffix: the service's own error.
        child<QLineEdit>(dialog, QStringLiteral("nameEdit"))->setText(QStringLiteral("jobs"));
        child<QComboBox>(dialog, QStringLiteral("typeCombo"))->setCurrentIndex(1);
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(dialog->isVisible());
        auto* error = child<QLabel>(dialog, QStringLiteral("errorLabel"));
        QVERIFY(error->isVisible());
        QVERIFY2(error->text().startsWith(QStringLiteral("InvalidParameterValue: ")),
                 qPrintable(error->text()));
        QVERIFY(!f.broker().getQueue("jobs").ok());
        // perMessageGroupId without messageGroup scope: InvalidAttributeValue.
        child<QLineEdit>(dialog, QStringLiteral("nameEdit"))->setText(QStringLiteral("jobs.fifo"));
        child<QComboBox>(dialog, QStringLiteral("throughputCombo"))->setCurrentIndex(1);
        click(dialog, QStringLiteral("okButton"));
        QVERIFY2(error->text().startsWith(QStringLiteral("InvalidAttributeValue: ")),
                 qPrintable(error->text()));
        // Fixed: created.
        child<QComboBox>(dialog, QStringLiteral("dedupScopeCombo"))->setCurrentIndex(1);
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(f.broker().getQueue("jobs.fifo").ok());
        QVERIFY(!dialog || !dialog->isVisible());
    }

    void createRefusesAnExistingName()
    {
        WindowFixture f;
        f.createQueue("orders");
        ui::MainWindow& w = f.open();
        click(&w, QStringLiteral("newQueueButton"));
        auto dialog = openedDialog<ui::QueueDialog>(&w);
        QVERIFY(dialog);
        child<QLineEdit>(dialog, QStringLiteral("nameEdit"))->setText(QStringLiteral("orders"));
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->errorText().contains(QStringLiteral("already exists")));
    }

    void editChangesOnlyWhatChanged()
    {
        WindowFixture f;
        f.createQueue("orders-dlq");
        f.createQueue("orders", {{"RedrivePolicy", f.redrivePolicy("orders-dlq", 3)}});
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("orders")));
        w.action(QStringLiteral("editQueueAction"))->trigger();
        auto dialog = openedDialog<ui::QueueDialog>(&w);
        QVERIFY(dialog);
        QVERIFY(dialog->isEditing());
        QVERIFY(!child<QComboBox>(dialog, QStringLiteral("typeCombo"))->isEnabled());
        QCOMPARE(child<QSpinBox>(dialog, QStringLiteral("maxReceiveSpin"))->value(), 3);
        child<QSpinBox>(dialog, QStringLiteral("visibilitySpin"))->setValue(90);
        child<QSpinBox>(dialog, QStringLiteral("maxReceiveSpin"))->setValue(5);
        const engine::StringMap changed = dialog->attributes();
        QCOMPARE(changed.size(), std::size_t(2));
        QVERIFY(changed.count("VisibilityTimeout"));
        QVERIFY(changed.count("RedrivePolicy"));
        click(dialog, QStringLiteral("okButton"));
        auto view = f.broker().queueView("orders");
        QCOMPARE(view->attributes.at("VisibilityTimeout"), std::string("90"));
        QCOMPARE(view->maxReceiveCount, 5);

        // Turning the DLQ off removes the redrive policy; the list shows no relation then.
        w.action(QStringLiteral("editQueueAction"))->trigger();
        dialog = openedDialog<ui::QueueDialog>(&w);
        child<QGroupBox>(dialog, QStringLiteral("dlqGroup"))->setChecked(false);
        click(dialog, QStringLiteral("okButton"));
        flush();
        QCOMPARE(f.broker().queueView("orders")->maxReceiveCount, 0);
        QVERIFY(f.broker().queueView("orders")->deadLetterTarget.empty());
    }

    void editAnOciQueueLeavesRetentionAsCreated()
    {
        WindowFixture f;
        f.createQueue("telemetry", {{"retentionInSeconds", "600"}}, true);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("telemetry")));
        w.action(QStringLiteral("editQueueAction"))->trigger();
        auto dialog = openedDialog<ui::QueueDialog>(&w);
        QVERIFY(dialog);
        QVERIFY(!child<QSpinBox>(dialog, QStringLiteral("retentionSpin"))->isEnabled());
        QCOMPARE(child<QSpinBox>(dialog, QStringLiteral("retentionSpin"))->value(), 600);
        child<QSpinBox>(dialog, QStringLiteral("visibilitySpin"))->setValue(120);
        child<QSpinBox>(dialog, QStringLiteral("deliveryCountSpin"))->setValue(3);
        click(dialog, QStringLiteral("okButton"));
        QVERIFY(!dialog || !dialog->isVisible()); // applied and closed
        auto view = f.broker().queueView("telemetry");
        QCOMPARE(view->attributes.at("visibilityInSeconds"), std::string("120"));
        QCOMPARE(view->attributes.at("deadLetterQueueDeliveryCount"), std::string("3"));
        QCOMPARE(view->attributes.at("retentionInSeconds"), std::string("600"));
        flush();
        const QString details = child<QLabel>(&w, QStringLiteral("queueDetailsLabel"))->text();
        QVERIFY2(details.contains(QStringLiteral("DLQ telemetry.dlq after 3 receives"))
                     && details.contains(QStringLiteral("visibility 120 s")),
                 qPrintable(details));
    }

    // Issue 37: deleting a queue that others use as their dead-letter queue warns first.
    void deletingADeadLetterQueueSaysWhoseItIs()
    {
        WindowFixture f;
        f.createQueueWithDeadLetters("orders", "orders-dlq", 3);
        ui::MainWindow& w = f.open();
        clickQueue(w, QStringLiteral("orders-dlq"));
        QString asked;
        QTimer::singleShot(0, [&asked] {
            if (QWidget* modal = QApplication::activeModalWidget()) {
                if (auto* box = qobject_cast<QMessageBox*>(modal))
                    asked = box->text();
                if (auto* b = modal->findChild<QAbstractButton*>(QStringLiteral("cancelButton")))
                    b->click();
            }
        });
        click(&w, QStringLiteral("deleteQueueButton"));
        QVERIFY2(asked.contains(QStringLiteral("dead-letter queue of orders")), qPrintable(asked));
        QVERIFY(f.broker().getQueue("orders-dlq").ok());
    }

    void deleteAsksFirstAndRemovesTheQueue()
    {
        WindowFixture f;
        f.createQueue("a");
        f.createQueue("b");
        f.send("b", "x");
        ui::MainWindow& w = f.open();
        clickQueue(w, QStringLiteral("b"));
        QCOMPARE(w.currentQueue(), QStringLiteral("b"));

        answerConfirmation(QStringLiteral("cancelButton"));
        click(&w, QStringLiteral("deleteQueueButton"));
        QVERIFY(f.broker().getQueue("b").ok());

        answerConfirmation(QStringLiteral("yesButton"));
        click(&w, QStringLiteral("deleteQueueButton"));
        QVERIFY(!f.broker().getQueue("b").ok());
        flush();
        QCOMPARE(shownQueues(w), QStringList{QStringLiteral("a")});
        QCOMPARE(w.currentQueue(), QStringLiteral("a"));
        QVERIFY(w.queueNotice()->text().contains(QStringLiteral("Deleted b")));
    }

    void purgeAsksFirstThenEmptiesAndAPurgeTooSoonShowsTheServiceError()
    {
        WindowFixture f;
        f.createQueue("orders");
        for (int i = 0; i < 5; ++i)
            f.send("orders", "m" + std::to_string(i));
        f.receive("orders", 2);
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("orders")));
        QCOMPARE(shownMessageIds(w).size(), 5);

        answerConfirmation(QStringLiteral("cancelButton"));
        click(&w, QStringLiteral("purgeQueueButton"));
        QCOMPARE(f.stats("orders").available, 3);

        answerConfirmation(QStringLiteral("yesButton"));
        click(&w, QStringLiteral("purgeQueueButton"));
        QCOMPARE(f.stats("orders").available, 0);
        QCOMPARE(f.stats("orders").inFlight, 0);
        flush();
        QVERIFY(shownMessageIds(w).isEmpty());

        // Once per 60 s: the second purge is refused, and the notice says so.
        f.send("orders", "again");
        answerConfirmation(QStringLiteral("yesButton"));
        click(&w, QStringLiteral("purgeQueueButton"));
        QCOMPARE(f.stats("orders").available, 1);
        QCOMPARE(w.queueNotice()->kind(), ui::NoticeBar::Kind::Error);
        QVERIFY2(w.queueNotice()->text().startsWith(QStringLiteral("PurgeQueueInProgress: ")),
                 qPrintable(w.queueNotice()->text()));
    }

    void ociPurgeChoosesTheQueueItsDeadLetterQueueOrBoth()
    {
        WindowFixture f;
        f.createQueue("telemetry", {{"deadLetterQueueDeliveryCount", "1"}}, true);
        const auto fill = [&f] {
            // Two messages delivered once (their maximum) move to telemetry.dlq on the next
            // receive, which delivers a third; a fourth stays available.
            for (const char* body : {"a", "b", "c", "d"})
                f.send("telemetry", body);
            f.receive("telemetry", 2, 0);
            f.receive("telemetry", 1, 60);
            f.flush();
            QCOMPARE(f.stats("telemetry.dlq").available, 2);
            QCOMPARE(f.stats("telemetry").available + f.stats("telemetry").inFlight, 2);
        };
        fill();
        ui::MainWindow& w = f.open();
        QVERIFY(w.selectQueue(QStringLiteral("telemetry")));

        // The confirmation offers the three targets with what each removes; Cancel keeps all.
        QStringList offered;
        QTimer::singleShot(0, [&offered] {
            QWidget* modal = QApplication::activeModalWidget();
            QVERIFY(modal);
            QCOMPARE(modal->objectName(), QStringLiteral("confirmPurgeQueue"));
            for (const char* name : {"purgeNormalRadio", "purgeDeadLetterRadio", "purgeBothRadio"})
                if (auto* radio = modal->findChild<QRadioButton*>(QString::fromLatin1(name)))
                    offered << radio->text().remove(QLatin1Char('&'))
                            + (radio->isChecked() ? QStringLiteral(" [x]") : QString());
            child<QAbstractButton>(modal, QStringLiteral("cancelButton"))->click();
        });
        click(&w, QStringLiteral("purgeQueueButton"));
        QCOMPARE(offered,
                 (QStringList{QStringLiteral("Messages of telemetry (2 messages) [x]"),
                              QStringLiteral("Dead-letter queue telemetry.dlq (2 messages)"),
                              QStringLiteral("Both (4 messages)")}));
        QCOMPARE(f.stats("telemetry.dlq").available, 2);

        // DLQ: only the dead letters go.
        answerConfirmation(QStringLiteral("yesButton"), {QStringLiteral("purgeDeadLetterRadio")});
        click(&w, QStringLiteral("purgeQueueButton"));
        QCOMPARE(f.stats("telemetry.dlq").available, 0);
        QCOMPARE(f.stats("telemetry").available, 1);
        QCOMPARE(f.stats("telemetry").inFlight, 1);
        QVERIFY2(w.queueNotice()->text().contains(QStringLiteral("dead-letter queue of telemetry")),
                 qPrintable(w.queueNotice()->text()));

        // The default: the queue's own messages, the DLQ keeps its own.
        QVERIFY(f.broker().purgeQueue("telemetry", engine::PurgeTarget::Normal, "test").ok());
        fill();
        answerConfirmation(QStringLiteral("yesButton"));
        click(&w, QStringLiteral("purgeQueueButton"));
        QCOMPARE(f.stats("telemetry").available + f.stats("telemetry").inFlight, 0);
        QCOMPARE(f.stats("telemetry.dlq").available, 2);
        flush();
        QVERIFY(shownMessageIds(w).isEmpty());

        // Both.
        f.send("telemetry", "e");
        answerConfirmation(QStringLiteral("yesButton"), {QStringLiteral("purgeBothRadio")});
        click(&w, QStringLiteral("purgeQueueButton"));
        QCOMPARE(f.stats("telemetry").available, 0);
        QCOMPARE(f.stats("telemetry.dlq").available, 0);
        QCOMPARE(w.queueNotice()->kind(), ui::NoticeBar::Kind::Info);

        // The built-in DLQ itself has nothing to choose: the plain confirmation purges it.
        fill();
        QVERIFY(w.selectQueue(QStringLiteral("telemetry.dlq")));
        QString asked;
        QTimer::singleShot(0, [&asked] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            QVERIFY(box);
            asked = box->text();
            child<QAbstractButton>(box, QStringLiteral("yesButton"))->click();
        });
        click(&w, QStringLiteral("purgeQueueButton"));
        QVERIFY2(asked.contains(QStringLiteral("telemetry.dlq")), qPrintable(asked));
        QCOMPARE(f.stats("telemetry.dlq").available, 0);
        QCOMPARE(f.stats("telemetry").available + f.stats("telemetry").inFlight, 2);
    }
};

QTEST_MAIN(QueueActionsTest)
#include "queue_actions_test.moc"
