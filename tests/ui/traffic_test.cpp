// The window's debugging half against real clients: the AWS CLI, boto3 and the AWS SDK for
// JavaScript call the real endpoint behind the window (good calls and failing ones); the Traffic
// tab shows each with its operation, status, error code and client, the Clients tab one row per
// client (CLI calls with one key are one client, whatever their ports), an empty receive says why
// it was empty, and the request, its events and its messages lead to each other.

#include "endpoint_adapter.h"
#include "server/http_server.h"
#include "traffic/traffic_commands.h"
#include "traffic/traffic_log.h"
#include "ui/models/client_directory.h"
#include "ui/models/client_table_model.h"
#include "ui/models/message_table_model.h"
#include "ui/models/timeline_model.h"
#include "ui/models/traffic_table_model.h"
#include "ui/widgets/clients_view.h"
#include "ui/widgets/message_inspector.h"
#include "ui/widgets/traffic_view.h"
#include "window_test_support.h"

#include "support/source_dir.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSet>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>

using namespace inflight;
using namespace inflight::ui::test;

namespace {

// The window on a paused session with the real server and a traffic log behind it.
struct TrafficWindow {
    TrafficWindow()
    {
        f.createQueue("work");
        window = &f.open();
        server.setTrafficLog(&log);
        if (!endpoint.listen(QStringLiteral("127.0.0.1"), 0))
            QTest::qFail("the endpoint does not listen", __FILE__, __LINE__);
        window->setEndpoint(&endpoint);
        window->setTrafficLog(log);
        url = QStringLiteral("http://127.0.0.1:%1").arg(server.serverPort());
        queueUrl = url + QStringLiteral("/000000000000/work");
    }
    // The window's traffic view listens to the log: it goes first, as in the app.
    ~TrafficWindow() { f.window.reset(); }

    // Runs a client while the window's event loop answers it; its standard output.
    QString run(const QString& program, const QStringList& arguments, const QString& accessKey,
                const QString& input = {})
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("AWS_ACCESS_KEY_ID"), accessKey);
        env.insert(QStringLiteral("AWS_SECRET_ACCESS_KEY"), QStringLiteral("inflight-secret"));
        env.insert(QStringLiteral("AWS_DEFAULT_REGION"), QStringLiteral("us-east-1"));
        env.insert(QStringLiteral("AWS_REGION"), QStringLiteral("us-east-1"));
        env.insert(QStringLiteral("AWS_EC2_METADATA_DISABLED"), QStringLiteral("true"));
        env.insert(QStringLiteral("AWS_PAGER"), QString());
        env.insert(QStringLiteral("INFLIGHT_URL"), url);
        env.insert(QStringLiteral("QUEUE_URL"), queueUrl);
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(
            QString::fromStdString(inflight::test::sourceDir().string())); // node_modules
        process.start(program, arguments);
        if (!input.isEmpty()) {
            process.write(input.toUtf8());
            process.closeWriteChannel();
        }
        QDeadlineTimer deadline(60'000);
        while (process.state() != QProcess::NotRunning && !deadline.hasExpired()) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            process.waitForFinished(20);
        }
        flushAll();
        return QString::fromUtf8(process.readAllStandardOutput())
            + QString::fromUtf8(process.readAllStandardError());
    }

    QString aws(const QStringList& arguments)
    {
        return run(QStringLiteral("aws"),
                   QStringList{QStringLiteral("--endpoint-url"), url, QStringLiteral("sqs")}
                       + arguments,
                   QStringLiteral("AKIDCLITERMINAL"));
    }

    void flushAll()
    {
        ui::test::flush();
        window->trafficView()->model()->flush();
        window->clientsView()->model()->refresh();
    }

    // The records of the log matching `operation` (and client key, when given).
    std::vector<traffic::TrafficRecord> records(const QString& operation,
                                                const QString& clientKey = {}) const
    {
        std::vector<traffic::TrafficRecord> out;
        ui::TrafficTableModel* model = window->trafficView()->model();
        for (int row = 0; row < model->rowCount(); ++row) {
            const traffic::TrafficRecord* r = model->record(row);
            if (r && r->operation == operation
                && (clientKey.isEmpty() || r->client.key == clientKey))
                out.push_back(*r);
        }
        return out;
    }

    WindowFixture f;
    ui::MainWindow* window = nullptr;
    traffic::TrafficLog log;
    server::HttpServer server{f.session};
    app::EndpointAdapter endpoint{server};
    QString url;
    QString queueUrl;
};

