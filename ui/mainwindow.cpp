#include "ui/mainwindow.h"

namespace Throughline {

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(tr("Throughline"));
    resize(1280, 800);
}

} // namespace Throughline
