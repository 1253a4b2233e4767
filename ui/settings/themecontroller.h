#pragma once
// Applies the Light/Dark/System preference and tells interested widgets (plots) when the effective
// palette changes. System follows the platform palette: the app palette is reset to an empty
// QPalette, which Qt resolves against the platform theme and re-resolves when the platform changes
// (Qt 6.4 has no colour-scheme API, so palette-change events are the signal). GUI thread only.

#include "ui/settings/preferences.h"

#include <QObject>
#include <QPalette>

namespace Throughline {

class ThemeController : public QObject
{
    Q_OBJECT
public:
    explicit ThemeController(Preferences *prefs, QObject *parent = nullptr);

    // True when the effective application palette is dark (window colour lightness < 50 %).
    bool isDark() const { return m_dark; }
    static bool paletteIsDark(const QPalette &palette);
    static QPalette darkPalette();
    static QPalette lightPalette();

public slots:
    void apply(Throughline::Preferences::Theme theme);

signals:
    void darkChanged(bool dark);
    void paletteChanged(); // any effective palette change (also a platform change in System mode)

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refresh();

    Preferences *m_prefs;
    bool m_dark = false;
};

} // namespace Throughline
