#pragma once

#include "engine/error.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace inflight::protocol {

// The access keys the SQS endpoint accepts when it checks signatures: access key id → secret
// access key, both UTF-8 as the user wrote them.
class CredentialStore {
public:
    // Adds the pair, replacing any secret the key id had.
    void add(std::string accessKeyId, std::string secretAccessKey);

    // The secret of that key id; nullptr when the key id is unknown. The pointer stays valid until
    // the store is next changed.
    const std::string* secretFor(std::string_view accessKeyId) const;

    std::size_t size() const { return m_secrets.size(); }

private:
    std::map<std::string, std::string, std::less<>> m_secrets;
};

// The pairs of an AWS shared credentials file (the INI of ~/.aws/credentials): every [profile]
// that has both aws_access_key_id and aws_secret_access_key contributes one; other keys
// (aws_session_token, region, ...) are ignored. Keys are case-insensitive and may be separated
// from their value by '=' or ':' with any whitespace around; lines starting with '#' or ';' are
// comments. InvalidParameterValue, naming the line where there is one, for a line that is none of
// these, a setting outside any profile, a profile or setting given twice, a profile with only one
// of the two keys, an access key id no client could send (with '/', ',' or whitespace), two
// profiles giving one key id different secrets, and a text with no pair at all. Messages never
// quote a secret.
engine::Result<CredentialStore> parseCredentials(const QByteArray& text);

// parseCredentials on the file's contents, the messages naming the file. InvalidParameterValue
// also when the file cannot be read or is larger than 1 MiB.
engine::Result<CredentialStore> loadCredentialsFile(const QString& path);

} // namespace inflight::protocol
