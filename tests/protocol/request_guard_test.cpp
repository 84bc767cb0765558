// RequestGuard: who may use the endpoint (request_guard.h), checked on requests as browsers and
// SDKs send them, before any codec sees them.
#include "protocol/credentials.h"
#include "protocol/request_guard.h"

#include <gtest/gtest.h>

#include <memory>

namespace inflight::protocol {
namespace {

HttpRequest request(QByteArray method, QByteArray path,
                    QList<QPair<QByteArray, QByteArray>> headers, QByteArray query = {},
                    QByteArray body = {})
{
    HttpRequest r;
    r.method = std::move(method);
    r.path = std::move(path);
    r.query = std::move(query);
    r.headers = std::move(headers);
    r.body = std::move(body);
    return r;
}

HttpRequest queryPost(QList<QPair<QByteArray, QByteArray>> extra = {},
                      QByteArray type = "application/x-www-form-urlencoded")
{
    QList<QPair<QByteArray, QByteArray>> headers
        = {{"Host", "127.0.0.1:9324"}, {"Content-Type", type}};
    headers += extra;
    return request("POST", "/", headers, {}, "Action=CreateQueue&QueueName=q");
}

// The guard answered the request itself, with a refusal (an admitted request's check is ok).
bool refused(const Admission& admission)
{
    return !admission && (admission.error().status == 403 || admission.error().status == 401);
}

TEST(RequestGuard, LetsSdkRequestsThrough)
{
    const RequestGuard guard;
    EXPECT_TRUE(guard.check(queryPost()));
    EXPECT_TRUE(guard.check(request("POST", "/",
                                    {{"Host", "localhost:9324"},
                                     {"X-Amz-Target", "AmazonSQS.ListQueues"},
                                     {"Content-Type", "application/x-amz-json-1.0"},
                                     {"User-Agent", "aws-sdk-js/3.901.0 ua/2.1 os/linux"}},
                                    {}, "{}")));
    EXPECT_TRUE(guard.check(request("GET", "/20210201/queues/jobs/messages",
                                    {{"Host", "127.0.0.1"}, {"User-Agent", "curl/7.88.1"}})));
    EXPECT_TRUE(guard.check(request("GET", "/", {}, "Action=ListQueues"))) << "HTTP/1.0, no Host";
}

TEST(RequestGuard, HostMustNameTheEndpoint)
{
    const RequestGuard guard;
    for (const QByteArray host : {"127.0.0.1:9324", "127.1.2.3", "localhost", "LocalHost.:80",
                                  "api.localhost:9324", "[::1]:9324", "[::ffff:127.0.0.1]"})
        EXPECT_TRUE(guard.check(request("GET", "/", {{"Host", host}}, "Action=ListQueues")))
            << host.constData();
    for (const QByteArray host : {"evil.example", "evil.example:9324", "127.0.0.1.evil.example",
                                  "localhost.evil.example", "10.0.0.5:9324", "[2001:db8::1]", ""}) {
        const auto answer = guard.check(request("GET", "/", {{"Host", host}}, "Action=ListQueues"));
        EXPECT_TRUE(refused(answer)) << host.constData();
    }
    const auto answer = guard.check(request("GET", "/", {{"Host", "evil.example"}}));
    ASSERT_FALSE(answer);
    EXPECT_EQ(answer.error().status, 403);
    EXPECT_NE(answer.error().body.indexOf("<Code>AccessDenied</Code>"), -1);
    EXPECT_NE(answer.error().body.indexOf("--allow-host evil.example"), -1);
}

TEST(RequestGuard, OwnAndAllowedHosts)
{
    AccessPolicy policy;
    policy.ownHosts = {QStringLiteral("workstation")};
    policy.allowedHosts = {QStringLiteral("inflight.docker")};
    const RequestGuard guard(policy);
    EXPECT_TRUE(guard.check(request("GET", "/", {{"Host", "WorkStation:9324"}})));
    EXPECT_TRUE(guard.check(request("GET", "/", {{"Host", "inflight.docker:9324"}})));
    EXPECT_TRUE(refused(guard.check(request("GET", "/", {{"Host", "10.0.0.5:9324"}}))));

    policy.anyAddressIsOwn = true; // listening on 0.0.0.0: any address of the machine
    EXPECT_TRUE(RequestGuard(policy).check(request("GET", "/", {{"Host", "10.0.0.5:9324"}})));
    EXPECT_TRUE(refused(RequestGuard(policy).check(request("GET", "/", {{"Host", "evil.io"}}))));

    policy.allowedHosts = {QStringLiteral("*")};
    EXPECT_TRUE(RequestGuard(policy).check(request("GET", "/", {{"Host", "evil.io"}})));
}

TEST(RequestGuard, RefusesPagesOfOtherOrigins)
{
    const RequestGuard guard;
    EXPECT_TRUE(refused(guard.check(queryPost({{"Origin", "http://127.0.0.1:8000"}}))));
    EXPECT_TRUE(refused(guard.check(queryPost({{"Origin", "null"}}))));
    EXPECT_TRUE(refused(guard.check(queryPost({{"Origin", "http://127.0.0.1:93240"}}))));
    // The endpoint's own origin (same-origin POSTs carry it).
    EXPECT_TRUE(guard.check(queryPost({{"Origin", "http://127.0.0.1:9324"}})));
}

TEST(RequestGuard, RefusesCrossSiteAndSameSiteFetchesWithoutOrigin)
{
    const RequestGuard guard;
    for (const QByteArray site : {"cross-site", "same-site", "Cross-Site"})
        EXPECT_TRUE(refused(
            guard.check(request("GET", "/", {{"Host", "127.0.0.1:9324"}, {"Sec-Fetch-Site", site}},
                                "Action=ListQueues"))))
            << site.constData();
    // Typed into the address bar: a user reading their own queues.
    EXPECT_TRUE(guard.check(request(
        "GET", "/",
        {{"Host", "127.0.0.1:9324"}, {"Sec-Fetch-Site", "none"}, {"User-Agent", "Mozilla/5.0"}},
        "Action=ListQueues")));
}

TEST(RequestGuard, RefusesQueryBodiesAPageCanSendWithoutAPreflight)
{
    const RequestGuard guard;
    EXPECT_TRUE(refused(guard.check(queryPost({}, "text/plain"))));
    EXPECT_TRUE(refused(guard.check(queryPost({}, "text/plain;charset=UTF-8"))));
    EXPECT_TRUE(refused(guard.check(queryPost({}, "multipart/form-data; boundary=x"))));
    EXPECT_TRUE(guard.check(queryPost({}, "application/x-www-form-urlencoded; charset=utf-8")));
}

TEST(RequestGuard, RefusesBrowserGetsThatChangeQueues)
{
    const RequestGuard guard;
    const QList<QPair<QByteArray, QByteArray>> browser
        = {{"Host", "127.0.0.1:9324"}, {"User-Agent", "Mozilla/5.0 (X11; Linux x86_64)"}};
    for (const QByteArray query : {"Action=CreateQueue&QueueName=x", "Action=ReceiveMessage",
                                   "QueueName=x&Action=Delete%51ueue", "Action=PurgeQueue"})
        EXPECT_TRUE(refused(guard.check(request("GET", "/", browser, query)))) << query.constData();
    for (const QByteArray query : {"Action=ListQueues", "Action=GetQueueAttributes&QueueUrl=x"})
        EXPECT_TRUE(guard.check(request("GET", "/", browser, query))) << query.constData();
    // The same GET from curl is an SDK-style request and goes through.
    EXPECT_TRUE(
        guard.check(request("GET", "/", {{"Host", "127.0.0.1"}, {"User-Agent", "curl/7.88.1"}},
                            "Action=CreateQueue&QueueName=x")));
    // OCI GetMessages receives; a browser's GET of it is refused in OCI's terms.
    const auto oci = guard.check(request("GET", "/20210201/queues/jobs/messages", browser));
    ASSERT_FALSE(oci);
    EXPECT_EQ(oci.error().status, 401);
    EXPECT_NE(oci.error().body.indexOf("NotAuthenticated"), -1);
    EXPECT_TRUE(guard.check(request("GET", "/20210201/queues/jobs/stats", browser)));
}

// Node's fetch (undici), Deno's and Bun's send `sec-fetch-mode: cors` on every request, with their
// own User-Agent and no Sec-Fetch-Site or Origin: programs, not pages. Their GetMessages and
// mutating Query GETs go through; a browser's, which always adds Sec-Fetch-Site, do not.
TEST(RequestGuard, LetsNodeDenoAndBunFetchThrough)
{
    const RequestGuard guard;
    for (const QByteArray agent : {"node", "undici", "Deno/1.46.3", "Bun/1.1.29"}) {
        // undici's headers, exactly as it sends them for a fetch without options.
        const QList<QPair<QByteArray, QByteArray>> fetch = {{"host", "127.0.0.1:9324"},
                                                            {"connection", "keep-alive"},
                                                            {"accept", "*/*"},
                                                            {"accept-language", "*"},
                                                            {"sec-fetch-mode", "cors"},
                                                            {"user-agent", agent},
                                                            {"accept-encoding", "gzip, deflate"}};
        EXPECT_TRUE(guard.check(
            request("GET", "/20210201/queues/jobs/messages", fetch, "timeoutInSeconds=0")))
            << agent.constData();
        EXPECT_TRUE(guard.check(request("GET", "/", fetch, "Action=CreateQueue&QueueName=x")))
            << agent.constData();
    }
    // A page's fetch carries Sec-Fetch-Site (and its browser's User-Agent): still refused.
    const QList<QPair<QByteArray, QByteArray>> page = {{"Host", "127.0.0.1:9324"},
                                                       {"Sec-Fetch-Mode", "cors"},
                                                       {"Sec-Fetch-Site", "same-origin"},
                                                       {"User-Agent", "Mozilla/5.0 (X11)"}};
    EXPECT_TRUE(refused(guard.check(request("GET", "/20210201/queues/jobs/messages", page))));
    // Sec-Fetch-Site alone, without a browser's User-Agent, still marks a browser.
    const QList<QPair<QByteArray, QByteArray>> site
        = {{"Host", "127.0.0.1:9324"}, {"Sec-Fetch-Site", "none"}, {"Sec-Fetch-Mode", "navigate"}};
    EXPECT_TRUE(refused(guard.check(request("GET", "/20210201/queues/jobs/messages", site))));
}

TEST(RequestGuard, AnAllowedOriginGetsItsPreflightAndCorsHeaders)
{
    AccessPolicy policy;
    policy.allowedOrigins = {QStringLiteral("http://localhost:3000")};
    const RequestGuard guard(policy);
    const auto preflight
        = guard.check(request("OPTIONS", "/",
                              {{"Host", "127.0.0.1:9324"},
                               {"Origin", "http://localhost:3000"},
                               {"Access-Control-Request-Method", "POST"},
                               {"Access-Control-Request-Headers", "content-type,x-amz-target"}}));
    ASSERT_FALSE(preflight);
    EXPECT_EQ(preflight.error().status, 204);
    EXPECT_EQ(preflight.error().header("access-control-allow-origin"), "http://localhost:3000");
    EXPECT_EQ(preflight.error().header("access-control-allow-headers"),
              "content-type,x-amz-target");

    const HttpRequest post = queryPost({{"Origin", "http://localhost:3000"},
                                        {"User-Agent", "Mozilla/5.0"},
                                        {"Sec-Fetch-Site", "same-site"}});
    EXPECT_TRUE(guard.check(post));
    HttpResponse response;
    guard.decorate(post, response);
    EXPECT_EQ(response.header("access-control-allow-origin"), "http://localhost:3000");
    EXPECT_NE(response.header("access-control-expose-headers").indexOf("x-amzn-RequestId"), -1);

    // Other origins still get nothing, preflight included.
    HttpResponse other;
    guard.decorate(queryPost({{"Origin", "http://evil.example"}}), other);
    EXPECT_TRUE(other.header("access-control-allow-origin").isNull());
    EXPECT_TRUE(refused(guard.check(request("OPTIONS", "/",
                                            {{"Host", "127.0.0.1"},
                                             {"Origin", "http://evil.example"},
                                             {"Access-Control-Request-Method", "POST"}}))));
}

TEST(RequestGuard, QuotesAtMostABoundedPartOfWhatTheClientSent)
{
    const RequestGuard guard;
    const QByteArray origin = "http://" + QByteArray(100'000, 'a') + ".example";
    const auto answer = guard.check(queryPost({{"Origin", origin}}));
    ASSERT_FALSE(answer);
    EXPECT_LT(answer.error().body.size(), 2000);
}

TEST(RequestGuard, WithCredentialsSqsRequestsMustBeSignedButOciNeedNot)
{
    auto keys = std::make_shared<CredentialStore>();
    keys->add("AKIDEXAMPLE", "secret");
    AccessPolicy policy;
    policy.credentials = keys;
    const RequestGuard guard(policy);
    const auto unsigned_ = guard.check(queryPost());
    ASSERT_FALSE(unsigned_);
    EXPECT_EQ(unsigned_.error().status, 403);
    EXPECT_NE(unsigned_.error().body.indexOf("<Code>MissingAuthenticationToken</Code>"), -1);
    const auto json = guard.check(request("POST", "/",
                                          {{"Host", "127.0.0.1"},
                                           {"X-Amz-Target", "AmazonSQS.ListQueues"},
                                           {"Content-Type", "application/x-amz-json-1.0"}},
                                          {}, "{}"));
    ASSERT_FALSE(json);
    EXPECT_EQ(json.error().header("x-amzn-query-error"), "MissingAuthenticationToken;Sender");
    EXPECT_TRUE(
        guard.check(request("GET", "/20210201/queues/jobs/stats", {{"Host", "127.0.0.1"}})));
}

TEST(HostOfHeader, DropsPortBracketsAndTheFinalDot)
{
    EXPECT_EQ(hostOfHeader("LocalHost.:9324"), QStringLiteral("localhost"));
    EXPECT_EQ(hostOfHeader("[::1]:9324"), QStringLiteral("::1"));
    EXPECT_EQ(hostOfHeader("::1"), QStringLiteral("::1"));
    EXPECT_EQ(hostOfHeader(" 127.0.0.1 "), QStringLiteral("127.0.0.1"));
}

} // namespace
} // namespace inflight::protocol
