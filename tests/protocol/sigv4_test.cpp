// AWS Signature Version 4 as the SQS endpoint checks it: AWS's published test-suite vectors,
// requests signed by real clients (botocore, the AWS JS SDK v3), and every way a request can fail,
// with the code and message AWS answers.
#include "protocol/sigv4.h"

#include <gtest/gtest.h>

#include <chrono>
#include <initializer_list>
#include <string>
#include <utility>

namespace inflight::protocol {
namespace {

using Headers = std::initializer_list<std::pair<const char*, const char*>>;

HttpRequest makeRequest(const char* method, const char* path, const char* query, Headers headers,
                        const QByteArray& body = {})
{
    HttpRequest request;
    request.method = method;
    request.path = path;
    request.query = query;
    for (const auto& [name, value] : headers)
        request.headers.append({QByteArray(name), QByteArray(value)});
    request.body = body;
    return request;
}

void setHeader(HttpRequest& request, const QByteArray& name, const QByteArray& value)
{
    for (auto& [key, existing] : request.headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0) {
            existing = value;
            return;
        }
    }
    request.headers.append({name, value});
}

void removeHeader(HttpRequest& request, const QByteArray& name)
{
    request.headers.removeIf([&name](const auto& header) {
        return header.first.compare(name, Qt::CaseInsensitive) == 0;
    });
}

// 2024-01-01T12:00:00Z plus an offset: the signing time of every client fixture below.
std::chrono::system_clock::time_point newYearNoon(std::chrono::seconds offset = {})
{
    using namespace std::chrono;
    return sys_days(year(2024) / January / 1) + hours(12) + offset;
}

CredentialStore clientKeys()
{
    CredentialStore keys;
    keys.add("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    return keys;
}

std::string describe(const WireStatus& checked)
{
    if (checked)
        return "accepted";
    const SqsWireError& error = checked.error();
    return std::to_string(error.status) + " " + error.queryCode.toStdString() + ": "
        + error.message.toStdString();
}

void expectError(const WireStatus& checked, int status, const char* queryCode,
                 const char* jsonShape)
{
    ASSERT_FALSE(checked) << "accepted";
    const SqsWireError& error = checked.error();
    EXPECT_EQ(error.status, status) << describe(checked);
    EXPECT_EQ(error.queryCode.toStdString(), queryCode) << describe(checked);
    EXPECT_EQ(error.jsonShape.toStdString(), jsonShape) << describe(checked);
    EXPECT_TRUE(error.senderFault);
    EXPECT_LT(error.message.toUtf8().size(), 700) << "messages stay bounded";
}

void expectIncomplete(const WireStatus& checked, const QString& message)
{
    expectError(checked, 400, "IncompleteSignature", "IncompleteSignatureException");
    if (!checked) {
        EXPECT_EQ(checked.error().message.toStdString(), message.toStdString());
    }
}

void expectMismatch(const WireStatus& checked, const QString& message)
{
    expectError(checked, 403, "SignatureDoesNotMatch", "InvalidSignatureException");
    if (!checked) {
        EXPECT_EQ(checked.error().message.toStdString(), message.toStdString());
    }
}

const QString kMismatch = QStringLiteral(
    "The request signature we calculated does not match the signature you provided. Check your "
    "AWS Secret Access Key and signing method. Consult the service documentation for details.");

// ---- AWS's SigV4 test suite (aws-sig-v4-test-suite, 2015-08-30) ---------------------------
// Key AKIDEXAMPLE / wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, us-east-1, service "service",
// 20150830T123600Z. Each expected signature is the suite's, and botocore 1.29 computes the same.

struct SuiteVector {
    const char* name;
    const char* method;
    const char* path; // as the suite's request line has it (not percent-encoded)
    const char* query;
    std::vector<std::pair<const char*, const char*>> headers; // besides Host and X-Amz-Date
    const char* body;
    const char* signedHeaders;
    const char* signature;
};

void PrintTo(const SuiteVector& v, std::ostream* os)
{
    *os << v.name;
}

class AwsTestSuite : public ::testing::TestWithParam<SuiteVector> {};

TEST_P(AwsTestSuite, signatureIsAccepted)
{
    const SuiteVector& v = GetParam();
    HttpRequest request = makeRequest(
        v.method, v.path, v.query,
        {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", "20150830T123600Z"}}, v.body);
    for (const auto& [name, value] : v.headers)
        request.headers.append({QByteArray(name), QByteArray(value)});
    request.headers.append(
        {QByteArray("Authorization"),
         QByteArray("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/"
                    "aws4_request, SignedHeaders=")
             + v.signedHeaders + ", Signature=" + v.signature});
    CredentialStore keys;
    keys.add("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
    using namespace std::chrono;
    const auto now = sys_days(year(2015) / August / 30) + hours(12) + minutes(36);
    EXPECT_EQ(describe(checkSignature(request, keys, now)), "accepted");
}

constexpr const char* kVanilla = "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31";
constexpr const char* kPlain = "host;x-amz-date";

INSTANTIATE_TEST_SUITE_P(
    Vectors, AwsTestSuite,
    ::testing::Values(
        SuiteVector{"get-vanilla", "GET", "/", "", {}, "", kPlain, kVanilla},
        SuiteVector{"get-vanilla-query", "GET", "/", "", {}, "", kPlain, kVanilla},
        SuiteVector{"get-vanilla-query-order-key-case",
                    "GET",
                    "/",
                    "Param2=value2&Param1=value1",
                    {},
                    "",
                    kPlain,
                    "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"},
        SuiteVector{"get-vanilla-empty-query-key",
                    "GET",
                    "/",
                    "Param1=value1",
                    {},
                    "",
                    kPlain,
                    "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb"},
        SuiteVector{"get-vanilla-query-unreserved",
                    "GET",
                    "/",
                    "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz=-._~"
                    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz",
                    {},
                    "",
                    kPlain,
                    "c0e2549664ab6caf8a0e49ec520df161cca33ec1de41067db4994a4467d458ff"},
        SuiteVector{"get-vanilla-utf8-query",
                    "GET",
                    "/",
                    "\xE1\x88\xB4=bar",
                    {},
                    "",
                    kPlain,
                    "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"},
        SuiteVector{"get-utf8",
                    "GET",
                    "/\xE1\x88\xB4",
                    "",
                    {},
                    "",
                    kPlain,
                    "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"},
        SuiteVector{"get-space",
                    "GET",
                    "/example space/",
                    "",
                    {},
                    "",
                    kPlain,
                    "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741"},
        SuiteVector{"normalize-path/get-slash", "GET", "//", "", {}, "", kPlain, kVanilla},
        SuiteVector{
            "normalize-path/get-slash-dot-slash", "GET", "/./", "", {}, "", kPlain, kVanilla},
        SuiteVector{"normalize-path/get-relative-relative",
                    "GET",
                    "/example1/example2/../..",
                    "",
                    {},
                    "",
                    kPlain,
                    kVanilla},
        SuiteVector{"normalize-path/get-slashes",
                    "GET",
                    "//example//",
                    "",
                    {},
                    "",
                    kPlain,
                    "9a624bd73a37c9a373b5312afbebe7a714a789de108f0bdfe846570885f57e84"},
        SuiteVector{"get-header-value-trim",
                    "GET",
                    "/",
                    "",
                    {{"My-Header1", " value1 "}, {"My-Header2", "\"a   b   c\""}},
                    "",
                    "host;my-header1;my-header2;x-amz-date",
                    "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"},
        SuiteVector{"get-header-key-duplicate",
                    "GET",
                    "/",
                    "",
                    {{"My-Header1", "value2"}, {"My-Header1", "value2"}, {"My-Header1", "value1"}},
                    "",
                    "host;my-header1;x-amz-date",
                    "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"},
        SuiteVector{"post-vanilla",
                    "POST",
                    "/",
                    "",
                    {},
                    "",
                    kPlain,
                    "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"},
        SuiteVector{"post-vanilla-query",
                    "POST",
                    "/",
                    "Param1=value1",
                    {},
                    "",
                    kPlain,
                    "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11"},
        SuiteVector{"post-x-www-form-urlencoded",
                    "POST",
                    "/",
                    "",
                    {{"Content-Type", "application/x-www-form-urlencoded"}},
                    "Param1=value1",
                    "content-type;host;x-amz-date",
                    "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"},
        SuiteVector{"post-x-www-form-urlencoded-parameters",
                    "POST",
                    "/",
                    "",
                    {{"Content-Type", "application/x-www-form-urlencoded; charset=utf8"}},
                    "Param1=value1",
                    "content-type;host;x-amz-date",
                    "1a72ec8f64bd914b0e42e42607c7fbce7fb2c7465f63e3092b3b0d39fa77a6fe"}));

// ---- requests signed by real clients ------------------------------------------------------
// Key AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY at 20240101T120000Z.
//
// botocore 1.29.27 (Debian's python3-botocore), with botocore.auth.datetime.datetime.utcnow
// patched to return 2024-01-01 12:00:00:
//   req = AWSRequest(method=..., url=..., data=..., headers=...)
//   SigV4Auth(Credentials(key, secret), 'sqs', region).add_auth(req)        # header form
//   SigV4QueryAuth(Credentials(key, secret), 'sqs', region, expires=900).add_auth(req)
//   print(req.prepare().url, req.prepare().headers)
// botocore signs `host` from the URL and leaves the Host header to the HTTP client; the fixtures
// carry it as the client sends it.

HttpRequest botocoreQueryPost()
{
    return makeRequest(
        "POST", "/", "",
        {{"Host", "localhost:9324"},
         {"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"},
         {"X-Amz-Date", "20240101T120000Z"},
         {"Authorization",
          "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20240101/us-east-1/sqs/aws4_request, "
          "SignedHeaders=content-type;host;x-amz-date, "
          "Signature=acad87c4602eeda9c1896322cf094917e7f8351a6ab5db5c901e9ef1b364b5d3"},
         {"Content-Length", "126"},
         {"User-Agent", "Boto3/1.26.27 Python/3.11.2 Linux/6.1 Botocore/1.29.27"}},
        "Action=SendMessage&MessageBody=hello%20world&QueueUrl=http%3A%2F%2Flocalhost%3A9324%"
        "2F000000000000%2Forders&Version=2012-11-05");
}

HttpRequest botocoreJsonPost()
{
    return makeRequest(
        "POST", "/", "",
        {{"Host", "localhost:9324"},
         {"X-Amz-Target", "AmazonSQS.SendMessage"},
         {"Content-Type", "application/x-amz-json-1.0"},
         {"X-Amz-Date", "20240101T120000Z"},
         {"Authorization",
          "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20240101/eu-west-1/sqs/aws4_request, "
          "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
          "Signature=31b8e4386f918dc064d351acd94991c68492b715162964d82e81d0c1d880022d"},
         {"Content-Length", "78"}},
        R"({"QueueUrl": "http://localhost:9324/000000000000/orders", "MessageBody": "hi"})");
}

// SigV4QueryAuth, expires=900, of GET .../000000000000/orders?Action=GetQueueAttributes&...
HttpRequest botocorePresigned()
{
    return makeRequest(
        "GET", "/000000000000/orders",
        "Action=GetQueueAttributes&AttributeName.1=All&Version=2012-11-05&X-Amz-Algorithm=AWS4-"
        "HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20240101%2Fus-east-1%2Fsqs%"
        "2Faws4_request&X-Amz-Date=20240101T120000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-"
        "Amz-Signature=61fa9f12779341de26e9c7af345235d0041423379edb41d983869bf2191e6612",
        {{"Host", "localhost:9324"}});
}

// GET http://localhost:9324/000000000000/a%20b/./x/../orders//?Action=ListQueues&...: botocore
// signs the path as "/000000000000/a%2520b/orders/" (dot segments and empty segments removed,
// then encoded again) and the query as sent.
HttpRequest botocoreOddPath()
{
    return makeRequest(
        "GET", "/000000000000/a%20b/./x/../orders//", "Action=ListQueues&QueueNamePrefix=a%2Bb%20c",
        {{"Host", "localhost:9324"},
         {"X-Amz-Date", "20240101T120000Z"},
         {"Authorization",
          "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20240101/us-east-1/sqs/aws4_request, "
          "SignedHeaders=host;x-amz-date, "
          "Signature=f025a11b2f079990c2a99a8516fbe5e19379d4287182cf9f46b96f5049f6131c"}});
}

// botocore's canonical_request / string_to_sign / signature on a request that has a Date header
// and no X-Amz-Date (request.context['timestamp'] = '20240101T120000Z').
HttpRequest botocoreDateHeader()
{
    return makeRequest(
        "POST", "/", "",
        {{"Host", "localhost:9324"},
         {"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"},
         {"Date", "Mon, 01 Jan 2024 12:00:00 GMT"},
         {"Authorization",
          "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20240101/us-east-1/sqs/aws4_request, "
          "SignedHeaders=content-type;date;host, "
          "Signature=2819f4969ca99af4209234a1a2f2f34c51bcbfc0c3665dd48e879deba3a47ca1"}},
        "Action=ListQueues&Version=2012-11-05");
}

// @smithy/signature-v4 5.7.5 (what @aws-sdk/client-sqs 3.x signs with), Sha256 from
// @aws-crypto/sha256-js: new SignatureV4({credentials, region: "us-east-1", service: "sqs",
// sha256}).sign(new HttpRequest({...}), {signingDate: new Date(Date.UTC(2024, 0, 1, 12))}), with
// the headers the SDK's middleware stack sets before signing. It adds x-amz-content-sha256 itself
// and leaves user-agent unsigned.
HttpRequest jsSdkJsonPost()
{
    return makeRequest(
        "POST", "/", "",
        {{"content-type", "application/x-amz-json-1.0"},
         {"x-amz-target", "AmazonSQS.ReceiveMessage"},
         {"x-amz-query-mode", "true"},
         {"content-length", "81"},
         {"host", "localhost:9324"},
         {"user-agent", "aws-sdk-js/3.901.0"},
         {"amz-sdk-invocation-id", "0b7a2f53-2f8e-4b9e-9d8e-1e4c9a3b2c1d"},
         {"amz-sdk-request", "attempt=1; max=3"},
         {"x-amz-date", "20240101T120000Z"},
         {"x-amz-content-sha256",
          "3ca97950a1f08e3c93bd66bff6e2d9e2581d8375f9adfa13c3fdb0788a1f67d5"},
         {"authorization",
          "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20240101/us-east-1/sqs/aws4_request, "
          "SignedHeaders=amz-sdk-invocation-id;amz-sdk-request;content-length;content-type;host;x-"
          "amz-content-sha256;x-amz-date;x-amz-query-mode;x-amz-target, "
          "Signature=3b8252f93816329d4041174747ad03352ef2c0c66f132bf26a0debdbc14e4528"}},
        R"({"QueueUrl":"http://localhost:9324/000000000000/orders","MaxNumberOfMessages":10})");
}

// signer.presign(GET /000000000000/orders?Action=GetQueueUrl&..., {signingDate, expiresIn: 300}),
// the query as @smithy/querystring-builder's buildQueryString writes it.
HttpRequest jsSdkPresigned()
{
    return makeRequest(
        "GET", "/000000000000/orders",
        "Action=GetQueueUrl&QueueName=orders&Version=2012-11-05&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-"
        "Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20240101%2Fus-east-1%2Fsqs%2Faws4_request&X-Amz-"
        "Date="
        "20240101T120000Z&X-Amz-Expires=300&X-Amz-Signature="
        "88e7bc6ddd33a5fa0107c9a4b66418f6e027f1c47fe53d0a3ac85f280fff678f&X-Amz-SignedHeaders=host",
        {{"host", "localhost:9324"}});
}

TEST(Sigv4Clients, botocoreQueryPostIsAccepted)
{
    EXPECT_EQ(describe(checkSignature(botocoreQueryPost(), clientKeys(), newYearNoon())),
              "accepted");
}

TEST(Sigv4Clients, botocoreJsonPostIsAcceptedWhateverTheRegion)
{
    EXPECT_EQ(describe(checkSignature(botocoreJsonPost(), clientKeys(), newYearNoon())),
              "accepted");
}

TEST(Sigv4Clients, botocorePresignedUrlIsAccepted)
{
    EXPECT_EQ(describe(checkSignature(botocorePresigned(), clientKeys(), newYearNoon())),
              "accepted");
}

TEST(Sigv4Clients, botocorePathIsNormalizedThenEncodedAgain)
{
    EXPECT_EQ(describe(checkSignature(botocoreOddPath(), clientKeys(), newYearNoon())), "accepted");
}

TEST(Sigv4Clients, dateHeaderStandsInForXAmzDate)
{
    EXPECT_EQ(describe(checkSignature(botocoreDateHeader(), clientKeys(), newYearNoon())),
              "accepted");
}

TEST(Sigv4Clients, jsSdkJsonPostIsAccepted)
{
    EXPECT_EQ(describe(checkSignature(jsSdkJsonPost(), clientKeys(), newYearNoon())), "accepted");
}

TEST(Sigv4Clients, jsSdkPresignedUrlIsAccepted)
{
    EXPECT_EQ(describe(checkSignature(jsSdkPresigned(), clientKeys(), newYearNoon())), "accepted");
}

TEST(Sigv4Clients, unsignedHeadersMayChange)
{
    HttpRequest request = botocoreQueryPost();
    setHeader(request, "User-Agent", "something else");
    request.headers.append({QByteArray("X-Forwarded-For"), QByteArray("10.0.0.1")});
    EXPECT_EQ(describe(checkSignature(request, clientKeys(), newYearNoon())), "accepted");
}

TEST(Sigv4Clients, thousandsOfUnsignedHeadersStillVerify)
{
    HttpRequest request = botocoreQueryPost();
    for (int i = 0; i < 10000; ++i)
        request.headers.append({"X-Extra-" + QByteArray::number(i), QByteArray("v")});
    EXPECT_EQ(describe(checkSignature(request, clientKeys(), newYearNoon())), "accepted");
}

// ---- who signed -------------------------------------------------------------------------

TEST(Sigv4Keys, wrongSecretDoesNotMatch)
{
    CredentialStore keys;
    keys.add("AKIAIOSFODNN7EXAMPLE", "not-the-secret");
    expectMismatch(checkSignature(botocoreQueryPost(), keys, newYearNoon()), kMismatch);
    expectMismatch(checkSignature(jsSdkPresigned(), keys, newYearNoon()), kMismatch);
}

TEST(Sigv4Keys, unknownAccessKeyIsAnInvalidClientToken)
{
    CredentialStore keys;
    keys.add("AKIDSOMEONEELSE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    const WireStatus checked = checkSignature(botocoreQueryPost(), keys, newYearNoon());
    expectError(checked, 403, "InvalidClientTokenId", "UnrecognizedClientException");
    EXPECT_EQ(checked.error().message,
              QStringLiteral("The security token included in the request is invalid."));
}

TEST(Sigv4Keys, noSignatureAtAllIsAMissingToken)
{
    HttpRequest request = botocoreQueryPost();
    removeHeader(request, "Authorization");
    const WireStatus checked = checkSignature(request, clientKeys(), newYearNoon());
    expectError(checked, 403, "MissingAuthenticationToken", "MissingAuthenticationTokenException");
    EXPECT_EQ(checked.error().message, QStringLiteral("Request is missing Authentication Token"));
}

// ---- what was signed ----------------------------------------------------------------------

TEST(Sigv4Tampering, changedBodyDoesNotMatch)
{
    HttpRequest request = botocoreQueryPost();
    request.body.replace("hello", "HELLO");
    expectMismatch(checkSignature(request, clientKeys(), newYearNoon()), kMismatch);
}

TEST(Sigv4Tampering, changedSignedHeaderDoesNotMatch)
{
    HttpRequest request = botocoreJsonPost();
    setHeader(request, "X-Amz-Target", "AmazonSQS.DeleteQueue");
    expectMismatch(checkSignature(request, clientKeys(), newYearNoon()), kMismatch);
}

TEST(Sigv4Tampering, changedPathOrMethodDoesNotMatch)
{
    HttpRequest path = botocoreQueryPost();
    path.path = "/000000000000/orders";
    expectMismatch(checkSignature(path, clientKeys(), newYearNoon()), kMismatch);
    HttpRequest method = botocoreQueryPost();
    method.method = "PUT";
    expectMismatch(checkSignature(method, clientKeys(), newYearNoon()), kMismatch);
}

TEST(Sigv4Tampering, bodyThatIsNotTheDeclaredHashIsRefused)
{
    HttpRequest request = jsSdkJsonPost();
    request.body.replace("10", "1");
    expectMismatch(
        checkSignature(request, clientKeys(), newYearNoon()),
        QStringLiteral(
            "The provided 'x-amz-content-sha256' header does not match what was computed."));
}

TEST(Sigv4Tampering, declaredHashMustBeAHashOrUnsignedPayload)
{
    HttpRequest request = jsSdkJsonPost();
    setHeader(request, "x-amz-content-sha256", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD");
    expectIncomplete(checkSignature(request, clientKeys(), newYearNoon()),
                     QStringLiteral("x-amz-content-sha256 must be UNSIGNED-PAYLOAD or the hex "
                                    "SHA-256 of the body, not "
                                    "'STREAMING-AWS4-HMAC-SHA256-PAYLOAD'."));
}

TEST(Sigv4Tampering, unsignedPayloadIsSignedAsSuch)
{
    // The hash in the canonical request is the header's, so a client that chose UNSIGNED-PAYLOAD
    // still had to sign that choice: the JS fixture's signature covered the real hash instead.
    HttpRequest request = jsSdkJsonPost();
    setHeader(request, "x-amz-content-sha256", "UNSIGNED-PAYLOAD");
    expectMismatch(checkSignature(request, clientKeys(), newYearNoon()), kMismatch);
}

TEST(Sigv4Tampering, changedPresignedParameterDoesNotMatch)
{
    HttpRequest request = botocorePresigned();
    request.query.replace("AttributeName.1=All", "AttributeName.1=Policy");
    expectMismatch(checkSignature(request, clientKeys(), newYearNoon()), kMismatch);
}

TEST(Sigv4Tampering, changedSignatureDoesNotMatch)
{
    HttpRequest longer = botocoreQueryPost();
    setHeader(longer, "Authorization", longer.header("Authorization") + "00");
    expectMismatch(checkSignature(longer, clientKeys(), newYearNoon()), kMismatch);
    HttpRequest upper = botocoreQueryPost();
    setHeader(upper, "Authorization", upper.header("Authorization").replace("acad87", "ACAD87"));
    expectMismatch(checkSignature(upper, clientKeys(), newYearNoon()), kMismatch);
}

// ---- when it was signed -------------------------------------------------------------------

struct TimeRow {
    const char* name;
    std::chrono::seconds nowOffset; // our clock minus the signing time
    const char* error;              // empty: accepted
};

void PrintTo(const TimeRow& row, std::ostream* os)
{
    *os << row.name;
}

class Sigv4Clock : public ::testing::TestWithParam<TimeRow> {};

TEST_P(Sigv4Clock, requestTimeMustBeWithinFifteenMinutes)
{
    const TimeRow& row = GetParam();
    const WireStatus checked
        = checkSignature(botocoreQueryPost(), clientKeys(), newYearNoon(row.nowOffset));
    if (*row.error == '\0')
        EXPECT_EQ(describe(checked), "accepted");
    else
        expectMismatch(checked, QString::fromLatin1(row.error));
}

INSTANTIATE_TEST_SUITE_P(
    Boundaries, Sigv4Clock,
    ::testing::Values(
        TimeRow{"sameSecond", std::chrono::seconds(0), ""},
        TimeRow{"exactlyFifteenMinutesOld", std::chrono::minutes(15), ""},
        TimeRow{"oneSecondTooOld", std::chrono::minutes(15) + std::chrono::seconds(1),
                "Signature expired: 20240101T120000Z is now earlier than 20240101T120001Z "
                "(20240101T121501Z - 15 min.)"},
        TimeRow{"halfAnHourOld", std::chrono::minutes(30),
                "Signature expired: 20240101T120000Z is now earlier than 20240101T121500Z "
                "(20240101T123000Z - 15 min.)"},
        TimeRow{"exactlyFifteenMinutesAhead", -std::chrono::minutes(15), ""},
        TimeRow{"oneSecondTooFarAhead", -std::chrono::minutes(15) - std::chrono::seconds(1),
                "Signature not yet current: 20240101T120000Z is still later than "
                "20240101T115959Z (20240101T114459Z + 15 min.)"}));

TEST(Sigv4Clock, subSecondClockIsTruncated)
{
    const auto now = newYearNoon(std::chrono::minutes(15)) + std::chrono::milliseconds(999);
    EXPECT_EQ(describe(checkSignature(botocoreQueryPost(), clientKeys(), now)), "accepted");
}

TEST(Sigv4Clock, presignedUrlLivesForItsExpiry)
{
    using std::chrono::seconds;
    EXPECT_EQ(describe(checkSignature(jsSdkPresigned(), clientKeys(), newYearNoon(seconds(300)))),
              "accepted");
    expectMismatch(checkSignature(jsSdkPresigned(), clientKeys(), newYearNoon(seconds(301))),
                   QStringLiteral("Signature expired: 20240101T120000Z is now earlier than "
                                  "20240101T120001Z (20240101T120501Z - 5 min.)"));
    expectMismatch(checkSignature(botocorePresigned(), clientKeys(), newYearNoon(seconds(901))),
                   QStringLiteral("Signature expired: 20240101T120000Z is now earlier than "
                                  "20240101T120001Z (20240101T121501Z - 15 min.)"));
}

TEST(Sigv4Clock, scopeDateMustBeTheSigningDate)
{
    HttpRequest request = botocoreQueryPost();
    setHeader(request, "Authorization",
              request.header("Authorization").replace("/20240101/", "/20240102/"));
    expectMismatch(checkSignature(request, clientKeys(), newYearNoon()),
                   QStringLiteral("Date in Credential scope does not match YYYYMMDD from ISO-8601 "
                                  "version of date from HTTP: '20240102' != '20240101', from "
                                  "'20240101T120000Z'."));
}

TEST(Sigv4Clock, dateHeaderMustBeAnHttpDate)
{
    HttpRequest request = botocoreDateHeader();
    setHeader(request, "Date", "Monday, 01-Jan-24 12:00:00 GMT");
    expectIncomplete(checkSignature(request, clientKeys(), newYearNoon()),
                     QStringLiteral("Date must be in ISO-8601 'basic format'. Got 'Monday, "
                                    "01-Jan-24 12:00:00 GMT'. See http://en.wikipedia.org/wiki/"
                                    "ISO_8601"));
}

TEST(Sigv4Clock, xAmzDateMustBeBasicFormat)
{
    for (const char* date : {"2024-01-01T12:00:00Z", "20240101T120000", "20241301T120000Z",
                             "20240230T120000Z", "20240101T246000Z", "2024010AT120000Z"}) {
        HttpRequest request = botocoreQueryPost();
        setHeader(request, "X-Amz-Date", date);
        expectIncomplete(checkSignature(request, clientKeys(), newYearNoon()),
                         QStringLiteral("Date must be in ISO-8601 'basic format'. Got '%1'. See "
                                        "http://en.wikipedia.org/wiki/ISO_8601")
                             .arg(QLatin1String(date)));
    }
}

// ---- malformed signatures -----------------------------------------------------------------

constexpr const char* kCredential
    = "Credential=AKIAIOSFODNN7EXAMPLE/20240101/us-east-1/sqs/aws4_request";
constexpr const char* kSigned = "SignedHeaders=content-type;host;x-amz-date";
constexpr const char* kSignature
    = "Signature=acad87c4602eeda9c1896322cf094917e7f8351a6ab5db5c901e9ef1b364b5d3";

WireStatus withAuthorization(const QByteArray& authorization)
{
    HttpRequest request = botocoreQueryPost();
    setHeader(request, "Authorization", authorization);
    return checkSignature(request, clientKeys(), newYearNoon());
}

QByteArray joined(std::initializer_list<const char*> parts)
{
    QByteArray text = "AWS4-HMAC-SHA256";
    const char* separator = " ";
    for (const char* part : parts) {
        text += separator;
        text += part;
        separator = ", ";
    }
    return text;
}

// How a message quotes the Authorization header: its first 160 bytes.
QString shown(const QByteArray& header)
{
    return header.size() > 160 ? QString::fromLatin1(header.left(160)) + QStringLiteral("...")
                               : QString::fromLatin1(header);
}

TEST(Sigv4Malformed, eachMissingPartIsNamed)
{
    const QByteArray noSignature = joined({kCredential, kSigned});
    expectIncomplete(withAuthorization(noSignature),
                     QStringLiteral("Authorization header requires 'Signature' parameter. "
                                    "Authorization=")
                         + shown(noSignature));
    const QByteArray noCredential = joined({kSigned, kSignature});
    expectIncomplete(withAuthorization(noCredential),
                     QStringLiteral("Authorization header requires 'Credential' parameter. "
                                    "Authorization=")
                         + shown(noCredential));
    const QByteArray emptySignedHeaders = joined({kCredential, kSignature, "SignedHeaders="});
    expectIncomplete(withAuthorization(emptySignedHeaders),
                     QStringLiteral("Authorization header requires 'SignedHeaders' parameter. "
                                    "Authorization=")
                         + shown(emptySignedHeaders));
}

TEST(Sigv4Malformed, noDateAtAll)
{
    HttpRequest request = botocoreQueryPost();
    removeHeader(request, "X-Amz-Date");
    const WireStatus checked = checkSignature(request, clientKeys(), newYearNoon());
    expectError(checked, 400, "IncompleteSignature", "IncompleteSignatureException");
    EXPECT_TRUE(checked.error().message.startsWith(
        QStringLiteral("Authorization header requires existence of either a 'X-Amz-Date' or a "
                       "'Date' header. Authorization=AWS4-HMAC-SHA256 Credential=")))
        << describe(checked);
}

TEST(Sigv4Malformed, otherSchemesLackEveryPart)
{
    expectIncomplete(withAuthorization("Basic dXNlcjpwYXNz"),
                     QStringLiteral("Authorization header requires 'Credential' parameter. "
                                    "Authorization header requires 'Signature' parameter. "
                                    "Authorization header requires 'SignedHeaders' parameter. "
                                    "Authorization=Basic dXNlcjpwYXNz"));
}

TEST(Sigv4Malformed, otherAlgorithmIsUnsupported)
{
    expectIncomplete(
        withAuthorization(
            QByteArray(joined({kCredential, kSigned, kSignature})).replace("256", "512")),
        QStringLiteral("Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA512'."));
}

TEST(Sigv4Malformed, partWithoutEqualSign)
{
    const QByteArray header
        = "AWS4-HMAC-SHA256 Credential= AKIAIOSFODNN7EXAMPLE/20240101/us-east-1/sqs/aws4_request, "
          "SignedHeaders=content-type;host;x-amz-date, Signature=00";
    const WireStatus checked = withAuthorization(header);
    expectError(checked, 400, "IncompleteSignature", "IncompleteSignatureException");
    EXPECT_TRUE(checked.error().message.startsWith(
        QStringLiteral("'AKIAIOSFODNN7EXAMPLE/20240101/us-east-1/sqs/aws4_request' not a valid "
                       "key=value pair (missing equal-sign) in Authorization header: "
                       "'AWS4-HMAC-SHA256 Credential= AKIA")))
        << describe(checked);
}

TEST(Sigv4Malformed, credentialNeedsFiveParts)
{
    expectIncomplete(
        withAuthorization(joined(
            {"Credential=AKIAIOSFODNN7EXAMPLE/20240101/us-east-1/sqs", kSigned, kSignature})),
        QStringLiteral("Credential must have exactly 5 slash-delimited elements, e.g. "
                       "keyid/date/region/service/term, got "
                       "'AKIAIOSFODNN7EXAMPLE/20240101/us-east-1/sqs'"));
}

TEST(Sigv4Malformed, scopeMustEndInAws4Request)
{
    expectMismatch(withAuthorization(joined(
                       {"Credential=AKIAIOSFODNN7EXAMPLE/20240101/us-east-1/sqs/aws5_request",
                        kSigned, kSignature})),
                   QStringLiteral("Credential should be scoped with a valid terminator: "
                                  "'aws4_request', not 'aws5_request'."));
}

TEST(Sigv4Malformed, hostMustBeSigned)
{
    expectIncomplete(
        withAuthorization(
            joined({kCredential, "SignedHeaders=content-type;x-amz-date", kSignature})),
        QStringLiteral(
            "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."));
}

TEST(Sigv4Malformed, signedHeaderMissingFromTheRequest)
{
    expectIncomplete(
        withAuthorization(joined(
            {kCredential, "SignedHeaders=content-type;host;x-amz-date;x-amz-target", kSignature})),
        QStringLiteral("'x-amz-target' is a 'SignedHeader' the request does not have."));
}

TEST(Sigv4Malformed, emptySignedHeaderName)
{
    const WireStatus checked
        = withAuthorization(joined({kCredential, "SignedHeaders=host;;x-amz-date", kSignature}));
    expectError(checked, 400, "IncompleteSignature", "IncompleteSignatureException");
}

TEST(Sigv4Malformed, bothHeaderAndPresignedQuery)
{
    HttpRequest request = botocorePresigned();
    request.headers.append(
        {QByteArray("Authorization"), botocoreQueryPost().header("Authorization")});
    const WireStatus checked = checkSignature(request, clientKeys(), newYearNoon());
    expectError(checked, 400, "SignatureDoesNotMatch", "InvalidSignatureException");
    EXPECT_EQ(checked.error().message,
              QStringLiteral("Found both 'X-Amz-Algorithm' as a query-string param "
                             "and 'Authorization' as HTTP header."));
}

TEST(Sigv4Malformed, presignedQueryNamesEachMissingParameter)
{
    HttpRequest request = botocorePresigned();
    request.query = "Action=GetQueueAttributes&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date="
                    "20240101T120000Z&X-Amz-SignedHeaders=host";
    expectIncomplete(checkSignature(request, clientKeys(), newYearNoon()),
                     QStringLiteral("AWS query-string parameters must include 'X-Amz-Credential'. "
                                    "AWS query-string parameters must include 'X-Amz-Signature'. "
                                    "Re-examine the query-string parameters."));
}

TEST(Sigv4Malformed, presignedAlgorithmAndExpiry)
{
    HttpRequest algorithm = botocorePresigned();
    algorithm.query.replace("X-Amz-Algorithm=AWS4-HMAC-SHA256", "X-Amz-Algorithm=AWS4-ECDSA-P256");
    expectIncomplete(checkSignature(algorithm, clientKeys(), newYearNoon()),
                     QStringLiteral("Unsupported AWS 'algorithm': 'AWS4-ECDSA-P256'."));
    for (const char* expires : {"0", "604801", "-5", "1e3", "99999999999999999999"}) {
        HttpRequest request = botocorePresigned();
        request.query.replace("X-Amz-Expires=900", QByteArray("X-Amz-Expires=") + expires);
        const WireStatus checked = checkSignature(request, clientKeys(), newYearNoon());
        expectError(checked, 400, "IncompleteSignature", "IncompleteSignatureException");
    }
}

// ---- adversarial input --------------------------------------------------------------------

TEST(Sigv4Adversarial, hugeAuthorizationHeaderIsRefusedQuickly)
{
    const QByteArray header
        = joined({kCredential, kSigned, kSignature}) + ", Pad=" + QByteArray(60 * 1024, 'x');
    expectIncomplete(withAuthorization(header),
                     QStringLiteral("The Authorization header is longer than 16384 bytes."));
}

TEST(Sigv4Adversarial, thousandsOfSignedHeadersAreRefused)
{
    // Short names, so the header form stays under the Authorization length cap.
    QByteArray names = "host";
    for (int i = 0; i < 5000; ++i)
        names += ";a";
    const QString tooMany
        = QStringLiteral("SignedHeaders names 5001 headers; at most 64 are accepted.");
    expectIncomplete(withAuthorization(joined({kCredential, "SignedHeaders=", kSignature})
                                           .replace("SignedHeaders=", "SignedHeaders=" + names)),
                     tooMany);
    HttpRequest presigned = botocorePresigned();
    presigned.query.replace("X-Amz-SignedHeaders=host", "X-Amz-SignedHeaders=" + names);
    expectIncomplete(checkSignature(presigned, clientKeys(), newYearNoon()), tooMany);
}

TEST(Sigv4Adversarial, oddBytesGiveAnErrorWithPrintableQuotes)
{
    static constexpr char kOdd[]
        = "AWS4-HMAC-SHA256 \x00\x01\xff\xfe=\n\r, Credential=\xc3\x28/\x00/a/b/c, "
          "SignedHeaders=host\x7f, Signature=\x80";
    const QByteArray odd(kOdd, sizeof kOdd - 1);
    const WireStatus checked = withAuthorization(odd);
    ASSERT_FALSE(checked);
    EXPECT_TRUE(checked.error().senderFault);
    for (const QChar c : checked.error().message)
        EXPECT_FALSE(c.unicode() < 0x20 || c.unicode() == 0x7f) << describe(checked);
}

TEST(Sigv4Adversarial, longCredentialIsQuotedOnlyInPart)
{
    HttpRequest request = botocorePresigned();
    request.query.replace("X-Amz-Credential=AKIAIOSFODNN7EXAMPLE",
                          "X-Amz-Credential=" + QByteArray(100 * 1024, 'A'));
    request.query.replace("%2Faws4_request", "");
    const WireStatus checked = checkSignature(request, clientKeys(), newYearNoon());
    expectError(checked, 400, "IncompleteSignature", "IncompleteSignatureException");
}

TEST(Sigv4Adversarial, longSignatureOrPercentGarbageDoesNotMatch)
{
    HttpRequest request = botocorePresigned();
    request.query.replace("X-Amz-Signature=61fa", "X-Amz-Signature=" + QByteArray(50000, 'f'));
    expectMismatch(checkSignature(request, clientKeys(), newYearNoon()), kMismatch);
    HttpRequest garbage = botocorePresigned();
    garbage.query += "&%zz%=%%&&=&%E1%8";
    expectMismatch(checkSignature(garbage, clientKeys(), newYearNoon()), kMismatch);
}

} // namespace
} // namespace inflight::protocol
