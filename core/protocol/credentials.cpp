#include "protocol/credentials.h"

#include <QFile>

#include <optional>
#include <utility>

namespace inflight::protocol {

namespace {

using engine::ErrorCode;

// A credentials file holds a few profiles; anything this large is the wrong file.
constexpr qint64 kMaxFileBytes = 1024 * 1024;

constexpr std::string_view kKeyIdName = "aws_access_key_id";
constexpr std::string_view kSecretName = "aws_secret_access_key";

// Blank within a line (the file is split at line ends first).
bool isBlankInLine(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && isBlankInLine(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isBlankInLine(text.back()))
        text.remove_suffix(1);
    return text;
}

// Option names are case-insensitive in the CLI's parser (configparser lower-cases them).
bool sameName(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
        if (lower(a[i]) != lower(b[i]))
            return false;
    }
    return true;
}

// The Credential= part of a signature is split on '/', ',' and whitespace, so a key id holding
// one of them could never be presented.
bool isSendableKeyId(std::string_view keyId)
{
    for (const char c : keyId) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '/' || c == ',' || c == ' ' || byte < 0x20 || byte == 0x7f)
            return false;
    }
    return true;
}

struct Setting {
    std::string value;
    int line = 0; // 0: not set
};

struct Profile {
    std::string name;
    int line = 0;
    Setting keyId;
    Setting secret;
};

// One pass over the lines; `m_source` names the text in messages ("the credentials file" or a
// path).
class CredentialsParser {
public:
    explicit CredentialsParser(std::string source) : m_source(std::move(source)) {}

    engine::Result<CredentialStore> parse(std::string_view text)
    {
        if (text.starts_with("\xEF\xBB\xBF")) // a UTF-8 byte order mark, as some editors write
            text.remove_prefix(3);
        int lineNumber = 0;
        while (!text.empty()) {
            const std::size_t end = text.find('\n');
            const std::string_view line = text.substr(0, end);
            text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
            if (const engine::Status taken = takeLine(++lineNumber, trimmed(line)); !taken)
                return taken.error();
        }
        if (const engine::Status closed = closeProfile(); !closed)
            return closed.error();
        if (m_store.size() == 0)
            return engine::makeError(ErrorCode::InvalidParameterValue,
                                     "There is no profile with both aws_access_key_id and "
                                     "aws_secret_access_key in "
                                         + m_source + ".");
        return std::move(m_store);
    }

private:
    std::string m_source;
    CredentialStore m_store;
    std::optional<Profile> m_profile;
    std::map<std::string, int, std::less<>> m_profileLines;          // name → line of its header
    std::map<std::string, std::string, std::less<>> m_keyIdProfiles; // key id → profile name

    engine::Error lineError(int line, const std::string& what) const
    {
        return engine::makeError(ErrorCode::InvalidParameterValue,
                                 "Line " + std::to_string(line) + " of " + m_source + " " + what);
    }

    engine::Status takeLine(int number, std::string_view line)
    {
        if (line.empty() || line.front() == '#' || line.front() == ';')
            return engine::Done{};
        if (line.front() == '[' && line.back() == ']')
            return openProfile(number, trimmed(line.substr(1, line.size() - 2)));
        const std::size_t delimiter = line.find_first_of("=:");
        const std::string_view key
            = trimmed(line.substr(0, delimiter == std::string_view::npos ? 0 : delimiter));
        if (key.empty())
            return lineError(number,
                             "is neither a [profile] header, a key = value setting, a "
                             "comment nor blank.");
        if (!m_profile)
            return lineError(number, "sets " + std::string(key) + " before any [profile] header.");
        return takeSetting(number, key, trimmed(line.substr(delimiter + 1)));
    }

    engine::Status openProfile(int number, std::string_view name)
    {
        if (engine::Status closed = closeProfile(); !closed)
            return closed;
        if (name.empty())
            return lineError(number, "has a [profile] header without a name.");
        const auto [seen, added] = m_profileLines.emplace(std::string(name), number);
        if (!added)
            return lineError(number,
                             "repeats the profile [" + std::string(name) + "] of line "
                                 + std::to_string(seen->second) + ".");
        m_profile = Profile{std::string(name), number, {}, {}};
        return engine::Done{};
    }

