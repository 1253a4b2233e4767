#include "ui/pages/placeholderpage.h"

#include <QLabel>
#include <QVBoxLayout>

namespace Throughline {

PlaceholderPage::PlaceholderPage(const QString &title, const QString &text, QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    auto *heading = new QLabel(title, this);
    QFont f = heading->font();
    f.setPointSizeF(f.pointSizeF() * 1.4);
    f.setBold(true);
    heading->setFont(f);
    auto *label = new QLabel(text, this);
    label->setWordWrap(true);
    label->setEnabled(false);
    layout->addStretch();
    layout->addWidget(heading, 0, Qt::AlignHCenter);
    layout->addWidget(label, 0, Qt::AlignHCenter);
    layout->addStretch(2);
}

} // namespace Throughline
