// The AWS shared credentials file (~/.aws/credentials) as the SigV4 check reads its keys: every
// profile with a key pair contributes it; anything the CLI would not read is refused with the line.
#include "protocol/credentials.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace inflight::protocol {
namespace {

std::string secretOf(const CredentialStore& store, std::string_view keyId)
{
    const std::string* secret = store.secretFor(keyId);
    return secret ? *secret : "<unknown>";
}

std::string errorOf(const QByteArray& text)
{
    const engine::Result<CredentialStore> parsed = parseCredentials(text);
    if (parsed.ok())
        return "<parsed>";
    EXPECT_EQ(parsed.error().code, engine::ErrorCode::InvalidParameterValue);
    return parsed.error().message;
}

TEST(CredentialsFile, everyProfileWithAKeyPairContributes)
{
    const engine::Result<CredentialStore> parsed
        = parseCredentials("# written by aws configure\n"
                           "[default]\n"
                           "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n"
                           "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
                           "\n"
                           "; a second profile, with a session token and odd spacing\n"
                           "[ dev ]\r\n"
                           "  AWS_ACCESS_KEY_ID=AKIDDEV\t\r\n"
                           "aws_secret_access_key:dev/secret+key==\r\n"
                           "aws_session_token = FQoGZXIvYXdzEJr//////////wEaDM\r\n"
                           "region = eu-west-1\n"
                           "\n"
                           "[assume-role]\n"
                           "role_arn = arn:aws:iam::123456789012:role/admin\n"
                           "source_profile = default\n");
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(parsed->size(), 2u);
    EXPECT_EQ(secretOf(*parsed, "AKIAIOSFODNN7EXAMPLE"),
              "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    EXPECT_EQ(secretOf(*parsed, "AKIDDEV"), "dev/secret+key==");
    EXPECT_EQ(parsed->secretFor("AKIDUNKNOWN"), nullptr);
    EXPECT_EQ(parsed->secretFor("akiddev"), nullptr) << "key ids are case-sensitive";
}

TEST(CredentialsFile, byteOrderMarkAndMissingFinalNewlineAreFine)
{
    const engine::Result<CredentialStore> parsed
        = parseCredentials("\xEF\xBB\xBF[default]\naws_access_key_id=a\naws_secret_access_key=b");
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(secretOf(*parsed, "a"), "b");
}

TEST(CredentialsFile, oneKeyInTwoProfilesWithTheSameSecretIsOnePair)
{
    const engine::Result<CredentialStore> parsed
        = parseCredentials("[a]\naws_access_key_id=k\naws_secret_access_key=s\n"
                           "[b]\naws_access_key_id=k\naws_secret_access_key=s\n");
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(parsed->size(), 1u);
}

struct BadFile {
    const char* name;
    const char* text;
    const char* message;
};

void PrintTo(const BadFile& row, std::ostream* os)
{
    *os << row.name;
}

class CredentialsFileErrors : public ::testing::TestWithParam<BadFile> {};

TEST_P(CredentialsFileErrors, sayWhatAndWhere)
{
    EXPECT_EQ(errorOf(GetParam().text), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Table, CredentialsFileErrors,
    ::testing::Values(
        BadFile{"empty", "",
                "There is no profile with both aws_access_key_id and aws_secret_access_key in the "
                "credentials file."},
        BadFile{"onlyComments", "# nothing\n\n; here\n",
                "There is no profile with both aws_access_key_id and aws_secret_access_key in the "
                "credentials file."},
        BadFile{"onlyOtherSettings", "[default]\nregion = us-east-1\n",
                "There is no profile with both aws_access_key_id and aws_secret_access_key in the "
                "credentials file."},
        BadFile{"lineThatIsNothing", "[default]\naws_access_key_id = k\nthis is not a setting\n",
                "Line 3 of the credentials file is neither a [profile] header, a key = value "
                "setting, a comment nor blank."},
        BadFile{"unclosedHeader", "[default\naws_access_key_id = k\n",
                "Line 1 of the credentials file is neither a [profile] header, a key = value "
                "setting, a comment nor blank."},
        BadFile{"settingBeforeAnyProfile", "\naws_access_key_id = k\n[default]\n",
                "Line 2 of the credentials file sets aws_access_key_id before any [profile] "
                "header."},
        BadFile{"keyIdWithoutSecret",
                "[default]\naws_access_key_id=a\naws_secret_access_key=b\n\n[dev]\n"
                "aws_access_key_id = k\n",
                "Profile [dev] on line 5 of the credentials file has aws_access_key_id but no "
                "aws_secret_access_key."},
        BadFile{"secretWithoutKeyId", "[ci]\naws_secret_access_key = s\n[default]\n",
                "Profile [ci] on line 1 of the credentials file has aws_secret_access_key but no "
                "aws_access_key_id."},
        BadFile{"emptyProfileName", "[ ]\naws_access_key_id = k\n",
                "Line 1 of the credentials file has a [profile] header without a name."},
        BadFile{"repeatedProfile",
                "[default]\naws_access_key_id=a\naws_secret_access_key=b\n[default]\n",
                "Line 4 of the credentials file repeats the profile [default] of line 1."},
        BadFile{"repeatedKey", "[default]\naws_access_key_id=a\nAWS_ACCESS_KEY_ID=b\n",
                "Line 3 of the credentials file sets aws_access_key_id a second time in profile "
                "[default]."},
        BadFile{"emptyValue", "[default]\naws_access_key_id=a\naws_secret_access_key =  \n",
                "Line 3 of the credentials file gives aws_secret_access_key no value."},
        BadFile{"unsendableKeyId", "[default]\naws_access_key_id = AKID/2\n",
                "Line 2 of the credentials file gives an access key id with '/', ',', whitespace "
                "or a control character, which no signed request can carry."},
        BadFile{"oneKeyTwoSecrets",
                "[a]\naws_access_key_id=k\naws_secret_access_key=s1\n"
                "[b]\naws_access_key_id=k\naws_secret_access_key=s2\n",
                "Line 5 of the credentials file gives the access key id k a different secret than "
                "profile [a]."}));

TEST(CredentialsFile, messagesNeverQuoteASecret)
{
    const std::string message = errorOf("[default]\naws_access_key_id = AKID\n"
                                        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n");
    EXPECT_EQ(message.find("wJalr"), std::string::npos) << message;
}

TEST(CredentialsFile, loadsAFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("credentials"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("[default]\naws_access_key_id = k\naws_secret_access_key = s\n");
    file.close();
    const engine::Result<CredentialStore> loaded = loadCredentialsFile(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(secretOf(*loaded, "k"), "s");
}

TEST(CredentialsFile, messagesNameTheFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("credentials"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("[default]\n???\n");
    file.close();
    const engine::Result<CredentialStore> loaded = loadCredentialsFile(path);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().code, engine::ErrorCode::InvalidParameterValue);
    EXPECT_EQ(loaded.error().message,
              "Line 2 of " + path.toStdString()
                  + " is neither a [profile] header, a key = value setting, a comment nor blank.");
}

TEST(CredentialsFile, unreadableFileIsAnError)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString missing = dir.filePath(QStringLiteral("nope"));
    const engine::Result<CredentialStore> loaded = loadCredentialsFile(missing);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().code, engine::ErrorCode::InvalidParameterValue);
    EXPECT_TRUE(loaded.error().message.starts_with("Cannot read the credentials file "
                                                   + missing.toStdString() + ": "))
        << loaded.error().message;
    EXPECT_FALSE(loadCredentialsFile(dir.path()).ok()) << "a directory is no credentials file";
}

TEST(CredentialsFile, fileOverOneMebibyteIsRefused)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("big"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("[default]\naws_access_key_id = k\naws_secret_access_key = s\n");
    file.write(QByteArray(1024 * 1024, '#'));
    file.close();
    const engine::Result<CredentialStore> loaded = loadCredentialsFile(path);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().message,
              "The credentials file " + path.toStdString() + " is larger than 1 MiB.");
}

} // namespace
} // namespace inflight::protocol
