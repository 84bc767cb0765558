// GroupTableModel driven by a real Session: FIFO groups, their heads and what blocks them.
#include "ui/models/group_table_model.h"

#include "ui/model_test_support.h"

#include <QSignalSpy>

using namespace inflight;
using namespace inflight::ui;
using namespace inflight::ui::test;
using Model = GroupTableModel;

class GroupTableModelTest : public QObject {
    Q_OBJECT

private:
    static int rowOfGroup(const Model& model, const QString& group)
    {
        for (int row = 0; row < model.rowCount(); ++row) {
            if (model.index(row, 0).data(Model::GroupIdRole).toString() == group)
                return row;
        }
        return -1;
    }

private Q_SLOTS:
    void fifoGroupIsBlockedByItsInFlightHead()
    {
        SessionFixture f;
        f.createQueue("f.fifo", {{"FifoQueue", "true"}});
        const std::string a1 = f.send("f.fifo", "a1", std::string("alpha"));
        f.send("f.fifo", "a2", std::string("alpha"));
        f.send("f.fifo", "a3", std::string("alpha"));
        f.send("f.fifo", "b1", std::string("beta"));
        Model model(f.session);
        auto tester = watch(&model);
        model.setQueue(QStringLiteral("f.fifo"));
        QCOMPARE(model.rowCount(), 2);
        const int alpha = rowOfGroup(model, QStringLiteral("alpha"));
        const int beta = rowOfGroup(model, QStringLiteral("beta"));
        QCOMPARE(text(model, alpha, Model::StateColumn), QStringLiteral("servable"));
        QCOMPARE(text(model, alpha, Model::HeadColumn), QString::fromStdString(a1.substr(0, 8)));
        QCOMPARE(text(model, alpha, Model::WaitingColumn), QStringLiteral("2"));

        const auto received = f.receive("f.fifo", 1, 30);
        QCOMPARE(received.at(0).messageId, a1);
        f.flush();
        QCOMPARE(rowOfGroup(model, QStringLiteral("alpha")), alpha); // rows keep their place
        QCOMPARE(text(model, alpha, Model::StateColumn),
                 QStringLiteral("blocked by %1 (in flight, 30.0 s)")
                     .arg(QString::fromStdString(a1.substr(0, 8))));
        QVERIFY(model.index(alpha, 0).data(Model::BlockedRole).toBool());
        QCOMPARE(model.index(alpha, 0).data(Model::BlockingMessageIdRole).toString(),
                 QString::fromStdString(a1));
        QCOMPARE(text(model, alpha, Model::InFlightColumn), QStringLiteral("1"));
        QCOMPARE(text(model, beta, Model::StateColumn), QStringLiteral("servable"));

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setNow(kStart + 18'000);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(text(model, alpha, Model::StateColumn),
                 QStringLiteral("blocked by %1 (in flight, 12.0 s)")
                     .arg(QString::fromStdString(a1.substr(0, 8))));

        QVERIFY(f.broker().deleteMessage("f.fifo", received.at(0).receiptHandle, "test").ok());
        f.flush();
        QCOMPARE(text(model, alpha, Model::StateColumn), QStringLiteral("servable"));
        QCOMPARE(text(model, alpha, Model::WaitingColumn), QStringLiteral("1"));
    }

    void emptiedGroupsGoAndNewGroupsAppear()
    {
        SessionFixture f;
        f.createQueue("f.fifo", {{"FifoQueue", "true"}});
        f.send("f.fifo", "a1", std::string("alpha"));
        f.send("f.fifo", "b1", std::string("beta"));
        Model model(f.session);
        auto tester = watch(&model);
        model.setQueue(QStringLiteral("f.fifo"));
        f.flush();
        const auto m = f.receive("f.fifo", 1, 30).at(0);
        QVERIFY(f.broker().deleteMessage("f.fifo", m.receiptHandle, "test").ok());
        f.send("f.fifo", "c1", std::string("gamma"));
        f.flush();
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(rowOfGroup(model, QString::fromStdString(m.groupId)) < 0);
        QCOMPARE(rowOfGroup(model, QStringLiteral("gamma")), 1);
    }

    void standardQueuesHaveNoGroups()
    {
        SessionFixture f;
        f.createQueue("plain");
        f.send("plain", "m");
        Model model(f.session);
        auto tester = watch(&model);
        model.setQueue(QStringLiteral("plain"));
        QCOMPARE(model.rowCount(), 0);
        f.send("plain", "n");
        f.flush();
        QCOMPARE(model.rowCount(), 0);
    }

    void ociChannels()
    {
        SessionFixture f;
        f.createQueue("oq", {}, true);
        engine::SendMessageRequest request{.queue = "oq", .body = "x"};
        request.channelId = "eu";
        QVERIFY(f.broker().sendMessage(request).ok());
        request.channelId = "us";
        QVERIFY(f.broker().sendMessage(request).ok());
        QVERIFY(f.broker().sendMessage(request).ok());
        Model model(f.session);
        auto tester = watch(&model);
        model.setQueue(QStringLiteral("oq"));
        QCOMPARE(model.rowCount(), 2);
        const int us = rowOfGroup(model, QStringLiteral("us"));
        QCOMPARE(text(model, us, Model::WaitingColumn), QStringLiteral("2"));
        QCOMPARE(text(model, us, Model::StateColumn), QStringLiteral("servable"));
    }
};

QTEST_GUILESS_MAIN(GroupTableModelTest)
#include "group_table_model_test.moc"
