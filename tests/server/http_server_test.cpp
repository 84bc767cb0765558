// The endpoint (core/server/http_server.h) on a real loopback socket with a real Session behind
// it, driven by plain POSIX sockets while this thread's Qt event loop runs: SQS JSON answers,
// keep-alive, pipelining in order, malformed and oversized requests, long polls (answered by
// another connection's send, dropped when their client hangs up, ended by endWaits()), answers
// held until the session's commit, and setSession() on the same port. Every test runs with the
// sockets on a thread of their own and on the session's thread.

#include "protocol/http_types.h"
#include "server/http_server.h"
#include "session/session.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>

#include <gtest/gtest.h>

#include <cerrno>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace inflight;
using server::HttpServer;
using server::SocketThreading;
using session::Session;
using namespace Qt::StringLiterals;

// QString in GoogleTest's failure messages.
QT_BEGIN_NAMESPACE
inline void PrintTo(const QString& text, std::ostream* out)
{
    *out << '"' << text.toStdString() << '"';
}
QT_END_NAMESPACE

namespace inflight::server {
inline void PrintTo(SocketThreading threading, std::ostream* out)
{
    *out << (threading == SocketThreading::OwnThread ? "OwnThread" : "SessionThread");
}
} // namespace inflight::server

namespace {

constexpr int kTimeout = 5'000; // real ms any single wait may take at most

// One turn of this thread's event loop, after waiting up to 2 ms for `fd` (if any) to be
// readable: the server's work (its socket notifier, its queued calls, the session's timer) runs
// in processEvents, the client's bytes arrive on the socket.
void pumpOnce(int fd = -1, short events = POLLIN)
{
    if (fd >= 0) {
        pollfd p{fd, events, 0};
        ::poll(&p, 1, 2);
    } else {
        pollfd none{};
        ::poll(&none, 0, 2);
    }
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
}

// Runs the event loop until `done` or kTimeout; whether it got done.
bool pumpUntil(const std::function<bool()>& done, int timeout = kTimeout)
{
    QElapsedTimer real;
    real.start();
    while (!done()) {
        if (real.elapsed() > timeout)
            return false;
        pumpOnce();
    }
    return true;
}

struct Response {
    int status = 0;
    std::map<std::string, std::string> headers; // names in lower case
    QByteArray body;

    std::string header(const std::string& name) const
    {
        const auto it = headers.find(name);
        return it == headers.end() ? std::string() : it->second;
    }
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

// A client connection on a raw non-blocking socket. Every wait pumps the event loop.
class Client {
public:
    explicit Client(quint16 port)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        // Loopback: the kernel completes the handshake from the listen backlog at once.
        m_connected
            = ::connect(m_fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
        ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) | O_NONBLOCK);
        const int one = 1;
        ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    ~Client() { hangUp(); }
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    bool connected() const { return m_connected; }

    // Writes all of `bytes`, pumping while the kernel's buffer is full (a large body).
    bool send(const QByteArray& bytes)
    {
        qsizetype sent = 0;
        QElapsedTimer real;
        real.start();
        while (sent < bytes.size()) {
            const ssize_t n = ::send(m_fd, bytes.constData() + sent,
                                     static_cast<size_t>(bytes.size() - sent), MSG_NOSIGNAL);
            if (n > 0) {
                sent += n;
                continue;
            }
            if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                return false;
            if (real.elapsed() > kTimeout)
                return false;
            pumpOnce(m_fd, POLLOUT);
        }
        return true;
    }

    // The next complete response (Content-Length framed); nullopt if none came within `timeout`
    // or the connection closed first.
    std::optional<Response> response(int timeout = kTimeout)
    {
        QElapsedTimer real;
        real.start();
        for (;;) {
            if (auto parsed = takeResponse())
                return parsed;
            if (!fill()) // closed: what it read before the end may still hold one
                return takeResponse();
            if (real.elapsed() > timeout)
                return std::nullopt;
        }
    }

    // Whether no byte arrives for `millis` (the request is still waiting).
    bool silentFor(int millis)
    {
        QElapsedTimer real;
        real.start();
        while (real.elapsed() < millis) {
            if (!fill())
                return false; // closed
            if (!m_buffer.isEmpty())
                return false;
        }
        return true;
    }

    // Whether the server closes the connection (end of stream or a reset) within kTimeout, with
    // nothing more to read before it.
    bool closedByServer()
    {
        QElapsedTimer real;
        real.start();
        while (real.elapsed() < kTimeout) {
            if (!fill())
                return m_buffer.isEmpty();
        }
        return false;
    }

