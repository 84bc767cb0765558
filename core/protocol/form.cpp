#include "protocol/form.h"

#include <QUrlQuery>

namespace inflight::protocol {

QList<QPair<QString, QString>> decodeForm(const QByteArray& encoded)
{
    if (encoded.isEmpty())
        return {};
    // QUrlQuery leaves '+' alone; a literal '+' arrives as %2B, so turning every '+' into %20
    // first is exact.
    QByteArray text = encoded;
    text.replace('+', QByteArrayLiteral("%20"));
    return QUrlQuery(QString::fromUtf8(text)).queryItems(QUrl::FullyDecoded);
}

} // namespace inflight::protocol
