#include "traffic/client_identity.h"

#include <gtest/gtest.h>

#include <ostream>

namespace inflight::traffic {
namespace {

struct AgentCase {
    const char* agent;
    const char* sdk;
    const char* version;
};

// Names the case in test names and failures by its agent, not by the bytes of its pointers.
void PrintTo(const AgentCase& agentCase, std::ostream* out)
{
    *out << agentCase.agent;
}

class UserAgentTest : public ::testing::TestWithParam<AgentCase> {};

TEST_P(UserAgentTest, namesTheSdkAndItsVersion)
{
    const SdkName sdk = parseUserAgent(QByteArray(GetParam().agent));
    EXPECT_EQ(sdk.name, QLatin1String(GetParam().sdk));
    EXPECT_EQ(sdk.version, QLatin1String(GetParam().version));
}

INSTANTIATE_TEST_SUITE_P(
    RealAgents, UserAgentTest,
    ::testing::Values(
        AgentCase{"aws-cli/2.9.19 Python/3.11.2 Linux/6.1.0-18-amd64 source/x86_64.debian.12 "
                  "prompt/off command/sqs.send-message",
                  "aws-cli", "2.9.19"},
        AgentCase{"aws-cli/1.27.123 Python/3.11.2 Linux/6.1.0 botocore/1.29.123", "aws-cli",
                  "1.27.123"},
        AgentCase{"Boto3/1.26.27 Python/3.11.2 Linux/6.1.0-18-amd64 Botocore/1.29.27", "Boto3",
                  "1.26.27"},
        AgentCase{"Boto3/1.34.0 md/Botocore#1.34.0 ua/2.0 os/linux#6.1.0 md/arch#x86_64 "
                  "lang/python#3.11.2 cfg/retry-mode#legacy Botocore/1.34.0",
                  "Boto3", "1.34.0"},
        AgentCase{"Botocore/1.29.27 Python/3.11.2 Linux/6.1.0", "botocore", "1.29.27"},
        AgentCase{"aws-sdk-js/3.901.0 ua/2.1 os/linux#6.1.0-18-amd64 lang/js md/nodejs#18.19.0 "
                  "api/sqs#3.901.0 m/E,N",
                  "aws-sdk-js", "3.901.0"},
        AgentCase{"aws-sdk-java/2.20.43 Linux/6.1.0 OpenJDK_64-Bit_Server_VM/17.0.8+7 "
                  "Java/17.0.8 vendor/Debian io/sync http/Apache cfg/retry-mode/legacy",
                  "aws-sdk-java", "2.20.43"},
        AgentCase{"aws-sdk-go-v2/1.21.0 os/linux lang/go#1.20.7 md/GOOS#linux md/GOARCH#amd64 "
                  "api/sqs#1.24.5",
                  "aws-sdk-go-v2", "1.21.0"},
        AgentCase{"aws-sdk-go/1.44.300 (go1.20.7; linux; amd64)", "aws-sdk-go", "1.44.300"},
        AgentCase{"curl/7.88.1", "curl", "7.88.1"},
        AgentCase{"python-requests/2.28.1", "python-requests", "2.28.1"},
        AgentCase{"node-fetch/1.0 (+https://github.com/bitinn/node-fetch)", "node-fetch", "1.0"},
        AgentCase{"Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Firefox/115.0",
                  "Firefox", "115.0"},
        AgentCase{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/120.0.0.0 Safari/537.36",
                  "Chrome", "120.0.0.0"},
        AgentCase{"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, "
                  "like Gecko) Version/17.1 Safari/605.1.15",
                  "Safari", "17.1"},
        AgentCase{"my-tool/0.3 extra", "my-tool", "0.3"}, AgentCase{"", "", ""}));

TEST(AccessKeyId, comesFromTheAuthorizationHeadersCredentialScope)
{
    const QByteArray header = "AWS4-HMAC-SHA256 "
                              "Credential=AKIDEXAMPLE/20240101/us-east-1/sqs/aws4_request, "
                              "SignedHeaders=host;x-amz-date, Signature=abc";
    EXPECT_EQ(accessKeyId(header, {}), QStringLiteral("AKIDEXAMPLE"));
}

TEST(AccessKeyId, comesFromAPresignedUrlsCredential)
{
    const QByteArray query = "Action=ListQueues&X-Amz-Algorithm=AWS4-HMAC-SHA256&"
                             "X-Amz-Credential=test%2F20240101%2Fus-east-1%2Fsqs%2Faws4_request";
    EXPECT_EQ(accessKeyId({}, query), QStringLiteral("test"));
}

TEST(AccessKeyId, isEmptyWithoutASignature)
{
    EXPECT_TRUE(accessKeyId({}, "Action=ListQueues").isEmpty());
    EXPECT_TRUE(accessKeyId("Bearer token", {}).isEmpty());
}

TEST(ClientKey, isTheKeyAndSdkWhateverThePort)
{
    const QByteArray auth = "AWS4-HMAC-SHA256 Credential=test/20240101/us-east-1/sqs/aws4_request";
    const ClientIdentity one
        = identify(auth, {}, "aws-cli/2.9.19 Python/3.11.2", QStringLiteral("127.0.0.1:50001"));
    const ClientIdentity two
        = identify(auth, {}, "aws-cli/2.9.19 Python/3.11.2", QStringLiteral("127.0.0.1:50002"));
    EXPECT_EQ(one.key, two.key);
    EXPECT_EQ(one.key, QStringLiteral("test aws-cli"));
    EXPECT_EQ(one.host, QStringLiteral("127.0.0.1"));
    const ClientIdentity boto
        = identify(auth, {}, "Boto3/1.26.27 Python/3.11.2", QStringLiteral("127.0.0.1:50003"));
    EXPECT_NE(boto.key, one.key);
}

TEST(ClientKey, isTheSdkAndHostWithoutAKey)
{
    const ClientIdentity curl = identify({}, {}, "curl/7.88.1", QStringLiteral("[::1]:40000"));
    EXPECT_EQ(curl.key, QStringLiteral("curl@::1"));
    EXPECT_EQ(identify({}, {}, {}, QStringLiteral("10.0.0.2:1")).key,
              QStringLiteral("unknown@10.0.0.2"));
}

TEST(ClientIdentities, OneIdentityPerClientSharedAcrossRequests)
{
    ClientIdentities identities;
    const QByteArray auth = "AWS4-HMAC-SHA256 Credential=AKIDONE/20261201/us-east-1/sqs/"
                            "aws4_request, SignedHeaders=host, Signature=01";
    const QByteArray agent = "aws-cli/2.9.19 Python/3.11.2 Linux/6.1 botocore/2.4.5";
    const ClientIdentities::Known first
        = identities.identify(auth, {}, agent, QStringLiteral("127.0.0.1:50001"));
    EXPECT_EQ(first.identity.key, QStringLiteral("AKIDONE aws-cli"));
    EXPECT_EQ(first.userAgent, QString::fromUtf8(agent));
    // Another port, another signature: the same client, and the same strings (shared).
    const QByteArray resigned = "AWS4-HMAC-SHA256 Credential=AKIDONE/20261201/us-east-1/sqs/"
                                "aws4_request, SignedHeaders=host, Signature=02";
    const ClientIdentities::Known again
        = identities.identify(resigned, {}, agent, QStringLiteral("127.0.0.1:50002"));
    EXPECT_EQ(again.identity.key, first.identity.key);
    EXPECT_EQ(again.identity.key.constData(), first.identity.key.constData());
    // Another key, agent or host: another identity, as identify() makes it.
    const QByteArray other = "AWS4-HMAC-SHA256 Credential=AKIDTWO/20261201/us-east-1/sqs/"
                             "aws4_request, SignedHeaders=host, Signature=03";
    EXPECT_EQ(identities.identify(other, {}, agent, QStringLiteral("127.0.0.1:1")).identity.key,
              QStringLiteral("AKIDTWO aws-cli"));
    EXPECT_EQ(identities.identify({}, {}, "curl/7.88.1", QStringLiteral("10.0.0.7:9")).identity.key,
              QStringLiteral("curl@10.0.0.7"));
    EXPECT_EQ(identities.identify({}, {}, "curl/7.88.1", QStringLiteral("10.0.0.8:9")).identity.key,
              QStringLiteral("curl@10.0.0.8"));
}

} // namespace
} // namespace inflight::traffic
