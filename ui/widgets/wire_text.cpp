#include "ui/widgets/wire_text.h"

#include <QJsonDocument>
#include <QStringDecoder>
#include <QUrl>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

namespace inflight::ui {

namespace {

QString indentedJson(const QByteArray& body)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError || document.isNull())
        return {};
    QString text = QString::fromUtf8(document.toJson(QJsonDocument::Indented));
    if (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    return text;
}

QString indentedXml(const QByteArray& body)
{
    QXmlStreamReader reader(body);
    QString out;
    QXmlStreamWriter writer(&out);
    writer.setAutoFormatting(true);
    writer.setAutoFormattingIndent(2);
    while (!reader.atEnd()) {
        reader.readNext();
        if (reader.isWhitespace())
            continue;
        if (!reader.isStartDocument() && !reader.isEndDocument())
            writer.writeCurrentToken(reader);
    }
    if (reader.hasError())
        return {};
    return out.trimmed();
}

QString formLines(const QByteArray& body)
{
    QStringList lines;
    for (const QByteArray& pair : body.split('&')) {
        if (pair.isEmpty())
            continue;
        const qsizetype equals = pair.indexOf('=');
        auto decode = [](QByteArray part) {
            part.replace('+', ' ');
            return QUrl::fromPercentEncoding(part);
        };
        lines << decode(pair.left(equals < 0 ? pair.size() : equals)) + QStringLiteral(" = ")
                + (equals < 0 ? QString() : decode(pair.mid(equals + 1)));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

QString readableBody(const QByteArray& body, const QByteArray& contentType)
{
    if (body.isEmpty())
        return {};
    const QByteArray type = contentType.toLower();
    const QByteArray start = body.trimmed().left(1);
    if (type.contains("json") || start == "{" || start == "[") {
        if (QString json = indentedJson(body); !json.isEmpty())
            return json;
    }
    if (type.contains("xml") || start == "<") {
        if (QString xml = indentedXml(body); !xml.isEmpty())
            return xml;
    }
    if (type.contains("x-www-form-urlencoded"))
        return formLines(body);
    auto decoder = QStringDecoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString text = decoder(body);
    if (decoder.hasError())
        return QString::fromLatin1(body.toHex(' '));
    return text;
}

QString headerLines(const QList<QPair<QByteArray, QByteArray>>& headers)
{
    QStringList lines;
    for (const auto& [name, value] : headers)
        lines << QString::fromUtf8(name) + QStringLiteral(": ") + QString::fromUtf8(value);
    return lines.join(QLatin1Char('\n'));
}

} // namespace inflight::ui
