#pragma once
// A page whose content belongs to a later issue (History, Targets): a title and a short label.
// GUI thread.

#include <QWidget>

namespace Throughline {

class PlaceholderPage : public QWidget
{
    Q_OBJECT
public:
    PlaceholderPage(const QString &title, const QString &text, QWidget *parent = nullptr);
};

} // namespace Throughline
