#pragma once

// Drives protocol::Endpoint the way the server will: literal request bytes in, response bytes
// out, against a broker on a ManualClock.
#include "engine/broker.h"
#include "protocol/endpoint.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include <variant>

// Lets gtest print QByteArray / QString in failure messages.
QT_BEGIN_NAMESPACE
inline void PrintTo(const QByteArray& bytes, std::ostream* os)
{
    *os << '"' << bytes.toStdString() << '"';
}
inline void PrintTo(const QString& text, std::ostream* os)
{
    *os << '"' << text.toStdString() << '"';
}
QT_END_NAMESPACE

namespace inflight::protocol::testing {

inline constexpr engine::Millis kT0 = 1'700'000'000'000;
inline const QByteArray kQueueUrlPrefix = QByteArrayLiteral("http://127.0.0.1:9324/000000000000/");

class ProtocolTest : public ::testing::Test {
protected:
    engine::ManualClock clock{kT0};
    engine::Broker broker{clock};
    Endpoint endpoint{broker};

    Outcome handle(const HttpRequest& request) { return endpoint.handle(request); }

    // A request that must be answered at once.
    HttpResponse respond(const HttpRequest& request)
    {
        Outcome outcome = endpoint.handle(request);
        if (!std::holds_alternative<HttpResponse>(outcome)) {
            ADD_FAILURE() << "expected an immediate response, got a deferred receive";
            return {};
        }
        return std::get<HttpResponse>(std::move(outcome));
    }

    // An AWS JSON 1.0 request as the JS SDK v3 and botocore ≥ 1.34.90 send it.
    static HttpRequest jsonRequest(const QByteArray& action, const QByteArray& body,
                                   const QByteArray& path = "/")
    {
        HttpRequest request;
        request.method = "POST";
        request.path = path;
        request.headers = {{"Host", "127.0.0.1:9324"},
                           {"Content-Type", "application/x-amz-json-1.0"},
                           {"X-Amz-Target", "AmazonSQS." + action},
                           {"x-amzn-query-mode", "true"}};
        request.body = body;
        request.origin = QStringLiteral("127.0.0.1:53412");
        return request;
    }

    HttpResponse json(const QByteArray& action, const QByteArray& body,
                      const QByteArray& path = "/")
    {
        return respond(jsonRequest(action, body, path));
    }

    // A Query request as botocore / the AWS CLI send it: a form POST.
    static HttpRequest queryRequest(const QByteArray& form, const QByteArray& path = "/")
    {
        HttpRequest request;
        request.method = "POST";
        request.path = path;
        request.headers = {{"Host", "127.0.0.1:9324"},
                           {"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}};
        request.body = form;
        request.origin = QStringLiteral("127.0.0.1:53412");
        return request;
    }

    HttpResponse query(const QByteArray& form, const QByteArray& path = "/")
    {
        return respond(queryRequest(form, path));
    }

    static QJsonObject object(const HttpResponse& response)
    {
        return QJsonDocument::fromJson(response.body).object();
    }

    // The text of the first element with that name in an XML response; null if absent.
    static QString xmlText(const QByteArray& xml, const QString& element)
    {
        return xmlTexts(xml, element).value(0);
    }

    // Every text of elements with that name, in document order.
    static QStringList xmlTexts(const QByteArray& xml, const QString& element)
    {
        QStringList texts;
        QXmlStreamReader reader(xml);
        while (!reader.atEnd()) {
            reader.readNext();
            if (reader.isStartElement() && reader.name() == element)
                texts.append(reader.readElementText(QXmlStreamReader::IncludeChildElements));
        }
        EXPECT_FALSE(reader.hasError()) << reader.errorString().toStdString();
        return texts;
    }

    // Creates a queue through the engine and returns its URL.
    QString createQueue(const std::string& name, engine::StringMap attributes = {})
    {
        engine::CreateQueueRequest request;
        request.name = name;
        request.attributes = std::move(attributes);
        EXPECT_TRUE(broker.createQueue(request).ok()) << name;
        return QString::fromLatin1(kQueueUrlPrefix) + QString::fromStdString(name);
    }
};

// `depth` arrays nested in each other.
inline QByteArray nestedArrays(int depth)
{
    return QByteArray(depth, '[') + QByteArray(depth, ']');
}

// {"a":{"a":…{}…}} with `depth` objects.
inline QByteArray nestedObjects(int depth)
{
    QByteArray text;
    text.reserve(depth * 6);
    for (int i = 1; i < depth; ++i)
        text += "{\"a\":";
    text += "{}";
    text += QByteArray(depth - 1, '}');
    return text;
}

// A ProtocolTest with one standard queue "q" (its URL, and percent-encoded for forms) and checks of
// the two SQS error shapes a refusal takes: every error here is the client's (Sender).
class QueueProtocolTest : public ProtocolTest {
protected:
    QString url;
    QByteArray encodedUrl;

    void SetUp() override
    {
        url = createQueue("q");
        encodedUrl = QUrl::toPercentEncoding(url);
    }

    static void expectQueryError(const HttpResponse& response, int status, const char* code)
    {
        EXPECT_EQ(response.status, status) << response.body.left(2'000).toStdString();
        EXPECT_EQ(response.contentType, "text/xml");
        EXPECT_EQ(xmlText(response.body, QStringLiteral("Type")), QStringLiteral("Sender"));
        EXPECT_EQ(xmlText(response.body, QStringLiteral("Code")), QLatin1String(code));
        EXPECT_FALSE(xmlText(response.body, QStringLiteral("Message")).isEmpty());
    }

    static void expectJsonError(const HttpResponse& response, int status, const char* shape,
                                const char* queryCode)
    {
        EXPECT_EQ(response.status, status) << response.body.left(2'000).toStdString();
        EXPECT_EQ(response.contentType, "application/x-amz-json-1.0");
        EXPECT_EQ(object(response).value(QStringLiteral("__type")).toString(),
                  QStringLiteral("com.amazonaws.sqs#") + QLatin1String(shape));
        EXPECT_EQ(response.header("x-amzn-query-error"), QByteArray(queryCode) + ";Sender");
        EXPECT_FALSE(object(response).value(QStringLiteral("message")).toString().isEmpty());
    }
};

} // namespace inflight::protocol::testing
