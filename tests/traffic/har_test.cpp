#include "traffic/traffic_capture.h"
#include "traffic/traffic_json.h"
#include "traffic/traffic_log.h"

#include <gtest/gtest.h>

namespace inflight::traffic {
namespace {

using Json = nlohmann::json;

TrafficRecord sendMessage()
{
    protocol::HttpRequest request;
    request.method = "POST";
    request.path = "/";
    request.query = "a=1&b=x%20y";
    request.headers = {{"Host", "127.0.0.1:9324"},
                       {"Content-Type", "application/x-amz-json-1.0"},
                       {"X-Amz-Target", "AmazonSQS.SendMessage"},
                       {"User-Agent", "aws-sdk-js/3.901.0 ua/2.1"}};
    request.body = R"({"QueueUrl":"http://127.0.0.1:9324/000000000000/orders","MessageBody":"hi"})";
    request.origin = QStringLiteral("127.0.0.1:50000");
    protocol::RequestSummary summary;
    summary.protocol = protocol::WireProtocol::SqsJson;
    summary.operation = QStringLiteral("SendMessage");
    summary.queue = QStringLiteral("orders");
    summary.succeeded = 1;
    TrafficRecord record = arrival(request, summary, 1'700'000'000'123, 42, false);
    protocol::HttpResponse response;
    response.contentType = "application/x-amz-json-1.0";
    response.headers = {{"x-amzn-RequestId", "req-1"}};
    response.body = R"({"MessageId":"m-1"})";
    answered(record, response, summary, 1500);
    return record;
}

// The members HAR 1.2 requires of every object it names, with their JSON types.
void expectMembers(const Json& object,
                   std::initializer_list<std::pair<const char*, Json::value_t>> members)
{
    for (const auto& [name, type] : members) {
        ASSERT_TRUE(object.contains(name)) << name << " missing in " << object.dump();
        const Json::value_t actual = object.at(name).type();
        const bool number = type == Json::value_t::number_integer
            && (actual == Json::value_t::number_unsigned || actual == Json::value_t::number_float);
        EXPECT_TRUE(actual == type || number) << name << " in " << object.dump();
    }
}

TEST(HarDocument, hasEveryFieldHar12Requires)
{
    TrafficLog log;
    log.add(sendMessage());
    const Json har = harDocument(log.after(0, 10), QStringLiteral("0.1.0"));
    using T = Json::value_t;
    const Json& root = har.at("log");
    expectMembers(root, {{"version", T::string}, {"creator", T::object}, {"entries", T::array}});
    EXPECT_EQ(root.at("version"), "1.2");
    expectMembers(root.at("creator"), {{"name", T::string}, {"version", T::string}});
    ASSERT_EQ(root.at("entries").size(), 1u);
    const Json& entry = root.at("entries")[0];
    expectMembers(entry,
                  {{"startedDateTime", T::string},
                   {"time", T::number_integer},
                   {"request", T::object},
                   {"response", T::object},
                   {"cache", T::object},
                   {"timings", T::object}});
    EXPECT_EQ(entry.at("startedDateTime"), "2023-11-14T22:13:20.123Z");
    const Json& request = entry.at("request");
    expectMembers(request,
                  {{"method", T::string},
                   {"url", T::string},
                   {"httpVersion", T::string},
                   {"cookies", T::array},
                   {"headers", T::array},
                   {"queryString", T::array},
                   {"headersSize", T::number_integer},
                   {"bodySize", T::number_integer}});
    EXPECT_EQ(request.at("url"), "http://127.0.0.1:9324/?a=1&b=x%20y");
    EXPECT_EQ(request.at("queryString")[1], Json({{"name", "b"}, {"value", "x y"}}));
    expectMembers(request.at("headers")[0], {{"name", T::string}, {"value", T::string}});
    expectMembers(request.at("postData"), {{"mimeType", T::string}, {"text", T::string}});
    const Json& response = entry.at("response");
    expectMembers(response,
                  {{"status", T::number_integer},
                   {"statusText", T::string},
                   {"httpVersion", T::string},
                   {"cookies", T::array},
                   {"headers", T::array},
                   {"content", T::object},
                   {"redirectURL", T::string},
                   {"headersSize", T::number_integer},
                   {"bodySize", T::number_integer}});
    EXPECT_EQ(response.at("status"), 200);
    expectMembers(response.at("content"), {{"size", T::number_integer}, {"mimeType", T::string}});
    EXPECT_EQ(response.at("content").at("text"), R"({"MessageId":"m-1"})");
    expectMembers(
        entry.at("timings"),
        {{"send", T::number_integer}, {"wait", T::number_integer}, {"receive", T::number_integer}});
    EXPECT_DOUBLE_EQ(entry.at("time").get<double>(), 1.5);
}

TEST(RecordJson, carriesTheClientOperationAndOutcome)
{
    const Json json = recordJson(sendMessage());
    EXPECT_EQ(json.at("operation"), "SendMessage");
    EXPECT_EQ(json.at("queue"), "orders");
    EXPECT_EQ(json.at("protocol"), "sqs-json");
    EXPECT_EQ(json.at("status"), 200);
    EXPECT_EQ(json.at("outcome"), "sent 1");
    EXPECT_EQ(json.at("requestId"), "req-1");
    EXPECT_EQ(json.at("engineTime"), 42);
    EXPECT_EQ(json.at("latencyUs"), 1500);
    EXPECT_EQ(json.at("client").at("sdk"), "aws-sdk-js");
    EXPECT_EQ(json.at("client").at("key"), "aws-sdk-js@127.0.0.1");
    EXPECT_EQ(json.at("response").at("body"), R"({"MessageId":"m-1"})");
}

TEST(RecordJson, putsABodyThatIsNotUtf8InBase64)
{
    TrafficRecord record = sendMessage();
    record.responseBody = QByteArray("\xff\xfe", 2);
    const Json json = recordJson(record);
    EXPECT_EQ(json.at("response").at("body"), "//4=");
    EXPECT_EQ(json.at("response").at("encoding"), "base64");
}

} // namespace
} // namespace inflight::traffic