    void hangUp()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }

private:
    // Reads what is there, after one turn of the event loop. False once the server closed.
    bool fill()
    {
        pumpOnce(m_fd);
        char chunk[65536];
        for (;;) {
            const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
            if (n > 0) {
                m_buffer.append(chunk, n);
                continue;
            }
            if (n == 0)
                return false;
            if (errno == EINTR)
                continue;
            return errno == EAGAIN || errno == EWOULDBLOCK;
        }
    }

    std::optional<Response> takeResponse()
    {
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return std::nullopt;
        Response response;
        const QList<QByteArray> lines = m_buffer.left(end).split('\n');
        const QList<QByteArray> statusLine = lines.value(0).trimmed().split(' ');
        response.status = statusLine.value(1).toInt();
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            if (colon > 0)
                response.headers[lines[i].left(colon).trimmed().toLower().toStdString()]
                    = lines[i].mid(colon + 1).trimmed().toStdString();
        }
        const qsizetype length = std::stoll(response.header("content-length").empty()
                                                ? std::string("0")
                                                : response.header("content-length"));
        if (m_buffer.size() < end + 4 + length)
            return std::nullopt;
        response.body = m_buffer.mid(end + 4, length);
        m_buffer.remove(0, end + 4 + length);
        return response;
    }

    int m_fd = -1;
    bool m_connected = false;
    QByteArray m_buffer;
};

// An SQS AWS JSON 1.0 request.
QByteArray sqs(const char* action, const QJsonObject& payload)
{
    const QByteArray body = QJsonDocument(payload).toJson(QJsonDocument::Compact);
    return QByteArray("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: AmazonSQS.")
        + action + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

} // namespace

class HttpServerTest : public ::testing::TestWithParam<SocketThreading> {
protected:
    static void SetUpTestSuite()
    {
        // One application for the whole run (the server's notifier and queued calls need it).
        static int argc = 1;
        static char name[] = "server_http_server_test";
        static char* argv[] = {name, nullptr};
        if (!QCoreApplication::instance())
            new QCoreApplication(argc, argv); // lives until the process ends
    }

    void SetUp() override
    {
        session = std::make_unique<Session>();
        server = std::make_unique<HttpServer>(*session, GetParam());
        ASSERT_TRUE(server->listen(QHostAddress(QHostAddress::LocalHost), 0))
            << server->errorString().toStdString();
        port = server->serverPort();
        ASSERT_NE(port, 0);
    }

    void TearDown() override
    {
        server.reset(); // before the sessions it serves
        other.reset();
        session.reset();
        QCoreApplication::processEvents(); // what the server left to deleteLater
    }

    QString queueUrl(const QString& name) const
    {
        return server->baseUrl() + u"/000000000000/"_s + name;
    }
    QString queueUrl(const char* name) const { return queueUrl(QString::fromUtf8(name)); }

    // One request on a connection of its own.
    std::optional<Response> call(const char* action, const QJsonObject& payload)
    {
        Client client(port);
        if (!client.connected() || !client.send(sqs(action, payload)))
            return std::nullopt;
        return client.response();
    }

    void createQueue(const char* name)
    {
        const auto created = call("CreateQueue", {{u"QueueName"_s, QString::fromUtf8(name)}});
        ASSERT_TRUE(created);
        ASSERT_EQ(created->status, 200) << created->body.toStdString();
    }

    QJsonObject longPoll(const char* queue, int seconds) const
    {
        return {{u"QueueUrl"_s, queueUrl(queue)}, {u"WaitTimeSeconds"_s, seconds}};
    }

    // Members in this order: the server goes first.
    std::unique_ptr<Session> session;
    std::unique_ptr<Session> other;
    std::unique_ptr<HttpServer> server;
    quint16 port = 0;
};