const char* kBoto3 = R"(
import os, boto3, botocore
c = boto3.client('sqs', endpoint_url=os.environ['INFLIGHT_URL'])
q = os.environ['QUEUE_URL']
c.send_message(QueueUrl=q, MessageBody='from boto3')
c.receive_message(QueueUrl=q, MaxNumberOfMessages=10, WaitTimeSeconds=0)
c.receive_message(QueueUrl=q, MaxNumberOfMessages=10, WaitTimeSeconds=0)
try:
    c.get_queue_url(QueueName='no-such-queue')
except botocore.exceptions.ClientError as e:
    print('boto3 error', e.response['Error']['Code'])
)";

const char* kJs = R"(
import { SQSClient, SendMessageCommand, DeleteMessageCommand } from '@aws-sdk/client-sqs';
const c = new SQSClient({ endpoint: process.env.INFLIGHT_URL, maxAttempts: 1 });
await c.send(new SendMessageCommand({ QueueUrl: process.env.QUEUE_URL, MessageBody: 'from js' }));
try {
  await c.send(new DeleteMessageCommand({ QueueUrl: process.env.QUEUE_URL, ReceiptHandle: 'nope' }));
} catch (e) { console.log('js error', e.name); }
)";

// A consumer's long poll, served by a producer's send while it waits.
const char* kLongPoll = R"(
import os, threading, time, boto3
url, q = os.environ['INFLIGHT_URL'], os.environ['QUEUE_URL']
consumer = boto3.client('sqs', endpoint_url=url, aws_access_key_id='AKIDCONSUMER', aws_secret_access_key='s')
producer = boto3.client('sqs', endpoint_url=url, aws_access_key_id='AKIDPRODUCER', aws_secret_access_key='s')
got = []
t = threading.Thread(target=lambda: got.append(consumer.receive_message(QueueUrl=q, WaitTimeSeconds=10)))
t.start()
time.sleep(1.0)
producer.send_message(QueueUrl=q, MessageBody='wake up')
t.join()
print('received', len(got[0].get('Messages', [])))
)";

// Every SQS action a client makes, over Query (boto3 from Debian: its SQS model predates JSON).
const char* kEveryQueryAction = R"(
import os, boto3, botocore
c = boto3.client('sqs', endpoint_url=os.environ['INFLIGHT_URL'])
q = c.create_queue(QueueName='copied', Attributes={'VisibilityTimeout': '20'}, tags={'team': 'a'})['QueueUrl']
dlq = c.create_queue(QueueName='copied-dlq')['QueueUrl']
c.get_queue_url(QueueName='copied')
c.get_queue_attributes(QueueUrl=q, AttributeNames=['All'])
c.set_queue_attributes(QueueUrl=q, Attributes={'DelaySeconds': '0', 'MaximumMessageSize': '262144'})
c.tag_queue(QueueUrl=q, Tags={'tier': 'gold'})
c.untag_queue(QueueUrl=q, TagKeys=['tier'])
c.list_queue_tags(QueueUrl=q)
c.list_queues(QueueNamePrefix='copied')
c.list_dead_letter_source_queues(QueueUrl=dlq)
c.send_message(QueueUrl=q, MessageBody='a body: $HOME & more', DelaySeconds=0,
               MessageAttributes={'kind': {'DataType': 'String', 'StringValue': 'order'},
                                  'raw': {'DataType': 'Binary', 'BinaryValue': b'\x00\x01'}})
c.send_message_batch(QueueUrl=q, Entries=[{'Id': 'a', 'MessageBody': 'one'},
                                           {'Id': 'b', 'MessageBody': 'two', 'DelaySeconds': 0}])
got = c.receive_message(QueueUrl=q, MaxNumberOfMessages=10, VisibilityTimeout=30,
                        AttributeNames=['All'], MessageAttributeNames=['All'])['Messages']
c.change_message_visibility(QueueUrl=q, ReceiptHandle=got[0]['ReceiptHandle'], VisibilityTimeout=60)
c.change_message_visibility_batch(QueueUrl=q, Entries=[
    {'Id': 'x', 'ReceiptHandle': got[1]['ReceiptHandle'], 'VisibilityTimeout': 60}])
