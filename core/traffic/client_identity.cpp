#include "traffic/client_identity.h"

#include "protocol/access_key.h"

#include <array>

namespace inflight::traffic {

namespace {

// Product tokens by priority: a client's own before the libraries it is built on (aws-cli runs on
// botocore, Boto3 sends Botocore too, browsers all claim Mozilla and Safari).
struct KnownSdk {
    QLatin1String token; // compared case-insensitively
    QLatin1String name;  // as shown
};
const std::array kKnown{
    KnownSdk{QLatin1String("aws-cli"), QLatin1String("aws-cli")},
    KnownSdk{QLatin1String("Boto3"), QLatin1String("Boto3")},
    KnownSdk{QLatin1String("botocore"), QLatin1String("botocore")},
    KnownSdk{QLatin1String("aws-sdk-js"), QLatin1String("aws-sdk-js")},
    KnownSdk{QLatin1String("aws-sdk-java"), QLatin1String("aws-sdk-java")},
    KnownSdk{QLatin1String("aws-sdk-go-v2"), QLatin1String("aws-sdk-go-v2")},
    KnownSdk{QLatin1String("aws-sdk-go"), QLatin1String("aws-sdk-go")},
    KnownSdk{QLatin1String("aws-sdk-dotnet-coreclr"), QLatin1String("aws-sdk-dotnet")},
    KnownSdk{QLatin1String("aws-sdk-ruby3"), QLatin1String("aws-sdk-ruby")},
    KnownSdk{QLatin1String("aws-sdk-rust"), QLatin1String("aws-sdk-rust")},
    KnownSdk{QLatin1String("curl"), QLatin1String("curl")},
    KnownSdk{QLatin1String("python-requests"), QLatin1String("python-requests")},
    KnownSdk{QLatin1String("node-fetch"), QLatin1String("node-fetch")},
    KnownSdk{QLatin1String("undici"), QLatin1String("undici")},
    KnownSdk{QLatin1String("Edg"), QLatin1String("Edge")},
    KnownSdk{QLatin1String("Firefox"), QLatin1String("Firefox")},
    KnownSdk{QLatin1String("Chrome"), QLatin1String("Chrome")},
    KnownSdk{QLatin1String("Safari"), QLatin1String("Safari")},
};

QString hostOf(const QString& address)
{
    const qsizetype colon = address.lastIndexOf(QLatin1Char(':'));
    QString host = colon < 0 ? address : address.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    return host;
}

} // namespace

QString accessKeyId(const QByteArray& authorization, const QByteArray& query)
{
    return QString::fromUtf8(protocol::accessKeyId(authorization, query));
}

SdkName parseUserAgent(const QByteArray& userAgent)
{
    const QString agent = QString::fromUtf8(userAgent).trimmed();
    if (agent.isEmpty())
        return {};
    const QStringList tokens = agent.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    auto versionOf = [&tokens](QLatin1String name) -> std::optional<QString> {
        for (const QString& token : tokens) {
            const qsizetype slash = token.indexOf(QLatin1Char('/'));
            const QStringView product = QStringView(token).left(slash < 0 ? token.size() : slash);
            if (product.compare(name, Qt::CaseInsensitive) == 0)
                return slash < 0 ? QString() : token.mid(slash + 1);
        }
        return std::nullopt;
    };
    for (const KnownSdk& known : kKnown) {
        std::optional<QString> version = versionOf(known.token);
        if (!version)
            continue;
        if (known.token == QLatin1String("Safari")) // its own version is WebKit's
            version = versionOf(QLatin1String("Version")).value_or(*version);
        return {known.name, *version};
    }
    const QString& first = tokens.first();
    const qsizetype slash = first.indexOf(QLatin1Char('/'));
    return {first.left(slash), slash < 0 ? QString() : first.mid(slash + 1)};
}

ClientIdentity identify(const QByteArray& authorization, const QByteArray& query,
                        const QByteArray& userAgent, const QString& address)
{
    ClientIdentity client;
    client.accessKeyId = accessKeyId(authorization, query);
    const SdkName sdk = parseUserAgent(userAgent);
    client.sdk = sdk.name;
    client.sdkVersion = sdk.version;
    client.host = hostOf(address);
    const QString product = client.sdk.isEmpty() ? QStringLiteral("unknown") : client.sdk;
    client.key = client.accessKeyId.isEmpty() ? product + QLatin1Char('@') + client.host
                                              : client.accessKeyId + QLatin1Char(' ') + product;
    return client;
}

const ClientIdentities::Known& ClientIdentities::identify(const QByteArray& authorization,
                                                          const QByteArray& query,
                                                          const QByteArray& userAgent,
                                                          const QString& address)
{
    // What tells clients apart, without copying: the access key id in the Authorization (or the
    // query string of a presigned URL, rare), the agent, and the address without its port.
    static const QByteArray kCredential = QByteArrayLiteral("Credential=");
    QByteArrayView scope;
    if (!authorization.isEmpty()) {
        const qsizetype at = authorization.indexOf(kCredential);
        if (at >= 0) {
            const qsizetype from = at + kCredential.size();
            qsizetype end = authorization.indexOf('/', from);
            if (end < 0)
                end = authorization.size();
            scope = QByteArrayView(authorization.constData() + from, end - from);
        }
    } else if (query.contains("redential=")) {
        scope = query;
    }
    const qsizetype colon = address.lastIndexOf(QLatin1Char(':'));
    const QStringView host = QStringView(address).left(colon < 0 ? address.size() : colon);
    const std::size_t hash = qHashMulti(0, scope, QByteArrayView(userAgent), host);
    auto it = m_entries.find(hash);
    if (it != m_entries.end() && it->second.scope == scope && it->second.userAgent == userAgent
        && it->second.host == host)
        return it->second.known;
    if (m_entries.size() >= kMaxEntries)
        m_entries.clear();
    Entry entry{scope.toByteArray(),
                userAgent,
                host.toString(),
                {traffic::identify(authorization, query, userAgent, address),
                 QString::fromUtf8(userAgent)}};
    it = m_entries.insert_or_assign(hash, std::move(entry)).first;
    return it->second.known;
}

} // namespace inflight::traffic