TEST_P(HttpServerTest, SqsJsonCreateSendReceiveAreAnswered200WithTheirJson)
{
    const auto created = call("CreateQueue", {{u"QueueName"_s, u"orders"_s}});
    ASSERT_TRUE(created);
    EXPECT_EQ(created->status, 200) << created->body.toStdString();
    EXPECT_EQ(created->header("content-type"), "application/x-amz-json-1.0");
    EXPECT_EQ(created->json().value(u"QueueUrl").toString(), queueUrl("orders"));
    EXPECT_TRUE(session->broker().getQueue("orders").ok());

    const auto sent = call("SendMessage",
                           {{u"QueueUrl"_s, queueUrl("orders")}, {u"MessageBody"_s, u"hello"_s}});
    ASSERT_TRUE(sent);
    EXPECT_EQ(sent->status, 200) << sent->body.toStdString();
    const QString messageId = sent->json().value(u"MessageId").toString();
    EXPECT_FALSE(messageId.isEmpty());
    EXPECT_EQ(sent->json().value(u"MD5OfMessageBody").toString(),
              u"5d41402abc4b2a76b9719d911017c592"_s); // md5("hello")

    const auto received = call("ReceiveMessage", {{u"QueueUrl"_s, queueUrl("orders")}});
    ASSERT_TRUE(received);
    EXPECT_EQ(received->status, 200) << received->body.toStdString();
    const QJsonArray messages = received->json().value(u"Messages").toArray();
    ASSERT_EQ(messages.size(), 1) << received->body.toStdString();
    EXPECT_EQ(messages[0].toObject().value(u"Body").toString(), u"hello"_s);
    EXPECT_EQ(messages[0].toObject().value(u"MessageId").toString(), messageId);
    EXPECT_FALSE(messages[0].toObject().value(u"ReceiptHandle").toString().isEmpty());
    EXPECT_EQ(session->broker().queueStats("orders")->inFlight, 1);

    const auto missing = call("GetQueueUrl", {{u"QueueName"_s, u"missing"_s}});
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->status, 400);
    EXPECT_EQ(missing->json().value(u"__type").toString(),
              u"com.amazonaws.sqs#QueueDoesNotExist"_s);
}

TEST_P(HttpServerTest, KeepAliveServesTwoRequestsOnOneConnection)
{
    Client client(port);
    ASSERT_TRUE(client.connected());
    for (const QString& name : {u"first"_s, u"second"_s}) {
        ASSERT_TRUE(client.send(sqs("CreateQueue", {{u"QueueName"_s, name}})));
        const auto answer = client.response();
        ASSERT_TRUE(answer) << name.toStdString();
        EXPECT_EQ(answer->status, 200);
        EXPECT_EQ(answer->json().value(u"QueueUrl").toString(), queueUrl(name));
        EXPECT_NE(answer->header("connection"), "close");
    }
    EXPECT_TRUE(pumpUntil([&] { return server->connectionCount() == 1; }));
    EXPECT_TRUE(session->broker().getQueue("second").ok());
}

TEST_P(HttpServerTest, PipelinedRequestsAreAnsweredInOrder)
{
    Client client(port);
    ASSERT_TRUE(client.send(sqs("CreateQueue", {{u"QueueName"_s, u"a"_s}})
                            + sqs("GetQueueUrl", {{u"QueueName"_s, u"missing"_s}})
                            + sqs("CreateQueue", {{u"QueueName"_s, u"b"_s}})));
    const auto first = client.response();
    const auto second = client.response();
    const auto third = client.response();
    ASSERT_TRUE(first && second && third);
    EXPECT_EQ(first->status, 200);
    EXPECT_EQ(first->json().value(u"QueueUrl").toString(), queueUrl("a"));
    EXPECT_EQ(second->status, 400);
    EXPECT_EQ(second->json().value(u"__type").toString(), u"com.amazonaws.sqs#QueueDoesNotExist"_s);
    EXPECT_EQ(third->status, 200);
    EXPECT_EQ(third->json().value(u"QueueUrl").toString(), queueUrl("b"));
}

TEST_P(HttpServerTest, MalformedRequestsGet400AndTheConnectionCloses)
{
    {
        Client client(port);
        ASSERT_TRUE(client.send("\x16\x03\x01 this is not HTTP\r\n\r\n"));
        const auto answer = client.response();
        ASSERT_TRUE(answer);
        EXPECT_EQ(answer->status, 400);
        EXPECT_EQ(answer->header("connection"), "close");
        EXPECT_TRUE(client.closedByServer());
    }
    {
        // HTTP/1.1 without Host: answered in the JSON protocol the request showed.
        Client client(port);
        ASSERT_TRUE(client.send("POST / HTTP/1.1\r\nX-Amz-Target: AmazonSQS.ListQueues\r\n"
                                "Content-Type: application/x-amz-json-1.0\r\n"
                                "Content-Length: 2\r\n\r\n{}"));
        const auto answer = client.response();
        ASSERT_TRUE(answer);
        EXPECT_EQ(answer->status, 400);
        EXPECT_EQ(answer->header("x-amzn-query-error"), "MalformedHttpRequest;Sender");
        EXPECT_TRUE(client.closedByServer());
    }
    // The server goes on serving.
    const auto listed = call("ListQueues", {});
    ASSERT_TRUE(listed);
    EXPECT_EQ(listed->status, 200);
}