c.delete_message(QueueUrl=q, ReceiptHandle=got[0]['ReceiptHandle'])
c.delete_message_batch(QueueUrl=q, Entries=[{'Id': 'y', 'ReceiptHandle': got[1]['ReceiptHandle']}])
c.purge_queue(QueueUrl=q)
c.delete_queue(QueueUrl=dlq)
print('query done')
)";

// The same kind of calls over AWS JSON 1.0 (the JS SDK).
const char* kEveryJsonAction = R"(
import * as sqs from '@aws-sdk/client-sqs';
const c = new sqs.SQSClient({ endpoint: process.env.INFLIGHT_URL, maxAttempts: 1 });
const q = process.env.QUEUE_URL;
await c.send(new sqs.SendMessageCommand({ QueueUrl: q, MessageBody: 'from js',
  MessageAttributes: { kind: { DataType: 'String', StringValue: 'order' } } }));
await c.send(new sqs.SendMessageBatchCommand({ QueueUrl: q, Entries: [{ Id: 'a', MessageBody: 'one' }] }));
const got = await c.send(new sqs.ReceiveMessageCommand({ QueueUrl: q, MaxNumberOfMessages: 2,
  MessageAttributeNames: ['All'], WaitTimeSeconds: 0 }));
await c.send(new sqs.ChangeMessageVisibilityCommand({ QueueUrl: q,
  ReceiptHandle: got.Messages[0].ReceiptHandle, VisibilityTimeout: 45 }));
await c.send(new sqs.DeleteMessageCommand({ QueueUrl: q, ReceiptHandle: got.Messages[0].ReceiptHandle }));
await c.send(new sqs.GetQueueAttributesCommand({ QueueUrl: q, AttributeNames: ['All'] }));
await c.send(new sqs.ListQueuesCommand({ QueueNamePrefix: 'wo' }));
console.log('json done');
)";

} // namespace

class TrafficTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { isolateSettings(); }

    // Issue 37, item 5: one clock per view. A request's Time is engine time — the same text as
    // the Sent time of the message it sent — and the wall clock is on hover (or in a column the
    // header's menu shows).
    void theTrafficTimeIsTheMessagesClock()
    {
        TrafficWindow t;
        t.aws({QStringLiteral("send-message"), QStringLiteral("--queue-url"), t.queueUrl,
               QStringLiteral("--message-body"), QStringLiteral("timed")});
        t.window->selectQueue(QStringLiteral("work"));
        flush();
        QCOMPARE(t.window->messageModel()->rowCount(), 1);
        const QString sent = t.window->messageModel()
                                 ->index(0, ui::MessageTableModel::SentColumn)
                                 .data()
                                 .toString();
        ui::TrafficView* view = t.window->trafficView();
        ui::TrafficTableModel* model = view->model();
        int row = -1;
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->index(r, ui::TrafficTableModel::OperationColumn).data().toString()
                == QStringLiteral("SendMessage"))
                row = r;
        QVERIFY(row >= 0);
        const QModelIndex time = model->index(row, ui::TrafficTableModel::TimeColumn);
        QCOMPARE(time.data().toString(), sent);
        QVERIFY2(time.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("wall clock ")),
                 qPrintable(time.data(Qt::ToolTipRole).toString()));
        QVERIFY(
            view->findChild<QTableView*>()->isColumnHidden(ui::TrafficTableModel::WallTimeColumn));
    }

    // Issue 37, item 4: the planted bug of a slow consumer — it works 12 s against a 10 s
    // visibility timeout, the message comes back to another receive, and the first deletes it with
    // its old receipt — shows at a glance: in the outcomes, a filter, the Clients panel, a filter
    // by message id that finds the delete, and the timeline's mark beside the event.
    void aSlowConsumerIsSeenWithoutOpeningARow()
    {
        TrafficWindow t;
        t.aws({QStringLiteral("send-message"), QStringLiteral("--queue-url"), t.queueUrl,
               QStringLiteral("--message-body"), QStringLiteral("order 7")});
        const auto receipt = [&t] {
            const QString out
                = t.aws({QStringLiteral("receive-message"), QStringLiteral("--queue-url"),
                         t.queueUrl, QStringLiteral("--visibility-timeout"), QStringLiteral("10")});
            const QJsonObject message = QJsonDocument::fromJson(out.toUtf8())
                                            .object()
                                            .value(QStringLiteral("Messages"))
                                            .toArray()
                                            .at(0)
                                            .toObject();
            return std::pair{message.value(QStringLiteral("ReceiptHandle")).toString(),
                             message.value(QStringLiteral("MessageId")).toString()};
        };
        const auto [first, id] = receipt();
        QVERIFY(!first.isEmpty());
        t.f.step(12'000); // the consumer is still at work when the message comes back
        const auto [second, sameId] = receipt();
        QCOMPARE(sameId, id);
        t.aws({QStringLiteral("delete-message"), QStringLiteral("--queue-url"), t.queueUrl,
               QStringLiteral("--receipt-handle"), first});

        const auto receives = t.records(QStringLiteral("ReceiveMessage"));
        QCOMPARE(receives.size(), 2u);
        QCOMPARE(receives[1].outcome, QStringLiteral("received 1 of max 1 · 1 received again"));
        const auto deletes = t.records(QStringLiteral("DeleteMessage"));
        QCOMPARE(deletes.size(), 1u);
        QCOMPARE(deletes[0].outcome, QStringLiteral("deleted 1 · stale receipt"));

        // The filter shows just those two; the outcomes are marked.
        ui::TrafficView* view = t.window->trafficView();
        auto* filter = view->view()->model();
        const int all = filter->rowCount();
        QCOMPARE(all, 4);
        child<QCheckBox>(view, QStringLiteral("trafficRedeliveryCheck"))->setChecked(true);
        QCOMPARE(filter->rowCount(), 2);
        for (int row = 0; row < 2; ++row)
            QVERIFY(filter->index(row, ui::TrafficTableModel::OutcomeColumn)
                        .data(Qt::ForegroundRole)
                        .isValid());
        child<QCheckBox>(view, QStringLiteral("trafficRedeliveryCheck"))->setChecked(false);

        // By message id: its send, both receives and the delete (whose body has no id).
        child<QLineEdit>(view, QStringLiteral("trafficTextEdit"))->setText(id);
        QCOMPARE(filter->rowCount(), 4);
        QStringList operations;
        for (int row = 0; row < filter->rowCount(); ++row)
            operations
                << filter->index(row, ui::TrafficTableModel::OperationColumn).data().toString();
        QVERIFY2(operations.contains(QStringLiteral("DeleteMessage")),
                 qPrintable(operations.join(u' ')));
        child<QLineEdit>(view, QStringLiteral("trafficTextEdit"))->clear();

        // Per client.
        ui::ClientTableModel* panel = t.window->clientsView()->model();
        const int cli = panel->rowOfKey(QStringLiteral("AKIDCLITERMINAL aws-cli"));
        QVERIFY(cli >= 0);
        QCOMPARE(panel->index(cli, ui::ClientTableModel::StaleReceiptsColumn).data().toInt(), 1);
        QCOMPARE(panel->index(cli, ui::ClientTableModel::ReceivedAgainColumn).data().toInt(), 1);

        // The timeline marks the stale delete beside the event, not off to the right.
        t.window->showMessage(QStringLiteral("work"), id);
        flush();
        const QAbstractItemModel* timeline = t.window->inspector()->timelineView()->model();
        bool marked = false;
        for (int row = 0; row < timeline->rowCount(); ++row)
            marked = marked
                || timeline->index(row, ui::TimelineModel::KindColumn)
                       .data()
                       .toString()
                       .contains(QStringLiteral("stale receipt"));
        QVERIFY(marked);
    }

    void realClientsShowInTheTrafficLogAndTheClientsPanel()
    {
        TrafficWindow t;
        // The AWS CLI: four processes, four ports, one key: one client.
        t.aws({QStringLiteral("send-message"), QStringLiteral("--queue-url"), t.queueUrl,
               QStringLiteral("--message-body"), QStringLiteral("from the CLI")});
        t.aws({QStringLiteral("receive-message"), QStringLiteral("--queue-url"), t.queueUrl});
        const QString deleted
            = t.aws({QStringLiteral("delete-message"), QStringLiteral("--queue-url"), t.queueUrl,
                     QStringLiteral("--receipt-handle"), QStringLiteral("bogus")});
        QVERIFY2(deleted.contains(QStringLiteral("ReceiptHandleIsInvalid")), qPrintable(deleted));
        t.aws({QStringLiteral("get-queue-url"), QStringLiteral("--queue-name"),
               QStringLiteral("no-such-queue")});
        const QString boto = t.run(QStringLiteral("python3"), {QStringLiteral("-")},
                                   QStringLiteral("AKIDBOTOWORKER"), QString::fromUtf8(kBoto3));
        QVERIFY2(boto.contains(QStringLiteral("boto3 error")), qPrintable(boto));
        const QString js = t.run(
            QStringLiteral("node"),
            {QStringLiteral("--input-type=module"), QStringLiteral("-e"), QString::fromUtf8(kJs)},
            QStringLiteral("AKIDJSPRODUCER"));
        QVERIFY2(js.contains(QStringLiteral("js error")), qPrintable(js));

        // Each call in the Traffic tab, with operation, status, error code and client.
        const QString cli = QStringLiteral("AKIDCLITERMINAL aws-cli");
        QCOMPARE(t.records(QStringLiteral("SendMessage"), cli).size(), 1u);
        QCOMPARE(t.records(QStringLiteral("SendMessage"), cli)[0].status, 200);
        QCOMPARE(t.records(QStringLiteral("SendMessage"), cli)[0].queue, QStringLiteral("work"));
        const auto cliDelete = t.records(QStringLiteral("DeleteMessage"), cli);
        QCOMPARE(cliDelete.size(), 1u);
        QCOMPARE(cliDelete[0].status, 400);
        QCOMPARE(cliDelete[0].errorCode, QStringLiteral("ReceiptHandleIsInvalid"));
        const auto cliMissing = t.records(QStringLiteral("GetQueueUrl"), cli);
        QCOMPARE(cliMissing.size(), 1u);
        QCOMPARE(cliMissing[0].errorCode, QStringLiteral("QueueDoesNotExist"));
        const QString botoKey = QStringLiteral("AKIDBOTOWORKER Boto3");
        QCOMPARE(t.records(QStringLiteral("SendMessage"), botoKey).size(), 1u);
        QCOMPARE(t.records(QStringLiteral("ReceiveMessage"), botoKey).size(), 2u);
        QCOMPARE(t.records(QStringLiteral("GetQueueUrl"), botoKey)[0].errorCode,
                 QStringLiteral("QueueDoesNotExist"));
        const QString jsKey = QStringLiteral("AKIDJSPRODUCER aws-sdk-js");
        QCOMPARE(t.records(QStringLiteral("SendMessage"), jsKey).size(), 1u);
        QCOMPARE(t.records(QStringLiteral("DeleteMessage"), jsKey)[0].errorCode,
                 QStringLiteral("ReceiptHandleIsInvalid"));

        // The rows as the table shows them: the filters find them.
        ui::TrafficView* view = t.window->trafficView();
        child<QCheckBox>(view, QStringLiteral("trafficErrorsCheck"))->setChecked(true);
        QCOMPARE(view->filterModel()->rowCount(), 4); // CLI 2, boto3 1, JS 1
        child<QCheckBox>(view, QStringLiteral("trafficErrorsCheck"))->setChecked(false);
        auto* clients = child<QComboBox>(view, QStringLiteral("trafficClientCombo"));
        clients->setCurrentIndex(clients->findData(cli));
        QCOMPARE(view->filterModel()->rowCount(), 4);
        for (int row = 0; row < 4; ++row)
            QCOMPARE(view->filterModel()
                         ->index(row, ui::TrafficTableModel::ClientColumn)
                         .data()
                         .toString()
                         .left(8),
                     QStringLiteral("aws-cli/"));
        clients->setCurrentIndex(0);

        // The Clients tab: one row per client, by SDK and key.
        ui::ClientTableModel* panel = t.window->clientsView()->model();
        QCOMPARE(panel->rowCount(), 3);
        const int cliRow = panel->rowOfKey(cli);
        QVERIFY(cliRow >= 0);
        QVERIFY(panel->index(cliRow, ui::ClientTableModel::SdkColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("aws-cli/")));
        QCOMPARE(panel->index(cliRow, ui::ClientTableModel::AccessKeyColumn).data().toString(),
                 QStringLiteral("AKIDCLITERMINAL"));
        QCOMPARE(panel->index(cliRow, ui::ClientTableModel::RequestsColumn).data().toInt(), 4);
        QCOMPARE(panel->index(cliRow, ui::ClientTableModel::ErrorsColumn).data().toInt(), 2);
        const int botoRow = panel->rowOfKey(botoKey);
        QCOMPARE(panel->index(botoRow, ui::ClientTableModel::ReceivesColumn).data().toInt(), 2);
        QCOMPARE(panel->index(botoRow, ui::ClientTableModel::EmptyReceivesColumn).data().toInt(),
                 1);
        // Each holds the receipt of what it received, since nothing deleted it (the clock is
        // paused: no visibility timeout runs out).
        QCOMPARE(panel->index(botoRow, ui::ClientTableModel::HeldColumn).data().toInt(), 1);
        QCOMPARE(panel->index(cliRow, ui::ClientTableModel::HeldColumn).data().toInt(), 1);
        QCOMPARE(t.f.stats("work").inFlight, 2);

        // The empty receive, explained.
        const auto botoReceives = t.records(QStringLiteral("ReceiveMessage"), botoKey);
        const traffic::TrafficRecord& empty = botoReceives[1];
        QCOMPARE(empty.succeeded, 0);
        QVERIFY2(empty.explanation.contains(QStringLiteral("in flight")),
                 qPrintable(empty.explanation));
        QVERIFY(view->selectRequest(empty.cursor));
        const QString shown
            = child<QLabel>(view, QStringLiteral("trafficExplanationLabel"))->text();
        QVERIFY2(shown.contains(QStringLiteral("0 available")), qPrintable(shown));
        child<QCheckBox>(view, QStringLiteral("trafficEmptyCheck"))->setChecked(true);
        QCOMPARE(view->filterModel()->rowCount(), 1);
        child<QCheckBox>(view, QStringLiteral("trafficEmptyCheck"))->setChecked(false);
    }

    // "Copy as aws sqs" makes a command the AWS CLI runs: for every SQS request of real clients,
    // over Query and over JSON, the copied command, run in a shell with the CLI, reaches the
    // endpoint again as the same operation (a service error, as for a receipt already used, is
    // still a run); the CLI does not print its version and stop, nor refuse an option.
    void everyCopiedAwsCommandRunsWithTheCli()
    {
        TrafficWindow t;
        // Debian's python3 and boto3 (Query); a newer boto3 first on PATH would speak JSON.
        const QString query
            = t.run(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-")},
                    QStringLiteral("AKIDBOTOWORKER"), QString::fromUtf8(kEveryQueryAction));
        QVERIFY2(query.contains(QStringLiteral("query done")), qPrintable(query));
        const QString json = t.run(QStringLiteral("node"),
                                   {QStringLiteral("--input-type=module"), QStringLiteral("-e"),
                                    QString::fromUtf8(kEveryJsonAction)},
                                   QStringLiteral("AKIDJSPRODUCER"));
        QVERIFY2(json.contains(QStringLiteral("json done")), qPrintable(json));

        std::vector<traffic::TrafficRecord> made;
        ui::TrafficTableModel* model = t.window->trafficView()->model();
        for (int row = 0; row < model->rowCount(); ++row)
            if (const traffic::TrafficRecord* r = model->record(row))
                made.push_back(*r);
        QSet<QString> operations;
        for (const traffic::TrafficRecord& record : made) {
            const QString command = traffic::awsCliCommand(record);
            QVERIFY2(!command.isEmpty(), qPrintable(record.operation));
            const std::size_t before = t.records(record.operation).size();
            // Debian's AWS CLI (2.9), whatever else is first on PATH.
            const QString out
                = t.run(QStringLiteral("bash"),
                        {QStringLiteral("-c"), QStringLiteral("PATH=/usr/bin:$PATH; ") + command},
                        QStringLiteral("AKIDCLITERMINAL"));
            QVERIFY2(!out.trimmed().startsWith(QStringLiteral("aws-cli/")),
                     qPrintable(command + QStringLiteral("\n") + out));
            QVERIFY2(!out.contains(QStringLiteral("Unknown options"))
                         && !out.contains(QStringLiteral("usage: aws")),
                     qPrintable(command + QStringLiteral("\n") + out));
            QVERIFY2(t.records(record.operation).size() == before + 1,
                     qPrintable(QStringLiteral("did not reach the endpoint: ") + command
                                + QStringLiteral("\n") + out));
            operations.insert(record.operation);
        }
        // Both protocols' clients, and every action the scripts make.
        QVERIFY2(operations.size() >= 18, qPrintable(QStringList(operations.values()).join(u' ')));
    }

    // A request's engine events lead to its message and timeline; the timeline row leads back.
    void aRequestLeadsToItsMessageAndBack()
    {
        TrafficWindow t;
        t.aws({QStringLiteral("send-message"), QStringLiteral("--queue-url"), t.queueUrl,
               QStringLiteral("--message-body"), QStringLiteral("follow me")});
        const auto sends = t.records(QStringLiteral("SendMessage"));
        QCOMPARE(sends.size(), 1u);
        ui::TrafficView* view = t.window->trafficView();
        QVERIFY(t.window->showRequest(sends[0].cursor));
        QCOMPARE(t.window->tabs()->currentWidget(), view);
        auto* events = child<QTreeWidget>(view, QStringLiteral("trafficEventsTree"));
        QCOMPARE(events->topLevelItemCount(), 1);
        const QString messageId = QString::fromStdString(t.f.peek("work")[0].messageId);
        QCOMPARE(events->topLevelItem(0)->toolTip(3), messageId);
        Q_EMIT events->itemDoubleClicked(events->topLevelItem(0), 0);
        flush();
        QCOMPARE(t.window->tabs()->currentIndex(), 0);
        QCOMPARE(t.window->selectedMessageIds(), QStringList{messageId});
        // The timeline's "sent" row came from that request: double-click it.
        ui::TimelineModel* timeline = t.window->inspector()->timelineModel();
        QCOMPARE(timeline->rowCount(), 1);
        const QString origin
            = timeline->index(0, ui::TimelineModel::OriginColumn).data(Qt::UserRole).toString();
        QCOMPARE(origin, QStringLiteral("AKIDCLITERMINAL aws-cli"));
        QCOMPARE(view->model()->requestOfEvent(
                     timeline->index(0, 0).data(ui::TimelineModel::SequenceRole).toULongLong()),
                 sends[0].cursor);
        t.window->tabs()->setCurrentIndex(0);
        Q_EMIT t.window->inspector()->timelineView()->doubleClicked(timeline->index(0, 0));
        QCOMPARE(t.window->tabs()->currentWidget(), view);
        QCOMPARE(view->selectedRecord()->cursor, sends[0].cursor);
        // Copy as: commands that make the same request.
        QVERIFY(view->curlText().startsWith(QStringLiteral("curl -X POST")));
        QVERIFY(view->awsText().startsWith(QStringLiteral("aws sqs send-message")));
        QVERIFY(view->awsText().contains(QStringLiteral("--message-body 'follow me'")));
    }

    // A long poll is a waiting row until a send serves it; its receive event belongs to it, not
    // to the send that served it.
    void aLongPollsReceiveBelongsToIt()
    {
        TrafficWindow t;
        const QString out = t.run(QStringLiteral("python3"), {QStringLiteral("-")},
                                  QStringLiteral("unused"), QString::fromUtf8(kLongPoll));
        QVERIFY2(out.contains(QStringLiteral("received 1")), qPrintable(out));
        const auto receives
            = t.records(QStringLiteral("ReceiveMessage"), QStringLiteral("AKIDCONSUMER Boto3"));
        const auto sends
            = t.records(QStringLiteral("SendMessage"), QStringLiteral("AKIDPRODUCER Boto3"));
        QCOMPARE(receives.size(), 1u);
        QCOMPARE(sends.size(), 1u);
        QVERIFY(!receives[0].waiting);
        QCOMPARE(receives[0].succeeded, 1);
        ui::TrafficTableModel* model = t.window->trafficView()->model();
        const auto& receiveEvents = model->eventsOf(receives[0].cursor);
        QCOMPARE(receiveEvents.size(), 1u);
        QCOMPARE(receiveEvents[0].kind, engine::EventKind::MessageReceived);
        const auto& sendEvents = model->eventsOf(sends[0].cursor);
        QCOMPARE(sendEvents.size(), 1u);
        QCOMPARE(sendEvents[0].kind, engine::EventKind::MessageSent);
    }

    // A named, coloured client: its name in the traffic and event logs and the timeline, its
    // colour on the receipts it holds in the message table; remembered for the workspace.
    void aNamedClientIsMarkedEverywhere()
    {
        QTemporaryDir dir;
        const QString workspace = dir.filePath(QStringLiteral("w.inflight"));
        TrafficWindow t;
        t.window->clientDirectory()->setWorkspace(workspace);
        t.f.send("work", "m1");
        t.aws({QStringLiteral("receive-message"), QStringLiteral("--queue-url"), t.queueUrl});
        const QString key = QStringLiteral("AKIDCLITERMINAL aws-cli");
        ui::ClientDirectory* clients = t.window->clientDirectory();
        clients->setName(key, QStringLiteral("orders-worker"));
        clients->setColour(key, QColor(0x1F, 0x77, 0xB4));
        flush();
        ui::MessageTableModel* messages = t.window->messageModel();
        QCOMPARE(messages->rowCount(), 1);
        const QVariant swatch
            = messages->index(0, ui::MessageTableModel::StateColumn).data(Qt::DecorationRole);
        QVERIFY(swatch.isValid());
        QCOMPARE(swatch.value<QPixmap>().toImage().pixelColor(2, 2), QColor(0x1F, 0x77, 0xB4));
        QVERIFY(messages->index(0, ui::MessageTableModel::StateColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("orders-worker")));
        const auto receives = t.records(QStringLiteral("ReceiveMessage"));
        const int row = t.window->trafficView()->model()->rowOfCursor(receives[0].cursor);
        QCOMPARE(t.window->trafficView()
                     ->model()
                     ->index(row, ui::TrafficTableModel::ClientColumn)
                     .data()
                     .toString(),
                 QStringLiteral("orders-worker"));
        // Remembered per workspace: another window on the same workspace knows the name.
        ui::ClientDirectory again;
        again.setWorkspace(workspace);
        QCOMPARE(again.name(key), QStringLiteral("orders-worker"));
        QCOMPARE(again.colour(key), QColor(0x1F, 0x77, 0xB4));
        ui::ClientDirectory other;
        other.setWorkspace(dir.filePath(QStringLiteral("other.inflight")));
        QVERIFY(other.name(key).isEmpty());
    }

    // Export as HAR 1.2: the fields a HAR reader needs, for every request or the filtered ones.
    void exportsHar()
    {
        TrafficWindow t;
        t.aws({QStringLiteral("send-message"), QStringLiteral("--queue-url"), t.queueUrl,
               QStringLiteral("--message-body"), QStringLiteral("har")});
        t.aws({QStringLiteral("get-queue-url"), QStringLiteral("--queue-name"),
               QStringLiteral("no-such-queue")});
        QTemporaryDir dir;
        ui::TrafficView* view = t.window->trafficView();
        const QString all = dir.filePath(QStringLiteral("all.har"));
        QCOMPARE(view->exportHar(all, false), QString());
        // Said where the user acted (issue 37: an export gave no word).
        auto* notice = child<ui::NoticeBar>(view, QStringLiteral("trafficNotice"));
        QVERIFY(!notice->isHidden());
        QCOMPARE(notice->text(), QStringLiteral("Exported 2 requests as HAR to %1.").arg(all));
        child<QCheckBox>(view, QStringLiteral("trafficErrorsCheck"))->setChecked(true);
        const QString errors = dir.filePath(QStringLiteral("errors.har"));
        QCOMPARE(view->exportHar(errors, true), QString());
        const auto entries = [](const QString& path) {
            QFile file(path);
            file.open(QIODevice::ReadOnly);
            const QJsonObject log
                = QJsonDocument::fromJson(file.readAll()).object()[u"log"].toObject();
            if (log[u"version"].toString() != QLatin1String("1.2"))
                return QJsonArray();
            return log[u"entries"].toArray();
        };
        QCOMPARE(entries(all).size(), 2);
        const QJsonArray onlyErrors = entries(errors);
        QCOMPARE(onlyErrors.size(), 1);
        const QJsonObject entry = onlyErrors[0].toObject();
        QCOMPARE(entry[u"response"].toObject()[u"status"].toInt(), 400);
        QCOMPARE(entry[u"request"].toObject()[u"method"].toString(), QStringLiteral("POST"));
        QVERIFY(entry[u"startedDateTime"].toString().endsWith(QLatin1Char('Z')));
    }
};

QTEST_MAIN(TrafficTest)
#include "traffic_test.moc"
