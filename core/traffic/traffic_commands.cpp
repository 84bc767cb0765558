#include "traffic/traffic_commands.h"

#include "protocol/sqs_codec.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <system_error>

namespace inflight::traffic {

namespace {

bool leftToCurl(const QByteArray& name)
{
    static const std::array kOwn{"host",           "content-length",    "connection",
                                 "keep-alive",     "transfer-encoding", "expect",
                                 "accept-encoding"};
    for (const char* own : kOwn)
        if (name.compare(own, Qt::CaseInsensitive) == 0)
            return true;
    return false;
}

QString urlOf(const TrafficRecord& record)
{
    QString host = QString::fromUtf8(headerValue(record.requestHeaders, "Host"));
    if (host.isEmpty())
        host = record.address;
    QString url = QStringLiteral("http://") + host + QString::fromUtf8(record.path);
    if (!record.query.isEmpty())
        url += QLatin1Char('?') + QString::fromUtf8(record.query);
    return url;
}

// The region of the SigV4 credential scope (Credential=AKID/DATE/REGION/sqs/aws4_request).
QString regionOf(const TrafficRecord& record)
{
    const QString authorization
        = QString::fromUtf8(headerValue(record.requestHeaders, "Authorization"));
    const qsizetype at = authorization.indexOf(QLatin1String("Credential="));
    if (at < 0)
        return {};
    const QStringList scope
        = authorization.mid(at + 11).section(QLatin1Char(','), 0, 0).split(QLatin1Char('/'));
    return scope.size() >= 3 ? scope[2].trimmed() : QString();
}

QString jsonText(const nlohmann::json& value)
{
    return QString::fromStdString(
        value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

bool isScalar(const nlohmann::json& value)
{
    return value.is_string() || value.is_number() || value.is_boolean();
}

QString scalarText(const nlohmann::json& value)
{
    return value.is_string() ? QString::fromStdString(value.get_ref<const std::string&>())
                             : jsonText(value);
}

// Parameters of the Query protocol itself, not of the action: the CLI has no option for them, and
// `--version` makes it print its own version and stop. (X-Amz-*: a presigned request's signature.)
bool isProtocolParameter(const std::string& name)
{
    return name == "Version" || name == "Action" || name.starts_with("X-Amz-");
}

// A batch's entries as the CLI's JSON wants them: the Query protocol carries every value as text,
// and the CLI checks each entry's members against the model (DelaySeconds, VisibilityTimeout must
// be numbers there). Top-level options stay text: the CLI reads '10' as the number it needs.
nlohmann::json typedEntries(nlohmann::json entries)
{
    for (nlohmann::json& entry : entries) {
        if (!entry.is_object())
            continue;
        for (auto& [member, value] : entry.items()) {
            if (!value.is_string() || !protocol::json::isIntegerMember(member))
                continue;
            const std::string& text = value.get_ref<const std::string&>();
            long long number = 0;
            const auto [end, failed]
                = std::from_chars(text.data(), text.data() + text.size(), number);
            if (failed == std::errc() && end == text.data() + text.size())
                value = number;
        }
    }
    return entries;
}

} // namespace

QString shellQuote(const QString& text)
{
    QString out = text;
    out.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + out + QLatin1Char('\'');
}

QString cliName(const QString& name)
{
    QString out;
    out.reserve(name.size() + 8);
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name[i];
        if (c.isUpper() && i > 0) {
            const QChar before = name[i - 1];
            const bool nextLower = i + 1 < name.size() && name[i + 1].isLower();
            if (before.isLower() || before.isDigit() || (before.isUpper() && nextLower))
                out += QLatin1Char('-');
        }
        out += c.toLower();
    }
    return out;
}

QString curlCommand(const TrafficRecord& record)
{
    QStringList lines;
    if (record.requestTruncated)
        lines << QStringLiteral("# the traffic log kept %1 of the body's %2 bytes")
                     .arg(record.requestBody.size())
                     .arg(record.requestBodySize);
    QString command = QStringLiteral("curl");
    if (record.method != "GET" || !record.requestBody.isEmpty())
        command += QStringLiteral(" -X ") + QString::fromUtf8(record.method);
    command += QLatin1Char(' ') + shellQuote(urlOf(record));
    for (const auto& [name, value] : record.requestHeaders.list()) {
        if (leftToCurl(name))
            continue;
        command += QStringLiteral(" \\\n  -H ")
            + shellQuote(QString::fromUtf8(name) + QStringLiteral(": ") + QString::fromUtf8(value));
    }
    if (!record.requestBody.isEmpty())
        command += QStringLiteral(" \\\n  --data-binary ")
            + shellQuote(QString::fromUtf8(record.requestBody));
    lines << command;
    return lines.join(QLatin1Char('\n'));
}

QString awsCliCommand(const TrafficRecord& record)
{
    using protocol::WireProtocol;
    if ((record.protocol != WireProtocol::SqsJson && record.protocol != WireProtocol::SqsQuery)
        || record.requestTruncated)
        return {};
    protocol::HttpRequest http;
    http.method = record.method;
    http.path = record.path;
    http.query = record.query;
    http.headers = record.requestHeaders;
    http.body = record.requestBody;
    const protocol::DecodedSqsRequest decoded = record.protocol == WireProtocol::SqsJson
        ? protocol::json::decodeRequest(http)
        : protocol::query::decodeRequest(http);
    if (!decoded || decoded->action().isEmpty())
        return {};
    const protocol::SqsRequest& request = *decoded;
    QString command = QStringLiteral("aws sqs ") + cliName(request.action())
        + QStringLiteral(" \\\n  --endpoint-url ")
        + shellQuote(urlOf(record).section(QLatin1Char('/'), 0, 2));
    if (const QString region = regionOf(record); !region.isEmpty())
        command += QStringLiteral(" --region ") + shellQuote(region);
    const nlohmann::json members = request.membersJson();
    if (members.is_object()) {
        for (const auto& [key, value] : members.items()) {
            if (value.is_null() || isProtocolParameter(key))
                continue;
            command += QStringLiteral(" \\\n  --") + cliName(QString::fromStdString(key));
            if (isScalar(value)) {
                command += QLatin1Char(' ') + shellQuote(scalarText(value));
            } else if (value.is_array()
                       && std::all_of(value.begin(), value.end(),
                                      [](const nlohmann::json& v) { return isScalar(v); })) {
                for (const nlohmann::json& item : value)
                    command += QLatin1Char(' ') + shellQuote(scalarText(item));
            } else {
                command += QLatin1Char(' ')
                    + shellQuote(jsonText(key == "Entries" ? typedEntries(value) : value));
            }
        }
    }
    return command;
}

} // namespace inflight::traffic