    engine::Status takeSetting(int number, std::string_view key, std::string_view value)
    {
        const bool isKeyId = sameName(key, kKeyIdName);
        if (!isKeyId && !sameName(key, kSecretName))
            return engine::Done{}; // aws_session_token, region, ...: not ours
        const std::string_view name = isKeyId ? kKeyIdName : kSecretName;
        Setting& setting = isKeyId ? m_profile->keyId : m_profile->secret;
        if (setting.line != 0)
            return lineError(number,
                             "sets " + std::string(name) + " a second time in profile ["
                                 + m_profile->name + "].");
        if (value.empty())
            return lineError(number, "gives " + std::string(name) + " no value.");
        if (isKeyId && !isSendableKeyId(value))
            return lineError(number,
                             "gives an access key id with '/', ',', whitespace or a "
                             "control character, which no signed request can carry.");
        setting = Setting{std::string(value), number};
        return engine::Done{};
    }

    engine::Status closeProfile()
    {
        if (!m_profile)
            return engine::Done{};
        Profile profile = std::exchange(m_profile, std::nullopt).value();
        const std::string where = "Profile [" + profile.name + "] on line "
            + std::to_string(profile.line) + " of " + m_source + " has ";
        if (profile.keyId.line == 0 && profile.secret.line == 0)
            return engine::Done{}; // a profile of other settings (a region, a role) is fine
        if (profile.secret.line == 0)
            return engine::makeError(ErrorCode::InvalidParameterValue,
                                     where + "aws_access_key_id but no aws_secret_access_key.");
        if (profile.keyId.line == 0)
            return engine::makeError(ErrorCode::InvalidParameterValue,
                                     where + "aws_secret_access_key but no aws_access_key_id.");
        if (const std::string* known = m_store.secretFor(profile.keyId.value)) {
            if (*known != profile.secret.value)
                return lineError(profile.keyId.line,
                                 "gives the access key id " + profile.keyId.value
                                     + " a different secret than profile ["
                                     + m_keyIdProfiles.find(profile.keyId.value)->second + "].");
            return engine::Done{};
        }
        m_keyIdProfiles.emplace(profile.keyId.value, profile.name);
        m_store.add(std::move(profile.keyId.value), std::move(profile.secret.value));
        return engine::Done{};
    }
};

} // namespace

void CredentialStore::add(std::string accessKeyId, std::string secretAccessKey)
{
    m_secrets.insert_or_assign(std::move(accessKeyId), std::move(secretAccessKey));
}

const std::string* CredentialStore::secretFor(std::string_view accessKeyId) const
{
    const auto found = m_secrets.find(accessKeyId);
    return found == m_secrets.end() ? nullptr : &found->second;
}

engine::Result<CredentialStore> parseCredentials(const QByteArray& text)
{
    return CredentialsParser("the credentials file")
        .parse(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
}

engine::Result<CredentialStore> loadCredentialsFile(const QString& path)
{
    QFile file(path);
    const std::string name = path.toStdString();
    if (!file.open(QIODevice::ReadOnly))
        return engine::makeError(ErrorCode::InvalidParameterValue,
                                 "Cannot read the credentials file " + name + ": "
                                     + file.errorString().toStdString() + ".");
    // Read one byte past the limit, so a file that grows while we read is still caught.
    const QByteArray text = file.read(kMaxFileBytes + 1);
    if (text.size() > kMaxFileBytes)
        return engine::makeError(ErrorCode::InvalidParameterValue,
                                 "The credentials file " + name + " is larger than 1 MiB.");
    if (file.error() != QFileDevice::NoError)
        return engine::makeError(ErrorCode::InvalidParameterValue,
                                 "Cannot read the credentials file " + name + ": "
                                     + file.errorString().toStdString() + ".");
    return CredentialsParser(name).parse(
        std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
}

} // namespace inflight::protocol
