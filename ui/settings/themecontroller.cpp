#include "ui/settings/themecontroller.h"

#include <QApplication>
#include <QEvent>

namespace Throughline {

ThemeController::ThemeController(Preferences *prefs, QObject *parent)
    : QObject(parent)
    , m_prefs(prefs)
{
    qApp->installEventFilter(this);
    connect(prefs, &Preferences::themeChanged, this, &ThemeController::apply);
    apply(prefs->theme());
}

bool ThemeController::paletteIsDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

QPalette ThemeController::darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    const QColor disabled(0x7f, 0x84, 0x8e), highlight(0x35, 0x74, 0xf0);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Light, window.lighter(150));
    p.setColor(QPalette::Midlight, window.lighter(125));
    p.setColor(QPalette::Mid, window.darker(120));
    p.setColor(QPalette::Dark, window.darker(150));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, highlight.lighter(130));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

QPalette ThemeController::lightPalette()
{
    QPalette p;
    const QColor window(0xef, 0xf0, 0xf1), text(0x23, 0x26, 0x29);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(0xf7, 0xf7, 0xf7));
    p.setColor(QPalette::ToolTipBase, QColor(0xff, 0xff, 0xdc));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::Light, Qt::white);
    p.setColor(QPalette::Midlight, window.lighter(105));
    p.setColor(QPalette::Mid, window.darker(130));
    p.setColor(QPalette::Dark, window.darker(160));
    p.setColor(QPalette::Highlight, QColor(0x30, 0x8c, 0xc6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    return p;
}

void ThemeController::apply(Preferences::Theme theme)
{
    switch (theme) {
    case Preferences::Theme::Dark:
        QApplication::setPalette(darkPalette());
        break;
    case Preferences::Theme::Light:
        QApplication::setPalette(lightPalette());
        break;
    case Preferences::Theme::System:
        // An empty palette resolves against the platform theme and keeps following it.
        QApplication::setPalette(QPalette());
        break;
    }
    refresh();
}

bool ThemeController::eventFilter(QObject *watched, QEvent *event)
{
    // ApplicationPaletteChange reaches the application object when the platform palette changes
    // (System mode) or when apply() set a palette.
    if (watched == qApp && event->type() == QEvent::ApplicationPaletteChange)
        refresh();
    return QObject::eventFilter(watched, event);
}

void ThemeController::refresh()
{
    const bool dark = paletteIsDark(QApplication::palette());
    emit paletteChanged();
    if (dark != m_dark) {
        m_dark = dark;
        emit darkChanged(dark);
    }
}

} // namespace Throughline
