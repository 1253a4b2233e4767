#pragma once
// A typed handle on one QSettings key (qBittorrent's SettingValue). Declared once, next to its use.
// Reading falls back to the default when the stored value is missing or of the wrong type; writing
// compares first so that callers can emit change signals only on real changes. GUI thread only.

#include <QSettings>
#include <QString>
#include <QVariant>

namespace Throughline {

template <typename T>
class SettingValue
{
public:
    SettingValue(QString key, T defaultValue = T{})
        : m_key(std::move(key))
        , m_default(std::move(defaultValue))
    {
    }

    const QString &key() const { return m_key; }
    const T &defaultValue() const { return m_default; }

    T get() const
    {
        QVariant v = QSettings().value(m_key);
        // convert() fails on values that do not parse (e.g. "abc" for an int), unlike canConvert().
        if (!v.isValid() || !v.convert(QMetaType::fromType<T>()))
            return m_default;
        return v.value<T>();
    }
    operator T() const { return get(); }

    // Returns true when the stored value changed (so the caller emits its signal).
    bool set(const T &value)
    {
        if (get() == value)
            return false;
        QSettings().setValue(m_key, QVariant::fromValue(value));
        return true;
    }

    void reset() { QSettings().remove(m_key); }

private:
    QString m_key;
    T m_default;
};

} // namespace Throughline