TEST_P(HttpServerTest, ABodyOverTheLimitIsRefused413BeforeItIsSent)
{
    Client client(port);
    // Only the head: the refusal comes from Content-Length alone.
    ASSERT_TRUE(client.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            "Content-Type: application/x-amz-json-1.0\r\n"
                            "X-Amz-Target: AmazonSQS.CreateQueue\r\nContent-Length: "
                            + QByteArray::number(protocol::kMaxRequestBody + 1) + "\r\n\r\n"));
    const auto answer = client.response();
    ASSERT_TRUE(answer);
    EXPECT_EQ(answer->status, 413);
    EXPECT_EQ(answer->header("connection"), "close");
    EXPECT_NE(answer->header("x-amzn-query-error").find("RequestEntityTooLarge"),
              std::string::npos);
    EXPECT_TRUE(answer->body.contains("RequestEntityTooLarge"));
    EXPECT_TRUE(client.closedByServer()); // our side shut; nothing else comes
    EXPECT_TRUE(session->broker().listQueues({}).value().names.empty());
}

TEST_P(HttpServerTest, ABodyAtTheLimitIsAccepted)
{
    createQueue("limit");
    QByteArray body
        = QJsonDocument(QJsonObject{{u"QueueUrl"_s, queueUrl("limit")}, {u"MessageBody"_s, u"x"_s}})
              .toJson(QJsonDocument::Compact);
    body.append(protocol::kMaxRequestBody - body.size(), ' '); // JSON allows trailing space
    Client client(port);
    ASSERT_TRUE(client.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            "Content-Type: application/x-amz-json-1.0\r\n"
                            "X-Amz-Target: AmazonSQS.SendMessage\r\nContent-Length: "
                            + QByteArray::number(body.size()) + "\r\n\r\n" + body));
    const auto answer = client.response();
    ASSERT_TRUE(answer);
    EXPECT_EQ(answer->status, 200) << answer->body.left(300).toStdString();
    EXPECT_EQ(session->broker().queueStats("limit")->available, 1);
}

