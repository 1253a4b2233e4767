// throughline: the desktop app.
#include "ui/mainwindow.h"

#include <QApplication>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Throughline"));
    QApplication::setApplicationName(QStringLiteral("throughline"));
    QApplication::setApplicationVersion(QStringLiteral(THROUGHLINE_VERSION));
    Throughline::MainWindow window;
    window.show();
    return QApplication::exec();
}
