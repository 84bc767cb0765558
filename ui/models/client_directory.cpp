#include "ui/models/client_directory.h"

#include <QCryptographicHash>
#include <QPixmap>
#include <QSettings>

namespace inflight::ui {

ClientDirectory::ClientDirectory(QObject* parent) : QObject(parent)
{
}

void ClientDirectory::setWorkspace(const QString& path)
{
    m_names.clear();
    m_colours.clear();
    m_group.clear();
    if (!path.isEmpty()) {
        const QByteArray id
            = QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
        m_group = QStringLiteral("clients/") + QString::fromLatin1(id);
        QSettings settings;
        settings.beginGroup(m_group);
        const int count = settings.beginReadArray(QStringLiteral("client"));
        for (int i = 0; i < count; ++i) {
            settings.setArrayIndex(i);
            const QString key = settings.value(QStringLiteral("key")).toString();
            const QString name = settings.value(QStringLiteral("name")).toString();
            const QColor colour(settings.value(QStringLiteral("colour")).toString());
            if (key.isEmpty())
                continue;
            if (!name.isEmpty())
                m_names.insert(key, name);
            if (colour.isValid())
                m_colours.insert(key, colour);
        }
        settings.endArray();
    }
    Q_EMIT changed();
}

void ClientDirectory::setName(const QString& key, const QString& name)
{
    const QString trimmed = name.trimmed();
    if (trimmed == m_names.value(key))
        return;
    if (trimmed.isEmpty())
        m_names.remove(key);
    else
        m_names.insert(key, trimmed);
    save();
    Q_EMIT changed();
}

void ClientDirectory::setColour(const QString& key, const QColor& colour)
{
    if (colour == m_colours.value(key))
        return;
    if (colour.isValid())
        m_colours.insert(key, colour);
    else
        m_colours.remove(key);
    save();
    Q_EMIT changed();
}

QString ClientDirectory::label(const QString& origin) const
{
    const QString named = m_names.value(origin);
    return named.isEmpty() ? origin : named;
}

QString ClientDirectory::relabel(QString text) const
{
    for (auto it = m_names.cbegin(); it != m_names.cend(); ++it)
        text.replace(it.key(), it.value());
    return text;
}

QStringList ClientDirectory::paletteNames()
{
    return {tr("Orange"), tr("Blue"),  tr("Green"), tr("Red"),
            tr("Purple"), tr("Brown"), tr("Pink"),  tr("Teal")};
}

QList<QColor> ClientDirectory::palette()
{
    return {QColor(0xE6, 0x55, 0x0D), QColor(0x1F, 0x77, 0xB4), QColor(0x2C, 0xA0, 0x2C),
            QColor(0xD6, 0x27, 0x28), QColor(0x94, 0x67, 0xBD), QColor(0x8C, 0x56, 0x4B),
            QColor(0xE3, 0x77, 0xC2), QColor(0x17, 0xBE, 0xCF)};
}

void ClientDirectory::save() const
{
    if (m_group.isEmpty())
        return;
    QSettings settings;
    settings.beginGroup(m_group);
    settings.remove(QString());
    QStringList keys = m_names.keys();
    for (const QString& key : m_colours.keys())
        if (!keys.contains(key))
            keys << key;
    keys.sort();
    settings.beginWriteArray(QStringLiteral("client"), static_cast<int>(keys.size()));
    for (int i = 0; i < keys.size(); ++i) {
        settings.setArrayIndex(i);
        settings.setValue(QStringLiteral("key"), keys[i]);
        settings.setValue(QStringLiteral("name"), m_names.value(keys[i]));
        const QColor colour = m_colours.value(keys[i]);
        settings.setValue(QStringLiteral("colour"), colour.isValid() ? colour.name() : QString());
    }
    settings.endArray();
}

QString originLabel(const ClientDirectory* clients, const QString& origin)
{
    if (origin.isEmpty())
        return QStringLiteral("—");
    return clients ? clients->label(origin) : origin;
}

QVariant originSwatch(const ClientDirectory* clients, const QString& origin)
{
    if (!clients || origin.isEmpty())
        return {};
    const QColor colour = clients->colourOf(origin);
    if (!colour.isValid())
        return {};
    QPixmap pixmap(10, 10);
    pixmap.fill(colour);
    return pixmap;
}

} // namespace inflight::ui