TEST_P(HttpServerTest, ALongPollIsAnsweredWhenAnotherConnectionSends)
{
    createQueue("jobs");
    Client waiting(port);
    QElapsedTimer real;
    real.start();
    ASSERT_TRUE(waiting.send(sqs("ReceiveMessage", longPoll("jobs", 20))));
    EXPECT_TRUE(pumpUntil([&] { return session->broker().pendingWaits() == 1; }));
    EXPECT_TRUE(waiting.silentFor(200)); // held open, not answered empty

    Client sender(port);
    ASSERT_TRUE(sender.send(
        sqs("SendMessage", {{u"QueueUrl"_s, queueUrl("jobs")}, {u"MessageBody"_s, u"go"_s}})));
    const auto sent = sender.response();
    ASSERT_TRUE(sent);
    EXPECT_EQ(sent->status, 200);

    const auto answer = waiting.response();
    ASSERT_TRUE(answer);
    EXPECT_EQ(answer->status, 200);
    const QJsonArray messages = answer->json().value(u"Messages").toArray();
    ASSERT_EQ(messages.size(), 1) << answer->body.toStdString();
    EXPECT_EQ(messages[0].toObject().value(u"Body").toString(), u"go"_s);
    EXPECT_LT(real.elapsed(), 10'000); // long before its 20 s
    EXPECT_EQ(session->broker().pendingWaits(), 0u);
}

TEST_P(HttpServerTest, ALongPollWhoseClientHangsUpIsDropped)
{
    createQueue("hangup");
    {
        Client waiting(port);
        ASSERT_TRUE(waiting.send(sqs("ReceiveMessage", longPoll("hangup", 20))));
        ASSERT_TRUE(pumpUntil([&] { return session->broker().pendingWaits() == 1; }));
        waiting.hangUp();
        // The engine wait is cancelled and the connection gone.
        EXPECT_TRUE(pumpUntil([&] {
            return session->broker().pendingWaits() == 0 && server->connectionCount() == 0;
        }));
    }
    // The server keeps answering, and the dead wait took nothing.
    const auto sent
        = call("SendMessage",
               {{u"QueueUrl"_s, queueUrl("hangup")}, {u"MessageBody"_s, u"for the living"_s}});
    ASSERT_TRUE(sent);
    EXPECT_EQ(sent->status, 200);
    const auto received = call("ReceiveMessage", {{u"QueueUrl"_s, queueUrl("hangup")}});
    ASSERT_TRUE(received);
    const QJsonArray messages = received->json().value(u"Messages").toArray();
    ASSERT_EQ(messages.size(), 1) << received->body.toStdString();
    EXPECT_EQ(messages[0].toObject().value(u"Body").toString(), u"for the living"_s);
}

TEST_P(HttpServerTest, EndWaitsEndsOpenLongPollsEmptyOnOpenConnections)
{
    createQueue("waits");
    Client one(port);
    Client two(port);
    ASSERT_TRUE(one.send(sqs("ReceiveMessage", longPoll("waits", 20))));
    ASSERT_TRUE(two.send(sqs("ReceiveMessage", longPoll("waits", 20))));
    ASSERT_TRUE(pumpUntil([&] { return session->broker().pendingWaits() == 2; }));
    QElapsedTimer real;
    real.start();
    server->endWaits();
    EXPECT_EQ(session->broker().pendingWaits(), 0u); // the engine waits cancelled
    for (Client* client : {&one, &two}) {
        const auto answer = client->response();
        ASSERT_TRUE(answer);
        EXPECT_EQ(answer->status, 200);
        EXPECT_FALSE(answer->json().contains(u"Messages")) << answer->body.toStdString();
        EXPECT_NE(answer->header("connection"), "close");
    }
    EXPECT_LT(real.elapsed(), 10'000);
    // The connections stay and are served again; nothing was taken.
    ASSERT_TRUE(one.send(
        sqs("SendMessage", {{u"QueueUrl"_s, queueUrl("waits")}, {u"MessageBody"_s, u"kept"_s}})));
    const auto sent = one.response();
    ASSERT_TRUE(sent);
    EXPECT_EQ(sent->status, 200);
    EXPECT_EQ(session->broker().queueStats("waits")->available, 1);
}

TEST_P(HttpServerTest, EndWaitsGivesAWaitTheAnswerThatCameAlready)
{
    createQueue("answered");
    Client waiting(port);
    ASSERT_TRUE(waiting.send(sqs("ReceiveMessage", longPoll("answered", 20))));
    ASSERT_TRUE(pumpUntil([&] { return session->broker().pendingWaits() == 1; }));
    // The engine answers the wait; its finished() has not been delivered when endWaits() comes.
    ASSERT_TRUE(session->broker().sendMessage({.queue = "answered", .body = "just in time"}));
    server->endWaits();
    const auto answer = waiting.response();
    ASSERT_TRUE(answer);
    EXPECT_EQ(answer->status, 200);
    const QJsonArray messages = answer->json().value(u"Messages").toArray();
    ASSERT_EQ(messages.size(), 1) << answer->body.toStdString();
    EXPECT_EQ(messages[0].toObject().value(u"Body").toString(), u"just in time"_s);
}

TEST_P(HttpServerTest, SetSessionKeepsThePortAndConnectionsAndAnswersFromTheNewSession)
{
    createQueue("old-only");
    Client client(port);
    Client waiting(port);
    ASSERT_TRUE(waiting.send(sqs("ReceiveMessage", longPoll("old-only", 20))));
    ASSERT_TRUE(pumpUntil([&] { return session->broker().pendingWaits() == 1; }));

    other = std::make_unique<Session>();
    server->setSession(*other); // ends the old session's long polls first

    EXPECT_TRUE(server->isListening());
    EXPECT_EQ(server->serverPort(), port);
    EXPECT_EQ(session->broker().pendingWaits(), 0u);
    const auto ended = waiting.response();
    ASSERT_TRUE(ended);
    EXPECT_EQ(ended->status, 200);
    EXPECT_FALSE(ended->json().contains(u"Messages"));

    // The same connection, now answered from the new session.
    ASSERT_TRUE(client.send(sqs("ListQueues", {})));
    const auto listed = client.response();
    ASSERT_TRUE(listed);
    EXPECT_EQ(listed->status, 200);
    EXPECT_FALSE(listed->body.contains("old-only")) << listed->body.toStdString();
    ASSERT_TRUE(client.send(sqs("CreateQueue", {{u"QueueName"_s, u"new-only"_s}})));
    const auto created = client.response();
    ASSERT_TRUE(created);
    EXPECT_EQ(created->status, 200);
    EXPECT_EQ(created->json().value(u"QueueUrl").toString(), queueUrl("new-only"));
    EXPECT_TRUE(other->broker().getQueue("new-only").ok());
    EXPECT_FALSE(session->broker().getQueue("new-only").ok());
    // A long poll now waits in the new session.
    ASSERT_TRUE(waiting.send(sqs("ReceiveMessage", longPoll("new-only", 20))));
    EXPECT_TRUE(pumpUntil([&] { return other->broker().pendingWaits() == 1; }));
}

TEST_P(HttpServerTest, AnswersWaitForTheCommitAndAFailedCommitIsAnswered500)
{
    bool full = false;
    int commits = 0;
    session->setPersistence([&](std::span<const engine::Event> batch) {
        commits += batch.empty() ? 0 : 1;
        return full ? Session::Stored(std::string("disk full")) : Session::Stored(engine::Done{});
    });
    const auto created = call("CreateQueue", {{u"QueueName"_s, u"stored"_s}});
    ASSERT_TRUE(created);
    EXPECT_EQ(created->status, 200);
    EXPECT_EQ(commits, 1); // stored before the client heard of it

    full = true;
    const auto refused = call("CreateQueue", {{u"QueueName"_s, u"unstored"_s}});
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 500) << refused->body.toStdString();
    EXPECT_EQ(refused->header("x-amzn-query-error"), "InternalError;Receiver");
    EXPECT_TRUE(refused->body.contains("disk full")) << refused->body.toStdString();
    session->setPersistence({});
}

TEST_P(HttpServerTest, AMoveThatFailsLeavesTheEndpointServingWhereItWas)
{
    const auto answers = [this](const char* queue) {
        const auto created = call("CreateQueue", {{u"QueueName"_s, QString::fromUtf8(queue)}});
        return created && created->status == 200;
    };
    // A port another program holds: refused, and the endpoint still serves on its own.
    QTcpServer other;
    ASSERT_TRUE(other.listen(QHostAddress(QHostAddress::LocalHost), 0));
    EXPECT_FALSE(server->listen(QHostAddress(QHostAddress::LocalHost), other.serverPort()));
    EXPECT_FALSE(server->errorString().isEmpty());
    EXPECT_TRUE(server->isListening());
    EXPECT_EQ(server->serverPort(), port);
    EXPECT_EQ(server->baseUrl(), u"http://127.0.0.1:%1"_s.arg(port));
    EXPECT_TRUE(answers("still-here"));

    // The same port on an address this machine does not have (TEST-NET-1): the old socket is
    // given up to try, and taken back.
    EXPECT_FALSE(server->listen(QHostAddress(u"192.0.2.1"_s), port));
    EXPECT_TRUE(server->isListening());
    EXPECT_EQ(server->serverPort(), port);
    EXPECT_TRUE(answers("back-again"));

    // The same port on every interface: a move (the old socket let go first), still reachable.
    EXPECT_TRUE(server->listen(QHostAddress(QHostAddress::AnyIPv4), port))
        << server->errorString().toStdString();
    EXPECT_EQ(server->serverPort(), port);
    EXPECT_TRUE(server->errorString().isEmpty());
    EXPECT_TRUE(answers("everywhere"));

    // Where it listens already: nothing changes, a kept-alive connection stays.
    Client client(port);
    ASSERT_TRUE(client.connected());
    ASSERT_TRUE(client.send(sqs("ListQueues", {})));
    ASSERT_TRUE(client.response());
    EXPECT_TRUE(server->listen(QHostAddress(QHostAddress::AnyIPv4), port));
    ASSERT_TRUE(client.send(sqs("ListQueues", {})));
    const auto again = client.response();
    ASSERT_TRUE(again);
    EXPECT_EQ(again->status, 200);
}

INSTANTIATE_TEST_SUITE_P(Threadings, HttpServerTest,
                         ::testing::Values(SocketThreading::OwnThread,
                                           SocketThreading::SessionThread),
                         [](const ::testing::TestParamInfo<SocketThreading>& info) {
                             return info.param == SocketThreading::OwnThread
                                 ? std::string("OwnThread")
                                 : std::string("SessionThread");
                         });
